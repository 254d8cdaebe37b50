"""Columns of a JSON Lines file as Python lists, by each loader that could build them: the
choice behind jqmagic's projected loading (issue 43), measured on one file in one run.

    python bench/jsonl_loaders.py [--mb 30] [--repeat 3]   # prints a markdown table

Each loader turns the file into the Python values of the chains a question reads (one,
then four): orjson's whole parse (what the fast path did), msgspec's projected decoding
(TypedDicts of the chains, unknown fields skipped in C), pyarrow's JSON reader (an
explicit schema, unexpected fields ignored) and DuckDB (``read_json_objects`` +
``json_extract``, and ``read_json``'s table). A loader whose library is missing reads '-'.
Run it with a Python that has pyarrow and duckdb (a side venv: they are 170 MB and 50 MB).
"""

from __future__ import annotations

import argparse
import gc
import resource
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import formatsdata  # noqa: E402

ONE = [("type",)]
FOUR = [("type",), ("actor", "login"), ("repo", "name"), ("created_at",)]


def orjson_whole(path: str, chains: list[tuple[str, ...]]) -> list[list]:
    import orjson

    with open(path, "rb") as handle:
        rows = list(map(orjson.loads, handle.read().split(b"\n")[:-1]))
    return [[_get(row, chain) for row in rows] for chain in chains]


def _get(value: Any, chain: tuple[str, ...]) -> Any:
    for name in chain:
        value = value.get(name) if type(value) is dict else None
    return value


def msgspec_projected(path: str, chains: list[tuple[str, ...]]) -> list[list]:
    sys.path.insert(0, str(HERE.parent))
    from jqmagic.core.query import projected

    with open(path, "rb") as handle:
        rows = projected.decode(handle.read(), frozenset(chains))
    return [[_get(row, chain) for row in rows] for chain in chains]


def pyarrow_json(path: str, chains: list[tuple[str, ...]]) -> list[list]:
    import pyarrow as pa
    from pyarrow import json as pj

    def field_of(tree: dict) -> list:
        return [pa.field(name, pa.struct(field_of(sub)) if sub else pa.string())
                for name, sub in tree.items()]

    tree: dict = {}
    for chain in chains:
        node = tree
        for name in chain:
            node = node.setdefault(name, {})
    schema = pa.schema(field_of(tree))
    table = pj.read_json(path, parse_options=pj.ParseOptions(
        explicit_schema=schema, unexpected_field_behavior="ignore"))
    out = []
    for chain in chains:
        column = table.column(chain[0])
        for name in chain[1:]:
            column = column.combine_chunks().field(name)
        out.append(column.to_pylist())
    return out


def duckdb_objects(path: str, chains: list[tuple[str, ...]]) -> list[list]:
    import duckdb

    paths = ", ".join(f"json_extract_string(json, '$.{'.'.join(c)}')" for c in chains)
    rows = duckdb.sql(f"SELECT {paths} FROM read_json_objects('{path}', "
                      "format='newline_delimited')").fetchall()
    return [list(column) for column in zip(*rows, strict=True)]


def duckdb_table(path: str, chains: list[tuple[str, ...]]) -> list[list]:
    import duckdb

    names = ", ".join(".".join(chain) for chain in chains)
    rows = duckdb.sql(f"SELECT {names} FROM read_json('{path}', "
                      "format='newline_delimited')").fetchall()
    return [list(column) for column in zip(*rows, strict=True)]


LOADERS = [("orjson, whole parse (before)", orjson_whole),
           ("msgspec, projected TypedDicts (chosen)", msgspec_projected),
           ("pyarrow.json, explicit schema", pyarrow_json),
           ("DuckDB read_json_objects + json_extract", duckdb_objects),
           ("DuckDB read_json (typed table)", duckdb_table)]


def timed(loader, path: str, chains: list, repeat: int) -> float | None:
    try:
        best = float("inf")
        for _ in range(repeat):
            gc.collect()
            gc.disable()
            started = time.perf_counter()
            loader(path, chains)
            best = min(best, time.perf_counter() - started)
            gc.enable()
        return best
    except ImportError:
        return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=int, default=30)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    path = str(formatsdata.events_file(args.mb))
    reference = orjson_whole(path, FOUR)
    print(f"{Path(path).stat().st_size / 1e6:.0f} MB, {len(reference[0])} lines "
          f"({time.strftime('%Y-%m-%d %H:%M')} UTC); best of {args.repeat}, seconds to Python "
          "lists of the chains\n")
    print("| loader | `.type` | `.type`, `.actor.login`, `.repo.name`, `.created_at` | "
          "same values |\n|---|---:|---:|:---:|")
    for name, loader in LOADERS:
        cells = [timed(loader, path, chains, args.repeat) for chains in (ONE, FOUR)]
        try:
            same = "yes" if loader(path, FOUR) == reference else "NO"
        except ImportError:
            same = "-"
        print(f"| {name} | " + " | ".join("-" if c is None else f"{c:.3f}" for c in cells) +
              f" | {same} |")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"\nPeak RSS of the whole run: {peak:.0f} MB.")


if __name__ == "__main__":
    main()
