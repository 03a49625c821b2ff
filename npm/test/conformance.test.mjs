// Every conformance vector, run through the package: exact JSON output for the
// JSON path, the same values for the object API, and the documented
// deviations (tests/conformance/deviations.json) as stated there.
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import * as api from '../src/node.mjs';
import { checkCase, checkDeviation, loadDeviations, loadVector, vectorFiles } from './support/conformance.mjs';

const dir = process.env.MCPV_VECTORS_DIR ?? fileURLToPath(new URL('../../tests/conformance/vectors/', import.meta.url));
const files = vectorFiles(dir);
const deviations = loadDeviations(fileURLToPath(new URL('../../tests/conformance/deviations.json', import.meta.url)));

test('the conformance vectors are there', (t) => {
  if (files.length === 0) throw new Error(`no vectors in ${dir}`);
  t.diagnostic(`${files.length} vector files`);
});

for (const file of files) {
  test(`vector ${file}`, async (t) => {
    const cases = loadVector(file);
    for (const kase of cases) {
      const deviation = deviations.cases[kase.name];
      await t.test(`${kase.tool}: ${kase.name}`, () =>
        deviation ? checkDeviation(api, kase, deviation, deviations) : checkCase(api, kase),
      );
    }
  });
}
