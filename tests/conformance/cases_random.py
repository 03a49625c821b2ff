"""Seeded random conformance cases for mcp-validation-server 0.1.0.

Imported by generate.py. ``cases()`` returns PER_TOOL cases for each of the four
tools (plus a few larger ones), named ``random_<tool>/<nnnn>``, in vector files
``random_<tool>.json``. Everything is drawn from ``random.Random`` seeded with
SEED (one stream per tool), so the same seed and the same CPython minor version
give the same cases, byte for byte.

The content is adversarial on purpose: unicode (combining marks, RTL and bidi
controls, emoji with ZWJ and modifiers, CJK, zero-width characters,
non-printables such as \\x00 \\x1f \\x7f \\x85 \\u2028), every kind of whitespace
Python's str.strip() removes (including \\x1c-\\x1f, which are not Unicode
White_Space), case variants (casefold traps such as ß, ǅ, final sigma),
nested objects and arrays, numeric strings ('1_000', ' 2.50 ', '1e3', 'nan',
'-0'), booleans, nulls, rows that are not objects, duplicate and near-duplicate
keys, and contracts drawn from every spec key (sometimes malformed, which gives
argument-error vectors).

Constraints kept so that every case is JSON the reference accepts and the Rust
port can represent: no NaN/Infinity literals, no integer outside the signed
64-bit range (also none *produced* by an integer-column coercion), no lone
surrogates.
"""

from __future__ import annotations

import json
import random

SEED = 20260401
PER_TOOL = 250
LARGE_PER_TOOL = 2

I64 = 2**63

PY_WHITESPACE = [
    "\t", "\n", "\x0b", "\x0c", "\r", "\x1c", "\x1d", "\x1e", "\x1f", " ", "\x85", "\xa0",
    "\u1680", "\u2000", "\u2001", "\u2002", "\u2003", "\u2004", "\u2005", "\u2006", "\u2007",
    "\u2008", "\u2009", "\u200a", "\u2028", "\u2029", "\u202f", "\u205f", "\u3000",
]
NOT_STRIPPED = ["\u200b", "\u200c", "\u200d", "\ufeff", "\u180e", "\u2060", "\u00ad", "\x00", "\x7f", "\x1b"]

LETTERS = [
    "a", "b", "c", "x", "Z", "Q", "é", "e\u0301", "ñ", "n\u0303", "ß", "ẞ", "ǅ", "Ǆ", "ǆ", "Σ", "σ", "ς",
    "İ", "ı", "i̇", "ﬁ", "ﬀ", "K", "Å", "Ω", "ſ", "Ꭰ", "ꭰ", "ŉ", "ΐ",
    "日", "本", "中", "文", "한", "국", "ア", "ｱ", "ש", "ל", "ו", "ם", "م", "ر", "ح", "ب", "\u202e", "\u200f",
    "\u202a", "👍", "👍🏽", "👨\u200d👩\u200d👧", "🇬🇧", "😀", "\U0001d400", "'", '"', "\\", "{", "}", "[",
    "]", ",", ":", "-", "_", ".", "/", "%", "0", "7", "١", "５", "½", "²", " ", "\u0300", "\u20dd",
]
WORDS = [
    "Ann", "ann", "ANN", "Lee", "Smith", "Smyth", "Straße", "STRASSE", "strasse", "ΟΔΟΣ", "οδος", "Σίσυφος",
    "ǅemal", "DŽEMAL", "İstanbul", "istanbul", "café", "cafe\u0301", "CAFÉ", "naïve", "Zoë", "日本", "東京",
    "서울", "שלום", "مرحبا", "Москва", "МОСКВА", "👍", "🇬🇧 UK", "O'Brien", 'Say "hi"', "back\\slash",
    "tab\tinside", "line\nbreak", "nul\x00byte", "ls\u2028sep", "nel\x85", "zw\u200bsp", "bom\ufeff",
]
NUMERIC_STRINGS = [
    "1_000", " 2.50 ", "1e3", "nan", "NaN", "-0", "-0.0", "inf", "-inf", "Infinity", "+5", "0x1F", "1,5",
    "1,000", "١٢٣", "１２３", "1__0", "_1", ".5", "5.", "1e", "1e-7", "1E+2", "0", "00", "007", "12abc",
    "  42\t", "\u300042\u3000", "\x1c3\x1f", "4\u200b", "9007199254740993", "-12.345", "3.14159",
    "1e400", "-1e400", "1e-400", "½", "²", "٣.٥", "1_000.000_1", "+.5", "-.5e1",
]
BOOL_WORDS = [
    "true", "True", "TRUE", "t", "T", "yes", "Yes", "YES", "y", "Y", "1", "false", "False", "f", "F", "no",
    "NO", "n", "N", "0", "on", "off", "ja", "nein", "yeſ", "ＹＥＳ", "truee", "tru", " yes ", "\u3000no\u3000",
    "\x1ct\x1f", "true\u200b",
]
DATE_STRINGS = [
    "2026-04-01", "20260401", "2026-W14-3", "2026W143", "2026-W14", "2026-092", "2026-04", "2026",
    "2026-4-1", "2026-04-01T10:00:00", "2026-04-01 10:00", "2026-04-01T10:00:00Z", "2026-04-01T10:00:00+05:30",
    "2026-04-01T10:00:00.5", "2026-04-01T10", "2026-04-01T24:00", "2026-02-29", "2024-02-29", "2026-13-01",
    "0001-01-01", "9999-12-31", "0000-01-01", "04/05/2026", "2026/04/01", "２０２６-０４-０１", " 2026-04-01 ",
    "2026-04-01\u2028", "2026-04-01X12:00", "2026-04-01T10:00:00-08", "today", "",
]
REGEXES = [
    "INV-\\d+", "^INV-\\d+$", "[A-Z]{2}\\d", "\\w+", "\\d+", "(?i)ann.*", "a|ab", ".*", ".+", "", "[^\\s]+",
    "\\S+@\\S+", "(?P<y>\\d{4})-(?P=y)", "(?=.*\\d).+", "\\d{4}-\\d{2}-\\d{2}", "[\u0590-\u05ff]+", "👍+",
    "(?s).*", "\\A.\\Z", "[[:alpha:]]", "x*", "(a|b)*c", "\\p", "(", "[a-", "a{2,1}",
]
COLUMN_NAMES = ["id", "amount", "qty", "active", "when", "code", "name", "note", "名前", "ünï", "Amount", "x y"]
TYPES = ["string", "integer", "number", "boolean", "date", "any"]
BAD_TYPES = ["str", "Number", "int", "float", "", None, 5]


def _ws(rng: random.Random) -> str:
    return "".join(rng.choice(PY_WHITESPACE) for _ in range(rng.randint(1, 3)))


def _case_variant(rng: random.Random, text: str) -> str:
    return rng.choice([text, text.upper(), text.lower(), text.title(), text.swapcase(), text.casefold()])


def _random_text(rng: random.Random) -> str:
    kind = rng.random()
    if kind < 0.35:
        text = rng.choice(WORDS)
    elif kind < 0.7:
        text = "".join(rng.choice(LETTERS) for _ in range(rng.randint(1, 6)))
    elif kind < 0.8:
        text = rng.choice(WORDS) + rng.choice(NOT_STRIPPED)
    elif kind < 0.9:
        text = rng.choice(WORDS) + " " + rng.choice(WORDS)
    else:
        text = rng.choice(["", " ", _ws(rng), rng.choice(NOT_STRIPPED)])
    if rng.random() < 0.25:
        text = _case_variant(rng, text)
    if rng.random() < 0.2:
        text = _ws(rng) + text + (_ws(rng) if rng.random() < 0.7 else "")
    return text


def _random_int(rng: random.Random) -> int:
    return rng.choice([
        0, 1, -1, 2, 7, 42, 100, 1000, -5, 10**6, 2**31, 2**53, 2**53 + 1, I64 - 1, -I64, 123456789,
        rng.randint(-1000, 1000), rng.randint(-10**12, 10**12),
    ])


def _random_float(rng: random.Random) -> float:
    return rng.choice([
        0.0, -0.0, 0.1, 0.5, 1.0, 1.5, 2.5, -2.5, 1e-7, 1e-5, 0.0001, 1e21, 1e16, 1e308, 5e-324, 100.0,
        0.30000000000000004, 123456789.0, 1.7976931348623157e308, 9.223372036854776e18,
        round(rng.uniform(-1000, 1000), rng.randint(0, 4)), rng.uniform(-1, 1), rng.uniform(-1e9, 1e9),
    ])


def _random_scalar(rng: random.Random):
    kind = rng.random()
    if kind < 0.3:
        return _random_text(rng)
    if kind < 0.42:
        value = rng.choice(NUMERIC_STRINGS)
        return _ws(rng) + value if rng.random() < 0.15 else value
    if kind < 0.5:
        return rng.choice(BOOL_WORDS)
    if kind < 0.56:
        return rng.choice(DATE_STRINGS)
    if kind < 0.72:
        return _random_int(rng)
    if kind < 0.86:
        return _random_float(rng)
    if kind < 0.93:
        return rng.choice([True, False])
    return None


def _random_value(rng: random.Random, depth: int = 0):
    if depth < 2 and rng.random() < 0.08:
        if rng.random() < 0.5:
            return [_random_value(rng, depth + 1) for _ in range(rng.randint(0, 3))]
        return {_random_text(rng): _random_value(rng, depth + 1) for _ in range(rng.randint(0, 3))}
    return _random_scalar(rng)


def _non_object_row(rng: random.Random):
    return rng.choice([
        "a string row", _random_text(rng), _random_int(rng), _random_float(rng), True, False, None,
        [1, 2], [{"id": "X"}], [], "{\"id\": 1}",
    ])


def _int_coercion_overflows(value) -> bool:
    """Would the reference's integer coercion produce an int outside the signed 64-bit range?"""
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return not -I64 <= value < I64
    if isinstance(value, float):
        return value.is_integer() and not -I64 <= int(value) < I64
    if isinstance(value, str):
        text = value.strip()
        try:
            return not -I64 <= int(text) < I64
        except ValueError:
            pass
        try:
            number = float(text)
        except ValueError:
            return False
        return number.is_integer() and not -I64 <= int(number) < I64
    return False


# ===========================================================================
# validate_rows
# ===========================================================================

def _random_bound(rng: random.Random):
    return rng.choice([0, 1, -1, 10, 100, 0.1, 1e-7, 1e21, -0.0, 123456789, 0.0001, 1e-5, 2.5, -1000,
                       rng.randint(-50, 50), round(rng.uniform(-100, 100), 2)])


def _random_spec(rng: random.Random, name, broken: bool) -> dict:
    spec: dict = {"name": name}
    if rng.random() < 0.8:
        spec["type"] = rng.choice(TYPES)
    if rng.random() < 0.35:
        spec["required"] = rng.random() < 0.7
    if rng.random() < 0.2:
        spec["not_blank"] = rng.random() < 0.7
    if rng.random() < 0.3:
        spec["on_fail"] = rng.choice(["quarantine", "flag", "flag"])
    if rng.random() < 0.25:
        spec["min"] = _random_bound(rng)
    if rng.random() < 0.25:
        spec["max"] = _random_bound(rng)
    if rng.random() < 0.2:
        low, high = sorted([_random_bound(rng), _random_bound(rng)])
        spec["range"] = [low, high]
    if rng.random() < 0.25:
        spec["pattern"] = rng.choice(REGEXES[:-4])
    if rng.random() < 0.2:
        spec["allowed"] = [_random_value(rng) for _ in range(rng.randint(1, 4))]
    if rng.random() < 0.1:
        spec["description"] = rng.choice(["", "money", _random_text(rng), 5, None])
    if broken:
        damage = rng.choice([
            "unknown_key", "type", "on_fail", "required", "not_blank", "min", "max", "range", "range_order",
            "pattern", "regex", "allowed", "name", "not_object",
        ])
        if damage == "unknown_key":
            spec[rng.choice(["regexp", "Type", "max_len", "unique", ""])] = 1
        elif damage == "type":
            spec["type"] = rng.choice(BAD_TYPES)
        elif damage == "on_fail":
            spec["on_fail"] = rng.choice(["warn", "Flag", None, 1])
        elif damage == "required":
            spec["required"] = rng.choice(["true", 1, None, "yes"])
        elif damage == "not_blank":
            spec["not_blank"] = rng.choice(["false", 0, None])
        elif damage == "min":
            spec["min"] = rng.choice(["0", True, None, [0]])
        elif damage == "max":
            spec["max"] = rng.choice(["10", False, {"v": 1}])
        elif damage == "range":
            spec["range"] = rng.choice([[1], [1, 2, 3], "0..1", [True, 1], [None, 2], ["0", "1"]])
        elif damage == "range_order":
            spec["range"] = [rng.choice([10, 1e-7, 123456789, 0.5]), rng.choice([-1, -0.0, 1e-8])]
        elif damage == "pattern":
            spec["pattern"] = rng.choice([5, None, ["x"], True])
        elif damage == "regex":
            spec["pattern"] = rng.choice(REGEXES[-4:] + ["*", "(?P<a>x)(?P<a>y)", "\\q", "a)"])
        elif damage == "allowed":
            spec["allowed"] = rng.choice([[], "a", {}, None, 3])
        elif damage == "name":
            spec["name"] = rng.choice(["", " ", "\u3000", None, 5, ["id"]])
            if rng.random() < 0.3:
                del spec["name"]
        elif damage == "not_object":
            return rng.choice(["amount", 5, None, ["name", "id"], True])  # type: ignore[return-value]
    return spec


PATTERN_SAMPLES = {
    "INV-\\d+": ["INV-1", "INV-1001", "INV-٣"], "^INV-\\d+$": ["INV-7"], "[A-Z]{2}\\d": ["AB1", "ZZ9"],
    "\\w+": ["abc", "日本", "x_1"], "\\d+": ["123", "٣٤", "0"], "(?i)ann.*": ["Ann Lee", "ANN"], "a|ab": ["a", "ab"],
    ".*": ["anything"], ".+": ["x"], "": [], "[^\\s]+": ["nospace"], "\\S+@\\S+": ["a@b"],
    "(?P<y>\\d{4})-(?P=y)": ["2026-2026"], "(?=.*\\d).+": ["a1"], "\\d{4}-\\d{2}-\\d{2}": ["2026-04-01"],
    "[\u0590-\u05ff]+": ["שלום"], "👍+": ["👍👍"], "(?s).*": ["a\nb"], "\\A.\\Z": ["q"], "[[:alpha:]]": ["a]"],
    "x*": ["", "xxx"], "(a|b)*c": ["abac", "c"],
}


def _valid_cell(rng: random.Random, spec: dict):
    """A value that probably satisfies the column, so that clean and flagged results occur."""
    type_name = spec.get("type")
    allowed = spec.get("allowed")
    if isinstance(allowed, list) and allowed:
        return rng.choice(allowed)
    pattern = spec.get("pattern")
    if isinstance(pattern, str) and PATTERN_SAMPLES.get(pattern):
        return rng.choice(PATTERN_SAMPLES[pattern])
    low, high = -1000.0, 1000.0
    for key in ("min", "max"):
        bound = spec.get(key)
        if isinstance(bound, (int, float)) and not isinstance(bound, bool):
            low, high = (max(low, bound), high) if key == "min" else (low, min(high, bound))
    bounds = spec.get("range")
    if isinstance(bounds, list) and len(bounds) == 2 and all(isinstance(b, (int, float)) for b in bounds):
        low, high = max(low, bounds[0]), min(high, bounds[1])
    numeric = any(k in spec for k in ("min", "max", "range"))
    if type_name == "integer" or (numeric and type_name in (None, "any", "string") and rng.random() < 0.5):
        if low <= high and int(low) <= int(high):
            lo, hi = int(low) + (1 if int(low) < low else 0), int(high)
            if lo <= hi:
                value = rng.randint(lo, hi)
                return rng.choice([value, str(value), float(value), f" {value} "])
        return rng.randint(-5, 5)
    if type_name == "number" or numeric:
        if low <= high:
            value = round(rng.uniform(low, high), 2)
            value = min(max(value, low), high)
            return rng.choice([value, repr(value), f"  {value!r}\t"])
        return rng.uniform(-5, 5)
    if type_name == "boolean":
        return rng.choice([True, False, "yes", "No", " TRUE ", "0", "t"])
    if type_name == "date":
        return rng.choice(["2026-04-01", "20260401", "2026-04-01T10:00:00Z", " 2024-02-29 ", "2026-W14-3"])
    return _random_text(rng) or "x"


def _cell_for(rng: random.Random, spec, noise: float) -> object:
    type_name = spec.get("type") if isinstance(spec, dict) else None
    if isinstance(spec, dict) and rng.random() >= noise:
        value = _valid_cell(rng, spec)
        if type_name == "integer" and _int_coercion_overflows(value):
            value = 12
        return value
    roll = rng.random()
    if roll < 0.12:
        return rng.choice([None, "", " ", _ws(rng)])
    if roll < 0.55:
        if type_name == "integer":
            value = rng.choice([_random_int(rng), float(rng.randint(-99, 99)), rng.choice(NUMERIC_STRINGS),
                                str(rng.randint(-999, 999)), f"{rng.randint(0, 99)}.0", 2.5])
        elif type_name == "number":
            value = rng.choice([_random_float(rng), _random_int(rng), rng.choice(NUMERIC_STRINGS),
                                f" {rng.uniform(-100, 100):.2f} "])
        elif type_name == "boolean":
            value = rng.choice([True, False, rng.choice(BOOL_WORDS), 1, 0])
        elif type_name == "date":
            value = rng.choice(DATE_STRINGS + [20260401])
        elif isinstance(spec, dict) and isinstance(spec.get("allowed"), list) and spec["allowed"] and rng.random() < 0.6:
            value = rng.choice(spec["allowed"])
        else:
            value = _random_text(rng)
    else:
        value = _random_value(rng)
    if type_name == "integer" and _int_coercion_overflows(value):
        value = rng.choice(["12", 12, "1e3", 3.0])
    return value


def _random_validate_rows(rng: random.Random, size: int) -> dict:
    broken_contract = rng.random() < 0.12
    count = rng.randint(1, 4)
    names = rng.sample(COLUMN_NAMES, count)
    if rng.random() < 0.15:
        names = [_ws(rng) + n if rng.random() < 0.5 else n + _ws(rng) for n in names]
    if rng.random() < 0.03:
        names.append(names[0].strip())  # duplicate after strip
    broken_index = rng.randrange(len(names)) if broken_contract else -1
    columns = [_random_spec(rng, n, i == broken_index) for i, n in enumerate(names)]
    if rng.random() < 0.02:
        columns = []
    parsed = {}
    for spec in columns:
        if isinstance(spec, dict) and isinstance(spec.get("name"), str) and spec["name"].strip():
            parsed[spec["name"].strip()] = spec
    noise = rng.choice([0.0, 0.02, 0.05, 0.15, 0.4, 0.8])
    rows = []
    for _ in range(size):
        if rng.random() < noise * 0.15:
            rows.append(_non_object_row(rng))
            continue
        row = {}
        for name, spec in parsed.items():
            if rng.random() < 0.95:
                row[name] = _cell_for(rng, spec, noise)
        if rng.random() < 0.2:
            row[rng.choice(["extra", "Extra", "id", "名", "", " id "])] = _random_value(rng)
        items = list(row.items())
        rng.shuffle(items)
        rows.append(dict(items))
    args: dict = {"rows": rows, "columns": columns}
    roll = rng.random()
    if roll < 0.45 and parsed:
        args["row_key"] = rng.choice(list(parsed))
    elif roll < 0.5:
        args["row_key"] = rng.choice(["extra", "missing", "", "null", None])
    elif roll < 0.52:
        args["row_key"] = rng.choice([5, ["id"], True])
    if rng.random() < 0.03:
        args["rows"] = json.dumps(rows, ensure_ascii=rng.random() < 0.5)
    if rng.random() < 0.03:
        args["columns"] = json.dumps(columns)
    return args


# ===========================================================================
# reconcile
# ===========================================================================

DIRECTIONS_IN = ["in", "IN", "In", " inflow ", "Inflows", "credit", "CR", "receipt", "Deposit", "+", "\u3000in\x1f"]
DIRECTIONS_OUT = ["out", "OUT", "Outflow", "outflows", "Debit", "dr", "payment", "WITHDRAWAL", "-", "\x85out\u2028"]
DIRECTIONS_BAD = ["sideways", "", "IN!", "ＩＮ", "İn", "o u t", 1, True, ["in"], "inn"]


def _money(rng: random.Random):
    return rng.choice([
        round(rng.uniform(-5000, 5000), 2), rng.randint(-5000, 5000), round(rng.uniform(0, 100), 2),
        rng.choice([0, 0.0, -0.0, 0.01, 1e21, 1e-7, 1234567.891, 0.1, 0.2, 2.675, 0.005]),
    ])


def _as_text_number(rng: random.Random, number) -> str:
    text = rng.choice([repr(number), f"{float(number):.2f}", str(number)])
    if rng.random() < 0.3:
        text = _ws(rng) + text + _ws(rng)
    return text


def _random_movement(rng: random.Random, noise: float):
    amount = _money(rng)
    roll = rng.random()
    if roll < 0.3:
        return amount
    if roll < 0.38:
        return _as_text_number(rng, amount)
    if rng.random() < noise:
        return rng.choice(["abc", None, True, [1], "nan", "inf", "", "1,000", {"amount": "x"}, {"value": None}, {}])
    movement: dict = {}
    amount_key = "amount" if rng.random() < 0.8 else "value"
    movement[amount_key] = abs(amount) if rng.random() < 0.7 else amount
    if rng.random() < 0.15:
        movement[amount_key] = _as_text_number(rng, movement[amount_key])
    direction_roll = rng.random()
    direction_key = "direction" if rng.random() < 0.8 else "sign"
    if direction_roll < 0.35:
        movement[direction_key] = rng.choice(DIRECTIONS_IN)
    elif direction_roll < 0.7:
        movement[direction_key] = rng.choice(DIRECTIONS_OUT)
    elif direction_roll < 0.78 and rng.random() < noise * 2:
        movement[direction_key] = rng.choice(DIRECTIONS_BAD)
    elif direction_roll < 0.82:
        movement[direction_key] = None
    for key in ("label", "description", "reference"):
        if rng.random() < 0.15:
            movement[key] = rng.choice([_random_text(rng), None, 42, {"k": 1}, 1.5, False])
    if rng.random() < 0.2:
        movement["date"] = rng.choice(DATE_STRINGS + [20260401, None])
    if rng.random() < noise / 2:
        movement[rng.choice(["memo", "Amount", "note", "dir"])] = "x"
    items = list(movement.items())
    rng.shuffle(items)
    return dict(items)


def _signed(movement) -> float | None:
    """A rough local estimate, only used to pick closing balances near the truth."""
    try:
        if isinstance(movement, dict):
            raw = movement.get("amount", movement.get("value"))
            value = float(raw.strip() if isinstance(raw, str) else raw)
            direction = movement.get("direction", movement.get("sign"))
            if isinstance(direction, str) and direction.strip().casefold() in {d.strip().casefold() for d in DIRECTIONS_OUT}:
                return -abs(value)
            if isinstance(direction, str):
                return abs(value)
            return value
        if isinstance(movement, bool) or movement is None:
            return None
        return float(movement.strip() if isinstance(movement, str) else movement)
    except (TypeError, ValueError, AttributeError):
        return None


def _random_reconcile(rng: random.Random, size: int) -> dict:
    noise = rng.choice([0.0, 0.0, 0.0, 0.03, 0.1, 0.3])
    opening = _money(rng)
    movements = [_random_movement(rng, noise) for _ in range(size)]
    signed = [s for s in (_signed(m) for m in movements) if s is not None and s == s and abs(s) != float("inf")]
    expected = float(opening) + sum(signed)
    roll = rng.random()
    if roll < 0.35:
        closing = round(expected, 2)
    elif roll < 0.5 and signed:
        closing = round(expected + rng.choice([1, -1]) * abs(rng.choice(signed)), 2)
    elif roll < 0.6 and signed:
        closing = round(expected + rng.choice([2, -2]) * abs(rng.choice(signed)), 2)
    elif roll < 0.65:
        closing = round(float(opening), 2)
    else:
        closing = _money(rng)
    args: dict = {}
    opening_value = opening
    closing_value = closing
    if rng.random() < 0.15:
        opening_value = _as_text_number(rng, opening)
    if rng.random() < 0.15:
        closing_value = _as_text_number(rng, closing)
    if rng.random() < 0.06:
        opening_value = rng.choice([None, "abc", [1], True, "null", "[1]", "nan", {"a": 1}, "1e400"])
    if rng.random() < 0.06:
        closing_value = rng.choice([None, "five", [2], False, "null", "{}", "-inf"])
    args["opening_balance"] = opening_value
    movement_roll = rng.random()
    if movement_roll < 0.04:
        args["movements"] = rng.choice([None, {"amount": 1}, 5, "abc", "null", {}, True])
    elif movement_roll < 0.08:
        args["movements"] = json.dumps(movements, ensure_ascii=rng.random() < 0.5)
    else:
        args["movements"] = movements
    args["closing_balance"] = closing_value
    tolerance_roll = rng.random()
    if tolerance_roll < 0.45:
        pass
    elif tolerance_roll < 0.8:
        args["tolerance"] = rng.choice([0, 0.01, 0.5, 1, 0.001, 1e-7, 100, 0.0])
    elif tolerance_roll < 0.9:
        args["tolerance"] = rng.choice([-0.01, -1, -0.0, -0.5])
    elif tolerance_roll < 0.98:
        args["tolerance"] = rng.choice(["0.5", "1e-2", "inf", "nan", "-inf", " 0.01 ", "1_0", True, False])
    else:
        args["tolerance"] = rng.choice(["abc", None, [0.1]])
    if rng.random() < 0.02:
        del args[rng.choice(["opening_balance", "movements", "closing_balance"])]
    return args


# ===========================================================================
# count_distinct and duplicate_report
# ===========================================================================

KEY_NAMES = ["id", "k", "customer_id", "名", "ID", "key with space"]
BASE_KEYS = [
    "C-1", "c-1", "C-2", "Straße", "STRASSE", "ǅ", "ǆ", "ΟΔΟΣ", "οδος", "İ", "i̇", "x", "X", "é", "e\u0301",
    "👍", "日本", "1", 1, 1.0, True, "true", 2.5, "2.5", 0, -0.0, 10**16, 1e16, None, "", " ", {"a": 1},
    [1, 2], "[1, 2]", "{'a': 1}",
]


def _key_value(rng: random.Random, pool: list):
    value = rng.choice(pool)
    if isinstance(value, str) and value and rng.random() < 0.35:
        if rng.random() < 0.5:
            value = _case_variant(rng, value)
        if rng.random() < 0.5:
            value = _ws(rng) + value + (_ws(rng) if rng.random() < 0.5 else "")
        if rng.random() < 0.05:
            value = value + rng.choice(NOT_STRIPPED)
    return value


def _key_pool(rng: random.Random) -> list:
    pool = rng.sample(BASE_KEYS, rng.randint(2, 8))
    if rng.random() < 0.3:
        pool.append(_random_scalar(rng))
    return pool


def _case_sensitive(rng: random.Random, args: dict) -> None:
    roll = rng.random()
    if roll < 0.6:
        return
    if roll < 0.85:
        args["case_sensitive"] = rng.random() < 0.5
    elif roll < 0.98:
        args["case_sensitive"] = rng.choice(["yes", "no", "off", "ON", "true", "0", 1, 0, 1.0, 0.0, "t", "F"])
    else:
        args["case_sensitive"] = rng.choice(["maybe", 2, None])


def _key_argument(rng: random.Random):
    roll = rng.random()
    if roll < 0.9:
        return rng.choice(KEY_NAMES)
    if roll < 0.95:
        return _ws(rng) + rng.choice(KEY_NAMES) + _ws(rng)
    if roll < 0.98:
        return rng.choice(["", " ", "\u3000", "\x1c"])
    return rng.choice([5, None, ["id"]])


def _random_count_distinct(rng: random.Random, size: int) -> dict:
    key = _key_argument(rng)
    lookup = key if isinstance(key, str) else "id"
    pool = _key_pool(rng)
    rows = []
    for _ in range(size):
        if rng.random() < 0.06:
            rows.append(_non_object_row(rng))
            continue
        row = {}
        if rng.random() < 0.9:
            row[lookup] = _key_value(rng, pool)
        if rng.random() < 0.5:
            row["site"] = _random_scalar(rng)
        if rng.random() < 0.1:
            row[lookup.strip() or "x"] = _random_scalar(rng)
        if rng.random() < 0.1:
            row["nested"] = _random_value(rng)
        rows.append(row)
    args: dict = {"rows": rows, "key": key}
    _case_sensitive(rng, args)
    if rng.random() < 0.03:
        args["rows"] = json.dumps(rows, ensure_ascii=rng.random() < 0.5)
    if rng.random() < 0.01:
        args["rows"] = rng.choice(["x", {}, None])
    if rng.random() < 0.01:
        del args["key"]
    return args


NAME_BASES = ["Ann Lee", "Anne Lee", "Bob Ray", "Jonathan Smith", "Straße 1", "ΟΔΟΣ Ω", "ǅemal", "東京 太郎",
              "שלום", "Zoë O'Brien", "👍 Club", "café", "cafe\u0301"]
CITY_BASES = ["Leeds", "York", "Hull", "İzmir", "Zürich", "Москва", "東京"]


def _perturb(rng: random.Random, text: str) -> str:
    roll = rng.random()
    if roll < 0.3 or not text:
        return text
    chars = list(text)
    position = rng.randrange(len(chars))
    if roll < 0.45:
        chars[position] = rng.choice(LETTERS)
    elif roll < 0.6:
        del chars[position]
    elif roll < 0.75:
        chars.insert(position, rng.choice(LETTERS))
    elif roll < 0.88:
        return _case_variant(rng, text)
    else:
        return _ws(rng) + text + _ws(rng)
    return "".join(chars)


def _random_duplicate_report(rng: random.Random, size: int) -> dict:
    key = _key_argument(rng)
    lookup = key.strip() if isinstance(key, str) and key.strip() else "id"
    pool = _key_pool(rng)
    fields = ["name", "city", "dob"]
    names = rng.sample(NAME_BASES, rng.randint(1, 4))
    cities = rng.sample(CITY_BASES, rng.randint(1, 2))
    rows = []
    for _ in range(size):
        if rng.random() < 0.05:
            rows.append(_non_object_row(rng))
            continue
        row = {}
        if rng.random() < 0.9:
            row[lookup] = _key_value(rng, pool) if rng.random() < 0.4 else f"K-{rng.randint(1, 40)}"
        if rng.random() < 0.92:
            row["name"] = _perturb(rng, rng.choice(names))
        if rng.random() < 0.85:
            row["city"] = _perturb(rng, rng.choice(cities))
        if rng.random() < 0.85:
            row["dob"] = rng.choice(["1990-01-01", "1990-01-01", "1990-01-02", " 1990-01-01", 19900101,
                                     19900101.0, "19900101", None, ""])
        if rng.random() < 0.08:
            row["name"] = rng.choice([None, 5, 5.0, True, {"n": 1}, ["a"], " "])
        rows.append(row)
    args: dict = {"rows": rows, "key": key}
    roll = rng.random()
    if roll < 0.65:
        chosen = rng.sample(fields, rng.randint(1, 3))
        if rng.random() < 0.1:
            chosen = [_ws(rng) + chosen[0]] + chosen[1:]
        args["match_fields"] = chosen
    elif roll < 0.7:
        args["match_fields"] = rng.choice([[], None, "[\"name\"]", ["name", ""], ["name", 5], "name"])
    threshold_roll = rng.random()
    if threshold_roll < 0.04:
        args["similarity_threshold"] = rng.choice([0, -0.1, 1.5, "abc", None, "nan"])
    elif "match_fields" in args and threshold_roll < 0.6:
        args["similarity_threshold"] = rng.choice([0.5, 0.6, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95, 1, 1.0, "0.85", 0.33])
    _case_sensitive(rng, args)
    groups_roll = rng.random()
    if groups_roll < 0.2:
        args["max_groups"] = rng.choice([0, 1, 2, 3, 5, 50])
    elif groups_roll < 0.25:
        args["max_groups"] = rng.choice([-1, "2", 2.0, True, False])
    elif groups_roll < 0.26:
        args["max_groups"] = rng.choice([1.5, "x", None])
    if rng.random() < 0.03:
        args["rows"] = json.dumps(rows, ensure_ascii=rng.random() < 0.5)
    return args


GENERATORS = {
    "validate_rows": (_random_validate_rows, 15),
    "reconcile": (_random_reconcile, 12),
    "count_distinct": (_random_count_distinct, 15),
    "duplicate_report": (_random_duplicate_report, 15),
}


def cases() -> list[dict]:
    out: list[dict] = []
    for offset, (tool, (generate, max_size)) in enumerate(GENERATORS.items()):
        rng = random.Random(SEED * 10 + offset)
        for number in range(PER_TOOL):
            size = rng.choice([0] + [rng.randint(1, max_size)] * 9)
            out.append({"name": f"random_{tool}/{number:04d}", "tool": tool, "args": generate(rng, size),
                        "group": f"random_{tool}", "expect": {}, "covers": []})
        for number in range(LARGE_PER_TOOL):
            size = rng.randint(60, 120)
            out.append({"name": f"random_{tool}/large_{number}", "tool": tool, "args": generate(rng, size),
                        "group": f"random_{tool}", "expect": {}, "covers": []})
    return out
