// The README's Node example: `node examples/node.mjs` prints the output shown
// there (test/readme.test.mjs holds the two to each other).
import { countDistinct, ValidationArgumentError } from 'mcp-validation-core';

const result = countDistinct({
  rows: [
    { customer_id: 'C-1', site: 'A' },
    { customer_id: ' c-1 ', site: 'B' },
    { customer_id: 'C-2', site: 'A' },
    { customer_id: '', site: 'C' },
  ],
  key: 'customer_id',
});
console.log(JSON.stringify(result, null, 2));

// A malformed call throws; a failing dataset (above) does not.
try {
  countDistinct({ rows: [], key: ' ' });
} catch (error) {
  if (!(error instanceof ValidationArgumentError)) throw error;
  console.log(`${error.name} [${error.code}]: ${error.message}`);
}
