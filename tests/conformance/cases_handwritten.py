"""Hand-written conformance cases for mcp-validation-server 0.1.0.

Imported by generate.py. ``cases()`` returns a list of dicts:

    {"name": "<tool>/<slug>", "tool": ..., "args": {...}, "group": <vector file stem>,
     "expect": {...}, "covers": [...]}

``expect`` states what the case is written to reach (a verdict, finding codes,
an error kind, a substring, exact values at paths); generate.py verifies it
against the reference and refuses to write vectors if it does not hold, so a
case cannot silently drift away from what its name claims. ``covers`` are
labels from REQUIRED_LABELS (argument errors, pydantic failures and pydantic
coercions the vector set must reach). Neither field is written to the vectors.
"""

from __future__ import annotations

_OMIT = object()

REQUIRED_LABELS = [
    # validate_rows contract errors (deliberate ToolError)
    "arg:columns_empty", "arg:column_not_object", "arg:unknown_spec_key", "arg:unknown_spec_keys",
    "arg:name_missing", "arg:name_blank", "arg:name_not_string", "arg:unknown_type",
    "arg:bad_on_fail", "arg:required_not_bool", "arg:not_blank_not_bool",
    "arg:min_not_number", "arg:min_bool", "arg:max_not_number", "arg:max_bool",
    "arg:range_shape", "arg:range_bools", "arg:range_low_above_high",
    "arg:pattern_not_string", "arg:bad_regex", "arg:allowed_empty", "arg:allowed_not_list",
    "arg:duplicate_column", "arg:duplicate_column_after_strip",
    # count_distinct / duplicate_report deliberate ToolErrors
    "arg:count_distinct_blank_key", "arg:count_distinct_whitespace_key",
    "arg:duplicate_report_blank_key", "arg:duplicate_report_whitespace_key",
    "arg:match_fields_blank_entry", "arg:similarity_zero", "arg:similarity_negative",
    "arg:similarity_above_one",
    # pydantic argument validation failures
    "pyd:missing_required", "pyd:columns_not_list", "pyd:key_int", "pyd:rows_string",
    "pyd:rows_object", "pyd:row_key_int", "pyd:match_fields_string",
    "pyd:match_fields_non_string_entry", "pyd:tolerance_abc", "pyd:case_sensitive_maybe",
    "pyd:max_groups_fraction", "pyd:max_groups_string",
    # pydantic coercions (and pre_parse_json) that change results
    "coerce:tolerance_string", "coerce:tolerance_int", "coerce:tolerance_exponent",
    "coerce:tolerance_inf", "coerce:tolerance_nan", "coerce:tolerance_neg_inf",
    "coerce:case_sensitive_yes", "coerce:case_sensitive_off", "coerce:case_sensitive_int",
    "coerce:case_sensitive_float", "coerce:max_groups_string", "coerce:max_groups_float",
    "coerce:max_groups_bool", "coerce:similarity_string", "coerce:rows_json_text",
    "coerce:columns_json_text", "coerce:movements_json_text", "coerce:row_key_null",
    "coerce:opening_null", "coerce:opening_list_text", "coerce:opening_underscore",
    # result paths the brief names explicitly
    "reconcile:movement_not_numeric_object", "reconcile:movement_not_numeric_bare",
    "reconcile:rejected_movements_object", "reconcile:rejected_movements_number",
    "reconcile:rejected_movements_non_json_string", "duplicate_report:max_groups_zero",
    "duplicate_report:max_groups_negative", "duplicate_report:max_groups_string",
    "duplicate_report:members_omitted",
]

_CASES: list[dict] = []


def _add(tool, name, args, expect=None, covers=()):
    _CASES.append({
        "name": f"{tool}/{name}",
        "tool": tool,
        "args": args,
        "group": tool,
        "expect": expect or {},
        "covers": list(covers),
    })


def vr(name, rows, columns, row_key=_OMIT, expect=None, covers=(), **extra):
    args = {"rows": rows, "columns": columns}
    if row_key is not _OMIT:
        args["row_key"] = row_key
    args.update(extra)
    _add("validate_rows", name, args, expect, covers)


def rc(name, opening, movements, closing, tolerance=_OMIT, expect=None, covers=()):
    args = {}
    if opening is not _OMIT:
        args["opening_balance"] = opening
    if movements is not _OMIT:
        args["movements"] = movements
    if closing is not _OMIT:
        args["closing_balance"] = closing
    if tolerance is not _OMIT:
        args["tolerance"] = tolerance
    _add("reconcile", name, args, expect, covers)


def cd(name, rows, key=_OMIT, case_sensitive=_OMIT, expect=None, covers=()):
    args = {"rows": rows}
    if key is not _OMIT:
        args["key"] = key
    if case_sensitive is not _OMIT:
        args["case_sensitive"] = case_sensitive
    _add("count_distinct", name, args, expect, covers)


def dr(name, rows, key=_OMIT, expect=None, covers=(), **options):
    args = {"rows": rows}
    if key is not _OMIT:
        args["key"] = key
    args.update(options)
    _add("duplicate_report", name, args, expect, covers)


def E(kind, contains=None, args=None):
    out = {"error": kind}
    if contains is not None:
        out["contains"] = contains
    if args is not None:
        out["error_args"] = args
    return out


TOOL_ERR = "tool_error"
PYD = "invalid_arguments"

# Characters Python's str.strip() removes (str.isspace): note \x1c-\x1f, which
# are not Unicode White_Space but are stripped by Python.
PY_WHITESPACE = [
    "\t", "\n", "\x0b", "\x0c", "\r", "\x1c", "\x1d", "\x1e", "\x1f", " ", "\x85", "\xa0",
    "\u1680", "\u2000", "\u2001", "\u2002", "\u2003", "\u2004", "\u2005", "\u2006", "\u2007",
    "\u2008", "\u2009", "\u200a", "\u2028", "\u2029", "\u202f", "\u205f", "\u3000",
]
# Look like whitespace, are not stripped by Python.
NOT_PY_WHITESPACE = ["\u200b", "\ufeff", "\u180e", "\u2060", "\u00ad", "\x00"]


# ===========================================================================
# validate_rows
# ===========================================================================

def _validate_rows_cases():
    worked_rows = [
        {"invoice": "INV-1001", "amount": "100.50", "date": "2026-04-01"},
        {"invoice": "", "amount": "20", "date": "2026-04-02"},
        {"invoice": "INV-1003", "amount": "-5", "date": "2026-04-03"},
        {"invoice": "INV-1004", "amount": "abc", "date": "04/05/2026"},
    ]
    worked_columns = [
        {"name": "invoice", "type": "string", "required": True, "pattern": "INV-\\d+"},
        {"name": "amount", "type": "number", "min": 0},
        {"name": "date", "type": "date", "required": True},
    ]
    vr("worked_example", worked_rows, worked_columns, row_key="invoice",
       expect={"verdict": "quarantined", "ok": False,
               "codes": ["required_blank", "below_minimum", "not_a_number", "not_a_date"],
               "paths": {"summary.pass_rate": 0.25, "quarantine.0.row.amount": 20.0,
                         "accepted.0.amount": 100.5}})
    vr("worked_example_without_row_key", worked_rows, worked_columns,
       expect={"verdict": "quarantined"})
    vr("docstring_example_contract",
       [{"invoice": "INV-1", "amount": "100.50", "date": "2026-04-01"},
        {"invoice": "INV-2", "amount": 1000001, "date": "2026-04-02"}],
       [{"name": "invoice", "type": "string", "required": True, "pattern": "INV-\\d+"},
        {"name": "amount", "type": "number", "min": 0, "max": 1000000},
        {"name": "date", "type": "date", "required": True}],
       expect={"codes": ["above_maximum"]})

    # ---- verdicts -------------------------------------------------------
    vr("clean_single_row", [{"a": "x"}], [{"name": "a"}], expect={"verdict": "clean", "ok": True})
    vr("clean_coerced_types",
       [{"n": "3.25", "i": "7", "b": "yes", "d": "2026-01-31", "s": 12, "x": [1, {"y": None}]}],
       [{"name": "n", "type": "number"}, {"name": "i", "type": "integer"},
        {"name": "b", "type": "boolean"}, {"name": "d", "type": "date"},
        {"name": "s", "type": "string"}, {"name": "x", "type": "any"}],
       expect={"verdict": "clean", "paths": {"accepted.0.n": 3.25, "accepted.0.i": 7,
                                              "accepted.0.b": True, "accepted.0.s": "12"}})
    vr("flagged_only_is_ok_true",
       [{"id": "A", "note": "x" * 3}, {"id": "B", "note": "ok"}],
       [{"name": "id", "required": True}, {"name": "note", "pattern": "ok", "on_fail": "flag"}],
       expect={"verdict": "flagged", "ok": True, "codes": ["pattern_mismatch"]})
    vr("no_rows", [], [{"name": "a", "required": True}],
       expect={"verdict": "clean", "ok": False, "codes": ["no_rows", "required_column_absent"]})
    vr("no_rows_optional_column", [], [{"name": "a"}], expect={"codes": ["no_rows"]})

    # ---- required / blank ----------------------------------------------
    vr("required_blank_variants",
       [{"a": ""}, {"a": None}, {"a": "   "}, {}, {"a": "\u3000\t"}, {"a": "\u200b"}, {"a": 0},
        {"a": False}, {"a": []}, {"a": {}}],
       [{"name": "a", "required": True}],
       expect={"codes": ["required_blank"]})
    vr("required_blank_every_python_whitespace",
       [{"a": ch} for ch in PY_WHITESPACE] + [{"a": ch} for ch in NOT_PY_WHITESPACE],
       [{"name": "a", "required": True}], expect={"codes": ["required_blank"]})
    vr("required_blank_with_type_and_rules_reports_once",
       [{"a": ""}], [{"name": "a", "required": True, "type": "number", "min": 1, "not_blank": True}],
       expect={"codes": ["required_blank"], "no_codes": ["blank", "below_minimum", "not_a_number"]})
    vr("not_blank_variants",
       [{"a": ""}, {"a": None}, {"a": " \x1f "}, {}, {"a": "x"}, {"a": 0}],
       [{"name": "a", "not_blank": True}], expect={"codes": ["blank"]})
    vr("not_blank_false_and_blank_skips_rules",
       [{"a": ""}, {"a": None}],
       [{"name": "a", "not_blank": False, "type": "integer", "min": 5, "pattern": "x", "allowed": [1]}],
       expect={"verdict": "clean"})
    vr("not_blank_on_flag_column",
       [{"a": " "}], [{"name": "a", "not_blank": True, "on_fail": "flag"}],
       expect={"verdict": "flagged", "codes": ["blank"]})
    vr("required_blank_on_flag_column",
       [{"a": None, "b": 1}], [{"name": "a", "required": True, "on_fail": "flag"}, {"name": "b"}],
       expect={"verdict": "flagged", "codes": ["required_blank"]})
    vr("required_column_absent_from_every_row",
       [{"x": 1}, {"y": 2}],
       [{"name": "zeta", "required": True}, {"name": "alpha", "required": True}, {"name": "x"}],
       expect={"codes": ["required_column_absent", "required_blank"]})
    vr("required_column_present_but_null_is_not_absent",
       [{"a": None}], [{"name": "a", "required": True}],
       expect={"codes": ["required_blank"], "no_codes": ["required_column_absent"]})

    # ---- not_an_object --------------------------------------------------
    vr("rows_not_objects",
       ["a string", 42, 4.5, True, None, [1, 2], [{"a": 1}], {"a": "ok"}, "", {"a": None}],
       [{"name": "a", "required": True}],
       expect={"codes": ["not_an_object", "required_blank"]})
    vr("rows_all_non_objects_required_absent",
       [1, "x"], [{"name": "a", "required": True}],
       expect={"codes": ["not_an_object", "required_column_absent"]})

    # ---- number ---------------------------------------------------------
    number_values = [
        " 1_000.5 ", "1e3", "nan", "NaN", "-nan", "inf", "-Infinity", "INFINITY", "+5", "١٢٣",
        "１２３", "1,000", "0x10", "1__000", "_1", "1_", ".5", "5.", "1e", "e5", "--5", "\t42\n",
        "\u200b42", "\u00a042\u2003", "1e400", "-1e400", "1e-400", "0.1", "9007199254740993",
        "1.7976931348623157e308", "abc", "12abc", "½", "٣.٥", "1.5e+3", "  -0  ", "-0.0", "0e0",
        "\x1c7\x1f", "7\x00", "infinity ", " +inf", "Infinity\u200b", "١_٢",
        5, -0.0, 0, 1.5, 1e-7, 1e21, 9007199254740993, -9223372036854775808, 9223372036854775807,
        True, False, [1], {"v": 1}, [],
    ]
    vr("number_coercions", [{"v": value} for value in number_values], [{"name": "v", "type": "number"}],
       expect={"codes": ["not_a_number", "wrong_type"]})
    vr("number_wrong_type_forms",
       [{"v": True}, {"v": False}, {"v": [1, 2]}, {"v": {"a": 1}}, {"v": []}, {"v": {}}],
       [{"name": "v", "type": "number"}], expect={"codes": ["wrong_type"]})
    vr("number_non_finite_with_bounds",
       [{"v": "nan"}, {"v": "inf"}, {"v": "-inf"}, {"v": "1e400"}],
       [{"name": "v", "type": "number", "min": 0, "max": 100}],
       expect={"codes": ["above_maximum", "below_minimum"]})
    vr("number_non_finite_with_range_and_allowed",
       [{"v": "nan"}, {"v": "inf"}, {"v": "NaN"}],
       [{"name": "v", "type": "number", "range": [0, 1], "allowed": [1, 2]}],
       expect={"codes": ["out_of_range", "not_allowed"]})

    # ---- integer --------------------------------------------------------
    integer_values = [
        5, 5.0, "5.0", "1e3", 2.5, "2.5", "abc", "1_000", " +7 ", "٣", "0x10", "inf", "-inf", "nan",
        "-0.0", "-0", 1e15, "1e18", -1e18, 1e-7, "1e-7", "4.000000000000001", 4.000000000000001,
        "9223372036854775807", "-9223372036854775808", 9223372036854775807, True, False, [1],
        {"a": 1}, "1.", ".0", "0.5e1", "1_0.0", "\u00a012\u00a0", "１２", "12 34", "5e-1",
    ]
    vr("integer_coercions", [{"v": value} for value in integer_values],
       [{"name": "v", "type": "integer"}],
       expect={"codes": ["not_an_integer", "wrong_type"], "paths": {"accepted.0.v": 5, "accepted.1.v": 5}})
    vr("integer_wrong_type_forms", [{"v": True}, {"v": [1]}, {"v": {"a": 1}}],
       [{"name": "v", "type": "integer"}], expect={"codes": ["wrong_type"]})
    vr("integer_with_bounds_g_format",
       [{"v": 123456789}, {"v": "99999"}, {"v": -1}, {"v": 1000000}],
       [{"name": "v", "type": "integer", "min": 0, "max": 99999}],
       expect={"codes": ["above_maximum", "below_minimum"]})

    # ---- boolean --------------------------------------------------------
    boolean_values = [
        "true", "TRUE", "True", "tRuE", "t", "T", "yes", "YES", " Yes ", "y", "Y", "1", "false", "F",
        "no", "N", "0", " 0 ", "\u3000No\u3000", "\u2003t\u2003", "\x85f\x85", "\x1cy\x1f",
        "\u2028yes\u2029", "yeſ", "ＹＥＳ", "ｔｒｕｅ", "true\u200b", "\ufefftrue", "yes!", "ja", "on",
        "off", "2", "１", "", True, False, 1, 0, 0.0, 1.0, [True], {"b": True}, "nO", "Ｎ",
    ]
    vr("boolean_coercions", [{"v": value} for value in boolean_values],
       [{"name": "v", "type": "boolean"}], expect={"codes": ["not_a_boolean"]})

    # ---- date -----------------------------------------------------------
    date_values = [
        "2026-04-01", " 2026-04-01 ", "\u00a02026-04-01\u3000", "20260401", "2026-W14", "2026-W14-3",
        "2026W14", "2026W143", "2026-w14-3", "2026-W53-1", "2020-W53-7", "2026-W00-1", "2026-W14-8",
        "2026-092", "2026092", "2026-04", "202604", "2026", "2026-4-1", "2026-04-1", "26-04-01",
        "2026-04-01T10:00:00", "2026-04-01 10:00:00", "2026-04-01T10:00", "2026-04-01T10",
        "2026-04-01T1000", "2026-04-01T100000", "2026-04-01T10:00:00Z", "2026-04-01T10:00:00z",
        "2026-04-01T10:00:00+05:30", "2026-04-01T10:00:00-0800", "2026-04-01T10:00:00+05",
        "2026-04-01T10:00:00.123456", "2026-04-01T10:00:00.123", "2026-04-01T10:00:00,5",
        "2026-04-01T10:00:00.1234567", "2026-04-01T24:00:00", "2026-04-01T23:59:60",
        "2026-04-01T", "2026-04-01X10:00", "2026-04-01t10:00", "2026-04-01 ", "2026-04-01Z",
        "2026-04-01T10:00:00+24:00", "2026-04-01T10:00:00 +05:00", "20260401T100000",
        "20260401T10:00:00", "2026-04-01T10:00:00.000000+00:00", "2026-12-31T23:59:59.999999-23:59",
        "2026-02-29", "2024-02-29", "2026-02-28", "0000-01-01", "0001-01-01", "9999-12-31",
        "10000-01-01", "2026-13-01", "2026-00-10", "2026-04-31", "+2026-04-01", "-2026-04-01",
        "２０２６-０４-０１", "٢٠٢٦-٠٤-٠١", "2026/04/01", "04/05/2026", "2026.04.01", "2026-04-01\n",
        "\u20282026-04-01", "2026-04-01\u200b", "2026‐04‐01", "today", "",
        20260401, 2026.0401, True, ["2026-04-01"], {"d": "2026-04-01"},
    ]
    vr("date_forms", [{"v": value} for value in date_values], [{"name": "v", "type": "date"}],
       expect={"codes": ["not_a_date"], "paths": {"accepted.0.v": "2026-04-01"}})
    vr("date_with_pattern_and_allowed_after_coercion",
       [{"d": "20260401"}, {"d": "2026-04-01T23:59:59+14:00"}, {"d": "2026-W01-1"}],
       [{"name": "d", "type": "date", "pattern": "2026-04-\\d\\d", "allowed": ["2026-04-01"]}],
       expect={"codes": ["pattern_mismatch"]})

    # ---- string / any ---------------------------------------------------
    vr("string_coercion_uses_python_str",
       [{"s": 12}, {"s": 1.0}, {"s": 1e16}, {"s": 1e-7}, {"s": -0.0}, {"s": True}, {"s": [1, "a", None]},
        {"s": {"k": "v", "n": 1.5, "b": False}}, {"s": "already"}, {"s": 0.1}, {"s": 123456789012345.6},
        {"s": {"ü": "\x00\u2028", "e": "'\""}}, {"s": ["It's"]}, {"s": "\t"}],
       [{"name": "s", "type": "string"}], expect={"verdict": "clean"})
    vr("any_type_keeps_values",
       [{"a": 1}, {"a": 1.0}, {"a": "x"}, {"a": [None]}, {"a": {"n": {"m": []}}}, {"a": False}],
       [{"name": "a", "type": "any"}], expect={"verdict": "clean"})

    # ---- min / max / range / not_numeric --------------------------------
    vr("min_max_bounds_and_g_format",
       [{"v": -5}, {"v": 0.05}, {"v": 0.1}, {"v": 100}, {"v": 1e21}, {"v": 2e21}, {"v": 123456789},
        {"v": 0.0001}, {"v": 1e-5}, {"v": -0.0}, {"v": 0.30000000000000004}],
       [{"name": "v", "type": "number", "min": 0.1, "max": 1e21}],
       expect={"codes": ["below_minimum", "above_maximum"]})
    vr("min_tiny_bound", [{"v": 1e-8}, {"v": 1e-7}, {"v": "1e-7"}, {"v": 0}],
       [{"name": "v", "type": "number", "min": 1e-7}], expect={"codes": ["below_minimum"]})
    vr("min_negative_zero_bound", [{"v": -0.0}, {"v": 0}, {"v": -1e-300}, {"v": "-0"}],
       [{"name": "v", "type": "number", "min": -0.0}], expect={"codes": ["below_minimum"]})
    vr("max_large_g_format", [{"v": 123456789}, {"v": 1234567.5}, {"v": 100000}, {"v": 1000000}],
       [{"name": "v", "type": "number", "max": 99999}], expect={"codes": ["above_maximum"]})
    vr("max_small_g_format", [{"v": 0.0001}, {"v": 1e-5}, {"v": 0.00012345678}],
       [{"name": "v", "type": "number", "max": 0.00001}], expect={"codes": ["above_maximum"]})
    vr("range_bounds_and_g_format",
       [{"v": 0.1}, {"v": 1e-7}, {"v": 1e21}, {"v": 123456789}, {"v": -0.0}, {"v": 0.5}, {"v": 1.0000001}],
       [{"name": "v", "type": "number", "range": [1e-7, 1]}], expect={"codes": ["out_of_range"]})
    vr("range_equal_bounds_and_negative_zero",
       [{"v": 0}, {"v": -0.0}, {"v": 1e-300}], [{"name": "v", "type": "number", "range": [-0.0, 0]}],
       expect={"codes": ["out_of_range"]})
    vr("range_huge_and_int_bounds",
       [{"v": 5}, {"v": 1e22}, {"v": -1e22}],
       [{"name": "v", "type": "number", "range": [-9223372036854775808, 9223372036854775807]}],
       expect={"codes": ["out_of_range"]})
    vr("not_numeric_on_untyped_column",
       [{"v": "abc"}, {"v": [1]}, {"v": {"a": 1}}, {"v": True}, {"v": "1_000"}, {"v": " 12 "},
        {"v": "nan"}, {"v": "١٢"}, {"v": False}],
       [{"name": "v", "min": 0, "max": 1e21, "range": [1e-7, 123456789]}],
       expect={"codes": ["not_numeric", "out_of_range"]})
    vr("not_numeric_bound_repr_forms",
       [{"a": "x", "b": "x", "c": "x", "d": "x", "e": "x"}],
       [{"name": "a", "min": 0}, {"name": "b", "max": 1e21}, {"name": "c", "min": 1e-7},
        {"name": "d", "max": 123456789}, {"name": "e", "min": 0.30000000000000004, "max": 1e16}],
       expect={"codes": ["not_numeric"]})
    vr("not_numeric_on_string_type_column",
       [{"v": "abc"}, {"v": "12"}, {"v": 5}], [{"name": "v", "type": "string", "min": 10}],
       expect={"codes": ["not_numeric", "below_minimum"]})
    vr("not_numeric_on_boolean_type_column",
       [{"v": "yes"}, {"v": "no"}], [{"name": "v", "type": "boolean", "min": 0.5}],
       expect={"codes": ["below_minimum"]})
    vr("not_numeric_on_date_type_column",
       [{"v": "2026-04-01"}], [{"name": "v", "type": "date", "range": [0, 1]}],
       expect={"codes": ["not_numeric"]})
    vr("type_failure_skips_rules",
       [{"v": "abc"}], [{"name": "v", "type": "number", "min": 0, "pattern": "\\d+", "allowed": [1]}],
       expect={"codes": ["not_a_number"], "no_codes": ["not_numeric", "pattern_mismatch", "not_allowed"]})
    vr("all_rules_fail_in_order",
       [{"v": "-5"}],
       [{"name": "v", "type": "integer", "min": 0, "max": -10, "range": [1, 2], "pattern": "x",
         "allowed": [7], "not_blank": True}],
       expect={"codes": ["below_minimum", "above_maximum", "out_of_range", "pattern_mismatch", "not_allowed"]})

    # ---- pattern --------------------------------------------------------
    vr("pattern_fullmatch_and_anchors",
       [{"p": "INV-1001"}, {"p": "xINV-1"}, {"p": "INV-1\n"}, {"p": "INV-"}, {"p": "inv-1"}],
       [{"name": "p", "pattern": "INV-\\d+"}], expect={"codes": ["pattern_mismatch"]})
    vr("pattern_explicit_anchors_trailing_newline",
       [{"p": "INV-12"}, {"p": "INV-12\n"}, {"p": "INV-12\n\n"}],
       [{"name": "p", "pattern": "^INV-\\d+$"}], expect={"codes": ["pattern_mismatch"]})
    vr("pattern_alternation_needs_backtracking",
       [{"p": "a"}, {"p": "ab"}, {"p": "abc"}], [{"name": "p", "pattern": "a|ab"}],
       expect={"codes": ["pattern_mismatch"]})
    vr("pattern_unicode_classes",
       [{"p": "١٢٣"}, {"p": "１２"}, {"p": "123"}, {"p": "²"}, {"p": "日本語"}, {"p": "e\u0301"}],
       [{"name": "p", "pattern": "\\d+"}], expect={"codes": ["pattern_mismatch"]})
    vr("pattern_word_unicode",
       [{"p": "日本語"}, {"p": "naïve_1"}, {"p": "a-b"}, {"p": "e\u0301"}, {"p": "👍"}],
       [{"name": "p", "pattern": "\\w+"}], expect={"codes": ["pattern_mismatch"]})
    vr("pattern_emoji_and_rtl",
       [{"p": "👍👍"}, {"p": "👍🏽"}, {"p": "שלום"}, {"p": "\u202eabc"}],
       [{"name": "p", "pattern": "(👍|\u05e9\u05dc\u05d5\u05dd)+"}], expect={"codes": ["pattern_mismatch"]})
    vr("pattern_ignorecase_sigma_and_sharp_s",
       [{"p": "ΣΊΣΥΦΟΣ"}, {"p": "σίσυφος"}, {"p": "STRASSE"}, {"p": "STRAẞE"}, {"p": "K"}],
       [{"name": "p", "pattern": "(?i)(σίσυφοσ|straße|k)"}], expect={"codes": ["pattern_mismatch"]})
    vr("pattern_dot_and_newline",
       [{"p": "a\nb"}, {"p": "a\rb"}, {"p": "a\u2028b"}, {"p": "a\x85b"}], [{"name": "p", "pattern": "a.b"}],
       expect={"codes": ["pattern_mismatch"]})
    vr("pattern_backreference_lookaround_possessive",
       [{"a": "2026-2026", "b": "abc1", "c": "aaa", "d": "xb"},
        {"a": "2026-2027", "b": "abc", "c": "aab", "d": "ab"}],
       [{"name": "a", "pattern": "(?P<y>\\d{4})-(?P=y)"}, {"name": "b", "pattern": "(?=.*\\d)\\w+"},
        {"name": "c", "pattern": "a++"}, {"name": "d", "pattern": "(?<!a)(?>x|xb)b?"}],
       expect={"codes": ["pattern_mismatch"]})
    vr("pattern_posix_looking_set_is_literal",
       [{"p": "a]"}, {"p": "a"}, {"p": ":]"}], [{"name": "p", "pattern": "[[:alpha:]]"}],
       expect={"codes": ["pattern_mismatch"]})
    vr("pattern_on_coerced_values",
       [{"n": "100", "i": "100", "b": "yes", "a": {"k": 1}, "s": 7}],
       [{"name": "n", "type": "number", "pattern": "\\d+"}, {"name": "i", "type": "integer", "pattern": "\\d+"},
        {"name": "b", "type": "boolean", "pattern": "true|yes"}, {"name": "a", "pattern": "\\{.*\\}"},
        {"name": "s", "type": "string", "pattern": "7"}],
       expect={"codes": ["pattern_mismatch"]})
    vr("pattern_empty_and_quote_repr",
       [{"p": "x"}, {"p": "It's"}, {"p": "say \"hi\""}, {"p": "both ' and \""}, {"p": "\x00\x1f\x7f\x85\u2028\ud7ff"},
        {"p": "tab\there"}, {"p": "\\"}],
       [{"name": "p", "pattern": ""}], expect={"codes": ["pattern_mismatch"]})
    vr("pattern_A_Z_and_flags",
       [{"p": "abc"}, {"p": "ABC"}, {"p": "abc\n"}],
       [{"name": "p", "pattern": "(?i)\\Aabc\\Z"}], expect={"codes": ["pattern_mismatch"]})

    # ---- allowed --------------------------------------------------------
    mixed = [1, "1", True, None, 1.5, [1, 2], {"a": 1}, "It's", "\u00e9"]
    vr("allowed_mixed_types",
       [{"v": 1.0}, {"v": True}, {"v": "true"}, {"v": [1, 2]}, {"v": [1.0, 2.0]}, {"v": {"a": 1.0}},
        {"v": {"a": True}}, {"v": 0}, {"v": "1"}, {"v": 1.5}, {"v": "e\u0301"}, {"v": [2, 1]},
        {"v": {"a": 1, "b": 2}}, {"v": "It's"}, {"v": False}],
       [{"name": "v", "allowed": mixed}], expect={"codes": ["not_allowed"]})
    vr("allowed_false_matches_zero",
       [{"v": 0}, {"v": 0.0}, {"v": False}, {"v": "0"}, {"v": -0.0}], [{"name": "v", "allowed": [False]}],
       expect={"codes": ["not_allowed"]})
    vr("allowed_after_type_coercion",
       [{"v": "1"}, {"v": "2"}, {"v": " 1.0 "}], [{"name": "v", "type": "number", "allowed": [1, "2"]}],
       expect={"codes": ["not_allowed"]})
    vr("allowed_case_and_whitespace_sensitive",
       [{"v": "a"}, {"v": "A"}, {"v": " a "}, {"v": "Straße"}],
       [{"name": "v", "type": "string", "allowed": ["a", "STRASSE"]}], expect={"codes": ["not_allowed"]})
    vr("allowed_nested_values",
       [{"v": [[1], {"x": [None]}]}, {"v": [[1], {"x": []}]}],
       [{"name": "v", "allowed": [[[1], {"x": [None]}], {"deep": {"er": [1.5, "s"]}}]}],
       expect={"codes": ["not_allowed"]})

    # ---- on_fail interplay ----------------------------------------------
    vr("flag_and_quarantine_on_same_row",
       [{"id": "1", "q": "bad", "f": "bad"}, {"id": "2", "q": 5, "f": "bad"}, {"id": "3", "q": 5, "f": 1}],
       [{"name": "id"}, {"name": "q", "type": "number"}, {"name": "f", "type": "integer", "on_fail": "flag"}],
       row_key="id", expect={"verdict": "quarantined", "codes": ["not_a_number", "not_an_integer"]})
    vr("flag_all_failures_accepted",
       [{"f": "x"}, {"f": "y"}, {"f": 3}],
       [{"name": "f", "type": "integer", "min": 5, "on_fail": "flag"}],
       expect={"verdict": "flagged", "ok": True, "codes": ["not_an_integer", "below_minimum"]})
    vr("guidance_tally_ignores_flag_warnings",
       [{"q": None, "f": "x"}, {"q": None, "f": "y"}, {"q": "ok", "f": "z"}],
       [{"name": "q", "required": True}, {"name": "f", "type": "number", "on_fail": "flag"}],
       expect={"verdict": "quarantined"})
    vr("tally_order_ties_by_code",
       [{"a": "x", "b": "y", "c": None}, {"a": "x", "b": 1, "c": None}, {"a": 1, "b": "y", "c": 1}],
       [{"name": "a", "type": "number"}, {"name": "b", "type": "boolean"}, {"name": "c", "required": True}],
       expect={"verdict": "quarantined"})

    # ---- row_key ----------------------------------------------------------
    vr("row_key_quoting",
       [{"k": 42, "v": "x"}, {"k": 1.0, "v": "x"}, {"k": True, "v": "x"}, {"k": {"a": 1}, "v": "x"},
        {"k": [1, "b"], "v": "x"}, {"k": "  ", "v": "x"}, {"k": None, "v": "x"}, {"v": "x"},
        {"k": " padded ", "v": "x"}, {"k": "", "v": "x"}, {"k": 1e16, "v": "x"}, {"k": -0.0, "v": "x"},
        {"k": "\u2028", "v": "x"}, {"k": "ok", "v": 1}],
       [{"name": "v", "type": "number"}], row_key="k", expect={"codes": ["not_a_number"]})
    vr("row_key_not_in_contract_and_undeclared",
       [{"id": "R1", "x": "bad", "extra": 1, "z": 2}, {"extra2": 3, "x": "bad", "id": "R2"}],
       [{"name": "x", "type": "integer"}], row_key="id", expect={"codes": ["not_an_integer"]})
    vr("row_key_empty_string_means_none",
       [{"": "blank-named column", "x": "bad"}], [{"name": "x", "type": "integer"}], row_key="",
       expect={"codes": ["not_an_integer"]})
    vr("row_key_missing_column", [{"x": "bad"}], [{"name": "x", "type": "integer"}], row_key="nope",
       expect={"codes": ["not_an_integer"]})
    vr("row_key_null_json", [{"x": "bad", "null": "N"}], [{"name": "x", "type": "integer"}], row_key=None,
       expect={"codes": ["not_an_integer"]})
    vr("row_key_null_text_preparsed_to_none", [{"x": "bad", "null": "N"}], [{"name": "x", "type": "integer"}],
       row_key="null", expect={"codes": ["not_an_integer"], "paths": {"contract.row_key": None}},
       covers=["coerce:row_key_null"])
    vr("row_key_quoted_null_text_stays_string", [{"x": "bad", "\"null\"": "Q", "null": "N"}],
       [{"name": "x", "type": "integer"}], row_key="\"null\"", expect={"codes": ["not_an_integer"]})
    vr("row_key_true_text_stays_string", [{"x": "bad", "true": "T"}], [{"name": "x", "type": "integer"}],
       row_key="true", expect={"paths": {"contract.row_key": "true"}})
    vr("row_key_list_text_is_rejected", [{"x": 1}], [{"name": "x"}], row_key="[\"x\"]",
       expect=E(PYD, args=["row_key"]))
    vr("row_key_int_rejected", [{"x": 1}], [{"name": "x"}], row_key=5, expect=E(PYD, args=["row_key"]),
       covers=["pyd:row_key_int"])

    # ---- contract echo / parsing quirks ----------------------------------
    vr("contract_echo_all_keys",
       [{"amount": "5"}],
       [{"description": "money", "on_fail": "flag", "allowed": [5, 6.5], "pattern": "\\d+(\\.\\d+)?",
         "range": [0, 10], "max": 100, "min": -1, "type": "number", "required": True, "name": " amount ",
         "not_blank": True}],
       expect={"verdict": "clean"})
    vr("contract_echo_all_keys_failing",
       [{"amount": "5.5"}, {"amount": 6.5}, {"amount": "-2"}],
       [{"name": "amount", "type": "number", "min": -1, "max": 100, "range": [0, 10], "pattern": "\\d+",
         "allowed": [5, 6.5], "not_blank": True, "on_fail": "flag", "description": "money"}],
       expect={"verdict": "flagged", "codes": ["pattern_mismatch", "not_allowed", "below_minimum", "out_of_range"]})
    vr("contract_description_forms",
       [{"a": 1, "b": 1, "c": 1, "d": 1, "e": 1}],
       [{"name": "a", "description": ""}, {"name": "b", "description": None}, {"name": "c", "description": 5},
        {"name": "d", "description": {"x": [1]}}, {"name": "e", "description": "It's \u2028 here"}],
       expect={"verdict": "clean"})
    vr("contract_explicit_defaults",
       [{"a": 1}], [{"name": "a", "type": "any", "on_fail": "quarantine", "required": False, "not_blank": False}],
       expect={"verdict": "clean"})
    vr("contract_int_bounds_echo_as_float",
       [{"a": 3}], [{"name": "a", "min": 1, "max": 9223372036854775807, "range": [-5, 5]}],
       expect={"verdict": "clean"})
    vr("column_names_unicode_and_whitespace",
       [{"ünïcödé": "x", "\u3000wide\u3000": 1, "wide": "y", "名前": None}],
       [{"name": "ünïcödé", "type": "integer"}, {"name": "\u3000wide\u3000", "type": "integer"},
        {"name": "名前", "required": True}],
       expect={"codes": ["not_an_integer", "required_blank"]})
    vr("columns_seen_order",
       [{"c": 1, "a": 2, "declared": 0}, {"b": 1, "a": 3, "d": None}, "not a row", {"e": 1, "c": 2}],
       [{"name": "declared"}], expect={"codes": ["not_an_object"]})
    vr("coerced_value_replaces_cell_in_both_lists",
       [{"n": "  42 ", "bad": "x"}, {"n": " 7.50 ", "bad": 1}],
       [{"name": "n", "type": "number"}, {"name": "bad", "type": "integer"}],
       expect={"codes": ["not_an_integer"]})
    vr("non_finite_in_rows_reported_as_text",
       [{"v": "1e400", "w": "x"}, {"v": "-1e400", "w": 1}, {"v": "nan", "w": 2}],
       [{"name": "v", "type": "number"}, {"name": "w", "type": "integer"}],
       expect={"contains": ["Infinity", "NaN"]})
    vr("pass_rate_rounding",
       [{"v": 1}, {"v": 1}, {"v": "x"}], [{"name": "v", "type": "integer"}],
       expect={"paths": {"summary.pass_rate": 0.6667}})
    vr("pass_rate_rounding_seven",
       [{"v": 1}] * 5 + [{"v": "x"}] * 2, [{"name": "v", "type": "integer"}],
       expect={"paths": {"summary.pass_rate": 0.7143}})

    # ---- pre_parse_json and pydantic on validate_rows ---------------------
    vr("rows_and_columns_as_json_text",
       "[{\"a\": \"1\"}, {\"a\": \"x\"}]", "[{\"name\": \"a\", \"type\": \"integer\"}]",
       expect={"codes": ["not_an_integer"]}, covers=["coerce:rows_json_text", "coerce:columns_json_text"])
    vr("rows_json_text_with_whitespace", " [ {\"a\" : 1.0} ] ", [{"name": "a", "type": "integer"}],
       expect={"verdict": "clean", "paths": {"accepted.0.a": 1}})
    vr("rows_json_text_empty", "[]", [{"name": "a"}], expect={"codes": ["no_rows"]})
    vr("rows_string_not_json", "x", [{"name": "a"}], expect=E(PYD, args=["rows"]), covers=["pyd:rows_string"])
    vr("rows_object", {}, [{"name": "a"}], expect=E(PYD, args=["rows"]), covers=["pyd:rows_object"])
    vr("rows_object_json_text", "{\"a\": 1}", [{"name": "a"}], expect=E(PYD, args=["rows"]))
    vr("rows_null", None, [{"name": "a"}], expect=E(PYD, args=["rows"]))
    vr("rows_null_text", "null", [{"name": "a"}], expect=E(PYD, args=["rows"]))
    vr("rows_number", 5, [{"name": "a"}], expect=E(PYD, args=["rows"]))
    vr("columns_object", [{"a": 1}], {"name": "a"}, expect=E(PYD, args=["columns"]),
       covers=["pyd:columns_not_list"])
    vr("columns_string", [{"a": 1}], "a", expect=E(PYD, args=["columns"]), covers=["pyd:columns_not_list"])
    vr("rows_columns_row_key_all_wrong", "x", {}, row_key=5, expect=E(PYD, args=["rows", "columns", "row_key"]))
    _add("validate_rows", "missing_rows", {"columns": [{"name": "a"}]},
         E(PYD, args=["rows"]), ["pyd:missing_required"])
    _add("validate_rows", "missing_columns", {"rows": []}, E(PYD, args=["columns"]), ["pyd:missing_required"])
    _add("validate_rows", "missing_everything", {}, E(PYD, args=["rows", "columns"]), ["pyd:missing_required"])
    vr("extra_argument_ignored", [{"a": 1}], [{"name": "a"}], expect={"verdict": "clean"},
       unknown_argument="ignored by pydantic")
    vr("columns_bad_contract_checked_before_rows_type", [1], [{"name": "a", "type": "nope"}],
       expect=E(TOOL_ERR, "unknown type"))

    # ---- contract argument errors (ToolError) ----------------------------
    vr("err_columns_empty", [{"a": 1}], [], expect=E(TOOL_ERR, 'the "columns" argument is empty'),
       covers=["arg:columns_empty"])
    vr("err_columns_empty_json_text", [{"a": 1}], "[]", expect=E(TOOL_ERR, "is empty"),
       covers=["arg:columns_empty"])
    for label, element in [("string", "amount"), ("number", 5), ("list", ["name", "a"]), ("null", None),
                           ("bool", True), ("float", 1.5)]:
        vr(f"err_column_not_object_{label}", [{"a": 1}], [{"name": "a"}, element],
           expect=E(TOOL_ERR, "column #2 must be an object"), covers=["arg:column_not_object"])
    vr("err_unknown_spec_key", [{"a": 1}], [{"name": "a", "regexp": "x"}],
       expect=E(TOOL_ERR, "unknown key(s) 'regexp'"), covers=["arg:unknown_spec_key"])
    vr("err_unknown_spec_keys_sorted", [{"a": 1}], [{"name": "a"}, {"name": "b", "regexp": 1, "Name": "b", "max_len": 3, "": 0, "é": 1}],
       expect=E(TOOL_ERR, "column #2: unknown key(s) '', 'Name', 'max_len', 'regexp', 'é'"),
       covers=["arg:unknown_spec_keys"])
    vr("err_unknown_key_checked_before_name", [{"a": 1}], [{"typ": "number"}],
       expect=E(TOOL_ERR, "unknown key(s) 'typ'"), covers=["arg:unknown_spec_key"])
    vr("err_name_missing", [{"a": 1}], [{"type": "number"}], expect=E(TOOL_ERR, 'column #1 needs a non-empty "name" string'),
       covers=["arg:name_missing"])
    vr("err_name_blank", [{"a": 1}], [{"name": "a"}, {"name": ""}], expect=E(TOOL_ERR, "column #2 needs"),
       covers=["arg:name_blank"])
    vr("err_name_whitespace", [{"a": 1}], [{"name": "\u3000\x1c"}], expect=E(TOOL_ERR, "column #1 needs"),
       covers=["arg:name_blank"])
    for label, name in [("int", 5), ("null", None), ("list", ["a"]), ("bool", True)]:
        vr(f"err_name_not_string_{label}", [{"a": 1}], [{"name": name}], expect=E(TOOL_ERR, "needs a non-empty"),
           covers=["arg:name_not_string"])
    for label, type_name in [("str", "str"), ("case", "Number"), ("int", 5), ("null", None), ("list", ["string"]),
                             ("padded", " string "), ("empty", "")]:
        vr(f"err_unknown_type_{label}", [{"a": 1}], [{"name": " a ", "type": type_name}],
           expect=E(TOOL_ERR, 'column "a": unknown type'), covers=["arg:unknown_type"])
    for label, mode in [("warn", "warn"), ("null", None), ("case", "Flag"), ("list", ["flag"])]:
        vr(f"err_bad_on_fail_{label}", [{"a": 1}], [{"name": "a", "on_fail": mode}],
           expect=E(TOOL_ERR, "on_fail must be one of quarantine, flag"), covers=["arg:bad_on_fail"])
    for label, value in [("string", "true"), ("int", 1), ("null", None)]:
        vr(f"err_required_not_bool_{label}", [{"a": 1}], [{"name": "a", "required": value}],
           expect=E(TOOL_ERR, '"required" must be true or false'), covers=["arg:required_not_bool"])
        vr(f"err_not_blank_not_bool_{label}", [{"a": 1}], [{"name": "a", "not_blank": value}],
           expect=E(TOOL_ERR, '"not_blank" must be true or false'), covers=["arg:not_blank_not_bool"])
    for label, value in [("string", "5"), ("null", None), ("list", [5]), ("object", {"v": 1})]:
        vr(f"err_min_not_number_{label}", [{"a": 1}], [{"name": "a", "min": value}],
           expect=E(TOOL_ERR, '"min" must be a number'), covers=["arg:min_not_number"])
        vr(f"err_max_not_number_{label}", [{"a": 1}], [{"name": "a", "max": value}],
           expect=E(TOOL_ERR, '"max" must be a number'), covers=["arg:max_not_number"])
    vr("err_min_bool", [{"a": 1}], [{"name": "a", "min": True}], expect=E(TOOL_ERR, '"min" must be a number, got True'),
       covers=["arg:min_bool"])
    vr("err_max_bool", [{"a": 1}], [{"name": "a", "max": False}], expect=E(TOOL_ERR, '"max" must be a number, got False'),
       covers=["arg:max_bool"])
    vr("err_min_checked_before_max", [{"a": 1}], [{"name": "a", "max": "x", "min": "y"}],
       expect=E(TOOL_ERR, '"min" must be a number'), covers=["arg:min_not_number"])
    for label, value in [("one", [1]), ("three", [1, 2, 3]), ("string", "0..1"), ("object", {"low": 0}),
                         ("null_element", [None, 1]), ("string_element", ["0", 1]), ("empty", []), ("null", None),
                         ("nested", [[0], [1]])]:
        vr(f"err_range_shape_{label}", [{"a": 1}], [{"name": "a", "range": value}],
           expect=E(TOOL_ERR, '"range" must be a two-number array'), covers=["arg:range_shape"])
    vr("err_range_bools", [{"a": 1}], [{"name": "a", "range": [True, 2]}],
       expect=E(TOOL_ERR, "got [True, 2]"), covers=["arg:range_bools"])
    vr("err_range_bools_both", [{"a": 1}], [{"name": "a", "range": [False, True]}],
       expect=E(TOOL_ERR, "got [False, True]"), covers=["arg:range_bools"])
    vr("err_range_low_above_high", [{"a": 1}], [{"name": "a", "range": [10, 1]}],
       expect=E(TOOL_ERR, '"range" low bound 10 is above the high bound 1'), covers=["arg:range_low_above_high"])
    vr("err_range_low_above_high_g_format", [{"a": 1}], [{"name": "a", "range": [123456789, 1e-7]}],
       expect=E(TOOL_ERR, "low bound 1.23457e+08 is above the high bound 1e-07"), covers=["arg:range_low_above_high"])
    vr("err_range_neg_zero_vs_tiny", [{"a": 1}], [{"name": "a", "range": [1e-300, -0.0]}],
       expect=E(TOOL_ERR, "low bound 1e-300 is above the high bound -0"), covers=["arg:range_low_above_high"])
    for label, value in [("int", 5), ("null", None), ("list", ["a"]), ("bool", False)]:
        vr(f"err_pattern_not_string_{label}", [{"a": 1}], [{"name": "a", "pattern": value}],
           expect=E(TOOL_ERR, '"pattern" must be a string'), covers=["arg:pattern_not_string"])
    for label, source in [("open_paren", "("), ("open_set", "[a-"), ("nothing_to_repeat", "*"),
                          ("dup_group", "(?P<x>a)(?P<x>b)"), ("trailing_backslash", "\\"),
                          ("bad_repeat", "a{2,1}"), ("lookbehind_width", "(?<=a+)b"),
                          ("unicode_property", "\\p{L}+"), ("unknown_group_ref", "(?P=nope)"),
                          ("bad_flag", "(?z)a"), ("unbalanced_close", "a)"), ("bad_escape", "\\q"),
                          ("global_flag_not_at_start", "a(?i)b")]:
        vr(f"err_bad_regex_{label}", [{"a": 1}], [{"name": "a", "pattern": source}],
           expect=E(TOOL_ERR, '"pattern" is not a valid regular expression'), covers=["arg:bad_regex"])
    vr("err_allowed_empty", [{"a": 1}], [{"name": "a", "allowed": []}],
       expect=E(TOOL_ERR, '"allowed" must be a non-empty array, got []'), covers=["arg:allowed_empty"])
    for label, value in [("string", "a"), ("object", {}), ("null", None), ("number", 1), ("object_full", {"a": 1})]:
        vr(f"err_allowed_not_list_{label}", [{"a": 1}], [{"name": "a", "allowed": value}],
           expect=E(TOOL_ERR, '"allowed" must be a non-empty array'), covers=["arg:allowed_not_list"])
    vr("err_duplicate_column", [{"a": 1}], [{"name": "b"}, {"name": "a"}, {"name": "b"}, {"name": "a"}],
       expect=E(TOOL_ERR, "duplicate column name(s) in the contract: a, b."), covers=["arg:duplicate_column"])
    vr("err_duplicate_column_after_strip", [{"a": 1}], [{"name": "a"}, {"name": " a "}, {"name": "\u3000a\t"}],
       expect=E(TOOL_ERR, "duplicate column name(s) in the contract: a."),
       covers=["arg:duplicate_column_after_strip"])
    vr("not_duplicate_case_differs", [{"a": 1, "A": 2}], [{"name": "a"}, {"name": "A"}],
       expect={"verdict": "clean"})
    vr("err_first_bad_column_wins", [{"a": 1}], [{"name": "a", "type": "bad"}, {"nme": "b"}],
       expect=E(TOOL_ERR, 'column "a": unknown type'))
    vr("err_check_order_type_before_on_fail", [{"a": 1}],
       [{"name": "a", "type": "bad", "on_fail": "bad", "required": "x"}], expect=E(TOOL_ERR, "unknown type"))
    vr("err_check_order_on_fail_before_required", [{"a": 1}],
       [{"name": "a", "on_fail": "bad", "required": "x"}], expect=E(TOOL_ERR, "on_fail must be"))
    vr("err_check_order_range_before_pattern", [{"a": 1}],
       [{"name": "a", "range": [2, 1], "pattern": "("}], expect=E(TOOL_ERR, "low bound"))
    vr("err_check_order_pattern_before_allowed", [{"a": 1}],
       [{"name": "a", "allowed": [], "pattern": "("}], expect=E(TOOL_ERR, "not a valid regular expression"))
    vr("err_message_repr_of_unicode", [{"a": 1}], [{"name": "名", "type": "naïve\u2028"}],
       expect=E(TOOL_ERR, "unknown type"))


# ===========================================================================
# reconcile
# ===========================================================================

def _reconcile_cases():
    rc("clean_simple", 1000.00, [250.0, -40.5], 1209.5, expect={"verdict": "clean", "ok": True})
    rc("docstring_example", 1000.00,
       [{"amount": 250.0, "direction": "in", "label": "INV-1001", "date": "2026-04-03"}], 1250.00,
       expect={"verdict": "clean"})
    rc("guidance_example", 1000.00, [{"amount": 250.0, "direction": "in"}], 1250.00, 0.01,
       expect={"verdict": "clean"})
    rc("does_not_close_plain", 100, [10, 20], 200, expect={"verdict": "does_not_close", "codes": ["does_not_close"]})
    rc("variance_matches_single_movement", 1000, [250, {"amount": 40, "direction": "out"}], 1250,
       expect={"codes": ["variance_matches_single_movement"], "no_codes": ["variance_is_double_a_movement"]})
    rc("variance_single_and_double", 0, [10, 20], 50,
       expect={"codes": ["variance_matches_single_movement", "variance_is_double_a_movement"]})
    rc("variance_is_double_only_readme_style", 1000, [250, {"amount": 40, "direction": "out"}], 1290,
       expect={"codes": ["variance_is_double_a_movement"], "no_codes": ["variance_matches_single_movement"]})
    rc("variance_matches_single_movement_only", 1000, [250, -40, 13], 1236,
       expect={"codes": ["variance_matches_single_movement"], "no_codes": ["variance_is_double_a_movement"]})
    rc("variance_is_double_a_movement_only", 1000, [100, 7], 1093,
       expect={"codes": ["variance_is_double_a_movement"], "no_codes": ["variance_matches_single_movement"]})
    rc("variance_matches_first_of_several", 0, [5, 5, -5, 10], 5,
       expect={"codes": ["variance_matches_single_movement", "variance_is_double_a_movement"]})
    rc("variance_match_within_tolerance", 0, [100.004], 200.0, 0.01,
       expect={"codes": ["variance_matches_single_movement"]})
    rc("zero_movement_never_matches", 0, [0, 0.0, -0.0], 0.005, 0.001, expect={"codes": ["movements_net_to_zero"]})
    rc("movements_net_to_zero", 100, [50, -50], 150, expect={"codes": ["movements_net_to_zero", "variance_matches_single_movement"]})
    rc("movements_empty_net_zero", 100, [], 150, expect={"codes": ["movements_net_to_zero"]})
    rc("movements_null", 100, None, 100, expect={"verdict": "clean"})
    rc("movements_null_text", 100, "null", 100, expect={"verdict": "clean"}, covers=["coerce:movements_json_text"])
    rc("movements_json_text", 100, "[10, {\"amount\": 5, \"direction\": \"out\"}]", 105,
       expect={"verdict": "clean"}, covers=["coerce:movements_json_text"])
    rc("movements_object_rejected", 100, {"amount": 5}, 105, expect={"verdict": "inputs_rejected", "codes": ["invalid_arguments"]},
       covers=["reconcile:rejected_movements_object"])
    rc("movements_empty_object_rejected", "abc", {}, None, expect={"verdict": "inputs_rejected"})
    rc("movements_number_rejected", 100, 5, 105, expect={"verdict": "inputs_rejected", "codes": ["invalid_arguments"]},
       covers=["reconcile:rejected_movements_number"])
    rc("movements_bool_rejected", True, True, 1.5, expect={"verdict": "inputs_rejected",
                                                              "paths": {"opening_balance": True, "reported_closing_balance": 1.5}})
    rc("movements_non_json_string_rejected", 100, "ten pounds", 110, expect={"verdict": "inputs_rejected"},
       covers=["reconcile:rejected_movements_non_json_string"])
    rc("movements_numeric_string_rejected", 100, "5", 105, expect={"verdict": "inputs_rejected"})
    rc("movements_true_text_rejected", 100, "true", 105, expect={"verdict": "inputs_rejected"})
    rc("movements_object_text_rejected", "1e3", "{\"a\": 1}", "x", expect={"verdict": "inputs_rejected"})
    rc("rejected_echoes_only_numbers", 10**15, {}, -2.5, expect={"verdict": "inputs_rejected"})

    # ---- movements that cannot be read ----------------------------------
    rc("unknown_movement_key", 0, [{"amount": 1, "memo": "x"}, {"amount": 2, "Amount": 3, "note": None}], 3,
       expect={"codes": ["unknown_movement_key", "arithmetic_unreliable"], "verdict": "inputs_rejected"})
    rc("movement_not_numeric_object_forms", 0,
       [{"amount": "abc"}, {"amount": None}, {}, {"amount": True}, {"amount": "nan"}, {"amount": "1e400"},
        {"amount": [1]}, {"amount": {"v": 1}}, {"amount": None, "value": 5}, {"value": "Infinity"}],
       0, expect={"codes": ["movement_not_numeric", "arithmetic_unreliable"]},
       covers=["reconcile:movement_not_numeric_object"])
    rc("movement_not_numeric_bare_forms", 0,
       ["abc", None, True, False, [1], "nan", "-inf", "", " ", "1,000"], 0,
       expect={"codes": ["movement_not_numeric"]}, covers=["reconcile:movement_not_numeric_bare"])
    rc("movement_numeric_strings_accepted", 0,
       [" 1_000.5 ", "1e3", "+5", "١٢٣", "-0", "\u20032.50\u2003", "\x1c3\x1f"], 2131.0,
       expect={"verdict": "does_not_close"})
    rc("unknown_direction", 0,
       [{"amount": 1, "direction": "sideways"}, {"amount": 1, "direction": 1}, {"amount": 1, "direction": ""},
        {"amount": 1, "direction": ["in"]}, {"amount": 1, "sign": "up"}, {"amount": 1, "direction": "İN"},
        {"amount": 1, "direction": "ＩＮ"}], 0,
       expect={"codes": ["unknown_direction"]})
    rc("direction_words", 0,
       [{"amount": 1, "direction": w} for w in
        ["in", "IN", " Inflow ", "inflows", "credit", "CR", "receipt", "Deposit", "+", "\u3000cr\x1f"]]
       + [{"amount": 2, "direction": w} for w in
          ["out", "OUT", "outflow", "Outflows", "debit", "dr", "Payment", "WITHDRAWAL", "-", "\x85Dr\u2028"]],
       -10, expect={"verdict": "clean"})
    rc("direction_overrides_sign", 0,
       [{"amount": -50, "direction": "in"}, {"amount": -20, "direction": "out"}, {"amount": 30, "sign": "out"},
        {"amount": -5, "sign": "+"}], 5, expect={"verdict": "clean"})
    rc("direction_null_falls_back_to_sign_of_amount_not_sign_key", 0,
       [{"amount": 10, "direction": None, "sign": "out"}, {"amount": -3, "direction": None}], 7,
       expect={"verdict": "clean"})
    rc("value_alias_and_label_aliases", 0,
       [{"value": 5, "description": "desc"}, {"amount": 1, "value": 99, "reference": "REF-1"},
        {"value": "2", "label": None, "description": "d", "reference": "r"},
        {"amount": 3, "label": 42, "date": 20260401}, {"amount": 4, "label": {"k": [1]}, "date": True},
        {"amount": 5, "label": 1.0, "date": None, "description": "ignored"},
        {"amount": 6, "label": "L", "description": "D", "reference": "R", "date": "2026-04-01"},
        {"amount": 7, "reference": False}], 33.0,
       expect={"verdict": "clean"})
    rc("negative_zero_amounts", 0, [-0.0, {"amount": -0.0}, "-0.0", {"amount": "-0", "direction": "out"}], 0,
       expect={"verdict": "clean"})

    # ---- balances ---------------------------------------------------------
    rc("opening_balance_not_numeric_forms", "abc", [], 5,
       expect={"codes": ["opening_balance_not_numeric", "arithmetic_unreliable"]})
    rc("closing_balance_not_numeric_forms", 5, [], "five",
       expect={"codes": ["closing_balance_not_numeric", "arithmetic_unreliable"]})
    rc("both_balances_and_a_movement_unreadable", None, ["x", 5], [1],
       expect={"codes": ["opening_balance_not_numeric", "closing_balance_not_numeric", "movement_not_numeric",
                         "arithmetic_unreliable"]})
    for label, value in [("true", True), ("list", [1]), ("object", {"a": 1}), ("nan_text", "nan"),
                         ("inf_text", "inf"), ("empty", ""), ("zero_width", "\u200b1"), ("comma", "1,000.00"),
                         ("quoted_text", "\"5\""), ("repr_quotes", "It's \"x\"\u2028")]:
        rc(f"opening_balance_not_numeric_{label}", value, [1], 1,
           expect={"codes": ["opening_balance_not_numeric"]})
    rc("opening_null_json", None, [1], 1, expect={"codes": ["opening_balance_not_numeric"]})
    rc("opening_null_text_preparsed", "null", [1], 1,
       expect={"codes": ["opening_balance_not_numeric"], "contains": "opening balance None is not"},
       covers=["coerce:opening_null"])
    rc("opening_list_text_preparsed", "[1]", [1], 2,
       expect={"codes": ["opening_balance_not_numeric"], "contains": "opening balance [1] is not"},
       covers=["coerce:opening_list_text"])
    rc("opening_object_text_preparsed", "{\"amount\": 1}", [1], 2, expect={"codes": ["opening_balance_not_numeric"]})
    rc("opening_true_text_stays_string", "true", [1], 2,
       expect={"contains": "opening balance 'true' is not"})
    rc("opening_underscore_text", " 1_000.5 ", [1], 1001.5, expect={"verdict": "clean"},
       covers=["coerce:opening_underscore"])
    rc("opening_exponent_and_unicode_text", "1e3", ["١٢٣"], "１１２３", expect={"verdict": "clean"})
    rc("closing_nan_text_preparse_skips_floats", 0, [], "NaN", expect={"codes": ["closing_balance_not_numeric"]})
    rc("closing_infinity_text", 0, [], "-Infinity", expect={"codes": ["closing_balance_not_numeric"]})
    rc("balances_as_numeric_strings", "1000.00", ["250", "-40.50"], "1209.50", expect={"verdict": "clean"})
    rc("int_balances_become_floats", 1000, [250], 1250, 0, expect={"verdict": "clean", "paths": {"opening_balance": 1000.0}})
    rc("large_int_precision", 9007199254740993, [1], 9007199254740994, 0, expect={"verdict": "does_not_close"})

    # ---- tolerance ----------------------------------------------------------
    rc("tolerance_negative", 100, [5], 105.3, -0.5, expect={"codes": ["tolerance_negative"], "verdict": "clean"})
    rc("tolerance_negative_does_not_close", 100, [5], 106, -0.5,
       expect={"codes": ["tolerance_negative", "does_not_close"]})
    rc("tolerance_negative_zero", 100, [5], 105, -0.0, expect={"verdict": "clean", "no_codes": ["tolerance_negative"]})
    rc("tolerance_zero_float_noise", 0.1, [0.2], 0.3, 0, expect={"verdict": "does_not_close"})
    rc("tolerance_default_float_noise", 0.1, [0.2], 0.3, expect={"verdict": "clean"})
    rc("tolerance_string", 100, [5], 105.4, "0.5", expect={"verdict": "clean"}, covers=["coerce:tolerance_string"])
    rc("tolerance_int", 100, [5], 106, 1, expect={"verdict": "clean", "paths": {"tolerance": 1.0}},
       covers=["coerce:tolerance_int"])
    rc("tolerance_exponent_string", 100, [5], 105.02, "1e-2", expect={"verdict": "does_not_close"},
       covers=["coerce:tolerance_exponent"])
    rc("tolerance_inf", 100, [5], 1e300, "inf", expect={"verdict": "clean", "paths": {"tolerance": None}},
       covers=["coerce:tolerance_inf"])
    rc("tolerance_nan", 100, [5], 105, "nan", expect={"verdict": "does_not_close", "paths": {"tolerance": None}},
       covers=["coerce:tolerance_nan"])
    rc("tolerance_neg_inf", 100, [5], 7, "-inf", expect={"verdict": "clean", "codes": ["tolerance_negative"]},
       covers=["coerce:tolerance_neg_inf"])
    rc("tolerance_infinity_word", 100, [5], 7, "-Infinity", expect={"codes": ["tolerance_negative"]})
    rc("tolerance_bool", 100, [5], 106, True, expect={"verdict": "clean"})
    rc("tolerance_underscore_string", 100, [5], 115, "1_0", expect={"verdict": "clean"})
    rc("tolerance_padded_string", 100, [5], 105.4, " 0.5 ", expect={"verdict": "clean"})
    rc("tolerance_abc", 100, [5], 105, "abc", expect=E(PYD, args=["tolerance"]), covers=["pyd:tolerance_abc"])
    rc("tolerance_null", 100, [5], 105, None, expect=E(PYD, args=["tolerance"]))
    rc("tolerance_list", 100, [5], 105, [0.1], expect=E(PYD, args=["tolerance"]))
    rc("tolerance_list_text", 100, [5], 105, "[0.1]", expect=E(PYD, args=["tolerance"]))
    rc("tolerance_g_format_forms", 0, [1], 1.5, 123456789, expect={"verdict": "clean"})
    rc("tolerance_tiny_g_format", 0, [1], 1.5, 1e-5, expect={"verdict": "does_not_close"})
    rc("tolerance_small_g_format", 0, [1], 1.5, 0.0001, expect={"verdict": "does_not_close"})

    # ---- :,.2f formatting ------------------------------------------------
    rc("format_large_thousands", 1234567.891, [{"amount": 1000000, "direction": "out"}], 9876543.21,
       expect={"contains": "1,234,567.89"})
    rc("format_negative_and_negative_zero", -0.001, [-0.002], -0.004, 0,
       expect={"contains": "-0.00"})
    rc("format_huge", 1e21, [1e20], -1e22, expect={"verdict": "does_not_close"})
    rc("format_rounding_half", 0.005, [2.675], 1.005, 0, expect={"verdict": "does_not_close"})
    rc("format_int_movement_and_exact_close", 10**12, [-(10**11)], 9 * 10**11, 0, expect={"verdict": "clean"})
    rc("overflow_to_infinity", 1e308, [1e308], 1e308, expect={"verdict": "does_not_close"})
    rc("overflow_to_nan", 0, [1e308, 1e308, -1e308, -1e308], 0, expect={"verdict": "does_not_close"})
    rc("opening_max_float", 1.7976931348623157e308, [], 1.7976931348623157e308, 0, expect={"verdict": "clean"})
    rc("tiny_values", 5e-324, [5e-324], 1e-323, 0, expect={"verdict": "clean"})

    # ---- pydantic ---------------------------------------------------------
    _add("reconcile", "missing_opening", {"movements": [], "closing_balance": 1}, E(PYD, args=["opening_balance"]),
         ["pyd:missing_required"])
    _add("reconcile", "missing_all", {}, E(PYD, args=["opening_balance", "movements", "closing_balance"]),
         ["pyd:missing_required"])
    _add("reconcile", "missing_movements_only", {"opening_balance": 1, "closing_balance": 1}, E(PYD, args=["movements"]),
         ["pyd:missing_required"])


# ===========================================================================
# count_distinct
# ===========================================================================

def _count_distinct_cases():
    cd("readme_inspector_example", [{"id": "C-1"}, {"id": "C-1"}, {"id": ""}], "id",
       expect={"verdict": "review_required", "codes": ["repeated_key", "blank_key"]})
    cd("docstring_example", [{"customer_id": "C-1", "site": "A"}, {"customer_id": "C-1", "site": "B"}], "customer_id",
       expect={"codes": ["repeated_key"]})
    cd("clean", [{"id": 1}, {"id": 2}, {"id": "3"}], "id", expect={"verdict": "clean", "ok": True})
    cd("no_rows", [], "id", expect={"verdict": "clean", "ok": False, "codes": ["no_rows"]})
    cd("not_an_object_rows", ["C-1", 5, None, [1], True, {"id": "C-1"}], "id",
       expect={"codes": ["not_an_object"], "verdict": "review_required"})
    cd("blank_key_forms",
       [{"id": ""}, {"id": None}, {"id": "  "}, {}, {"other": 1}, {"id": "\u3000"}, {"id": "\x1f"},
        {"id": "\u200b"}, {"id": "\ufeff"}, {"id": []}, {"id": {}}, {"id": False}, {"id": 0}],
       "id", expect={"codes": ["blank_key"]})
    cd("blank_key_every_python_whitespace", [{"id": ch * 2} for ch in PY_WHITESPACE] + [{"id": "x"}], "id",
       expect={"codes": ["blank_key"]})
    cd("strip_every_python_whitespace", [{"id": ch + "K" + ch} for ch in PY_WHITESPACE], "id",
       expect={"codes": ["repeated_key"]})
    cd("not_stripped_lookalikes", [{"id": ch + "K"} for ch in NOT_PY_WHITESPACE] + [{"id": "K"}], "id",
       expect={"verdict": "clean"})
    cd("casefold_sharp_s", [{"k": "Straße"}, {"k": "STRASSE"}, {"k": "strasse"}, {"k": "STRAẞE"}, {"k": "straße"}], "k",
       expect={"codes": ["repeated_key"]})
    cd("casefold_titlecase_digraph", [{"k": "ǅ"}, {"k": "Ǆ"}, {"k": "ǆ"}, {"k": "DŽ"}], "k", expect={"codes": ["repeated_key"]})
    cd("casefold_greek_sigma", [{"k": "ΣΊΣΥΦΟΣ"}, {"k": "σίσυφος"}, {"k": "σίσυφοσ"}, {"k": "Σίσυφος"}], "k",
       expect={"codes": ["repeated_key"]})
    cd("casefold_specials",
       [{"k": "İstanbul"}, {"k": "istanbul"}, {"k": "i̇stanbul"}, {"k": "ﬁle"}, {"k": "FILE"}, {"k": "K"},
        {"k": "k"}, {"k": "Å"}, {"k": "å"}, {"k": "Ꭰ"}, {"k": "ꭰ"}, {"k": "ᏸ"}, {"k": "Ᏸ"}, {"k": "ŉ"},
        {"k": "ʼN"}, {"k": "ΐ"}, {"k": "ΐ"}, {"k": "ﬀ"}, {"k": "FF"}], "k",
       expect={"codes": ["repeated_key"]})
    cd("casefold_combining_not_normalised", [{"k": "é"}, {"k": "e\u0301"}, {"k": "É"}], "k",
       expect={"codes": ["repeated_key"]})
    cd("case_sensitive_true", [{"k": "Straße"}, {"k": "STRASSE"}, {"k": " a "}, {"k": "a"}], "k", True,
       expect={"codes": ["repeated_key"]})
    cd("case_sensitive_yes_text", [{"k": "A"}, {"k": "a"}], "k", "yes", expect={"verdict": "clean"},
       covers=["coerce:case_sensitive_yes"])
    cd("case_sensitive_off_text", [{"k": "A"}, {"k": "a"}], "k", "off", expect={"verdict": "review_required"},
       covers=["coerce:case_sensitive_off"])
    cd("case_sensitive_int_one", [{"k": "A"}, {"k": "a"}], "k", 1, expect={"verdict": "clean"},
       covers=["coerce:case_sensitive_int"])
    cd("case_sensitive_float_zero", [{"k": "A"}, {"k": "a"}], "k", 0.0, expect={"verdict": "review_required"},
       covers=["coerce:case_sensitive_float"])
    cd("case_sensitive_true_text", [{"k": "A"}, {"k": "a"}], "k", "true", expect={"verdict": "clean"})
    cd("case_sensitive_upper_text", [{"k": "A"}, {"k": "a"}], "k", "ON", expect={"verdict": "clean"})
    cd("case_sensitive_float_one", [{"k": "A"}, {"k": "a"}], "k", 1.0, expect={"verdict": "clean"})
    cd("case_sensitive_maybe", [{"k": "A"}], "k", "maybe", expect=E(PYD, args=["case_sensitive"]),
       covers=["pyd:case_sensitive_maybe"])
    cd("case_sensitive_two", [{"k": "A"}], "k", 2, expect=E(PYD, args=["case_sensitive"]))
    cd("case_sensitive_null", [{"k": "A"}], "k", None, expect=E(PYD, args=["case_sensitive"]))
    cd("case_sensitive_padded_text", [{"k": "A"}], "k", " true ", expect=E(PYD, args=["case_sensitive"]))
    cd("number_and_bool_keys",
       [{"k": 1}, {"k": 1.0}, {"k": "1"}, {"k": " 1 "}, {"k": True}, {"k": "TRUE"}, {"k": "true"}, {"k": False},
        {"k": 1.5}, {"k": "1.5"}, {"k": 1e16}, {"k": "10000000000000000"}, {"k": 1e22}, {"k": 0.1},
        {"k": 0.30000000000000004}, {"k": 1e-7}, {"k": "1e-07"}, {"k": -0.0}, {"k": 0}, {"k": "-0"},
        {"k": 9223372036854775807}, {"k": -9223372036854775808}, {"k": 2.5e-5}, {"k": 123456789012345680.0}],
       "k", expect={"codes": ["repeated_key"]})
    cd("object_and_list_keys_use_python_str",
       [{"k": {"a": 1}}, {"k": {"A": 1}}, {"k": "{'a': 1}"}, {"k": [1, "x"]}, {"k": "[1, 'X']"},
        {"k": [None, True, 1.0]}, {"k": "[none, true, 1.0]"}, {"k": {"é": "\u2028"}}, {"k": {"q": "it's"}}],
       "k", expect={"codes": ["repeated_key"]})
    cd("repeated_key_ordering", [{"k": x} for x in "bcaabcbcdd"] + [{"k": "é"}, {"k": "É"}, {"k": "z"}, {"k": "Z"}],
       "k", expect={"codes": ["repeated_key"]})
    cd("repr_of_keys_in_messages",
       [{"k": "it's"}, {"k": "IT'S"}, {"k": "say \"x\""}, {"k": "SAY \"X\""}, {"k": "both'\""}, {"k": "BOTH'\""},
        {"k": "\x00\x07"}, {"k": "\x00\x07"}, {"k": "\u2028a"}, {"k": "\u2028A"}, {"k": "\x85z"}, {"k": "\x85Z"},
        {"k": "\x7f"}, {"k": "\x7f"}, {"k": "👍"}, {"k": "👍"}, {"k": "\u05d0\u202e"}, {"k": "\u05d0\u202e"},
        {"k": "\ud7ff\ue000\uffff"}, {"k": "\ud7ff\ue000\uffff"}, {"k": "\U0001d400"}, {"k": "\U0001d400"}],
       "k", expect={"codes": ["repeated_key"]})
    cd("key_argument_not_stripped", [{"id": "a"}, {" id ": "b"}, {" id ": "B"}], " id ",
       expect={"codes": ["repeated_key", "blank_key"]})
    cd("key_argument_unicode_repr", [{"名\u2028": 1}, {"名\u2028": 1.0}], "名\u2028", expect={"codes": ["repeated_key"]})
    cd("key_argument_with_quote", [{"it's": 1}, {"it's": 1}], "it's", expect={"codes": ["repeated_key"]})
    cd("key_null_text_is_a_string", [{"null": "x"}, {"null": "X"}], "null", expect={"codes": ["repeated_key"]})
    cd("key_case_matters_for_lookup", [{"ID": 1}, {"id": 1}], "id", expect={"codes": ["blank_key"]})
    cd("many_repeats", [{"k": i % 3} for i in range(30)], "k", expect={"codes": ["repeated_key"]})
    cd("rows_json_text", "[{\"k\": 1}, {\"k\": 1}]", "k", expect={"codes": ["repeated_key"]},
       covers=["coerce:rows_json_text"])
    cd("err_blank_key", [{"k": 1}], "", expect=E(TOOL_ERR, "got ''"), covers=["arg:count_distinct_blank_key"])
    cd("err_whitespace_key", [{"k": 1}], " \t", expect=E(TOOL_ERR, "got ' \\t'"), covers=["arg:count_distinct_whitespace_key"])
    cd("err_unicode_whitespace_key", [{"k": 1}], "\u3000\x1c\u2028", expect=E(TOOL_ERR, "key must be the name"),
       covers=["arg:count_distinct_whitespace_key"])
    cd("err_blank_key_checked_before_rows", "x", "", expect=E(PYD, args=["rows"]))
    cd("key_int", [{"k": 1}], 5, expect=E(PYD, args=["key"]), covers=["pyd:key_int"])
    cd("key_null", [{"k": 1}], None, expect=E(PYD, args=["key"]))
    cd("key_list", [{"k": 1}], ["k"], expect=E(PYD, args=["key"]))
    cd("key_missing", [{"k": 1}], expect=E(PYD, args=["key"]), covers=["pyd:missing_required"])
    cd("key_missing_input_value_shows_preparsed_rows", "[{\"k\": 1}, {\"k\": \"a long value to force truncation\"}]",
       expect=E(PYD, args=["key"]), covers=["pyd:missing_required"])
    cd("key_list_input_value_repr", [{"k": 1}], ["\u2028é'\"\x00"], expect=E(PYD, args=["key"]))
    cd("key_list_input_value_truncated_by_utf8_bytes", [{"k": 1}], ["a" + "é" * 40], expect=E(PYD, args=["key"]))
    cd("key_list_input_value_truncated_emoji", [{"k": 1}], ["ab" + "\U0001f44d" * 20 + "c"], expect=E(PYD, args=["key"]))
    cd("key_list_input_value_just_under_limit", [{"k": 1}], ["x" * 46], expect=E(PYD, args=["key"]))
    cd("key_list_input_value_just_over_limit", [{"k": 1}], ["x" * 47], expect=E(PYD, args=["key"]))
    cd("key_long_list_input_value_truncated", [{"k": 1}], ["k" * 30, "é" * 30, "\U0001f44d" * 10],
       expect=E(PYD, args=["key"]))
    cd("rows_string", "x", "k", expect=E(PYD, args=["rows"]), covers=["pyd:rows_string"])
    cd("rows_object", {"k": 1}, "k", expect=E(PYD, args=["rows"]), covers=["pyd:rows_object"])
    cd("rows_and_key_wrong", {}, 5, False, expect=E(PYD, args=["rows", "key"]))
    _add("count_distinct", "missing_rows", {"key": "k"}, E(PYD, args=["rows"]), ["pyd:missing_required"])


# ===========================================================================
# duplicate_report
# ===========================================================================

def _duplicate_report_cases():
    people = [
        {"id": "P-1", "name": "Ann Lee", "postcode": "AB1 2CD"},
        {"id": "P-2", "name": "ann lee ", "postcode": "ab1 2cd"},
        {"id": "P-3", "name": "Bob Ray", "postcode": "ZZ9 9ZZ"},
        {"id": "p-1", "name": "Ann Lee", "postcode": "AB1 2CD"},
        {"id": "P-4", "name": "Anne Lee", "postcode": "AB1 2CD"},
        {"id": "", "name": "Nobody", "postcode": "X"},
        "not a row",
        {"id": "P-5", "name": None, "postcode": "AB1 2CD"},
    ]
    dr("clean", [{"id": 1}, {"id": 2}], "id", expect={"verdict": "clean", "ok": True})
    dr("clean_with_match_fields", [{"id": 1, "n": "a"}, {"id": 2, "n": "b"}], "id", match_fields=["n"],
       expect={"verdict": "clean"})
    dr("no_rows", [], "id", expect={"codes": ["no_rows"], "ok": False, "verdict": "clean"})
    dr("same_key_only", people, "id", expect={"codes": ["duplicate_key", "blank_key", "not_an_object"]})
    dr("all_three_kinds", people, "id", match_fields=["name", "postcode"], similarity_threshold=0.9,
       expect={"codes": ["duplicate_key", "same_signature", "near_match", "blank_key", "not_an_object"],
               "features": ["similarity"]})
    dr("all_three_kinds_case_sensitive", people, "id", match_fields=["name", "postcode"],
       similarity_threshold=0.8, case_sensitive=True, expect={"verdict": "review_required"})
    dr("same_signature_tuple_sorting",
       [{"id": "1", "a": "b", "b": "a"}, {"id": "2", "a": "b", "b": "a"}, {"id": "3", "a": "a", "b": "z"},
        {"id": "4", "a": "a", "b": "z"}, {"id": "5", "a": "a", "b": "y"}, {"id": "6", "a": "A", "b": "Y"},
        {"id": "7", "a": "a", "b": None}, {"id": "8", "a": "a"}, {"id": "9", "a": "ab", "b": ""},
        {"id": "10", "a": "10", "b": 1.0}, {"id": "11", "a": 10, "b": "1"}],
       "id", match_fields=["a", "b"], expect={"codes": ["same_signature"]})
    dr("same_signature_subset_of_same_key_not_repeated",
       [{"id": "A", "n": "x"}, {"id": "a", "n": "x"}, {"id": "B", "n": "x"}], "id", match_fields=["n"],
       expect={"codes": ["duplicate_key", "same_signature"]})
    dr("signature_subset_suppressed",
       [{"id": "A", "n": "x"}, {"id": "a", "n": "y"}, {"id": "B", "n": "x"}, {"id": "b", "n": "z"}], "key_missing",
       match_fields=["n"], expect={"codes": ["blank_key"]})
    dr("near_match_clustering_order",
       [{"id": "k1", "n": "abcdefghij"}, {"id": "k2", "n": "abcdefghiX"}, {"id": "k3", "n": "abcdefghXX"},
        {"id": "k4", "n": "zzzzzzzzzz"}, {"id": "k5", "n": "zzzzzzzzzY"}, {"id": "k0", "n": "abcdefgXXX"}],
       "id", match_fields=["n"], similarity_threshold=0.8, expect={"codes": ["near_match"]})
    dr("near_match_joins_first_cluster",
       [{"id": "a", "n": "aaaa"}, {"id": "b", "n": "bbbb"}, {"id": "c", "n": "aabb"}], "id", match_fields=["n"],
       similarity_threshold=0.5, expect={"codes": ["near_match"]})
    dr("near_match_min_over_fields",
       [{"id": 1, "f": "Jonathan", "l": "Smith", "d": "1990-01-01"},
        {"id": 2, "f": "Jonathon", "l": "Smyth", "d": "1990-01-01"},
        {"id": 3, "f": "Jonathan", "l": "Smith", "d": "1990-01-02"},
        {"id": 4, "f": "J", "l": "Smith", "d": "1990-01-01"}],
       "id", match_fields=["f", "l", "d"], similarity_threshold=0.75, expect={"codes": ["near_match"]})
    dr("near_match_includes_same_signature_keys_plus_more",
       [{"id": 1, "n": "kitten"}, {"id": 2, "n": "kitten"}, {"id": 3, "n": "sitten"}], "id", match_fields=["n"],
       similarity_threshold=0.8, expect={"codes": ["same_signature", "near_match"]})
    dr("near_match_identical_to_signature_group_suppressed",
       [{"id": 1, "n": "kitten"}, {"id": 2, "n": "kitten"}, {"id": 3, "n": "zebra"}], "id", match_fields=["n"],
       similarity_threshold=0.9, expect={"codes": ["same_signature"], "no_codes": ["near_match"]})
    dr("threshold_one_is_exact_only",
       [{"id": 1, "n": "x"}, {"id": 2, "n": "X "}, {"id": 3, "n": "y"}], "id", match_fields=["n"],
       similarity_threshold=1, expect={"codes": ["same_signature"]})
    dr("similarity_rounding_and_score_format",
       [{"id": 1, "n": "abcdefg"}, {"id": 2, "n": "abcdefh"}, {"id": 3, "n": "abcdxyz"}], "id", match_fields=["n"],
       similarity_threshold=0.5, expect={"features": ["similarity"]})
    dr("similarity_threshold_string", [{"id": 1, "n": "abcdefghij"}, {"id": 2, "n": "abcdefghik"}], "id",
       match_fields=["n"], similarity_threshold="0.9", expect={"codes": ["near_match"]},
       covers=["coerce:similarity_string"])
    dr("similarity_threshold_without_match_fields_is_inert", [{"id": 1}, {"id": 2}], "id",
       similarity_threshold=0.5, expect={"verdict": "clean"})
    dr("similarity_threshold_bool_true", [{"id": 1, "n": "a"}, {"id": 2, "n": "a"}], "id", match_fields=["n"],
       similarity_threshold=True, expect={"codes": ["same_signature"]})
    dr("similarity_threshold_null", [{"id": 1, "n": "a"}, {"id": 2, "n": "b"}], "id", match_fields=["n"],
       similarity_threshold=None, expect={"verdict": "clean"})
    dr("similarity_threshold_null_text", [{"id": 1, "n": "a"}, {"id": 2, "n": "b"}], "id", match_fields=["n"],
       similarity_threshold="null", expect={"verdict": "clean"})
    long_a = "a" * 150 + "b" * 60 + "x"
    long_b = "a" * 150 + "b" * 60 + "y"
    dr("autojunk_long_strings",
       [{"id": 1, "n": long_a}, {"id": 2, "n": long_b}, {"id": 3, "n": "abc" * 70}, {"id": 4, "n": "abc" * 69 + "abd"},
        {"id": 5, "n": "The quick brown fox " * 11}, {"id": 6, "n": ("The quick brown fox " * 11)[:-3] + "cat"}],
       "id", match_fields=["n"], similarity_threshold=0.5, expect={"verdict": "review_required"})
    dr("autojunk_boundary_199_vs_200",
       [{"id": 1, "n": "ab" * 99 + "c"}, {"id": 2, "n": "ab" * 99 + "d"}, {"id": 3, "n": "ab" * 100},
        {"id": 4, "n": "ab" * 99 + "ba"}], "id", match_fields=["n"], similarity_threshold=0.3,
       expect={"verdict": "review_required"})
    dr("autojunk_asymmetric_order",
       [{"id": "a", "n": "x" * 199}, {"id": "b", "n": "x" * 250 + "q"}, {"id": "c", "n": "q" + "x" * 198}],
       "id", match_fields=["n"], similarity_threshold=0.5, expect={"verdict": "review_required"})
    dr("autojunk_defeats_similarity",
       [{"id": 1, "n": "ab" * 100}, {"id": 2, "n": "ba" * 100}, {"id": 3, "n": "ab" * 99 + "a"}], "id",
       match_fields=["n"], similarity_threshold=0.5, expect={"codes": ["near_match"]})
    dr("autojunk_depends_on_argument_order_no_match",
       [{"id": "a", "n": "q" + "x" * 198}, {"id": "b", "n": "x" * 250 + "q"}], "id",
       match_fields=["n"], similarity_threshold=0.5, expect={"verdict": "clean"})
    dr("autojunk_depends_on_argument_order_match",
       [{"id": "b", "n": "q" + "x" * 198}, {"id": "a", "n": "x" * 250 + "q"}], "id",
       match_fields=["n"], similarity_threshold=0.5, expect={"codes": ["near_match"]})
    dr("casefold_keys_and_signatures",
       [{"id": "Straße", "n": "ǅ"}, {"id": "STRASSE", "n": "ǆ"}, {"id": "ΟΔΟΣ", "n": "Σ"}, {"id": "οδος", "n": "ς"},
        {"id": "x", "n": "DŽ"}, {"id": "y", "n": "σ"}], "id", match_fields=["n"],
       expect={"codes": ["duplicate_key", "same_signature"]})
    dr("key_argument_stripped", [{"id": 1}, {"id": 1}], " id ", expect={"codes": ["duplicate_key"],
                                                                           "paths": {"stable_key": "id"}})
    dr("match_fields_stripped", [{"id": 1, "n": "a"}, {"id": 2, "n": "A"}], "id", match_fields=[" n ", "\u3000n"],
       expect={"codes": ["same_signature"]})
    dr("match_fields_empty_list", [{"id": 1, "n": "a"}, {"id": 2, "n": "a"}], "id", match_fields=[],
       expect={"verdict": "clean"})
    dr("match_fields_null", [{"id": 1, "n": "a"}, {"id": 2, "n": "a"}], "id", match_fields=None,
       expect={"verdict": "clean"})
    dr("match_fields_json_text", [{"id": 1, "n": "a"}, {"id": 2, "n": "a"}], "id", match_fields="[\"n\"]",
       expect={"codes": ["same_signature"]})
    dr("match_fields_key_itself", [{"id": "ab"}, {"id": "ac"}], "id", match_fields=["id"], similarity_threshold=0.1,
       expect={"codes": ["near_match"]})
    dr("signature_values_numbers_bools_objects",
       [{"id": 1, "v": 1.0}, {"id": 2, "v": "1"}, {"id": 3, "v": True}, {"id": 4, "v": "TRUE"},
        {"id": 5, "v": {"a": 1}}, {"id": 6, "v": "{'A': 1}"}, {"id": 7, "v": [1]}, {"id": 8, "v": "[1]"}],
       "id", match_fields=["v"], expect={"codes": ["same_signature"]})
    dr("members_omitted_over_twenty", [{"id": "K", "n": i} for i in range(25)], "id",
       expect={"codes": ["duplicate_key"], "features": ["members_omitted"]},
       covers=["duplicate_report:members_omitted"])
    dr("members_exactly_twenty", [{"id": "K", "n": i} for i in range(20)], "id", expect={"codes": ["duplicate_key"]})
    dr("members_omitted_same_signature",
       [{"id": f"K{i:02d}", "n": "same"} for i in range(22)], "id", match_fields=["n"],
       expect={"codes": ["same_signature"], "features": ["members_omitted"]})
    many = [{"id": f"G{g}", "n": g * 10 + i} for g in range(6) for i in range(2)]
    dr("groups_truncated", many, "id", max_groups=2, expect={"codes": ["groups_truncated"]})
    dr("max_groups_zero", many, "id", max_groups=0, expect={"codes": ["groups_truncated"]},
       covers=["duplicate_report:max_groups_zero"])
    dr("max_groups_negative", many, "id", max_groups=-3, expect={"codes": ["groups_truncated"],
                                                                     "contains": "max_groups is 0"},
       covers=["duplicate_report:max_groups_negative"])
    dr("max_groups_string", many, "id", max_groups="3", expect={"codes": ["groups_truncated"]},
       covers=["coerce:max_groups_string", "duplicate_report:max_groups_string"])
    dr("max_groups_float", many, "id", max_groups=3.0, expect={"codes": ["groups_truncated"]},
       covers=["coerce:max_groups_float"])
    dr("max_groups_bool", many, "id", max_groups=True, expect={"codes": ["groups_truncated"]},
       covers=["coerce:max_groups_bool"])
    dr("max_groups_exact_fit", many, "id", max_groups=6, expect={"no_codes": ["groups_truncated"]})
    dr("max_groups_fraction", many, "id", max_groups=2.5, expect=E(PYD, args=["max_groups"]),
       covers=["pyd:max_groups_fraction"])
    dr("max_groups_word", many, "id", max_groups="abc", expect=E(PYD, args=["max_groups"]),
       covers=["pyd:max_groups_string", "duplicate_report:max_groups_string"])
    dr("max_groups_whole_float_text", many, "id", max_groups="3.0", expect={"codes": ["groups_truncated"]})
    dr("max_groups_fraction_text", many, "id", max_groups="2.5", expect=E(PYD, args=["max_groups"]))
    dr("max_groups_padded_text", many, "id", max_groups=" 4 ", expect={"codes": ["groups_truncated"]})
    dr("max_groups_exponent_text", many, "id", max_groups="1e1", expect=E(PYD, args=["max_groups"]))
    dr("max_groups_null", many, "id", max_groups=None, expect=E(PYD, args=["max_groups"]))
    dr("rows_json_text", "[{\"id\": 1}, {\"id\": \"1\"}]", "id", expect={"codes": ["duplicate_key"]},
       covers=["coerce:rows_json_text"])
    dr("case_sensitive_yes", [{"id": "A"}, {"id": "a"}], "id", case_sensitive="yes", expect={"verdict": "clean"},
       covers=["coerce:case_sensitive_yes"])
    dr("blank_keys_only", [{"id": " "}, {"id": None}, {}], "id", expect={"codes": ["blank_key"], "verdict": "clean"})
    dr("not_object_rows_only", [1, "x"], "id", expect={"codes": ["not_an_object"], "verdict": "clean"})

    # ---- argument errors ----------------------------------------------------
    dr("err_blank_key", [{"id": 1}], "", expect=E(TOOL_ERR, "key must be the name of the column holding the identifier"),
       covers=["arg:duplicate_report_blank_key"])
    dr("err_whitespace_key", [{"id": 1}], "\u2003\x85", expect=E(TOOL_ERR, "got '\\u2003\\x85'"),
       covers=["arg:duplicate_report_whitespace_key"])
    dr("err_match_fields_blank_entry", [{"id": 1}], "id", match_fields=["name", ""],
       expect=E(TOOL_ERR, "match_fields must be an array of column names"), covers=["arg:match_fields_blank_entry"])
    dr("err_match_fields_whitespace_entry", [{"id": 1}], "id", match_fields=[" \u3000"],
       expect=E(TOOL_ERR, "Got [' \\u3000']"), covers=["arg:match_fields_blank_entry"])
    dr("match_fields_non_string_entry", [{"id": 1}], "id", match_fields=["name", 5],
       expect=E(PYD, args=["match_fields"]), covers=["pyd:match_fields_non_string_entry"])
    dr("match_fields_null_entry", [{"id": 1}], "id", match_fields=[None], expect=E(PYD, args=["match_fields"]),
       covers=["pyd:match_fields_non_string_entry"])
    dr("match_fields_string", [{"id": 1}], "id", match_fields="name", expect=E(PYD, args=["match_fields"]),
       covers=["pyd:match_fields_string"])
    dr("match_fields_object", [{"id": 1}], "id", match_fields={"name": 1}, expect=E(PYD, args=["match_fields"]))
    dr("err_similarity_zero", [{"id": 1}], "id", similarity_threshold=0,
       expect=E(TOOL_ERR, "similarity_threshold must be above 0 and at most 1, got 0."), covers=["arg:similarity_zero"])
    dr("err_similarity_negative", [{"id": 1}], "id", similarity_threshold=-0.5,
       expect=E(TOOL_ERR, "got -0.5."), covers=["arg:similarity_negative"])
    dr("err_similarity_negative_zero", [{"id": 1}], "id", similarity_threshold=-0.0,
       expect=E(TOOL_ERR, "got -0."), covers=["arg:similarity_zero"])
    dr("err_similarity_above_one", [{"id": 1}], "id", similarity_threshold=1.5,
       expect=E(TOOL_ERR, "got 1.5."), covers=["arg:similarity_above_one"])
    dr("err_similarity_just_above_one", [{"id": 1}], "id", similarity_threshold=1.0000000000000002,
       expect=E(TOOL_ERR, "got 1."), covers=["arg:similarity_above_one"])
    dr("err_similarity_large_g_format", [{"id": 1}], "id", similarity_threshold=123456789,
       expect=E(TOOL_ERR, "got 1.23457e+08."), covers=["arg:similarity_above_one"])
    dr("err_similarity_nan_text", [{"id": 1}], "id", similarity_threshold="nan", expect=E(TOOL_ERR, "got nan."))
    dr("err_similarity_inf_text", [{"id": 1}], "id", similarity_threshold="inf", expect=E(TOOL_ERR, "got inf."))
    dr("similarity_abc", [{"id": 1}], "id", similarity_threshold="abc", expect=E(PYD, args=["similarity_threshold"]))
    dr("err_similarity_checked_with_rows_string_first", "x", "id", similarity_threshold=0,
       expect=E(PYD, args=["rows"]))
    dr("err_key_checked_before_match_fields", [{"id": 1}], " ", match_fields=[""],
       expect=E(TOOL_ERR, "key must be"))
    dr("err_match_fields_checked_before_similarity", [{"id": 1}], "id", match_fields=[""],
       similarity_threshold=5, expect=E(TOOL_ERR, "match_fields must be"))
    dr("key_int", [{"id": 1}], 5, expect=E(PYD, args=["key"]), covers=["pyd:key_int"])
    dr("key_missing", [{"id": 1}], expect=E(PYD, args=["key"]), covers=["pyd:missing_required"])
    dr("rows_string", "x", "id", expect=E(PYD, args=["rows"]), covers=["pyd:rows_string"])
    dr("rows_object", {}, "id", expect=E(PYD, args=["rows"]), covers=["pyd:rows_object"])
    dr("case_sensitive_maybe", [{"id": 1}], "id", case_sensitive="maybe", expect=E(PYD, args=["case_sensitive"]),
       covers=["pyd:case_sensitive_maybe"])
    dr("many_wrong_arguments", {}, 5, match_fields="n", similarity_threshold="x", case_sensitive="x", max_groups="x",
       expect=E(PYD, args=["rows", "key", "match_fields", "similarity_threshold", "case_sensitive", "max_groups"]))

    # ---- a few larger inputs ---------------------------------------------
    big = []
    for i in range(250):
        big.append({"id": f"C-{i % 180:03d}", "name": f"Customer {i % 37} {'Ltd' if i % 2 else 'Limited'}",
                    "city": ["Leeds", "LEEDS ", "York", "Hull"][i % 4]})
    dr("large_250_rows_same_key_and_signature", big, "id", match_fields=["name", "city"],
       expect={"codes": ["duplicate_key", "same_signature", "groups_truncated"]})
    dr("large_250_rows_near_match", big, "id", match_fields=["name"], similarity_threshold=0.85, max_groups=500,
       expect={"codes": ["near_match"]})


def _large_other_cases():
    rows = []
    for i in range(250):
        rows.append({"id": f"R{i}", "amount": ["10", "x", -1, "1e3", None][i % 5],
                     "when": ["2026-01-0" + str(1 + i % 9), "bad"][i % 7 == 0]})
    vr("large_250_rows", rows, [{"name": "id", "required": True}, {"name": "amount", "type": "number", "min": 0},
                                {"name": "when", "type": "date", "on_fail": "flag"}], row_key="id",
       expect={"verdict": "quarantined"})
    cd("large_250_rows", [{"k": f"K{(i * 7) % 97}"} for i in range(250)], "k", expect={"codes": ["repeated_key"]})
    rc("large_250_movements", 0, [((-1) ** i) * (i + 0.25) for i in range(250)], 125,
       expect={"verdict": "does_not_close"})


def cases() -> list[dict]:
    _CASES.clear()
    _validate_rows_cases()
    _reconcile_cases()
    _count_distinct_cases()
    _duplicate_report_cases()
    _large_other_cases()
    return list(_CASES)
