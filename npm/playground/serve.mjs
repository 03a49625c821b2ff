#!/usr/bin/env node
// Serve the playground on this machine only:
//
//   node npm/playground/serve.mjs [--port N]     (default 8787; 0 picks a free port)
//
// It serves the package directory (npm/) so the page's relative imports of
// ../src/browser.js and ../dist/wasm/ resolve, but only those three folders:
// playground/, src/ and dist/. No dependencies; loopback only; GET and HEAD.

import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const SERVED = ['playground', 'src', 'dist'];
const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.md': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

function parsePort(argv) {
  const at = argv.indexOf('--port');
  const text = at >= 0 ? argv[at + 1] : argv.find((arg) => arg.startsWith('--port='))?.slice(7);
  if (text === undefined) return 8787;
  const port = Number(text);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`serve: --port needs a number from 0 to 65535, got ${JSON.stringify(text)}`);
    process.exit(2);
  }
  return port;
}

/** The file a URL path names, or null when it is outside what is served. */
function resolvePath(urlPath) {
  let decoded;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  const relative = normalize(decoded).replace(/^[/\\]+/, '');
  if (relative.startsWith('..')) return null;
  const top = relative.split(/[/\\]/)[0];
  if (!SERVED.includes(top)) return null;
  let path = join(root, relative);
  if (!path.startsWith(root + top)) return null;
  if (existsSync(path) && statSync(path).isDirectory()) path = join(path, 'index.html');
  return existsSync(path) && statSync(path).isFile() ? path : null;
}

function send(response, status, text, headers = {}) {
  response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', ...headers });
  response.end(text);
}

function createPlaygroundServer() {
  return createServer((request, response) => {
    // Only answer requests addressed to this machine by name or address: a
    // web page elsewhere cannot reach the server through a DNS name of its own.
    const host = (request.headers.host ?? '').replace(/:\d+$/, '');
    if (!['127.0.0.1', 'localhost', '[::1]'].includes(host)) return send(response, 421, 'loopback only\n');
    if (request.method !== 'GET' && request.method !== 'HEAD')
      return send(response, 405, 'GET or HEAD only\n', { allow: 'GET, HEAD' });

    const { pathname } = new URL(request.url, 'http://localhost');
    if (pathname === '/' || pathname === '/playground') return send(response, 302, '', { location: '/playground/' });
    const path = resolvePath(pathname);
    if (!path) return send(response, 404, 'not found\n');

    response.writeHead(200, {
      'content-type': TYPES[extname(path)] ?? 'application/octet-stream',
      // Always revalidate: a rebuilt module or an edited page shows on reload.
      'cache-control': 'no-cache',
      'x-content-type-options': 'nosniff',
    });
    if (request.method === 'HEAD') return response.end();
    createReadStream(path).pipe(response);
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === normalize(process.argv[1])) {
  const port = parsePort(process.argv.slice(2));
  if (!existsSync(join(root, 'dist', 'wasm', 'mcp_validation_core_bg.wasm'))) {
    console.error(
      'serve: npm/dist/ has no module yet; run scripts/build-wasm.sh first (the page cannot run the checks without it)',
    );
  }
  const server = createPlaygroundServer();
  server.on('error', (error) => {
    console.error(
      error.code === 'EADDRINUSE'
        ? `serve: port ${port} is in use; try --port 0 for a free one`
        : `serve: ${error.message}`,
    );
    process.exit(1);
  });
  server.listen(port, '127.0.0.1', () => {
    const url = `http://127.0.0.1:${server.address().port}/playground/`;
    console.log(`Playground: ${url}`);
    console.log('Serving npm/playground, npm/src and npm/dist on loopback only. Ctrl+C stops it.');
  });
  for (const signal of ['SIGINT', 'SIGTERM'])
    process.on(signal, () => {
      server.close(() => process.exit(0));
      server.closeAllConnections();
    });
}
