#!/usr/bin/env python3
"""Generate core/src/py/unicode_tables.rs from the running CPython's own answers.

Run with the CPython the reference server runs on (3.11, Unicode 14.0.0):

    python3 core/cpython/gen_unicode_tables.py

The tables are read from the interpreter's behaviour, not from the Unicode
data files, because the point is to agree with *this* Python: `str.isprintable`,
`str.isspace`, `str.casefold` and the decimal digits `int()`/`float()` accept.
The script refuses to run on another minor version, so a regenerated table
cannot silently drift to a different Unicode release.
"""

from __future__ import annotations

import sys
import unicodedata
from pathlib import Path

MAX_CODE_POINT = 0x110000
OUT_PATH = Path(__file__).resolve().parent.parent / "src" / "py" / "unicode_tables.rs"
LINE_WIDTH = 100


def ranges_where(predicate) -> list[tuple[int, int]]:
    """Inclusive (first, last) runs of code points where predicate(char) holds."""
    runs: list[tuple[int, int]] = []
    start = None
    for cp in range(MAX_CODE_POINT + 1):
        hit = cp < MAX_CODE_POINT and predicate(chr(cp))
        if hit and start is None:
            start = cp
        elif not hit and start is not None:
            runs.append((start, cp - 1))
            start = None
    return runs


def single_fold_runs(singles: list[tuple[int, int]]) -> list[tuple[int, int, int, int]]:
    """Compress (code point, folded code point) pairs into (first, last, stride, delta) runs.

    A run only ever covers consecutive entries of the sorted list, so runs never
    overlap and can be binary-searched on `first`. Strides of 1 (A-Z) and 2
    (the alternating upper/lower blocks of Latin Extended) cover most of Unicode.
    """
    runs: list[tuple[int, int, int, int]] = []
    i = 0
    while i < len(singles):
        first, target = singles[i]
        delta = target - first
        j = i + 1
        stride = 0
        if j < len(singles) and singles[j][1] - singles[j][0] == delta:
            stride = singles[j][0] - first
            while (
                j < len(singles)
                and singles[j][0] - singles[j - 1][0] == stride
                and singles[j][1] - singles[j][0] == delta
            ):
                j += 1
        else:
            stride = 1
        runs.append((first, singles[j - 1][0], stride, delta))
        i = j
    return runs


def casefold_tables():
    """Split the casefold mapping into compressible 1:1 pairs and 1:n strings."""
    singles: list[tuple[int, int]] = []
    multis: list[tuple[int, str]] = []
    for cp in range(MAX_CODE_POINT):
        folded = chr(cp).casefold()
        if folded == chr(cp):
            continue
        if len(folded) == 1:
            singles.append((cp, ord(folded)))
        else:
            assert len(folded) <= 3, (hex(cp), folded)
            multis.append((cp, folded))
    return single_fold_runs(singles), multis, singles


def decimal_runs() -> list[tuple[int, int, int]]:
    """(first, last, value of first) runs of Unicode decimal digits, value rising by 1."""
    digits = [
        (cp, unicodedata.decimal(chr(cp)))
        for cp in range(MAX_CODE_POINT)
        if unicodedata.decimal(chr(cp), None) is not None
    ]
    runs: list[tuple[int, int, int]] = []
    for cp, value in digits:
        if runs and runs[-1][1] == cp - 1 and runs[-1][2] + (cp - runs[-1][0]) == value:
            runs[-1] = (runs[-1][0], cp, runs[-1][2])
        else:
            runs.append((cp, cp, value))
    return runs


def self_check(fold_runs, multis, singles, digit_runs) -> None:
    """Re-derive every answer from the compressed tables and compare with Python."""
    by_cp = dict(singles)
    for first, last, stride, delta in fold_runs:
        for cp in range(first, last + 1, stride):
            assert by_cp.pop(cp) == cp + delta
    assert not by_cp
    assert all(len(text) in (2, 3) for _, text in multis)

    # int() and float() must accept exactly these digits (plus ASCII) and no others.
    decimal_of = {}
    for first, last, value in digit_runs:
        for cp in range(first, last + 1):
            decimal_of[cp] = value + cp - first
    for cp in range(128, MAX_CODE_POINT):
        char = chr(cp)
        if 0xD800 <= cp <= 0xDFFF or char.isspace():
            continue
        try:
            got = int(char)
        except ValueError:
            got = None
        assert got == decimal_of.get(cp), hex(cp)


def rust_ranges(name: str, doc: str, runs) -> str:
    body = format_entries([f"({a:#x}, {b:#x})" for a, b in runs])
    return f"{doc}\n#[rustfmt::skip]\npub(crate) static {name}: &[(u32, u32)] = &[\n{body}];\n"


def format_entries(entries: list[str]) -> str:
    """Pack entries into lines of at most LINE_WIDTH characters, four-space indented."""
    lines: list[str] = []
    current = "   "
    for entry in entries:
        if len(current) + 1 + len(entry) + 1 > LINE_WIDTH:
            lines.append(current + "\n")
            current = "   "
        current += " " + entry + ","
    if current.strip():
        lines.append(current + "\n")
    return "".join(lines)


def rust_string_literal(text: str) -> str:
    return '"' + "".join(f"\\u{{{ord(ch):x}}}" for ch in text) + '"'


def render() -> str:
    non_printable = ranges_where(lambda ch: not ch.isprintable())
    space = ranges_where(str.isspace)
    fold_runs, multis, singles = casefold_tables()
    digit_runs = decimal_runs()
    self_check(fold_runs, multis, singles, digit_runs)

    version = sys.version.split()[0]
    parts = [
        "//! Unicode tables copied from Python's behaviour. GENERATED, do not edit.\n",
        "//!\n",
        "//! Generated by `python3 core/cpython/gen_unicode_tables.py` with Python "
        f"{version} (Unicode {unicodedata.unidata_version}).\n",
        "//! Every table is sorted by code point and searched by binary search.\n\n",
        "#![allow(clippy::unreadable_literal)]\n\n",
        rust_ranges(
            "NON_PRINTABLE",
            "/// Inclusive code point ranges where `str.isprintable()` is False.",
            non_printable,
        ),
        "\n",
        rust_ranges(
            "SPACE",
            "/// Inclusive code point ranges where `str.isspace()` is True.",
            space,
        ),
        "\n/// `str.casefold()` for code points that fold to one other code point:\n"
        "/// `(first, last, stride, delta)` folds `first`, `first + stride`, ... up to\n"
        "/// `last` to itself plus `delta`.\n"
        "#[rustfmt::skip]\npub(crate) static CASEFOLD_SINGLE: &[(u32, u32, u32, i32)] = &[\n",
        format_entries([f"({a:#x}, {b:#x}, {s}, {d})" for a, b, s, d in fold_runs]),
        "];\n",
        "\n/// `str.casefold()` for code points that fold to two or three code points.\n"
        "#[rustfmt::skip]\npub(crate) static CASEFOLD_MULTI: &[(u32, &str)] = &[\n",
        format_entries([f"({cp:#x}, {rust_string_literal(text)})" for cp, text in multis]),
        "];\n",
        "\n/// Unicode decimal digits (`unicodedata.decimal`), which `int()` and `float()`\n"
        "/// accept: `(first, last, value of first)`, the value rising by one per code point.\n"
        "#[rustfmt::skip]\npub(crate) static DECIMAL: &[(u32, u32, u32)] = &[\n",
        format_entries([f"({a:#x}, {b:#x}, {v})" for a, b, v in digit_runs]),
        "];\n",
    ]
    return "".join(parts)


def main() -> None:
    if sys.version_info[:2] != (3, 11):
        sys.exit(f"run this with CPython 3.11 (the reference's Python), not {sys.version}")
    OUT_PATH.write_text(render(), encoding="utf-8")
    print(f"wrote {OUT_PATH}")


if __name__ == "__main__":
    main()
