#!/usr/bin/env python3
"""Record what Frictionless says about seeded small tables: the oracle of
core/tests/frictionless_differential.rs.

Each case is a small CSV table and a Table Schema that uses only what the
contract maps (types string with formats default/email/uri/uuid, integer,
number, boolean, date, datetime; the constraints required, unique,
minLength, maxLength, minimum, maximum, exclusiveMinimum/exclusiveMaximum
on integers, pattern, enum; primaryKey; missingValues of blank text). The
cells are drawn from pools that hold valid values, values at and around
each bound, and the values on which the two readings differ (whitespace,
boolean words, number and date spellings, short, long and blank rows), so
that the disagreements are exercised, not avoided.

Each table is validated with frictionless (the version pinned in
requirements.txt) and recorded as

    {"name", "csv", "schema", "errors": [[row_number, field_name, type, constraint], ...]}

in vectors.json: `row_number` as Frictionless counts it (the header is row
1; with no quoted line breaks in the generated cells it is also the line),
`field_name` "" for a row error, `type` the Frictionless error type
(`type-error`, `constraint-error`, `unique-error`, `primary-key`,
`missing-cell`, `extra-cell`, `blank-row`), `constraint` the constraint a
constraint-error names (`minimum`, ...) and "" otherwise.

One thing is not generated: an offset-aware datetime on a datetime field
with a minimum or maximum, which makes Frictionless raise TypeError (it
compares aware and naive datetimes); the contract reports it as
`not_comparable`.

Run from the repository root (see README.md):

    python3 -m venv /tmp/fl-venv && /tmp/fl-venv/bin/pip install -r tests/frictionless/requirements.txt
    /tmp/fl-venv/bin/python tests/frictionless/generate.py
"""

import csv
import io
import json
import os
import random
import re
import sys
import tempfile

import frictionless
from frictionless import Resource

SEED = 20260817
CASES = 200
HERE = os.path.dirname(os.path.abspath(__file__))

# Cell pools: (valid-looking values, values where the readings may differ).
POOLS = {
    "integer": (
        ["0", "1", "2", "3", "5", "7", "9", "10", "11", "42", "99", "100", "-3"],
        [" 5 ", "5.0", "1e3", "1_000", "+4", "abc", "3.5", "", "  ", "\t", "\u0663", "0x10", "-"],
    ),
    "number": (
        ["0", "1.5", "2", "-0.5", "10", "3.25", "100", "7", "9.99", "10.0", "0.001"],
        [" 2.5 ", "1e2", "NaN", "inf", "-Infinity", "1_000.5", "1,5", "abc", "", "  ", ".5", "5.", "+1"],
    ),
    "boolean": (
        ["true", "false", "True", "False", "TRUE", "FALSE", "1", "0"],
        ["yes", "no", "t", "f", "Y", "n", " true", "false ", "maybe", "", " ", "tRuE", "on"],
    ),
    "date": (
        ["2024-01-05", "2024-02-29", "2023-12-31", "2025-06-30", "2024-01-01", "2024-12-31"],
        ["2024-1-5", "20240105", "2024-01-05T00:00:00", "2024-02-30", "05/01/2024", "", " 2024-01-05", "2024-W01-1", "  "],
    ),
    "datetime": (
        ["2024-01-05T10:00:00", "2024-01-05T23:59:59", "2023-12-31T00:00:00", "2024-06-01T12:30:45", "2024-01-01T00:00:00"],
        ["2024-01-05 10:00:00", "2024-01-05T10:00", "2024-01-05T10:00:00.5", "2024-01-05", "2024-01-05T25:00:00", "", " ", "noon"],
    ),
    "string": (
        ["alpha", "beta", "gamma", "a", "ab", "abc", "abcd", "ABC-123", "ABC-7", "x1", "zz"],
        ["  ", " alpha", "alpha ", "", "\u00e9", "\u65e5\u672c\u8a9e", "a b", "Alpha", "ABC-", "\t", "abcdefgh"],
    ),
    "email": (
        ["ann@example.org", "bob.smith@example.co.uk", "x@y.io", "first+tag@sub.example.com"],
        ["ann@", "not-an-email", "ann@localhost", "\"quoted\"@example.org", "ann@[127.0.0.1]", "ann@example",
         "a..b@example.org", " ann@example.org", "", "ann@exa_mple.org"],
    ),
    "uri": (
        ["https://example.org/a?b#c", "http://x.y", "mailto:ann@example.org", "urn:isbn:0451450523"],
        ["example.org/a", "/relative", "http://exa mple.org", "https://example.org/%zz", "ftp://[::1]/x", "",
         "http://[fe80::1]", "a:b", "https://example.org/\u00e9"],
    ),
    "uuid": (
        ["123e4567-e89b-12d3-a456-426614174000", "00000000-0000-0000-0000-000000000000", "A987FBC9-4BED-3078-CF07-9141BA07C9F3"],
        ["123e4567e89b12d3a456426614174000", "123e4567-e89b-12d3-a456-42661417400", "{123e4567-e89b-12d3-a456-426614174000}",
         "urn:uuid:123e4567-e89b-12d3-a456-426614174000", "", "123e4567-e89b-12d3-a456-42661417400g", "not-a-uuid"],
    ),
}

PATTERNS = ["[a-z]+", "ABC-\\d+", "a|ab", "[a-z]*\\d?", "\\w+", "(?i:alpha)|beta", "[^ ]+"]


def field_for(rng, name):
    kind = rng.choice(["string", "string", "integer", "integer", "number", "boolean", "date", "datetime",
                       "email", "uri", "uuid"])
    field = {"name": name}
    constraints = {}
    if kind in ("email", "uri", "uuid"):
        field["type"] = "string"
        field["format"] = kind
    elif kind == "string" and rng.random() < 0.3:
        pass  # no type: string
    else:
        field["type"] = kind
    valid, edge = POOLS[kind]
    if rng.random() < 0.45:
        constraints["required"] = True
    if rng.random() < 0.25:
        constraints["unique"] = True
    if kind == "string":
        if rng.random() < 0.4:
            constraints["minLength"] = rng.choice([1, 2, 3])
        if rng.random() < 0.4:
            constraints["maxLength"] = rng.choice([3, 4, 5])
        if rng.random() < 0.4:
            constraints["pattern"] = rng.choice(PATTERNS)
        if rng.random() < 0.2:
            constraints["enum"] = rng.sample(valid, 4)
    elif kind in ("integer", "number"):
        if rng.random() < 0.5:
            constraints["minimum"] = rng.choice([0, 1, 2, 5] if kind == "integer" else [0, 1.5, 2, 0.5])
        if rng.random() < 0.5:
            constraints["maximum"] = rng.choice([10, 42, 99] if kind == "integer" else [10, 9.99, 100])
        if kind == "integer" and rng.random() < 0.25:
            constraints["exclusiveMinimum"] = rng.choice([0, 2, 5])
        if kind == "integer" and rng.random() < 0.25:
            constraints["exclusiveMaximum"] = rng.choice([10, 42, 100])
        if rng.random() < 0.15:
            picks = rng.sample(valid, 4)
            # Enum values as numbers, or as text the field reads.
            constraints["enum"] = [json.loads(v) if rng.random() < 0.5 else v for v in picks]
    elif kind in ("date", "datetime"):
        if rng.random() < 0.5:
            constraints["minimum"] = "2024-01-01" if kind == "date" else "2024-01-01T00:00:00"
        if rng.random() < 0.5:
            constraints["maximum"] = "2024-12-31" if kind == "date" else "2024-06-01T12:30:45"
        if rng.random() < 0.15:
            constraints["enum"] = rng.sample(valid, 3)
    elif kind == "boolean":
        if rng.random() < 0.15:
            constraints["enum"] = [True]
    elif kind in ("email", "uri", "uuid"):
        if rng.random() < 0.2:
            constraints["maxLength"] = 20
    if constraints:
        field["constraints"] = constraints
    bounded = kind == "datetime" and ("minimum" in constraints or "maximum" in constraints)
    if kind == "datetime" and not bounded:
        edge = edge + ["2024-01-05T10:00:00Z", "2024-01-05T10:00:00+02:00"]
    return field, kind, valid, edge


def cell(rng, valid, edge, unique):
    # Repeats make unique and primary keys fail; edges make the readings differ.
    if rng.random() < 0.3:
        return rng.choice(edge)
    pool = valid[:3] if unique and rng.random() < 0.5 else valid
    return rng.choice(pool)


def make_case(rng, index):
    names = ["id", "name", "amount", "when", "flag", "code", "email", "score"]
    count = rng.choice([1, 2, 2, 3, 3, 4])
    chosen = rng.sample(names, count)
    specs = [field_for(rng, name) for name in chosen]
    # Table Schema v2: exclusiveMinimum/exclusiveMaximum are v2 constraints.
    schema = {"$schema": "https://datapackage.org/profiles/2.0/tableschema.json", "fields": [spec[0] for spec in specs]}
    if rng.random() < 0.25:
        key = rng.sample(chosen, 2 if count > 1 and rng.random() < 0.3 else 1)
        schema["primaryKey"] = key if len(key) > 1 or rng.random() < 0.5 else key[0]
    if rng.random() < 0.15:
        schema["missingValues"] = ["", " "]
    keyed = set(schema.get("primaryKey", [])) if isinstance(schema.get("primaryKey"), list) else {schema.get("primaryKey")}

    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(chosen)
    for _ in range(rng.randint(5, 12)):
        row = [cell(rng, valid, edge, field.get("constraints", {}).get("unique") or field["name"] in keyed)
               for field, _, valid, edge in specs]
        roll = rng.random()
        if roll < 0.04:
            row = row[: rng.randint(1, len(row))] if len(row) > 1 else row
        elif roll < 0.07:
            row = row + ["extra"]
        elif roll < 0.09:
            row = [""] * len(row)
        if roll > 0.985:
            out.write("\n")  # an empty line
            continue
        writer.writerow(row)
    return {"name": f"case-{index:03d}", "csv": out.getvalue(), "schema": schema}


CONSTRAINT = re.compile(r'^constraint "([A-Za-z]+)" is')


def frictionless_errors(case):
    with tempfile.TemporaryDirectory() as folder:
        with open(os.path.join(folder, "table.csv"), "w", encoding="utf-8", newline="") as handle:
            handle.write(case["csv"])
        # A v2 data resource, so the v2 constraints are read (under v1
        # Frictionless rejects exclusiveMinimum/exclusiveMaximum).
        descriptor = {
            "$schema": "https://datapackage.org/profiles/2.0/dataresource.json",
            "name": "table",
            "path": "table.csv",
            "schema": json.loads(json.dumps(case["schema"])),
            "dialect": {"delimiter": ","},
            "encoding": "utf-8",
        }
        resource = Resource.from_descriptor(descriptor, basepath=folder)
        report = resource.validate()
    if report.errors:
        raise SystemExit(f"{case['name']}: {[error.message for error in report.errors]}")
    errors = []
    for error in report.tasks[0].errors:
        row = getattr(error, "row_number", None)
        if row is None:
            raise SystemExit(f"{case['name']}: an error outside the rows: {error.message}")
        constraint = ""
        if error.type == "constraint-error":
            constraint = CONSTRAINT.match(error.note).group(1)
        errors.append([row, getattr(error, "field_name", "") or "", error.type, constraint])
    return sorted(errors)


def main():
    if frictionless.__version__ != "5.21.0":
        sys.exit(f"frictionless {frictionless.__version__}: requirements.txt pins 5.21.0")
    rng = random.Random(SEED)
    cases = []
    for index in range(CASES):
        case = make_case(rng, index)
        case["errors"] = frictionless_errors(case)
        cases.append(case)
    with open(os.path.join(HERE, "vectors.json"), "w", encoding="utf-8") as handle:
        json.dump({"frictionless": frictionless.__version__, "seed": SEED, "cases": cases}, handle,
                  ensure_ascii=False, indent=1)
        handle.write("\n")
    total = sum(len(case["errors"]) for case in cases)
    print(f"{len(cases)} cases, {total} errors", file=sys.stderr)


if __name__ == "__main__":
    main()
