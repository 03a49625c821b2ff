#!/usr/bin/env python3
"""Differential check of core/src/py against CPython 3.11 (dev-only, not run by CI).

    python3 core/cpython/differential_py.py [--seed N] [--per-function N]

Generates random and adversarial inputs for every function in `validation_core::py`,
asks *this* Python for the answers, writes them to
`target/py-differential/cases.json`, then runs the ignored Rust test
`py::differential_tests::python_differential`, which recomputes every case
in Rust and fails on the first disagreement (after listing up to ten per
function). Floats travel as the hex of their IEEE-754 bits so that no JSON
float conversion sits between the two sides.

Run it with the Python the reference server runs on (CPython 3.11.7).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import struct
import subprocess
import sys
import unicodedata
from decimal import Decimal, getcontext
from pathlib import Path

MAX_CODE_POINT = 0x110000
REPO_ROOT = Path(__file__).resolve().parents[2]
CASES_PATH = REPO_ROOT / "target" / "py-differential" / "cases.json"

getcontext().prec = 2000

# ---------------------------------------------------------------- characters

SPACES = [c for c in map(chr, range(MAX_CODE_POINT)) if c.isspace()]
ASCII_CONTROL = [chr(i) for i in range(32)] + ["\x7f"]
NON_PRINTABLE_SAMPLE = [
    "\x80", "\x9f", "\xa0", "\xad", "\u200b", "\u200e", "\u2028", "\u2029", "\u3000",
    "\ue000", "\uf8ff", "\ufeff", "\ufffe", "\uffff", "\u0378", "\U000e0001", "\U0010ffff",
    "\U000f0000", "\U0001d173",
]
CASED = sorted({c for c in map(chr, range(MAX_CODE_POINT)) if c.casefold() != c})
UNICODE_DIGITS = [c for c in map(chr, range(128, MAX_CODE_POINT)) if unicodedata.decimal(c, None) is not None]
NOT_DECIMAL_DIGITS = ["²", "½", "Ⅷ", "①", "𝟘", "〇", "٫", "·"]


def random_code_point(rng: random.Random) -> str:
    while True:
        cp = rng.choice([rng.randrange(0x80, 0x800), rng.randrange(0x800, 0x10000), rng.randrange(0x10000, MAX_CODE_POINT)])
        if not 0xD800 <= cp <= 0xDFFF:
            return chr(cp)


def random_char(rng: random.Random) -> str:
    pick = rng.randrange(10)
    if pick == 0:
        return rng.choice(SPACES)
    if pick == 1:
        return rng.choice(ASCII_CONTROL)
    if pick == 2:
        return rng.choice(NON_PRINTABLE_SAMPLE)
    if pick == 3:
        return rng.choice(CASED)
    if pick == 4:
        return rng.choice("'\"\\")
    if pick == 5:
        return random_code_point(rng)
    if pick == 6:
        return rng.choice(UNICODE_DIGITS)
    return chr(rng.randrange(32, 127))


def random_text(rng: random.Random, max_len: int = 12) -> str:
    return "".join(random_char(rng) for _ in range(rng.randrange(max_len + 1)))


# ---------------------------------------------------------------- floats

def bits(x: float) -> str:
    return format(struct.unpack("<Q", struct.pack("<d", x))[0], "016x")


def from_bits(value: int) -> float:
    return struct.unpack("<d", struct.pack("<Q", value))[0]


def random_finite(rng: random.Random) -> float:
    """A finite float from a mix of distributions that stress formatting."""
    pick = rng.randrange(12)
    if pick == 0:
        while True:
            x = from_bits(rng.getrandbits(64))
            if math.isfinite(x):
                return x
    if pick == 1:
        return round(rng.uniform(-1e6, 1e6), rng.randrange(0, 8))
    if pick == 2:
        return float(rng.randrange(-10**rng.randrange(1, 20), 10**rng.randrange(1, 20)))
    if pick == 3:
        # Exact binary ties for '.2f' and round(x, n): odd multiples of 1/8, 1/2, ...
        return rng.choice([-1, 1]) * (rng.randrange(0, 10**rng.randrange(1, 9)) + (2 * rng.randrange(8) + 1) / 2 ** rng.randrange(1, 4))
    if pick == 4:
        # Exact ties at six significant digits: d.dddd5 × 10^k for whole values.
        return rng.choice([-1, 1]) * float(rng.randrange(100000, 1000000) * 10 + 5) * 10 ** rng.randrange(0, 12)
    if pick == 5:
        # Around the notation switch points of repr (1e-4, 1e16) and 'g' (1e-4, 1e6).
        base = rng.choice([1e-5, 1e-4, 1e6, 1e15, 1e16, 1e17, 999999.5, 9999995.0, 0.0001, 9.9999949e-5, 9.9999951e-5, 999999.4999])
        return math.nextafter(base, rng.choice([0.0, math.inf])) if rng.random() < 0.5 else base
    if pick == 6:
        return rng.choice([0.0, -0.0, 5e-324, -5e-324, 2.2250738585072014e-308, 1.7976931348623157e308, -1.7976931348623157e308, 1e22, 1e23, 0.1, 0.2, 0.3, 2.675, 0.125, 0.375, 2.5, 1.5, 0.5, 9.5e307])
    if pick == 7:
        return rng.uniform(-1, 1) * 10 ** rng.randrange(-330, 309)
    if pick == 8:
        return rng.choice([-1, 1]) * 10.0 ** rng.randrange(-323, 309)
    if pick == 9:
        return rng.choice([-1, 1]) * rng.randrange(1, 2**53) * 2.0 ** rng.randrange(-1074, 971)
    if pick == 10:
        if rng.random() < 0.5:
            return rng.choice([-1, 1]) * (rng.randrange(0, 10**6) / 100 + 0.005)
        # Few fractional bits and ~17 digits: where two shortest reprs can tie.
        return rng.choice([-1, 1]) * rng.randrange(2**50, 2**53) / 2 ** rng.randrange(1, 6)
    return rng.uniform(-1000, 1000)


def random_float(rng: random.Random) -> float:
    if rng.random() < 0.03:
        return rng.choice([math.inf, -math.inf, math.nan, -math.nan])
    return random_finite(rng)


# ---------------------------------------------------------------- numeric text

WS_FOR_NUMBERS = [" ", "\t", "\n", "\x0b", "\x0c", "\r", "\x1c", "\x1f", "\x85", "\xa0", "\u2003", "\u3000", "\u200b", "\ufeff"]


def digit_run(rng: random.Random, length: int, unicode_share: float = 0.05) -> str:
    out = []
    for _ in range(length):
        if rng.random() < unicode_share:
            out.append(rng.choice(UNICODE_DIGITS))
        else:
            out.append(rng.choice("0123456789"))
    return "".join(out)


def digits_length(rng: random.Random) -> int:
    return rng.choice([0, 1, 1, 2, 3, 5, 8, 15, 17, 18, 19, 20, 21, 25, rng.randrange(30, 60), rng.randrange(300, 900)])


def sprinkle_underscores(rng: random.Random, text: str) -> str:
    if rng.random() > 0.25 or not text:
        return text
    out = []
    for ch in text:
        if rng.random() < 0.15:
            out.append("_" * rng.choice([1, 1, 1, 2]))
        out.append(ch)
    if rng.random() < 0.1:
        out.append("_")
    return "".join(out)


def wrap_space(rng: random.Random, text: str) -> str:
    def pad() -> str:
        if rng.random() < 0.6:
            return ""
        return "".join(rng.choice(WS_FOR_NUMBERS) for _ in range(rng.randrange(1, 3)))
    return pad() + text + pad()


def mutate(rng: random.Random, text: str) -> str:
    if rng.random() > 0.15:
        return text
    junk = rng.choice(["e", "E", ".", "_", "x", "0x", "\0", "+", "-", " ", "١", "inf", "j", "\x7f"] + NOT_DECIMAL_DIGITS)
    i = rng.randrange(len(text) + 1)
    if rng.random() < 0.3 and text:
        return text[:i] + text[i + 1 :]
    return text[:i] + junk + text[i:]


def random_sign(rng: random.Random) -> str:
    return rng.choice(["", "", "", "+", "-", "-", "++", "+-", "--"])


def random_float_text(rng: random.Random) -> str:
    pick = rng.randrange(10)
    if pick == 0:
        word = rng.choice(["inf", "Inf", "INFINITY", "infinity", "iNfInItY", "nan", "NaN", "NAN", "infinit", "infinityy", "in", "na", "nann", "snan", "-inf"])
        return wrap_space(rng, random_sign(rng) + word)
    if pick == 1:
        return wrap_space(rng, repr(random_finite(rng)))
    if pick == 2:
        return halfway_text(rng)
    if pick == 3:
        x = random_finite(rng)
        return rng.choice(["%.17g", "%.25e", "%.40g", "%.3f", "%.0f"]) % x
    int_part = sprinkle_underscores(rng, digit_run(rng, digits_length(rng)))
    frac = ""
    if rng.random() < 0.6:
        frac = "." + sprinkle_underscores(rng, digit_run(rng, digits_length(rng)))
    exp = ""
    if rng.random() < 0.4:
        exp_digits = rng.choice([digit_run(rng, rng.randrange(0, 4)), str(rng.randrange(280, 330)), "9" * rng.randrange(5, 25), "0" * rng.randrange(1, 5) + str(rng.randrange(0, 400))])
        exp = rng.choice("eE") + rng.choice(["", "+", "-"]) + sprinkle_underscores(rng, exp_digits)
    return mutate(rng, wrap_space(rng, random_sign(rng) + int_part + frac + exp))


def halfway_text(rng: random.Random) -> str:
    """Exact decimal midpoints between neighbouring floats, and a hair either side."""
    x = abs(random_finite(rng))
    if x == 0 or not math.isfinite(math.nextafter(x, math.inf)):
        x = 1.0
    mid = (Decimal(x) + Decimal(math.nextafter(x, math.inf))) / 2
    text = format(mid, "f") if rng.random() < 0.3 else format(mid, "e")
    if rng.random() < 0.5:
        mantissa, _, exponent = text.partition("e")
        if "." not in mantissa:
            mantissa += "."
        mantissa += rng.choice(["0000001", "000", "1"]) if rng.random() < 0.5 else ""
        if rng.random() < 0.5 and mantissa[-1] in "123456789":
            mantissa = mantissa[:-1] + str(int(mantissa[-1]) - 1) + "9" * 20
        text = mantissa + ("e" + exponent if exponent else "")
    return random_sign(rng) + text


def random_int_text(rng: random.Random) -> str:
    pick = rng.randrange(8)
    if pick == 0:
        edge = rng.choice([2**63 - 1, 2**63, 2**63 + 1, 2**64 - 1, 2**64, 2**64 + 1, 10**19, 10**20, 2**1024, 2**1024 - 2**970, 2**1024 - 2**970 - 1, 2**1024 - 2**971, 2**53 + 1])
        return rng.choice(["", "-", "+"]) + str(edge + rng.choice([-1, 0, 0, 1]))
    if pick == 1:
        length = rng.choice([4299, 4300, 4300, 4301, 4302])
        body = "0" * rng.randrange(0, 5) + digit_run(rng, length, 0.0)
        body = body[:length]
        if rng.random() < 0.3:
            body = body[:10] + "_" + body[10:]
        return wrap_space(rng, rng.choice(["", "-"]) + body)
    if pick == 2:
        return wrap_space(rng, str(rng.randrange(-(10**rng.randrange(1, 40)), 10**rng.randrange(1, 40))))
    digits = sprinkle_underscores(rng, digit_run(rng, rng.choice([0, 1, 2, 5, 18, 19, 20, 21, 30, 300, 330])))
    return mutate(rng, wrap_space(rng, random_sign(rng) + digits))


# ---------------------------------------------------------------- JSON values

def random_value(rng: random.Random, depth: int = 0):
    """A random json.loads-shaped value, in tagged form for the Rust side."""
    pick = rng.randrange(9 if depth < 3 else 7)
    if pick == 0:
        return None, ["n"]
    if pick == 1:
        b = rng.random() < 0.5
        return b, ["b", b]
    if pick == 2:
        i = rng.choice([rng.randrange(-1000, 1000), rng.randrange(-(2**63), 2**63), rng.randrange(0, 2**64)])
        return i, ["i", str(i)]
    if pick == 3:
        x = random_finite(rng)
        return x, ["f", bits(x)]
    if pick in (4, 5, 6):
        s = random_text(rng)
        return s, ["s", s]
    if pick == 7:
        items = [random_value(rng, depth + 1) for _ in range(rng.randrange(4))]
        return [v for v, _ in items], ["l", [t for _, t in items]]
    out, tagged = {}, []
    for _ in range(rng.randrange(4)):
        key = random_text(rng, 5)
        if key in out:
            continue
        value, tag = random_value(rng, depth + 1)
        out[key] = value
        tagged.append([key, tag])
    return out, ["d", tagged]


# ---------------------------------------------------------------- cases

def code_point_bits(predicate) -> str:
    return "".join(
        "-" if 0xD800 <= cp <= 0xDFFF else ("1" if predicate(chr(cp)) else "0")
        for cp in range(MAX_CODE_POINT)
    )


def make_cases(rng: random.Random, per_function: int) -> dict:
    cases: list[dict] = []

    def add(function: str, given, expected) -> None:
        cases.append({"f": function, "in": given, "out": expected})

    for _ in range(per_function):
        text = random_text(rng)
        add("strip", text, text.strip())
        add("casefold", text, text.casefold())
        add("repr_str", text, repr(text))
        ascii_text = "".join(chr(rng.randrange(32, 127)) for _ in range(rng.randrange(12)))
        add("capitalize", ascii_text, ascii_text.capitalize())

        value, tagged = random_value(rng)
        add("value", tagged, {"repr": repr(value), "str": str(value), "type": type(value).__name__})

        x = random_float(rng)
        add("repr_float", bits(x), repr(x))
        add("format_g", bits(x), format(x, "g"))
        add("format_2f", bits(x), format(x, ".2f"))
        add("format_grouped_2f", bits(x), format(x, ",.2f"))
        add_round(add, rng, x)

        text = random_float_text(rng)
        add("parse_float", text, python_float(text))
        text = random_int_text(rng)
        add("parse_int", text, python_int(text))

    return {
        "space_bits": code_point_bits(str.isspace),
        "printable_bits": code_point_bits(str.isprintable),
        "casefold_map": [[ord(c), c.casefold()] for c in CASED],
        "cases": cases,
    }


def add_round(add, rng: random.Random, x: float) -> None:
    ndigits = rng.choice([4, 4, 2, 0, 1, 3, 5, 10, 15, 17, -1, -2, -3, -5, -10, -20, rng.randrange(-330, 340), rng.randrange(-20, 30)])
    try:
        expected = bits(round(x, ndigits))
    except OverflowError:
        expected = "overflow"
    add("round_to", [bits(x), ndigits], expected)


def python_float(text: str):
    try:
        return bits(float(text))
    except ValueError:
        return None


def python_int(text: str):
    try:
        value = int(text)
    except ValueError:
        return None
    if -(2**63) <= value < 2**64:
        return {"int": str(value)}
    try:
        return {"float": bits(float(value))}
    except OverflowError:
        return "overflow"


def describe(cases: list[dict]) -> None:
    """Print how many cases each function got, and how many of them Python rejected."""
    counts: dict[str, list[int]] = {}
    for case in cases:
        tally = counts.setdefault(case["f"], [0, 0])
        tally[0] += 1
        tally[1] += case["out"] is None or case["out"] == "overflow"
    for function, (total, rejected) in sorted(counts.items()):
        print(f"{function:>18}: {total} cases, {rejected} raise in Python")


def main() -> None:
    if sys.version_info[:2] != (3, 11):
        sys.exit(f"run this with CPython 3.11 (the reference's Python), not {sys.version}")
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=20261129)
    parser.add_argument("--per-function", type=int, default=5000)
    args = parser.parse_args()

    rng = random.Random(args.seed)
    data = make_cases(rng, args.per_function)
    describe(data["cases"])
    CASES_PATH.parent.mkdir(parents=True, exist_ok=True)
    CASES_PATH.write_text(json.dumps(data), encoding="utf-8")
    print(f"wrote {len(data['cases'])} cases to {CASES_PATH}")

    env = dict(os.environ, PY_DIFF_CASES=str(CASES_PATH))
    command = [
        "cargo", "test", "--release", "-p", "mcp-validation-core", "--lib",
        "py::differential_tests::python_differential", "--", "--ignored", "--nocapture",
    ]
    sys.exit(subprocess.run(command, cwd=REPO_ROOT, env=env).returncode)


if __name__ == "__main__":
    main()
