'use strict';
// The npm launcher's ways of finding, or not finding, the server: each failure
// must name the platform and say what to do. The install itself (npm choosing
// the platform package by os and cpu) is tested by scripts/test-install.sh.

const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const fs = require('node:fs');
const os = require('node:os');
const { binaryPath } = require('../npm/launcher/lib/binary.cjs');

const manifest = {
  name: 'mcp-validation-server-rs',
  version: '1.2.3',
  optionalDependencies: {
    'mcp-validation-server-rs-linux-x64': '1.2.3',
    'mcp-validation-server-rs-darwin-arm64': '1.2.3',
  },
};

// A platform package on disk, as npm would have unpacked it.
function installed(name, fields) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'launcher-test-'));
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name, ...fields }));
  return (request) => {
    assert.equal(request, `${name}/package.json`);
    return path.join(dir, 'package.json');
  };
}

test('finds the executable the platform package names', () => {
  const resolve = installed('mcp-validation-server-rs-linux-x64', { version: '1.2.3', executable: 'bin/server' });
  const found = binaryPath({ platform: 'linux', arch: 'x64', manifest, resolve });
  assert.equal(path.basename(found), 'server');
  assert.equal(path.basename(path.dirname(found)), 'bin');
});

test('a platform with no prebuilt server is named, with the supported ones and the way from source', () => {
  const resolve = () => assert.fail('nothing is resolved for an unsupported platform');
  assert.throws(
    () => binaryPath({ platform: 'freebsd', arch: 'x64', manifest, resolve }),
    (err) =>
      err.message.includes('no prebuilt server for this platform, freebsd-x64') &&
      err.message.includes('prebuilt: linux-x64, darwin-arm64') &&
      err.message.includes('cargo install mcp-validation-server'),
  );
});

test('a supported platform whose package npm left out (--omit=optional) names the package to install', () => {
  const resolve = () => {
    throw Object.assign(new Error('Cannot find module'), { code: 'MODULE_NOT_FOUND' });
  };
  assert.throws(
    () => binaryPath({ platform: 'darwin', arch: 'arm64', manifest, resolve }),
    (err) =>
      err.message.includes('mcp-validation-server-rs-darwin-arm64, which holds the server for darwin-arm64') &&
      err.message.includes('npm install mcp-validation-server-rs-darwin-arm64@1.2.3'),
  );
});

test('a platform package of another version is refused, naming both versions', () => {
  const resolve = installed('mcp-validation-server-rs-linux-x64', { version: '1.2.2', executable: 'bin/server' });
  assert.throws(
    () => binaryPath({ platform: 'linux', arch: 'x64', manifest, resolve }),
    /is 1\.2\.3 but mcp-validation-server-rs-linux-x64 is 1\.2\.2/,
  );
});
