"""A large results directory made from a small one, for timing what reads a store.

    PYTHONPATH=. .venv/bin/python benchmarks/generate_store.py SOURCE OUT --matches 1000000

SOURCE is a results directory of one cell (``tablesim run ... --out SOURCE``). OUT gets its
manifest (with ``matches`` set to the new count) and its tables repeated, each copy's match and
seed numbers shifted past the previous copy's, written as compacted parts of up to 50,000
matches (the layout ``tablesim compact`` leaves), one row group per copy. The matches repeat
SOURCE's, so the figures of a report on OUT are those of SOURCE: the store is for timing and
memory, not for conclusions. Prints the files and bytes written per table.
"""

from __future__ import annotations

import argparse
import json
import math
import shutil
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sim.core.game import TABLES  # noqa: E402
from sim.core.store import COMPACT_MATCHES, ResultStore, part_name  # noqa: E402


def _read(source: Path, table: str):
    import pyarrow as pa
    import pyarrow.parquet as pq

    parts = [pq.read_table(source / table / name) for *_, name in ResultStore(source)._counted_parts()]
    parts = [p for p in parts if p.num_rows]
    return pa.concat_tables(parts, promote_options="permissive") if parts else None


def _shifted(table, matches: int, seeds: int, copy: int):
    import pyarrow as pa
    import pyarrow.compute as pc

    out = table
    for column, step in (("match", matches), ("seed", seeds)):
        if column in out.column_names:
            index = out.column_names.index(column)
            values = pc.add(out.column(column), pa.scalar(copy * step, out.schema.field(column).type))
            out = out.set_column(index, column, values)
    return out


def generate(source: Path, out: Path, matches: int) -> dict[str, dict[str, int]]:
    """Write ``out`` (module docstring); return files and bytes per table."""
    import pyarrow.parquet as pq

    manifest = json.loads((source / "manifest.json").read_text(encoding="utf-8"))
    cells = manifest.get("cells") or []
    if len(cells) != 1:
        raise SystemExit(f"{source}: one cell expected, found {len(cells)}")
    tables = {table: _read(source, table) for table in TABLES}
    per_copy = tables["matches"].num_rows
    first = min(tables["matches"].column("match").to_pylist())
    if first != 0 or per_copy != max(tables["matches"].column("match").to_pylist()) + 1:
        raise SystemExit(f"{source}: its matches must be numbered 0..n-1 without a gap")
    seeds = len(set(tables["matches"].column("seed").to_pylist()))
    copies_per_part = max(1, COMPACT_MATCHES // per_copy)
    copies = math.ceil(matches / per_copy)
    if out.exists():
        shutil.rmtree(out)
    for table in TABLES:
        (out / table).mkdir(parents=True)
    variant, lineup = cells[0]["variant"], cells[0]["lineup"]
    written = {table: {"files": 0, "bytes": 0} for table in TABLES}
    for start in range(0, copies, copies_per_part):
        group = range(start, min(copies, start + copies_per_part))
        name = part_name(variant, lineup, group[0] * per_copy, (group[-1] + 1) * per_copy - 1)
        for table in reversed(TABLES):  # matches last, as a run writes
            data = tables[table]
            path = out / table / name
            if data is None:
                pq.write_table(tables["matches"].slice(0, 0).select([]), path)
            else:
                with pq.ParquetWriter(path, data.schema) as writer:
                    for copy in group:
                        writer.write_table(_shifted(data, per_copy, seeds, copy))
            written[table]["files"] += 1
            written[table]["bytes"] += path.stat().st_size
    stored = copies * per_copy
    manifest.update({"matches": stored, "stored_matches": stored, "status": "complete"})
    (out / "manifest.json").write_text(json.dumps(manifest, indent=2), encoding="utf-8")
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("source", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--matches", type=int, default=1_000_000)
    args = parser.parse_args(argv)
    started = time.perf_counter()
    written = generate(args.source, args.out, args.matches)
    print(f"{args.out}: {ResultStore(args.out).stored_count():,} matches in {time.perf_counter() - started:.1f} s")
    for table, figures in written.items():
        print(f"  {table:<8} {figures['files']:>4} files  {figures['bytes'] / 2**20:>9.1f} MiB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
