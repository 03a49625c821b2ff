// Every conformance vector, run through the package: exact JSON output for the
// JSON path, the same values for the object API. Skips (saying so) only while
// no vector exists; once any does, every case must match.
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import * as api from '../src/node.mjs';
import { checkCase, loadVector, vectorFiles } from './support/conformance.mjs';

const dir = process.env.MCPV_VECTORS_DIR ?? fileURLToPath(new URL('../../tests/conformance/vectors/', import.meta.url));
const files = vectorFiles(dir);

if (files.length === 0) {
  test('conformance vectors', { skip: `no vectors in ${dir} yet; every case will run once they exist` }, () => {});
}

for (const file of files) {
  test(`vector ${file}`, async (t) => {
    const cases = loadVector(file);
    for (const kase of cases) {
      await t.test(`${kase.tool}: ${kase.name}`, () => checkCase(api, kase));
    }
  });
}
