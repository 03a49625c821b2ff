#!/usr/bin/env node
'use strict';
// Runs the native server with this process's arguments and standard streams
// (inherited, not piped: MCP's stdio bytes go straight between the host and
// the server, never through Node), and ends the way the server ends.

const { spawn } = require('node:child_process');
const { constants } = require('node:os');
const { binaryPath } = require('../lib/binary.cjs');

let binary;
try {
  binary = binaryPath({
    platform: process.platform,
    arch: process.arch,
    manifest: require('../package.json'),
    resolve: require.resolve,
  });
} catch (err) {
  process.stderr.write(`${err.message}\n`);
  process.exit(1);
}

const child = spawn(binary, process.argv.slice(2), { stdio: 'inherit', windowsHide: true });
// A host stops a server by closing its stdin or by a signal; pass the signal on
// so the server is never left running without its launcher.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => child.kill(signal));
}
child.on('error', (err) => {
  process.stderr.write(`mcp-validation-server-rs: cannot start ${binary}: ${err.message}\n`);
  process.exit(1);
});
child.on('exit', (code, signal) => {
  process.exit(signal ? 128 + (constants.signals[signal] ?? 0) : (code ?? 1));
});
