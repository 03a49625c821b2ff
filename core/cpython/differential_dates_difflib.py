#!/usr/bin/env python3
"""Differential check of `py::isodate` and `py::difflib` against CPython.

Dev-only; CI does not run it and no test depends on it. It generates random
and adversarial inputs, records what this Python makes of them, writes two
JSON files and runs the ignored Rust tests that read them:

    python3 core/cpython/differential_dates_difflib.py [--seed N] [--dates N] [--pairs N]

The reference runs on CPython 3.11.7; run this with that interpreter (another
version's `fromisoformat` accepts different strings).

Dates: for each string, `date.fromisoformat` and `datetime.fromisoformat`
results as `[year, month, day]` (or null when ValueError is raised), plus
`date.isoformat()` of the result. Difflib: for each pair, the bits of
`SequenceMatcher(None, a, b).ratio()` as an integer, so the comparison is
exact and no float parsing is involved.
"""

from __future__ import annotations

import argparse
import datetime
import difflib
import json
import os
import random
import struct
import subprocess
import sys
from pathlib import Path

WORKSPACE = Path(__file__).resolve().parents[2]

# Characters a date-ish string is built from: the ones the parser reacts to,
# a few it does not, and non-ASCII ones (other digits, spaces of several UTF-8
# widths, an emoji for the 4-byte case).
DATE_ALPHABET = list("0123456789") * 4 + list("-W T:.,+Z") * 2 + [
    "x", "t", "w", "z", "\x00", "\t", "\n", "é", "\u2000", "\u3000", "٢", "０", "😀", "\u00a0",
]
UNICODE_SEPARATORS = ["T", " ", "x", "\x00", "é", "\u2000", "\u3000", "😀", "٢", "-", "W", "1", "Z", "+"]


def python_dates(text: str) -> dict:
    """What this Python's `date`/`datetime.fromisoformat` make of `text`."""
    record = {"s": text}
    for name, parse in (("date", datetime.date.fromisoformat), ("datetime", datetime.datetime.fromisoformat)):
        try:
            value = parse(text)
        except ValueError:
            record[name] = None
            continue
        day = value if name == "date" else value.date()
        record[name] = [day.year, day.month, day.day]
        record[name + "_iso"] = day.isoformat()
    return record


def ratio_bits(a: str, b: str) -> int:
    """`SequenceMatcher(None, a, b).ratio()` as the integer of its bits."""
    value = difflib.SequenceMatcher(None, a, b).ratio()
    return struct.unpack("<Q", struct.pack("<d", value))[0]


def two(rng: random.Random, low: int = 0, high: int = 99) -> str:
    return f"{rng.randint(low, high):02d}"


def random_year(rng: random.Random) -> str:
    return rng.choice(["0000", "0001", "9999", "2020", "2026", "2004", "1900", "2000", "2100", f"{rng.randint(0, 9999):04d}"])


def random_date_part(rng: random.Random) -> str:
    """A date in one of the six 3.11 forms, with values around the limits."""
    year = random_year(rng)
    month = rng.choice([two(rng, 0, 13), two(rng, 1, 12), "02"])
    day = rng.choice([two(rng, 0, 32), two(rng, 1, 28), "29", "30", "31"])
    week = rng.choice([two(rng, 0, 54), "53", "52", "01", "00"])
    weekday = str(rng.randint(0, 9))
    return rng.choice([
        f"{year}-{month}-{day}",
        f"{year}{month}{day}",
        f"{year}-W{week}",
        f"{year}-W{week}-{weekday}",
        f"{year}W{week}",
        f"{year}W{week}{weekday}",
    ])


def random_time_part(rng: random.Random) -> str:
    """HH[:MM[:SS[.f]]] with or without colons, out-of-range values included."""
    sep = rng.choice([":", "", ":", ";"])
    fields = [two(rng, 0, 25) if rng.random() < 0.5 else two(rng, 0, 99)]
    for _ in range(rng.randint(0, 3)):
        fields.append(rng.choice([two(rng, 0, 61), "59", "60", "00"]))
    text = sep.join(fields)
    if rng.random() < 0.4:
        text += rng.choice([".", ",", ":"]) + "".join(rng.choice("0123456789") for _ in range(rng.randint(0, 9)))
    return text


def random_offset(rng: random.Random) -> str:
    roll = rng.random()
    if roll < 0.2:
        return ""
    if roll < 0.35:
        return rng.choice(["Z", "z", "Z\x00", "ZZ", "Z0"])
    sign = rng.choice(["+", "-", "+", "-", "−"])
    return sign + random_time_part(rng)


def plausible(rng: random.Random) -> str:
    """A string Python mostly accepts: in-range fields in the accepted forms."""
    year = f"{rng.randint(1, 9999):04d}"
    month, day = f"{rng.randint(1, 12):02d}", f"{rng.randint(1, 28):02d}"
    week, weekday = f"{rng.randint(1, 52):02d}", str(rng.randint(1, 7))
    text = rng.choice([f"{year}-{month}-{day}", f"{year}{month}{day}", f"{year}-W{week}-{weekday}", f"{year}W{week}{weekday}",
                       f"{year}-W{week}", f"{year}W{week}"])
    if rng.random() < 0.3:
        return text
    hour, minute, second = f"{rng.randint(0, 23):02d}", f"{rng.randint(0, 59):02d}", f"{rng.randint(0, 59):02d}"
    colon = rng.choice([":", ""])
    clock = rng.choice([hour, hour + colon + minute, hour + colon + minute + colon + second])
    if rng.random() < 0.4:
        clock += rng.choice(".,") + "".join(rng.choice("0123456789") for _ in range(rng.randint(1, 9)))
    offset = rng.choice(["", "Z", f"+{hour}", f"-{hour}{minute}", f"+{hour}:{minute}", f"-{hour}:{minute}:{second}",
                         f"+{hour}:{minute}:{second}.{rng.randint(0, 999999):06d}"])
    return text + rng.choice(UNICODE_SEPARATORS) + clock + offset


def mutate(rng: random.Random, text: str) -> str:
    """One random edit: insert, delete, replace or duplicate a character."""
    if not text:
        return rng.choice(DATE_ALPHABET)
    index = rng.randrange(len(text))
    action = rng.randrange(4)
    if action == 0:
        return text[:index] + rng.choice(DATE_ALPHABET) + text[index:]
    if action == 1:
        return text[:index] + text[index + 1:]
    if action == 2:
        return text[:index] + rng.choice(DATE_ALPHABET) + text[index + 1:]
    return text[:index] + text[index] + text[index:]


def date_inputs(rng: random.Random, count: int) -> list[str]:
    """Structured, mutated and plain random date-ish strings, plus fixed cases."""
    inputs = set()
    # Every ISO week and weekday of years around the week-53 rule and limits.
    for year in (0, 1, 4, 100, 400, 1900, 2000, 2004, 2015, 2020, 2021, 2026, 2032, 9998, 9999):
        for week in (0, 1, 52, 53, 54):
            inputs.add(f"{year:04d}-W{week:02d}")
            inputs.add(f"{year:04d}W{week:02d}")
            for weekday in range(0, 9):
                inputs.add(f"{year:04d}-W{week:02d}-{weekday}")
                inputs.add(f"{year:04d}W{week:02d}{weekday}")
    while len(inputs) < count:
        roll = rng.random()
        if roll < 0.15:
            text = plausible(rng)
        elif roll < 0.3:
            text = mutate(rng, plausible(rng))
        elif roll < 0.45:
            text = random_date_part(rng)
            if rng.random() < 0.8:
                text += rng.choice(UNICODE_SEPARATORS) + random_time_part(rng) + random_offset(rng)
        elif roll < 0.7:
            text = random_date_part(rng) + rng.choice(UNICODE_SEPARATORS) + random_time_part(rng) + random_offset(rng)
            for _ in range(rng.randint(1, 3)):
                text = mutate(rng, text)
        else:
            text = "".join(rng.choice(DATE_ALPHABET) for _ in range(rng.randint(0, 30)))
            if rng.random() < 0.5:
                text = random_date_part(rng) + text
        inputs.add(text)
    return sorted(inputs)


def random_pair(rng: random.Random) -> tuple[str, str]:
    roll = rng.random()
    if roll < 0.45:
        # Small alphabets make many equally long matches: tie-breaking shows.
        alphabet = rng.choice(["ab", "abc", "aab", "abcd", "xy ", "aé😀", "abcde"])
        return (
            "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40))),
            "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40))),
        )
    if roll < 0.75:
        # Long strings past the autojunk threshold, with popular characters.
        alphabet = rng.choice(["ab", "abc", "abcdefghij", "a" * 20 + "bcdefghijklmnopqrstuvwxyz", "ab "])
        long_side = "".join(rng.choice(alphabet) for _ in range(rng.randint(190, 450)))
        other = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 450)))
        if rng.random() < 0.5:
            # A near copy: the case the duplicate report actually scores.
            other = long_side
            for _ in range(rng.randint(1, 20)):
                other = mutate(rng, other)
        return (other, long_side) if rng.random() < 0.6 else (long_side, other)
    # Realistic keys with typos.
    words = ["Acme", "Corp", "Inc.", "Ltd", "Global", "Widgets", "ACME", "corp", "Müller", "GmbH", "&", "Co"]
    left = " ".join(rng.choice(words) for _ in range(rng.randint(1, 5)))
    right = left
    for _ in range(rng.randint(0, 4)):
        right = mutate(rng, right)
    return left, right


def fixed_pairs() -> list[tuple[str, str]]:
    return [
        ("", ""), ("", "a"), ("a", ""), ("abcd", "bcde"), ("abxcd", "abcd"), ("ab", "ba"), ("aaaa", "aa"),
        ("a" * 200, "a" * 200), ("a" * 199 + "b", "a" * 200), ("ab" * 150, "ba" * 150), ("x" * 300, "x"),
        ("x", "x" * 300), ("abc" * 100, "abc" * 99 + "abd"),
    ]


def run_cargo(dates_path: Path, pairs_path: Path) -> int:
    env = dict(os.environ, PY_DIFFERENTIAL_DATES=str(dates_path), PY_DIFFERENTIAL_RATIOS=str(pairs_path))
    command = [
        "cargo", "test", "--release", "-p", "mcp-validation-core", "--lib", "--",
        "--ignored", "--nocapture", "differential_against_python",
    ]
    print("+", " ".join(command), flush=True)
    return subprocess.call(command, cwd=WORKSPACE, env=env)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=20260401)
    parser.add_argument("--dates", type=int, default=60000)
    parser.add_argument("--pairs", type=int, default=20000)
    parser.add_argument("--out", type=Path, default=WORKSPACE / "target" / "differential")
    parser.add_argument("--no-cargo", action="store_true", help="only write the JSON files")
    args = parser.parse_args()

    if sys.version_info[:3] != (3, 11, 7):
        print(f"warning: the reference runs on CPython 3.11.7, this is {sys.version.split()[0]}", file=sys.stderr)

    rng = random.Random(args.seed)
    dates = [python_dates(text) for text in date_inputs(rng, args.dates)]
    pairs = fixed_pairs() + [random_pair(rng) for _ in range(args.pairs)]
    ratios = [{"a": a, "b": b, "bits": ratio_bits(a, b)} for a, b in pairs]

    args.out.mkdir(parents=True, exist_ok=True)
    dates_path = args.out / "dates.json"
    pairs_path = args.out / "ratios.json"
    dates_path.write_text(json.dumps(dates, ensure_ascii=True), encoding="utf-8")
    pairs_path.write_text(json.dumps(ratios, ensure_ascii=True), encoding="utf-8")

    accepted_date = sum(record["date"] is not None for record in dates)
    accepted_datetime = sum(record["datetime"] is not None for record in dates)
    print(
        f"{len(dates)} date strings ({accepted_date} accepted by date.fromisoformat, "
        f"{accepted_datetime} by datetime.fromisoformat); {len(ratios)} ratio pairs "
        f"({sum(max(len(r['a']), len(r['b'])) >= 200 for r in ratios)} with a side of 200+)"
    )
    if args.no_cargo:
        return 0
    return run_cargo(dates_path, pairs_path)


if __name__ == "__main__":
    sys.exit(main())
