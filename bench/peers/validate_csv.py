"""The benchmark's peers: the same contract on the same CSV file, in the
columnar validators a data team would otherwise pick.

    python validate_csv.py --system polars --csv invoices.csv --runs 3

The contract is the one the benchmark gives this project (bench/src/data.rs):
invoice matches INV-\\d{6} in full, customer is not blank, amount is a number
>= 0, date is an ISO date (YYYY-MM-DD). Each text is stripped of surrounding
space first, as this project's coercion does. A row that breaks any rule
fails.

Prints one JSON line: the system and its version, the seconds of each run
(clock after start-up and imports: reading the file and checking it), the
number of failing rows and a SHA-256 of their sorted zero-based indexes (so
the benchmark can check that every system fails the same rows), and the
process's peak resident memory.

Run by the benchmark (bench/src/peers.rs) in its own virtualenv, from
bench/peers/requirements.txt; nothing else needs it.
"""

import argparse
import hashlib
import json
import sys
import time

PATTERN = r"^INV-\d{6}$"


def polars_failing(path):
    """Polars expressions: read every column as text, then one filter."""
    import polars as pl

    frame = pl.read_csv(path, infer_schema=False)
    text = lambda name: pl.col(name).str.strip_chars()  # noqa: E731
    amount = text("amount").cast(pl.Float64, strict=False)
    good = (
        pl.col("invoice").str.contains(PATTERN).fill_null(False)
        & (text("customer").str.len_chars().fill_null(0) > 0)
        & (amount >= 0).fill_null(False)
        & text("date").str.to_date("%Y-%m-%d", strict=False).is_not_null()
    )
    failing = frame.with_row_index("i").filter(~good)
    return failing["i"].to_list()


def duckdb_failing(path):
    """DuckDB: one SQL query that also says why each row fails."""
    import duckdb

    connection = duckdb.connect()
    connection.execute("SET preserve_insertion_order = true")
    rows = connection.execute(
        f"""
        WITH data AS (
            SELECT row_number() OVER () - 1 AS i, *
            FROM read_csv(?, header = true, all_varchar = true)
        ),
        checked AS (
            SELECT i,
                NOT coalesce(regexp_full_match(invoice, 'INV-\\d{{6}}'), false) AS bad_invoice,
                NOT coalesce(length(trim(customer)) > 0, false) AS bad_customer,
                NOT coalesce(TRY_CAST(trim(amount) AS DOUBLE) >= 0, false) AS bad_amount,
                TRY_CAST(trim(date) AS DATE) IS NULL AS bad_date
            FROM data
        )
        SELECT i, bad_invoice, bad_customer, bad_amount, bad_date FROM checked
        WHERE bad_invoice OR bad_customer OR bad_amount OR bad_date
        ORDER BY i
        """,
        [path],
    ).fetchall()
    return [row[0] for row in rows]


def pandera_polars_failing(path):
    """Pandera's Polars backend, lazy validation collecting every failure."""
    import pandera.polars as pa
    import polars as pl

    strip = lambda name: pl.col(name).str.strip_chars()  # noqa: E731

    schema = pa.DataFrameSchema(
        {
            "invoice": pa.Column(str, pa.Check.str_matches(PATTERN), nullable=False),
            "customer": pa.Column(
                str, pa.Check(lambda data: data.lazyframe.select(strip(data.key).str.len_chars() > 0)), nullable=False
            ),
            "amount": pa.Column(
                str,
                pa.Check(
                    lambda data: data.lazyframe.select(
                        (strip(data.key).cast(pl.Float64, strict=False) >= 0).fill_null(False)
                    )
                ),
                nullable=False,
            ),
            "date": pa.Column(
                str,
                pa.Check(
                    lambda data: data.lazyframe.select(
                        strip(data.key).str.to_date("%Y-%m-%d", strict=False).is_not_null()
                    )
                ),
                nullable=False,
            ),
        }
    )
    frame = pl.read_csv(path, infer_schema=False)
    try:
        schema.validate(frame, lazy=True)
        return []
    except pa.errors.SchemaErrors as errors:
        cases = errors.failure_cases
        indexes = cases.get_column("index").drop_nulls().unique().sort().to_list()
        # A null in a non-nullable column is reported without an index by
        # some versions: find those rows directly.
        nulls = (
            frame.with_row_index("i")
            .filter(pl.any_horizontal(pl.col(["invoice", "customer", "amount", "date"]).is_null()))["i"]
            .to_list()
        )
        return sorted(set(indexes) | set(nulls))


def peak_resident_kib():
    """This process's peak resident memory (VmHWM). Not getrusage's
    ru_maxrss: Linux carries that across execve, so a child would report its
    parent's peak (the benchmark's) when that was higher."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return 0


SYSTEMS = {
    "polars": ("Polars (expressions)", "polars", polars_failing),
    "duckdb": ("DuckDB (one SQL query with reasons)", "duckdb", duckdb_failing),
    "pandera-polars": ("Pandera on Polars (lazy)", "pandera", pandera_polars_failing),
}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--system", choices=sorted(SYSTEMS), required=True)
    parser.add_argument("--csv", required=True)
    parser.add_argument("--runs", type=int, default=3)
    options = parser.parse_args()
    label, package, failing_rows = SYSTEMS[options.system]
    module = __import__(package)
    seconds = []
    failing = []
    for _ in range(options.runs):
        started = time.perf_counter()
        failing = failing_rows(options.csv)
        seconds.append(time.perf_counter() - started)
    failing = sorted(int(i) for i in failing)
    digest = hashlib.sha256(",".join(map(str, failing)).encode()).hexdigest()
    peak_kib = peak_resident_kib()
    print(
        json.dumps(
            {
                "system": label,
                "version": f"{package} {getattr(module, '__version__', '?')}",
                "seconds": seconds,
                "failing_rows": len(failing),
                "failing_sha256": digest,
                "peak_rss_bytes": peak_kib * 1024,
            }
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
