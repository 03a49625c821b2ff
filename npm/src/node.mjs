// Node, ES modules: the CommonJS entry's instance, re-exported by name.
import api from './node.cjs';

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
  ValidationArgumentError,
  init,
} = api;
