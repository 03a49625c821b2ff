// The CommonJS twin of the npm package's JS layer: src/api.js's only ES
// module syntax is its final export line, which becomes a module.exports
// assignment. Used by scripts/build-wasm.sh (writing npm/dist/api.cjs) and
// scripts/check-dist.sh (checking it is current).
//
//   node scripts/cjs-twin.mjs SOURCE TARGET
import { readFileSync, writeFileSync } from 'node:fs';

const [source, target] = process.argv.slice(2);
const text = readFileSync(source, 'utf8');
const exportLine = /^export \{ ([\w, ]+) \};\n?$/m;
const match = text.match(exportLine);
if (!match || (text.match(/^(export|import)\b/gm) || []).length !== 1) {
  console.error(`cjs-twin: ${source} must end with its only export line, "export { a, b };"`);
  process.exit(1);
}
const body = text.replace(exportLine, `module.exports = { ${match[1]} };\n`);
writeFileSync(target, `'use strict';\n// Generated from src/api.js by scripts/build-wasm.sh; edit that file.\n${body}`);
