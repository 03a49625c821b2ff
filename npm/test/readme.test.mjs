// The README's example output must be what the examples print, in Node and in
// a browser.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { browserSkip, inBrowser } from './support/browser.mjs';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

function block(marker) {
  const match = new RegExp(`<!-- output of ${marker} -->\\s*\`\`\`\\w*\\n([\\s\\S]*?)\`\`\``).exec(readme);
  assert.ok(match, `README.md has no output block marked "output of ${marker}"`);
  return match[1];
}

const node = spawnSync(process.execPath, ['examples/node.mjs'], { cwd: packageDir, encoding: 'utf8' });
test('README shows what examples/node.mjs prints', () => {
  assert.equal(node.status, 0, node.stderr);
  assert.equal(node.stdout, block('examples/node.mjs'));
});

test('README shows what examples/browser.html displays', { skip: browserSkip }, async () => {
  const shown = await inBrowser(packageDir, 'examples/browser.html');
  // The page shows the result alone, the first part of the Node output.
  assert.ok(shown.length > 2, 'the page showed nothing');
  assert.ok(block('examples/node.mjs').startsWith(`${shown}\n`), shown);
});
