// Types for mcp-validation-core. The shapes follow the reference server
// (mcp-validation-server 0.1.0): the same snake_case argument objects as its
// MCP tools, and the same result envelopes as its structuredContent.
//
// The core's tool catalog (`toolCatalog()`) is the source: npm/test/types.test.mjs
// compiles checks generated from it against this file (argument names, which
// are required, their types and enums, verdicts, `_omitted` counts, the
// column spec), so an edit to either that the other does not follow fails.

// ---------------------------------------------------------------- JSON values

export type JsonPrimitive = string | number | boolean | null;
export type JsonValue = JsonPrimitive | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

// ----------------------------------------------------------------- arguments

/**
 * A column type; `date` means ISO-8601 `YYYY-MM-DD`; `datetime` (contract v2)
 * an ISO-8601 date and time as Python's `datetime.fromisoformat` reads it.
 */
export type ColumnType = 'string' | 'integer' | 'number' | 'boolean' | 'date' | 'datetime' | 'any';

/** A JSON Schema 2020-12 format (contract v2's `format`). */
export type Format = 'email' | 'uuid' | 'uri' | 'ipv4' | 'ipv6';

/**
 * Another table's column whose values a column's values must be among
 * (contract v2): `rows` or `csv` with `column`, or a list of `values`.
 * (The MCP server also takes `path`, a file under its `--data-root`.)
 */
export type ReferenceSpec =
  | { column: string; rows: readonly JsonObject[]; csv?: never; path?: never; values?: never }
  | { column: string; csv: string; rows?: never; path?: never; values?: never }
  | { column: string; path: string; rows?: never; csv?: never; values?: never }
  | { values: readonly JsonValue[]; column?: never; rows?: never; csv?: never; path?: never };

/** What a failing value does to its row: hold it back, or keep it and flag it. */
export type OnFail = 'quarantine' | 'flag';

/** One column of a `validate_rows` contract. Unknown keys are an argument error. */
export interface ColumnSpec {
  name: string;
  required?: boolean;
  type?: ColumnType;
  /** A number; on a date or datetime column also an ISO-8601 date or datetime (contract v2). */
  min?: number | string;
  /** A number; on a date or datetime column also an ISO-8601 date or datetime (contract v2). */
  max?: number | string;
  range?: [number, number];
  /** A regular expression the whole value must match. */
  pattern?: string;
  allowed?: JsonValue[];
  not_blank?: boolean;
  on_fail?: OnFail;
  description?: string;
  /** No two rows may hold the same value after coercion (contract v2). */
  unique?: boolean;
  /** At least this many characters, as Python's `len(str(value))` (contract v2). */
  min_length?: number;
  /** At most this many characters (contract v2). */
  max_length?: number;
  /** A JSON Schema format the value's text must have (contract v2). */
  format?: Format;
  /** At most this many digits after the point, in the number's shortest form (contract v2). */
  max_decimal_places?: number;
  /** The value must exist in another table's column (contract v2). */
  references?: ReferenceSpec;
}

/** Rules about the table as a whole (`validate_rows`'s `table`, contract v2). */
export interface TableRules {
  /** Columns whose combination must be non-blank and unique; they become required. */
  primary_key?: string | readonly string[];
  row_count?: { min?: number; max?: number };
  /** Every data column declared, every declared column present. */
  columns?: 'exact';
  /** A tolerance whose outcome `summary.within_tolerance` states; `ok` keeps its meaning. */
  max_quarantined_fraction?: number;
}

/**
 * Row data is deliberately unconstrained, as in the reference: a row that is
 * not an object is reported as a finding, not refused.
 */
export type Rows = readonly unknown[];

/**
 * The data of a row-taking check, given exactly once: `rows`, or `csv` (text
 * with a header row, RFC 4180; values arrive as strings and every locator
 * adds the CSV `line`). The MCP server also takes `path`, a file under its
 * `--data-root`; this package reads no files, and a `path` is refused with
 * an argument error naming it, so it is typed `never` here.
 */
export type RowData =
  | { rows: Rows; csv?: never; path?: never }
  | { csv: string; rows?: never; path?: never };

/** The lists of a `validate_rows` result `lists` can name, and those `page` can walk. */
export type ValidateRowsList = 'accepted' | 'quarantine' | 'flagged' | 'findings';
export type ValidateRowsPagedList = Exclude<ValidateRowsList, 'findings'>;
/** The lists of a `count_distinct` result `lists` can name, and those `page` can walk. */
export type CountDistinctList = 'blank_key_rows' | 'repeated_keys' | 'findings';
export type CountDistinctPagedList = Exclude<CountDistinctList, 'findings'>;
/** The lists of a `duplicate_report` result `lists` can name, and those `page` can walk. */
export type DuplicateReportList = 'blank_key_rows' | 'groups' | 'findings';
export type DuplicateReportPagedList = Exclude<DuplicateReportList, 'findings'>;

/**
 * One window of one list (`page`), in the list's order. Unknown keys are an
 * argument error naming them (`page.limt`).
 */
export interface PageRequest<L extends string = string> {
  list: L;
  /** Entries to skip, from 0; default 0. Past the end: an empty page that still gives the total. */
  offset?: number;
  /** At most this many entries, 1 to 1000; default 100. */
  limit?: number;
}

/** What a page held, and how to ask for the next (the result's `page`). */
export interface PageResult<L extends string = string> {
  list: L;
  offset: number;
  limit: number;
  /** Entries on this page. */
  listed: number;
  /** Entries in the whole list. */
  total: number;
  /** The `page` argument for the next page; null after the last. */
  next_page: { list: L; offset: number; limit: number } | null;
}

/** The list cap every row-taking check takes. */
export interface Listing {
  /**
   * At most this many entries in each list of the result (a non-negative
   * integer; no cap when omitted). Counts, tallies and verdicts still cover
   * every row; a shortened list is followed by `<list>_omitted`.
   */
  max_listed?: number;
}

/** Which of its lists a row-taking check fills, and one page of one list. */
export interface ListSelection<L extends string, P extends string> {
  /**
   * Which lists to fill (default: all). A list not named stays in the
   * result, empty, followed by `<list>_omitted` with its whole length.
   * `findings` holds the findings about single rows, keys or groups; those
   * about the whole input are listed either way.
   */
  lists?: readonly L[];
  /**
   * One window of one list; it replaces `max_listed` for that list, and
   * without `lists` only that list is filled. The result's `page` says
   * where it is and gives `next_page`.
   */
  page?: PageRequest<P>;
}

/**
 * A check across the columns of one row (contract v2): an expression in a
 * CEL subset over the contract's columns, typed as they are declared.
 */
export interface RowRule {
  name: string;
  /** E.g. `end_date >= start_date`. */
  check: string;
  /** A condition: the rule applies only where it is true, e.g. `country in ['DE', 'FR']`. */
  when?: string;
  on_fail?: OnFail;
  description?: string;
}

/** The contract, given once: as `columns`, or as a standard `schema` (contract v2). */
export type ContractArgs =
  | { columns: readonly ColumnSpec[]; schema?: never }
  | {
      /** A Frictionless Table Schema, or a JSON Schema of one row, mapped onto the contract. */
      schema: JsonObject;
      columns?: never;
    };

export type ValidateRowsArgs = RowData &
  Listing &
  ListSelection<ValidateRowsList, ValidateRowsPagedList> &
  ContractArgs & {
    /** A column to quote in each locator; it does not affect validation. */
    row_key?: string | null;
    /** Rules about the table as a whole (contract v2). */
    table?: TableRules;
    /** Checks across the columns of a row (contract v2). */
    row_rules?: readonly RowRule[];
    /**
     * Write the whole split as files: a feature of the MCP server started with
     * `--output-root`. This package writes no files, so it throws a
     * `ValidationArgumentError` naming `export`; ask for the whole lists
     * (leave `max_listed` unset) or walk one with `page` instead.
     */
    export?: ExportRequest;
  };

/** `validate_rows`'s `export` (MCP server only). */
export interface ExportRequest {
  /** A directory under the server's --output-root, created if absent. */
  dir: string;
  /** Replace existing files (regular files only). Default false. */
  overwrite?: boolean;
}

/** One file an export wrote, as the result describes it. */
export interface ExportedFile {
  name: 'accepted.csv' | 'quarantine.csv' | 'accepted.jsonl' | 'quarantine.jsonl' | 'findings.jsonl';
  /** The result list whose whole content the file holds. */
  list: 'accepted' | 'quarantine' | 'findings';
  /** Data rows (a CSV header is not counted); for findings.jsonl, findings. */
  rows: number;
  bytes: number;
  /** The SHA-256 of the file's bytes, in lowercase hex. */
  sha256: string;
}

/** A movement as an object; a bare signed number or numeric string also works. */
export interface MovementInput {
  amount?: number | string;
  /** Alias of `amount`. */
  value?: number | string;
  /** `in`/`out` (or credit/debit, receipt/payment, `+`/`-`, ...). */
  direction?: string;
  /** Alias of `direction`. */
  sign?: string;
  label?: string;
  description?: string;
  reference?: string;
  date?: string;
}

export interface ReconcileArgs extends Listing {
  /** A number or a numeric string. */
  opening_balance: number | string;
  movements: ReadonlyArray<number | string | MovementInput>;
  /** A number or a numeric string. */
  closing_balance: number | string;
  /** Largest variance accepted as closing; default 0.01. */
  tolerance?: number;
}

export type CountDistinctArgs = RowData & Listing & ListSelection<CountDistinctList, CountDistinctPagedList> & {
  /** The column holding the stable identifier. */
  key: string;
  /** Default false: keys are compared after trimming and case folding. */
  case_sensitive?: boolean;
};

export type DuplicateReportArgs = RowData &
  Listing &
  ListSelection<DuplicateReportList, DuplicateReportPagedList> & {
  key: string;
  match_fields?: readonly string[] | null;
  /** Above 0 and at most 1; enables `near_match` groups. */
  similarity_threshold?: number | null;
  case_sensitive?: boolean;
  /** Default 50. */
  max_groups?: number;
};

/** `inspect_dataset`: the data, given once, and the list cap. */
export type InspectDatasetArgs = RowData & Listing;

// ------------------------------------------------------------------- results

/** The reference's four checks, then this package's addition, `inspect_dataset`. */
export type ToolName = 'validate_rows' | 'reconcile' | 'count_distinct' | 'duplicate_report' | 'inspect_dataset';

export type Severity = 'error' | 'warning' | 'info';

export type Verdict =
  | 'clean'
  | 'flagged'
  | 'quarantined'
  | 'does_not_close'
  | 'review_required'
  | 'table_rejected'
  | 'inputs_rejected';

/** Where a finding applies; `*_number` is the one-based twin of `*_index`. */
export interface Locator {
  row_index?: number;
  row_number?: number;
  row_key?: string;
  column?: string;
  /** For a repeated value or key (contract v2): the row that held it first. */
  first_row_index?: number;
  first_row_number?: number;
  /** For a row rule's finding (contract v2): the rule's name. */
  rule?: string;
  movement_index?: number;
  movement_number?: number;
  side?: string;
  /** The CSV line the row starts on, when the data came as `csv`. */
  line?: number;
}

export interface Finding {
  /** Stable machine-readable code, e.g. `not_a_number`. */
  code: string;
  severity: Severity;
  message: string;
  locator?: Locator;
  value?: JsonValue;
  expected?: JsonValue;
  guidance?: string;
}

/** The fields every result starts with. */
export interface Envelope<T extends ToolName, V extends Verdict> {
  tool: T;
  /** True only when the data has nothing wrong with it. */
  ok: boolean;
  verdict: V;
  finding_count: number;
  findings: Finding[];
  guidance: string;
}

/** The envelope for arguments of the right type that cannot be used as data. */
export interface Rejected<T extends ToolName> extends Envelope<T, 'inputs_rejected'> {
  ok: false;
}

export interface RowLocator {
  row_index: number;
  row_number: number;
  row_key?: string;
  /** The CSV line the row starts on, when the data came as `csv`. */
  line?: number;
}

/**
 * What a shortened list leaves out. With `max_listed`, each list keeps at
 * most that many entries and, when it lost some, is followed by
 * `<list>_omitted`; `findings_omitted` counts findings beyond those listed
 * (`finding_count` still counts them all).
 */
export interface FindingsOmitted {
  findings_omitted?: number;
}

// validate_rows

export type ColumnCheck =
  | { rule: 'min'; bound: number }
  | { rule: 'max'; bound: number }
  | { rule: 'range'; low: number; high: number }
  | { rule: 'pattern'; regex: string; matching: 'fullmatch' }
  | { rule: 'one_of'; allowed: JsonValue[] }
  | { rule: 'not_blank' }
  | { rule: 'min' | 'max'; bound: string }
  | { rule: 'min_length' | 'max_length'; length: number }
  | { rule: 'format'; format: Format }
  | { rule: 'max_decimal_places'; places: number }
  | {
      rule: 'references';
      column?: string;
      source: 'values' | 'rows' | 'csv';
      distinct_values: number;
      unusable_values?: number;
    }
  | { rule: 'unique' };

/** A column of the contract as parsed, echoed back so the caller sees which rules ran. */
export interface ParsedColumn {
  name: string;
  required: boolean;
  type: ColumnType;
  on_fail: OnFail;
  description?: string;
  checks: ColumnCheck[];
}

export interface HeldRow {
  locator: RowLocator;
  /** The row as given; a row that was not an object appears as `{"_raw": value}`. */
  row: JsonObject;
  reasons: string[];
  findings: Finding[];
}

/**
 * A `validate_rows` result. One shape: the checks never answer
 * `inputs_rejected` for it (a call they cannot use throws instead), though
 * the published verdict list keeps it, as the reference's does.
 */
export interface ValidateRowsReport
  extends Envelope<'validate_rows', 'clean' | 'flagged' | 'quarantined' | 'table_rejected' | 'inputs_rejected'>,
    FindingsOmitted {
  contract: {
    row_key: string | null;
    columns: ParsedColumn[];
    /** The table rules as parsed, when `table` was given. */
    table?: {
      primary_key?: string[];
      row_count?: { min: number | null; max: number | null };
      columns?: 'exact';
      max_quarantined_fraction?: number;
    };
    /** The row rules as parsed, when `row_rules` was given. */
    row_rules?: { name: string; check: string; when?: string; on_fail: OnFail; description?: string }[];
    /** Which standard `schema` was read as, when it was given. */
    schema_mapped_from?: 'table_schema' | 'json_schema';
  };
  summary: {
    rows_in: number;
    accepted: number;
    quarantined: number;
    flagged: number;
    pass_rate: number;
    accounted_for: number;
    /** With `table.max_quarantined_fraction`: quarantined / rows_in. */
    quarantined_fraction?: number;
    /** With `table.max_quarantined_fraction`: whether the share is within it. */
    within_tolerance?: boolean;
  };
  /** The passing rows, with unambiguous coercions applied. */
  accepted: JsonObject[];
  accepted_omitted?: number;
  quarantine: HeldRow[];
  quarantine_omitted?: number;
  flagged: HeldRow[];
  flagged_omitted?: number;
  errors_by_column: Record<string, number>;
  findings_by_code: Record<string, number>;
  columns_seen: string[];
  columns_required_but_absent: string[];
  /** With `page`: where the page is in its list, and the next page's argument. */
  page?: PageResult<ValidateRowsPagedList>;
  /** With `export` (MCP server only): what was written, and where. */
  export?: { dir: string; overwrite: boolean; format: 'csv' | 'jsonl'; files: ExportedFile[] };
}

/** @deprecated Never returned: a `validate_rows` result is always a `ValidateRowsReport`. */
export type ValidateRowsRejected = never;

export type ValidateRowsResult = ValidateRowsReport;

// reconcile

export interface ParsedMovement {
  movement_index: number;
  movement_number: number;
  amount: number;
  direction: 'in' | 'out';
  signed_amount: number;
  label?: string;
  date?: string;
}

export interface ReconcileReport
  extends Envelope<'reconcile', 'clean' | 'does_not_close' | 'inputs_rejected'>,
    FindingsOmitted {
  arithmetic: string;
  opening_balance: number;
  movements_net: number;
  expected_closing_balance: number;
  reported_closing_balance: number;
  variance: number;
  absolute_variance: number;
  tolerance: number;
  /** null when a movement could not be read: neither a pass nor a fail. */
  closes: boolean | null;
  arithmetic_is_reliable: boolean;
  movement_counts: { total: number; in: number; out: number; unreadable: number };
  movement_totals: { in: number; out: number };
  movements: ParsedMovement[];
  /** Movements beyond `max_listed`: counted and summed, not listed. */
  movements_omitted?: number;
}

/** Balances that are not numbers, or movements that are not an array. */
export interface ReconcileRejected extends Rejected<'reconcile'>, FindingsOmitted {
  arithmetic?: never;
  movements_omitted?: never;
  opening_balance: number | null;
  reported_closing_balance: number | null;
  closes: null;
  arithmetic_is_reliable: false;
}

export type ReconcileResult = ReconcileReport | ReconcileRejected;

// count_distinct and duplicate_report

export interface BlankKeyRow {
  locator: RowLocator;
  reason: string;
  row: JsonObject;
}

/** A `count_distinct` result; one shape, as for `validate_rows`. */
export interface CountDistinctReport
  extends Envelope<'count_distinct', 'clean' | 'review_required' | 'inputs_rejected'>,
    FindingsOmitted {
  stable_key: string;
  row_count: number;
  distinct_count: number;
  difference: number;
  difference_breakdown: { from_repeated_keys: number; from_rows_with_blank_key: number };
  rows_with_a_key: number;
  rows_with_blank_key: number;
  blank_key_rows: BlankKeyRow[];
  blank_key_rows_omitted?: number;
  repeated_keys: Array<{
    key: string;
    count: number;
    row_indexes: number[];
    /** Row indexes beyond those listed. */
    row_indexes_omitted?: number;
  }>;
  repeated_keys_omitted?: number;
  /** With `page`: where the page is in its list, and the next page's argument. */
  page?: PageResult<CountDistinctPagedList>;
}

/** @deprecated Never returned: a `count_distinct` result is always a `CountDistinctReport`. */
export type CountDistinctRejected = never;

export type CountDistinctResult = CountDistinctReport;

export interface GroupMember {
  locator: RowLocator;
  /** The key as compared (trimmed and case-folded unless case_sensitive). */
  key: string;
  row: JsonObject;
}

export interface DuplicateGroup {
  group_id: string;
  kind: 'same_key' | 'same_signature' | 'near_match';
  reason: string;
  size: number;
  keys: string[];
  recommended_action: 'human_review';
  auto_merged: false;
  decision_required: true;
  review_question: string;
  members: GroupMember[];
  /** Only on `near_match` groups. */
  similarity?: number;
  /** Members beyond those listed. */
  members_omitted?: number;
}

/** A `duplicate_report` result; one shape, as for `validate_rows`. */
export interface DuplicateReportReport
  extends Envelope<'duplicate_report', 'clean' | 'review_required' | 'inputs_rejected'>,
    FindingsOmitted {
  stable_key: string;
  row_count: number;
  distinct_keys: number;
  duplicate_group_count: number;
  rows_in_duplicate_groups: number;
  auto_merged: false;
  nothing_was_merged_or_deleted: true;
  blank_key_rows: BlankKeyRow[];
  blank_key_rows_omitted?: number;
  groups: DuplicateGroup[];
  /** Groups beyond those listed: over `max_groups`, then over `max_listed` (or not asked for, or off the page). Always present. */
  groups_omitted: number;
  /** With `page`: where the page is in its list (groups within `max_groups`), and the next page's argument. */
  page?: PageResult<DuplicateReportPagedList>;
}

/** @deprecated Never returned: a `duplicate_report` result is always a `DuplicateReportReport`. */
export type DuplicateReportRejected = never;

export type DuplicateReportResult = DuplicateReportReport;

// inspect_dataset

/** One column's profile: facts about the data, never rules (those are in `suggested_contract`). */
export interface ColumnProfile {
  name: string;
  /** The narrowest type every non-blank value takes; null for a column with no non-blank value. */
  type: ColumnType | null;
  /** Non-blank values. */
  values: number;
  blank: number;
  /** Rows without the column (an absent key, a short CSV record). */
  missing: number;
  /** Distinct values, as the column's type compares them (as `unique` does). */
  distinct: number;
  /** Per type: how many non-blank values it refuses (`date`: those that are not plain ISO dates). */
  type_failures: { boolean: number; integer: number; number: number; date: number; datetime: number; string: number };
  /** The narrower type the values come closest to, and how many refuse it. */
  nearest_type?: { type: ColumnType; failing: number };
  /** For a column of mostly one type: the rows whose value does not take it. */
  exceptions?: Array<RowLocator & { value: JsonValue }>;
  /** Exceptions beyond those listed. */
  exceptions_omitted?: number;
  /** The least value, for numbers, dates and datetimes (an observed fact, never a rule). */
  min?: JsonValue;
  max?: JsonValue;
  /** Fewest and most characters of a value. */
  length?: { min: number; max: number };
  /** The shape every value shares (`INV-\d{6}`), as a pattern; null when they share none. */
  shape: string | null;
  /** For a string column: the formats every value has. */
  formats?: Format[];
  /** The most frequent values (at most 5), ties in the order first seen, as the column's type reads them. */
  top_values: Array<{ value: JsonValue; count: number }>;
  /** The first distinct values (at most 3), as given. */
  examples: JsonValue[];
  /** Text values with blank space at either end. */
  surrounding_whitespace: number;
  /** Non-blank and distinct on every row (of at least 10), an integer or string column. */
  key_candidate: boolean;
}

/** A contract drafted from the data: `validate_rows` passes it on that data. */
export interface SuggestedContract {
  columns: ColumnSpec[];
  /** One column, or two that are distinct together on every row where chance would have repeated them. */
  table?: { primary_key: string[] };
}

/** Why each suggested rule was suggested. */
export interface InspectEvidence {
  /** Per column, per rule key (`type`, `required`, `format`, ...): the reason. */
  columns: Record<string, Record<string, string>>;
  table?: { primary_key: string };
  /** Columns no contract can name (a blank name, fields beyond a CSV header, ...). */
  left_out?: Array<{ column: string; why: string }>;
  /** Rules of the contract its Table Schema cannot say. */
  table_schema_omits?: Array<{ column: string; rule: string; value: JsonValue; why: string }>;
}

export interface InspectDatasetReport
  extends Envelope<'inspect_dataset', 'clean' | 'review_required'>,
    FindingsOmitted {
  summary: {
    rows: number;
    columns: number;
    source: 'rows' | 'csv';
    ragged_records: number;
    duplicate_rows: number;
    rows_not_objects: number;
  };
  /** CSV records whose width is not the header's. */
  ragged_records: Array<RowLocator & { fields: number; header_fields: number }>;
  ragged_records_omitted?: number;
  /** Rows that repeat an earlier row in every column. */
  duplicate_rows: Array<RowLocator & { first_row_index: number; first_row_number: number }>;
  duplicate_rows_omitted?: number;
  key_candidates: string[];
  key_candidates_omitted?: number;
  columns: ColumnProfile[];
  columns_omitted?: number;
  /** Null when nothing could be drafted (no rows, or no column a contract can name). */
  suggested_contract: SuggestedContract | null;
  /** The same contract as a Frictionless Table Schema, for `validate_rows`' `schema`. */
  table_schema: JsonObject | null;
  evidence: InspectEvidence | null;
}

export type InspectDatasetResult = InspectDatasetReport;

/** Arguments by tool name. */
export interface ToolArgs {
  validate_rows: ValidateRowsArgs;
  reconcile: ReconcileArgs;
  count_distinct: CountDistinctArgs;
  duplicate_report: DuplicateReportArgs;
  inspect_dataset: InspectDatasetArgs;
}

/** Results by tool name. */
export interface ToolResults {
  validate_rows: ValidateRowsResult;
  reconcile: ReconcileResult;
  count_distinct: CountDistinctResult;
  duplicate_report: DuplicateReportResult;
  inspect_dataset: InspectDatasetResult;
}

export type ToolResult = ToolResults[ToolName];

// -------------------------------------------------------------------- errors

/** Stable codes of argument errors. */
export type ErrorCode =
  | 'invalid_contract'
  | 'invalid_argument'
  | 'argument_type'
  | 'unknown_tool'
  | 'invalid_json';

/**
 * Thrown when the call itself is malformed. A dataset that fails its checks is
 * never thrown: it is a result with `ok: false`.
 */
export class ValidationArgumentError extends Error {
  constructor(
    message: string,
    code: ErrorCode,
    argument?: string | null,
    location?: string | null,
    line?: number | null,
  );
  readonly name: 'ValidationArgumentError';
  /** Stable, machine-readable class of the error. */
  readonly code: ErrorCode;
  /** The argument at fault, when one argument is. */
  readonly argument: string | undefined;
  /**
   * Where in the arguments the fault is: the argument's name, then `[index]`
   * into an array and `.key` into an object, e.g. `columns[2].pattern`
   * (indexes from 0). Undefined when the fault is not in one place.
   */
  readonly location: string | undefined;
  /** For a fault in `csv` text, the line it is on (1-based, the header's included). */
  readonly line: number | undefined;
}

// ----------------------------------------------------------------- functions

/** Apply a column contract; every row is accepted or quarantined. */
export function validateRows(args: ValidateRowsArgs): ValidateRowsResult;
/** Check opening + movements = closing and explain the variance. */
export function reconcile(args: ReconcileArgs): ReconcileResult;
/** Distinct entities on a stable key versus rows. */
export function countDistinct(args: CountDistinctArgs): CountDistinctResult;
/** Suspected duplicate groups for human review; never merges. */
export function duplicateReport(args: DuplicateReportArgs): DuplicateReportResult;
/** Profile the rows, report what is wrong whatever the contract, and draft a contract they pass. */
export function inspectDataset(args: InspectDatasetArgs): InspectDatasetResult;

/** Run a check by its MCP tool name (JSON text across the boundary). */
export function callTool<T extends ToolName>(name: T, args: ToolArgs[T]): ToolResults[T];
export function callTool(name: string, args: unknown): ToolResult;

/**
 * Like `callTool`, with arguments and result converted value by value by
 * serde-wasm-bindgen instead of as JSON text.
 */
export function callToolValues<T extends ToolName>(name: T, args: ToolArgs[T]): ToolResults[T];
export function callToolValues(name: string, args: unknown): ToolResult;

/**
 * JSON text in, JSON text out. The exact form: number types (20 vs 20.0) and
 * key order are as the reference produces them.
 */
export function callToolJson(name: string, argsJson: string): string;

/** The tool names, from the core. */
export function toolNames(): ToolName[];

/** One tool of the core's catalog. */
export interface ToolCatalogEntry {
  name: ToolName;
  title: string;
  /** The description the MCP server publishes: arguments, result, examples. */
  description: string;
  /** The JSON Schema of the arguments, exactly as the MCP server publishes it. */
  input_schema: JsonObject;
  /** The JSON Schema of the shared envelope, as the MCP server publishes it. */
  output_schema: JsonObject;
  annotations: { read_only_hint: boolean; destructive_hint: boolean; idempotent_hint: boolean; open_world_hint: boolean };
  verdicts: Verdict[];
  /** Arguments only the MCP server accepts (`path`); this package refuses them. */
  server_only_arguments: string[];
  /** The `<list>_omitted` counts a shortened result can carry (`groups[].members_omitted` is inside each group). */
  omitted_counts: string[];
}

/** The core's tool catalog: every tool, and the JSON Schema of one `validate_rows` column spec. */
export interface ToolCatalog {
  tools: ToolCatalogEntry[];
  column_spec: JsonObject;
}

/** The tool catalog, from the core: the source the MCP server's `tools/list` is made from. */
export function toolCatalog(): ToolCatalog;

/** CSV text as the checks read it. */
export interface CsvTable {
  /** The header row's column names; empty for an empty text. */
  header: string[];
  /** Each record under the header's names; fields beyond the header are an array under `extra_fields_key`. */
  rows: Array<Record<string, string | string[]>>;
  /** The 1-based line each row starts on, counting the header's line. */
  lines: number[];
  extra_fields_key: '_extra';
}

/**
 * Read CSV text exactly as the checks read their `csv` argument. Throws the
 * `ValidationArgumentError` a check would (code `invalid_argument`, argument
 * `csv`) for a text they refuse.
 */
export function readCsv(text: string): CsvTable;

/** What `init` accepts: a URL or path to the `.wasm`, its bytes, a Response, or a compiled module. */
export type InitInput =
  | string
  | URL
  | Request
  | Response
  | ArrayBuffer
  | ArrayBufferView
  | WebAssembly.Module
  | Promise<Response>;

/**
 * Load the module. Required once before any check in browsers and other
 * non-Node runtimes (the `.wasm` is fetched next to the glue by default);
 * in Node the module loads on import and this resolves at once.
 */
export function init(source?: InitInput): Promise<void>;
