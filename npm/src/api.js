// The JS layer over the raw wasm-bindgen exports. It converts; it does not
// decide: every check, message and error code comes from the Rust core.
//
// This file is the one source of the layer. The build writes dist/api.cjs from
// it for the CommonJS entry, replacing only the export line at the bottom, so
// keep that line as the file's only ES module syntax.

/**
 * Thrown when a call itself is malformed (a contract that does not parse, a
 * blank key, an unknown tool). A dataset that fails its checks is never
 * thrown: it comes back as a result with `ok: false`.
 */
class ValidationArgumentError extends Error {
  constructor(message, code, argument, location, line) {
    super(message);
    this.name = 'ValidationArgumentError';
    /** The stable error code, e.g. "invalid_contract". */
    this.code = code;
    /** The argument at fault, when one argument is. */
    this.argument = argument ?? undefined;
    /** Where in the arguments the fault is, e.g. "columns[2].pattern". */
    this.location = location ?? undefined;
    /** For a fault in `csv` text, its line (1-based, the header's included). */
    this.line = line ?? undefined;
  }
}

// The raw exports throw a plain {code, message, argument, location, line} object for an
// argument error; anything else (a trap, a TypeError) passes through untouched.
function toError(thrown) {
  if (
    thrown !== null &&
    typeof thrown === 'object' &&
    !(thrown instanceof Error) &&
    typeof thrown.code === 'string' &&
    typeof thrown.message === 'string'
  ) {
    return new ValidationArgumentError(thrown.message, thrown.code, thrown.argument, thrown.location, thrown.line);
  }
  return thrown;
}

/** Build the public API over the raw exports of one module instance. */
function bindApi(raw) {
  function callToolJson(name, argsJson) {
    try {
      return raw.callToolJson(name, argsJson);
    } catch (thrown) {
      throw toError(thrown);
    }
  }

  function callToolValues(name, args) {
    try {
      return raw.callTool(name, args);
    } catch (thrown) {
      throw toError(thrown);
    }
  }

  // The default path. JSON text crosses the boundary in one copy each way,
  // which measured faster than converting value by value (npm/bench/boundary.mjs;
  // figures in the README). `undefined` has no JSON text; it goes across as
  // null, as it does on the value path, and the core rejects it.
  function callTool(name, args) {
    return JSON.parse(callToolJson(name, JSON.stringify(args) ?? 'null'));
  }

  return {
    callTool,
    callToolJson,
    callToolValues,
    validateRows: (args) => callTool('validate_rows', args),
    reconcile: (args) => callTool('reconcile', args),
    countDistinct: (args) => callTool('count_distinct', args),
    duplicateReport: (args) => callTool('duplicate_report', args),
    inspectDataset: (args) => callTool('inspect_dataset', args),
    toolNames: () => raw.toolNames(),
    // JSON text across the boundary, as for the checks; a fresh object each
    // call, so a caller that edits it changes nobody else's copy.
    toolCatalog: () => JSON.parse(raw.toolCatalog()),
    readCsv: (text) => {
      try {
        return JSON.parse(raw.readCsv(text));
      } catch (thrown) {
        throw toError(thrown);
      }
    },
  };
}

export { ValidationArgumentError, bindApi };
