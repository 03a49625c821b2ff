'use strict';
// Finds the native server in the platform package npm installed beside this
// launcher (the esbuild/biome pattern: one package per platform, listed in
// the launcher's optionalDependencies with `os` and `cpu`, so npm installs
// only the one that fits). Every way of not finding it is an error that says
// which platform this is and what to do.

const path = require('node:path');

/**
 * The absolute path of the server executable for `platform`-`arch`.
 * `manifest` is this launcher's package.json; `resolve` is require.resolve
 * (both passed in so the tests can stand in for an install).
 */
function binaryPath({ platform, arch, manifest, resolve }) {
  const id = `${platform}-${arch}`;
  const prefix = `${manifest.name}-`;
  const supported = Object.keys(manifest.optionalDependencies ?? {})
    .filter((name) => name.startsWith(prefix))
    .map((name) => name.slice(prefix.length));
  if (!supported.includes(id)) {
    throw new Error(
      `${manifest.name}: there is no prebuilt server for this platform, ${id} ` +
        `(process.platform ${platform}, process.arch ${arch}); prebuilt: ${supported.join(', ') || 'none'}. ` +
        'Build it from source instead: cargo install mcp-validation-server (Rust 1.85+), ' +
        'then use `mcp-validation-server` as the command.',
    );
  }
  const wanted = `${prefix}${id}`;
  let dir;
  try {
    dir = path.dirname(resolve(`${wanted}/package.json`));
  } catch {
    throw new Error(
      `${manifest.name}: the package ${wanted}, which holds the server for ${id}, is not installed. ` +
        'npm installs it as an optional dependency: reinstall without --omit=optional (or --no-optional), ' +
        `or install it yourself: npm install ${wanted}@${manifest.version}`,
    );
  }
  const platformManifest = require(path.join(dir, 'package.json'));
  if (platformManifest.version !== manifest.version) {
    throw new Error(
      `${manifest.name}: ${manifest.name} is ${manifest.version} but ${wanted} is ${platformManifest.version}; ` +
        `install the same version of both: npm install ${manifest.name}@${manifest.version} ${wanted}@${manifest.version}`,
    );
  }
  if (typeof platformManifest.executable !== 'string') {
    throw new Error(`${manifest.name}: ${wanted}'s package.json names no "executable"; the package is damaged`);
  }
  return path.join(dir, platformManifest.executable);
}

module.exports = { binaryPath };
