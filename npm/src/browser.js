// Browsers, workers, Deno, Bun and bundlers: plain ES modules, no Node APIs.
// The wasm-bindgen `web` glue fetches the .wasm beside it by default, through
// `new URL(..., import.meta.url)`, which bundlers also recognise as an asset.

import initWasm, * as raw from '../dist/wasm/mcp_validation_core.js';
import { ValidationArgumentError, bindApi } from './api.js';

let loaded = false;

/** Load the module; required once before any check outside Node. */
export async function init(source) {
  await initWasm(source === undefined ? undefined : { module_or_path: source });
  loaded = true;
}

// Without init the glue fails deep inside with an unhelpful TypeError; say
// what to do instead.
function loadedOnly(fn) {
  return (...args) => {
    if (!loaded) {
      throw new Error('mcp-validation-core: call `await init()` once before using the checks');
    }
    return fn(...args);
  };
}

const api = bindApi({
  callTool: loadedOnly(raw.callTool),
  callToolJson: loadedOnly(raw.callToolJson),
  toolNames: loadedOnly(raw.toolNames),
  toolCatalog: loadedOnly(raw.toolCatalog),
  readCsv: loadedOnly(raw.readCsv),
});

export const {
  callTool,
  callToolJson,
  callToolValues,
  validateRows,
  reconcile,
  countDistinct,
  duplicateReport,
  inspectDataset,
  toolNames,
  toolCatalog,
  readCsv,
} = api;
export { ValidationArgumentError };
