//! Contract v2, rule by rule: each expected value is reasoned in the test
//! from the rule's documented meaning (README, "Contract v2").

use serde_json::{json, Value};
use validation_core::{validate_rows, ErrorCode};

fn run(args: &Value) -> Value {
    validate_rows(args).unwrap_or_else(|err| panic!("argument error {:?}: {}", err.code, err.message))
}

/// `(row_index, column, code)` of every finding located at a row.
fn row_findings(result: &Value) -> Vec<(u64, String, String)> {
    result["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["locator"]["row_index"].is_u64())
        .map(|f| {
            let column = f["locator"]["column"].as_str().unwrap_or("").to_owned();
            (f["locator"]["row_index"].as_u64().unwrap(), column, f["code"].as_str().unwrap().to_owned())
        })
        .collect()
}

fn finding<'a>(result: &'a Value, code: &str) -> &'a Value {
    result["findings"].as_array().unwrap().iter().find(|f| f["code"] == code).unwrap_or_else(|| {
        panic!("no {code} finding in {:#}", result["findings"]);
    })
}

fn quarantined_rows(result: &Value) -> Vec<u64> {
    result["quarantine"].as_array().unwrap().iter().map(|q| q["locator"]["row_index"].as_u64().unwrap()).collect()
}

#[test]
fn unique_reports_every_repeat_after_the_first_located_at_the_first() {
    // "a" is at rows 0, 2 and 5; "b" at 1 and 4; row 3 is blank (not a value).
    let rows = json!([{"k": "a"}, {"k": "b"}, {"k": "a"}, {"k": " "}, {"k": "b"}, {"k": "a"}]);
    let result = run(&json!({"rows": rows, "columns": [{"name": "k", "unique": true}]}));
    assert_eq!(
        row_findings(&result),
        [
            (2, "k".into(), "duplicate_value".into()),
            (4, "k".into(), "duplicate_value".into()),
            (5, "k".into(), "duplicate_value".into())
        ]
    );
    let firsts: Vec<(u64, u64)> = result["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (f["locator"]["first_row_index"].as_u64().unwrap(), f["locator"]["first_row_number"].as_u64().unwrap())
        })
        .collect();
    assert_eq!(firsts, [(0, 1), (1, 2), (0, 1)]);
    assert_eq!(quarantined_rows(&result), [2, 4, 5]);
    assert_eq!(result["summary"]["accepted"], 3);
    assert_eq!(result["ok"], false);
}

#[test]
fn unique_compares_values_after_the_column_type() {
    // As numbers, "1", " 1.0 " and 1 are all 1.0: rows 1 and 2 repeat row 0.
    // "1e0" is 1.0 too. Untyped, "1" and 1 differ (text is not a number).
    let rows = json!([{"n": "1"}, {"n": " 1.0 "}, {"n": 1}, {"n": "2"}, {"n": "1e0"}]);
    let typed = run(&json!({"rows": rows, "columns": [{"name": "n", "type": "number", "unique": true}]}));
    assert_eq!(quarantined_rows(&typed), [1, 2, 4]);
    let untyped = run(&json!({"rows": [{"n": "1"}, {"n": 1}, {"n": 1.0}], "columns": [{"name": "n", "unique": true}]}));
    // 1 and 1.0 are equal in Python; "1" is text.
    assert_eq!(quarantined_rows(&untyped), [2]);
}

#[test]
fn unique_on_a_flag_column_keeps_the_row() {
    let rows = json!([{"e": "x@y.org"}, {"e": "x@y.org"}]);
    let result = run(&json!({"rows": rows, "columns": [{"name": "e", "unique": true, "on_fail": "flag"}]}));
    assert_eq!(result["summary"]["accepted"], 2);
    assert_eq!(result["summary"]["flagged"], 1);
    assert_eq!(result["verdict"], "flagged");
    assert_eq!(finding(&result, "duplicate_value")["severity"], "warning");
}

#[test]
fn lengths_count_characters_as_python_len() {
    // "é" is 2 bytes and 1 character; "日本語" is 9 bytes and 3 characters.
    let rows = json!([{"s": "é"}, {"s": "日本語"}, {"s": "abcd"}, {"s": "ab"}]);
    let result =
        run(&json!({"rows": rows, "columns": [{"name": "s", "type": "string", "min_length": 2, "max_length": 3}]}));
    assert_eq!(row_findings(&result), [(0, "s".into(), "too_short".into()), (2, "s".into(), "too_long".into())]);
    let short = finding(&result, "too_short");
    assert_eq!(short["message"], "'é' is 1 characters long, shorter than the minimum of 2");
    assert_eq!(short["expected"], "at least 2 characters");
}

#[test]
fn formats_follow_json_schema() {
    let rows = json!([
        {"email": "ann@example.org", "id": "123e4567-e89b-12d3-a456-426614174000", "ip": "192.168.0.1", "v6": "::1", "url": "https://example.org/a?b#c"},
        {"email": "ann.example.org", "id": "123e4567e89b12d3a456426614174000", "ip": "256.1.1.1", "v6": "1::2::3", "url": "example.org/a"},
    ]);
    let columns = json!([
        {"name": "email", "format": "email"},
        {"name": "id", "format": "uuid"},
        {"name": "ip", "format": "ipv4"},
        {"name": "v6", "format": "ipv6"},
        {"name": "url", "format": "uri"},
    ]);
    let result = run(&json!({"rows": rows, "columns": columns}));
    // Row 0 is valid in every format; row 1 in none: no @, no hyphens, an
    // octet above 255, two "::", and no scheme.
    let found = row_findings(&result);
    assert_eq!(found.len(), 5, "{found:?}");
    assert!(found.iter().all(|(row, _, code)| *row == 1 && code == "invalid_format"));
    assert_eq!(finding(&result, "invalid_format")["expected"], "format email");
}

#[test]
fn decimal_places_count_the_shortest_form() {
    // 10.50 is 10.5 (1 place); 0.125 has 3; 1e-3 is 0.001 (3); 7 has 0;
    // "x" is not a number.
    let rows = json!([{"m": "10.50"}, {"m": "0.125"}, {"m": "1e-3"}, {"m": 7}, {"m": "x"}]);
    let result = run(&json!({"rows": rows, "columns": [{"name": "m", "max_decimal_places": 2}]}));
    assert_eq!(
        row_findings(&result),
        [
            (1, "m".into(), "too_many_decimal_places".into()),
            (2, "m".into(), "too_many_decimal_places".into()),
            (4, "m".into(), "not_numeric".into()),
        ]
    );
    assert_eq!(
        finding(&result, "too_many_decimal_places")["message"],
        "0.125 has 3 decimal places, more than the 2 allowed"
    );
}

#[test]
fn datetimes_coerce_as_fromisoformat_and_come_back_in_isoformat() {
    let rows = json!([{"t": "2026-04-01 10:00"}, {"t": "2026-04-01T10:00:00.5+02:00"}, {"t": "yesterday"}, {"t": "2026-04-01T24:00"}]);
    let result = run(&json!({"rows": rows, "columns": [{"name": "t", "type": "datetime"}]}));
    // Python: datetime.fromisoformat("2026-04-01 10:00").isoformat() ==
    // "2026-04-01T10:00:00"; hour 24 raises in Python 3.11.
    assert_eq!(result["accepted"], json!([{"t": "2026-04-01T10:00:00"}, {"t": "2026-04-01T10:00:00.500000+02:00"}]));
    assert_eq!(
        row_findings(&result),
        [(2, "t".into(), "not_a_datetime".into()), (3, "t".into(), "not_a_datetime".into())]
    );
}

#[test]
fn datetime_bounds_compare_instants() {
    // The bound is 09:00 UTC. 10:00+02:00 is 08:00 UTC (before it);
    // 11:30+02:00 is 09:30 UTC (after); a naive 12:00 cannot be compared
    // with an aware bound (Python raises TypeError).
    let rows = json!([{"t": "2026-04-01T10:00+02:00"}, {"t": "2026-04-01T11:30+02:00"}, {"t": "2026-04-01T12:00"}]);
    let result =
        run(&json!({"rows": rows, "columns": [{"name": "t", "type": "datetime", "min": "2026-04-01T09:00Z"}]}));
    assert_eq!(
        row_findings(&result),
        [(0, "t".into(), "below_minimum".into()), (2, "t".into(), "not_comparable".into())]
    );
    assert_eq!(
        finding(&result, "not_comparable")["message"],
        "'2026-04-01T12:00:00' is a naive datetime, so cannot be compared to the aware minimum 2026-04-01T09:00Z"
    );
}

#[test]
fn date_bounds_compare_dates_and_numbers_keep_the_reference_meaning() {
    let rows = json!([{"d": "2023-12-31"}, {"d": "2024-01-01"}, {"d": "2025-06-30"}]);
    let result = run(
        &json!({"rows": rows, "columns": [{"name": "d", "type": "date", "min": "2024-01-01", "max": "2024-12-31"}]}),
    );
    assert_eq!(
        row_findings(&result),
        [(0, "d".into(), "below_minimum".into()), (2, "d".into(), "above_maximum".into())]
    );
    assert_eq!(finding(&result, "below_minimum")["message"], "2023-12-31 is before the minimum of 2024-01-01");
    // A number bound on a date column is the reference's: a date is not numeric.
    let numeric = run(&json!({"rows": [{"d": "2024-01-01"}], "columns": [{"name": "d", "type": "date", "min": 0}]}));
    assert_eq!(row_findings(&numeric), [(0, "d".into(), "not_numeric".into())]);
}

#[test]
fn references_match_after_this_columns_coercion() {
    // The customers table is CSV text, so its ids are text; as integers,
    // "7" and " 8 " are 7 and 8. Order 3 references 9, which is not there.
    let csv = "id,name\n7,Ann\n 8 ,Bob\nx,Bad\n";
    let rows = json!([{"customer": 7}, {"customer": "8"}, {"customer": 9}, {"customer": ""}]);
    let columns = json!([{"name": "customer", "type": "integer", "references": {"column": "id", "csv": csv}}]);
    let result = run(&json!({"rows": rows, "columns": columns}));
    assert_eq!(row_findings(&result), [(2, "customer".into(), "reference_not_found".into())]);
    // "x" cannot be an integer: counted, never matched.
    let echo = &result["contract"]["columns"][0]["checks"][0];
    assert_eq!(
        echo,
        &json!({"rule": "references", "column": "id", "source": "csv", "distinct_values": 2, "unusable_values": 1})
    );

    let listed = run(
        &json!({"rows": [{"c": "EU"}, {"c": "US"}], "columns": [{"name": "c", "references": {"values": ["EU", "UK"]}}]}),
    );
    assert_eq!(row_findings(&listed), [(1, "c".into(), "reference_not_found".into())]);
    assert_eq!(finding(&listed, "reference_not_found")["expected"], "one of the referenced values");
}

#[test]
fn references_errors_name_where_they_are() {
    let cases = [
        (json!({"column": "id", "rows": [{"other": 1}]}), "columns[0].references.column"),
        (json!({"column": "id", "path": "customers.csv"}), "columns[0].references.path"),
        (json!({"values": [1], "rows": []}), "columns[0].references"),
        (json!({"values": ["x"]}), "columns[0].references.values[0]"),
        (json!({"column": "id", "rows": [], "colum": 1}), "columns[0].references.colum"),
    ];
    for (reference, location) in cases {
        let args = json!({"rows": [], "columns": [{"name": "n", "type": "integer", "references": reference}]});
        let err = validate_rows(&args).expect_err("a bad reference is an argument error");
        assert_eq!(err.code, ErrorCode::InvalidContract, "{reference}");
        assert_eq!(err.location.as_deref(), Some(location), "{reference}: {}", err.message);
    }
}

#[test]
fn a_primary_key_is_required_and_unique_as_a_combination() {
    // (1, EU) repeats at row 2; (1, US) is a different key; row 3's region
    // is blank, which a key column may not be.
    let rows = json!([
        {"id": 1, "region": "EU"},
        {"id": 1, "region": "US"},
        {"id": "1", "region": "EU"},
        {"id": 2, "region": ""},
    ]);
    let columns = json!([{"name": "id", "type": "integer"}, {"name": "region"}]);
    let result = run(&json!({"rows": rows, "columns": columns, "table": {"primary_key": ["id", "region"]}}));
    assert_eq!(
        row_findings(&result),
        [(2, String::new(), "duplicate_key".into()), (3, "region".into(), "required_blank".into())]
    );
    let repeat = finding(&result, "duplicate_key");
    assert_eq!(repeat["locator"]["first_row_index"], 0);
    assert_eq!(repeat["value"], json!({"id": "1", "region": "EU"}));
    assert_eq!(repeat["message"], "primary key (id, region) = ('1', 'EU') repeats row 1");
    assert_eq!(result["contract"]["columns"][1]["required"], true, "key columns become required");
    assert_eq!(result["contract"]["table"], json!({"primary_key": ["id", "region"]}));
}

#[test]
fn a_one_column_primary_key_is_located_at_its_column() {
    let rows = json!([{"id": "A"}, {"id": "B"}, {"id": "A"}]);
    let result =
        run(&json!({"rows": rows, "columns": [{"name": "id", "on_fail": "flag"}], "table": {"primary_key": "id"}}));
    // A key repeat quarantines whatever the column's on_fail says.
    assert_eq!(row_findings(&result), [(2, "id".into(), "duplicate_key".into())]);
    assert_eq!(quarantined_rows(&result), [2]);
    assert_eq!(result["errors_by_column"], json!({"id": 1}));
}

#[test]
fn table_rules_fail_the_table_without_quarantining_rows() {
    let rows = json!([{"a": 1, "b": 2}]);
    let args = json!({"rows": rows, "columns": [{"name": "a"}, {"name": "c"}], "table": {"row_count": {"min": 2}, "columns": "exact"}});
    let result = run(&args);
    assert_eq!(result["ok"], false);
    assert_eq!(result["verdict"], "table_rejected");
    assert_eq!(result["summary"]["quarantined"], 0);
    let codes: Vec<&str> = result["findings"].as_array().unwrap().iter().map(|f| f["code"].as_str().unwrap()).collect();
    assert_eq!(codes, ["row_count_out_of_range", "undeclared_column", "declared_column_absent"]);
    assert_eq!(finding(&result, "undeclared_column")["locator"]["column"], "b");
    assert_eq!(finding(&result, "declared_column_absent")["locator"]["column"], "c");
    assert_eq!(finding(&result, "row_count_out_of_range")["message"], "the table has 1 rows, expected at least 2 rows");
    assert!(result["guidance"].as_str().unwrap().starts_with("The table as a whole fails the contract"));
}

#[test]
fn the_tolerance_is_stated_and_ok_keeps_its_meaning() {
    // 1 of 4 rows (25%) is quarantined: within 0.3, beyond 0.2.
    let rows = json!([{"n": 1}, {"n": 2}, {"n": "x"}, {"n": 4}]);
    for (limit, within) in [(0.3, true), (0.2, false)] {
        let columns = json!([{"name": "n", "type": "integer"}]);
        let result = run(&json!({"rows": rows, "columns": columns, "table": {"max_quarantined_fraction": limit}}));
        assert_eq!(result["ok"], false, "a quarantined row still makes ok false");
        assert_eq!(result["summary"]["quarantined_fraction"], 0.25);
        assert_eq!(result["summary"]["within_tolerance"], within);
        let stance = if within { "within" } else { "beyond" };
        assert!(
            result["guidance"].as_str().unwrap().contains(&format!("25%, is {stance} the tolerance")),
            "{}",
            result["guidance"]
        );
    }
}

#[test]
fn table_errors_name_where_they_are() {
    let cases = [
        (json!("id"), "table"),
        (json!({"primary_key": ["id", "nope"]}), "table.primary_key[1]"),
        (json!({"primary_key": ["id", "id"]}), "table.primary_key[1]"),
        (json!({"row_count": {"min": 3, "max": 2}}), "table.row_count"),
        (json!({"row_count": {"min": -1}}), "table.row_count.min"),
        (json!({"columns": "strict"}), "table.columns"),
        (json!({"max_quarantined_fraction": 2}), "table.max_quarantined_fraction"),
        (json!({"primary": "id"}), "table.primary"),
    ];
    for (table, location) in cases {
        let args = json!({"rows": [], "columns": [{"name": "id"}], "table": table});
        let err = validate_rows(&args).expect_err("a bad table rule is an argument error");
        assert_eq!(err.code, ErrorCode::InvalidContract, "{table}");
        assert_eq!(err.argument.as_deref(), Some("table"));
        assert_eq!(err.location.as_deref(), Some(location), "{table}: {}", err.message);
    }
}

#[test]
fn column_rule_errors_name_where_they_are() {
    let cases = [
        (json!({"name": "s", "min_length": 3, "max_length": 2}), "columns[0].min_length"),
        (json!({"name": "s", "max_length": -1}), "columns[0].max_length"),
        (json!({"name": "s", "format": "phone"}), "columns[0].format"),
        (json!({"name": "s", "max_decimal_places": 1.5}), "columns[0].max_decimal_places"),
        (json!({"name": "s", "unique": "yes"}), "columns[0].unique"),
        (json!({"name": "s", "type": "date", "min": "soon"}), "columns[0].min"),
    ];
    for (spec, location) in cases {
        let err = validate_rows(&json!({"rows": [], "columns": [spec]})).expect_err("a bad rule is an argument error");
        assert_eq!(err.code, ErrorCode::InvalidContract, "{spec}");
        assert_eq!(err.location.as_deref(), Some(location), "{spec}: {}", err.message);
    }
    let err = validate_rows(&json!({"rows": [], "columns": [{"name": "s", "format": "phone"}]})).unwrap_err();
    assert!(err.message.contains("Supported formats: email, uuid, uri, ipv4, ipv6"), "{}", err.message);
}

#[test]
fn csv_and_rows_agree_on_the_cross_row_rules() {
    let csv = "id,when\nA,2026-04-01\nB,2026-04-01\nA,2026-04-02\nA,2026-04-01\n";
    let rows = json!([
        {"id": "A", "when": "2026-04-01"},
        {"id": "B", "when": "2026-04-01"},
        {"id": "A", "when": "2026-04-02"},
        {"id": "A", "when": "2026-04-01"},
    ]);
    let columns = json!([{"name": "id"}, {"name": "when", "type": "date", "unique": true}]);
    let table = json!({"primary_key": ["id", "when"]});
    let from_csv = run(&json!({"csv": csv, "columns": columns, "table": table}));
    let from_rows = run(&json!({"rows": rows, "columns": columns, "table": table}));
    // Row 1 and 3 repeat row 0's date; row 3 also repeats row 0's key.
    let expected: Vec<(u64, String, String)> = vec![
        (1, "when".into(), "duplicate_value".into()),
        (3, "when".into(), "duplicate_value".into()),
        (3, String::new(), "duplicate_key".into()),
    ];
    assert_eq!(row_findings(&from_rows), expected);
    assert_eq!(row_findings(&from_csv), expected);
}

#[test]
fn row_rules_compare_typed_values_and_quote_what_they_read() {
    // Dates compare as dates, not text: "2024-10-01" < "2024-9-30" as text
    // would be wrong, but both are read as ISO dates here.
    let rows = json!([
        {"start": "2024-01-01", "end": "2024-02-01"},
        {"start": "2024-03-01", "end": "2024-02-01"},
        {"start": "2024-03-01", "end": ""},
    ]);
    let columns = json!([{"name": "start", "type": "date"}, {"name": "end", "type": "date"}]);
    let rules = json!([{"name": "ends_after_start", "check": "end >= start"}]);
    let result = run(&json!({"rows": rows, "columns": columns, "row_rules": rules}));
    // Row 1 ends before it starts; row 2's end is blank, so the rule cannot
    // be judged, which is not a pass.
    assert_eq!(
        row_findings(&result),
        [(1, String::new(), "row_rule_failed".into()), (2, String::new(), "row_rule_not_evaluable".into())]
    );
    let failed = finding(&result, "row_rule_failed");
    assert_eq!(failed["locator"]["rule"], "ends_after_start");
    assert_eq!(failed["value"], json!({"end": "2024-02-01", "start": "2024-03-01"}));
    assert_eq!(failed["expected"], "end >= start");
    assert_eq!(failed["message"], "row rule \"ends_after_start\" failed (end = '2024-02-01', start = '2024-03-01')");
    assert_eq!(quarantined_rows(&result), [1, 2]);
    assert_eq!(
        result["contract"]["row_rules"],
        json!([{"name": "ends_after_start", "check": "end >= start", "on_fail": "quarantine"}])
    );
}

#[test]
fn a_row_rule_applies_only_where_its_condition_holds() {
    // The issue's example: a VAT number is needed for DE and FR only. Row 1
    // (DE, blank VAT) cannot pass: its VAT number is blank, which the rule
    // cannot compare; row 2 (US, blank) is outside the condition.
    let rows = json!([
        {"country": "DE", "vat": "DE123"},
        {"country": "DE", "vat": ""},
        {"country": "US", "vat": ""},
        {"country": "FR", "vat": "x"},
    ]);
    let columns = json!([{"name": "country"}, {"name": "vat", "type": "string"}]);
    let rules = json!([
        {"name": "vat_for_eu", "check": "vat != ''", "when": "country in ['DE', 'FR']", "on_fail": "flag"},
        {"name": "vat_shape", "check": "!has(row.vat) || vat.matches('^[A-Z]{2}[0-9]+$')", "when": "has(row.vat)"},
    ]);
    let result = run(&json!({"rows": rows, "columns": columns, "row_rules": rules}));
    assert_eq!(
        row_findings(&result),
        [(1, String::new(), "row_rule_not_evaluable".into()), (3, String::new(), "row_rule_failed".into())]
    );
    // The first rule flags (row 1 is kept); the second quarantines row 3.
    assert_eq!(result["summary"]["flagged"], 1);
    assert_eq!(quarantined_rows(&result), [3]);
    let not_evaluable = finding(&result, "row_rule_not_evaluable");
    assert_eq!(not_evaluable["severity"], "warning");
    assert!(not_evaluable["message"].as_str().unwrap().contains("blank"), "{}", not_evaluable["message"]);
}

#[test]
fn row_rule_errors_point_at_the_position() {
    let columns = json!([{"name": "start", "type": "date"}, {"name": "amount", "type": "number"}]);
    let cases = [
        (json!([{"name": "r", "check": "end >= start"}]), "row_rules[0].check", "at character 0"),
        (json!([{"name": "r", "check": "amount < 'x'"}]), "row_rules[0].check", "at character 7"),
        (json!([{"name": "r", "check": "amount + 1.0"}]), "row_rules[0].check", "must be true or false"),
        (json!([{"name": "r", "check": "true", "when": "start >"}]), "row_rules[0].when", "at character"),
        (json!([{"name": "r", "check": "true"}, {"name": "r", "check": "true"}]), "row_rules[1].name", "used twice"),
        (json!([{"name": "r"}]), "row_rules[0].check", "needs a \"check\""),
        (json!([{"name": "r", "check": "true", "if": "x"}]), "row_rules[0].if", "unknown key"),
        (json!({"name": "r"}), "row_rules", "must be an array"),
    ];
    for (rules, location, says) in cases {
        let args = json!({"rows": [], "columns": columns, "row_rules": rules});
        let err = validate_rows(&args).expect_err("a bad row rule is an argument error");
        assert_eq!(err.code, ErrorCode::InvalidContract, "{rules}");
        assert_eq!(err.argument.as_deref(), Some("row_rules"));
        assert_eq!(err.location.as_deref(), Some(location), "{rules}: {}", err.message);
        assert!(err.message.contains(says), "{rules}: {}", err.message);
    }
}
