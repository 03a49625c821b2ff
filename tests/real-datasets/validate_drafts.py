#!/usr/bin/env python3
"""Record what Frictionless `validate` says of each vendored file under the
Table Schema inspect_dataset drafted for it: the oracle of
core/tests/inspect_real_datasets.rs's
frictionless_finds_every_file_valid_under_its_drafted_table_schema.

The drafts are read from drafted_table_schemas.json (written by that test
with MCPV_WRITE_DRAFTED_SCHEMAS=1), so this script needs nothing of the
project but those files. Each file is validated as a CSV resource with its
drafted schema and Frictionless's defaults otherwise (missingValues [""],
the CSV dialect detected), every row read. Recorded per file, in
frictionless_validate.json: the schema given, whether the report is valid,
the rows read, and each error as its type, row and field.

Run from the repository root, in the virtualenv of tests/frictionless/
(frictionless 5.21.0, pinned in its requirements.txt):

    python3 -m venv /tmp/fl-venv && /tmp/fl-venv/bin/pip install -r tests/frictionless/requirements.txt
    /tmp/fl-venv/bin/python tests/real-datasets/validate_drafts.py
"""

import json
import os
import sys

import frictionless
from frictionless import Resource, Schema

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    if frictionless.__version__ != "5.21.0":
        sys.exit(f"frictionless {frictionless.__version__}: tests/frictionless/requirements.txt pins 5.21.0")
    with open(os.path.join(HERE, "drafted_table_schemas.json"), encoding="utf-8") as handle:
        drafted = json.load(handle)["drafted"]
    out = []
    # Frictionless refuses an absolute path as unsafe: the files are read
    # relative to their folder.
    os.chdir(HERE)
    for name, descriptor in drafted.items():
        resource = Resource(path=name, schema=Schema.from_descriptor(descriptor))
        report = resource.validate()
        task = report.tasks[0]
        out.append({
            "file": name,
            "schema": descriptor,
            "valid": report.valid,
            "rows": task.stats.get("rows"),
            "errors": [
                {
                    "type": error.type,
                    "row": getattr(error, "row_number", None),
                    "field": getattr(error, "field_name", None),
                    "message": error.message,
                }
                for error in task.errors
            ],
        })
    target = os.path.join(HERE, "frictionless_validate.json")
    with open(target, "w", encoding="utf-8") as handle:
        json.dump({"frictionless": frictionless.__version__, "files": out}, handle, indent=1, ensure_ascii=False)
        handle.write("\n")
    for item in out:
        print(f"{item['file']}: valid={item['valid']} rows={item['rows']} errors={len(item['errors'])}")


if __name__ == "__main__":
    main()
