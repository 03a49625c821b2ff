'use strict';
// Node, CommonJS. The wasm-bindgen `nodejs` glue reads and instantiates the
// .wasm synchronously on first require, so the checks are usable at once.
// The ES module entry (node.mjs) re-exports this one, so a program that both
// imports and requires the package still loads one instance with one error class.

const raw = require('../dist/wasm/mcp_validation_core_node.cjs');
const { ValidationArgumentError, bindApi } = require('../dist/api.cjs');

module.exports = {
  ...bindApi(raw),
  ValidationArgumentError,
  // Nothing to load in Node; kept so code shared with browsers can await it.
  init: async () => {},
};
