// Headless Chromium, for the checks that need a real browser.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { delimiter, extname, join, resolve } from 'node:path';

/** The Chromium binary on PATH, or undefined. */
export const chromium = ['chromium', 'chromium-browser', 'google-chrome']
  .flatMap((name) => (process.env.PATH ?? '').split(delimiter).map((dir) => join(dir, name)))
  .find((path) => existsSync(path));

/**
 * Why the browser tests are skipped, or false when they run. Only
 * MCPV_NO_BROWSER=1 skips them (this environment has no browser on purpose),
 * and never under MCPV_REQUIRE_ALL_TESTS=1 (CI, .ci/run): otherwise a missing
 * Chromium fails them, naming the command that installs it.
 */
export const browserSkip =
  process.env.MCPV_NO_BROWSER === '1' && process.env.MCPV_REQUIRE_ALL_TESTS !== '1'
    ? 'MCPV_NO_BROWSER=1: this environment has no browser on purpose'
    : false;

/** The message a browser test fails with when there is no Chromium to run. */
export const NO_CHROMIUM =
  'no Chromium on PATH: install it (scripts/ensure-tools.sh does, with apt-get) or set MCPV_NO_BROWSER=1 to skip the browser tests';

/**
 * Serve `root` on loopback, load `page` in headless Chromium, and return the
 * text the page wrote into <pre id="out"> by the time it settled.
 */
export async function inBrowser(root, page) {
  assert.ok(chromium, NO_CHROMIUM);
  const base = resolve(root);
  const types = {
    '.html': 'text/html',
    '.js': 'text/javascript',
    '.wasm': 'application/wasm',
    '.json': 'application/json',
  };
  const server = createServer((request, response) => {
    const path = join(base, decodeURIComponent(new URL(request.url, 'http://x').pathname));
    if (!path.startsWith(base) || !existsSync(path)) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': types[extname(path)] ?? 'application/octet-stream' });
    response.end(readFileSync(path));
  });
  await new Promise((done) => server.listen(0, '127.0.0.1', done));
  try {
    const url = `http://127.0.0.1:${server.address().port}/${page}`;
    const args = ['--headless', '--no-sandbox', '--disable-gpu', '--virtual-time-budget=10000', '--dump-dom', url];
    // Asynchronous, so this process keeps serving the page while Chromium loads it.
    const result = await new Promise((done) => {
      execFile(chromium, args, { timeout: 60_000, maxBuffer: 64 << 20 }, (error, stdout, stderr) =>
        done({ error, stdout, stderr }),
      );
    });
    const match = /<pre id="out">([^<]*)<\/pre>/.exec(result.stdout);
    assert.ok(match, `no output from the page: ${result.error ?? ''}\n${result.stdout}\n${result.stderr.slice(-2000)}`);
    return match[1].replaceAll('&quot;', '"').replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&');
  } finally {
    server.close();
  }
}
