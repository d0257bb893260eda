"""Fingerprints of seeded tables: does a refactor keep every decision of every match?

    PYTHONPATH=. .venv/bin/python benchmarks/seeded_tables.py --write fingerprints.json [--only carrom]
    PYTHONPATH=. .venv/bin/python benchmarks/seeded_tables.py --check fingerprints.json [--only carrom]

Plays each case's matches in this process (seat rotation on, one worker: the tables do not
depend on workers or chunks, the conformance suite checks that) and hashes every table row by
row (``pandas.util.hash_pandas_object``, columns in a fixed order). ``--check`` plays the same
cases and names, per case and table, the first match whose rows differ, so a change of play is
seen at once and located. A refactor that claims "same decisions for the same seeds" must pass
``--check`` against fingerprints written before it (the file is not committed: it depends on
the machine's numpy and numba builds; write it at the commit you compare with).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

import numpy as np
import pandas as pd

#: (key, game, line-up, rule overrides, matches): 2- and 4-seat line-ups of every game.
CASES = [
    ("curlastique_club_2p", "curlastique", ("club", "club"), ("game.target_score=500",), 40),
    ("curlastique_mixed_4p", "curlastique", ("novice", "casual", "club", "expert"), (), 12),
    ("carrom_club_2p", "carrom", ("club", "club"), ("game.target_points=25",), 6),
    ("carrom_mixed_4p", "carrom", ("beginner", "club", "casual", "champion"), ("game.target_points=13",), 4),
    ("gasterospeed_tactician_4p", "gasterospeed", ("tactician",) * 4, (), 20),
    ("gasterospeed_mixed_3p", "gasterospeed", ("tactician", "greedy", "casual"), (), 12),
]


def _tables(key: str) -> dict[str, pd.DataFrame]:
    from sim.core import load_lineup, load_rules
    from sim.core.game import get_game
    from sim.core.runner import Cell, run_cells

    _, game, players, overrides, matches = next(c for c in CASES if c[0] == key)
    spec = get_game(game)
    rules = load_rules(spec, None, list(overrides))
    lineup = load_lineup(spec, players, rules)
    cell = Cell("baseline", "case", rules, tuple(lineup), rotate_seats=True)
    return run_cells(spec, [cell], matches, 20261202, jobs=1, progress=False)


def _row_hashes(table: pd.DataFrame) -> pd.DataFrame:
    table = table[sorted(table.columns)]
    hashed = pd.util.hash_pandas_object(table, index=False).to_numpy(np.uint64)
    return pd.DataFrame({"match": table["match"].to_numpy(), "hash": hashed})


def fingerprint(key: str) -> dict[str, dict]:
    """Per table: the digest of all rows, and one digest per match (to locate a change)."""
    out = {}
    for name, table in sorted(_tables(key).items()):
        rows = _row_hashes(table.reset_index(drop=True))
        per_match = {
            int(m): hashlib.sha256(g["hash"].to_numpy().tobytes()).hexdigest()[:16]
            for m, g in rows.groupby("match", sort=True)
        }
        whole = hashlib.sha256(rows["hash"].to_numpy().tobytes()).hexdigest()
        out[name] = {"digest": whole, "rows": len(table), "columns": sorted(table.columns), "matches": per_match}
    return out


def compare(old: dict, new: dict) -> list[str]:
    """One line per difference: a table's columns, its row count, the first match that differs."""
    lines = []
    for name in sorted(set(old) | set(new)):
        a, b = old.get(name), new.get(name)
        if a is None or b is None:
            lines.append(f"{name}: table {'added' if a is None else 'removed'}")
            continue
        if a["digest"] == b["digest"]:
            continue
        if a["columns"] != b["columns"]:
            lines.append(f"{name}: columns {sorted(set(a['columns']) ^ set(b['columns']))} differ")
            continue
        first = next((m for m in sorted(a["matches"], key=int) if a["matches"][m] != b["matches"].get(m)), None)
        lines.append(f"{name}: rows {a['rows']} -> {b['rows']}; first differing match {first}")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    action = parser.add_mutually_exclusive_group(required=True)
    action.add_argument("--write", type=Path, help="write the fingerprints of the current tree here")
    action.add_argument("--check", type=Path, help="compare the current tree with these fingerprints")
    parser.add_argument("--only", default=None, help="comma-separated parts of case names (e.g. carrom)")
    args = parser.parse_args()
    keys = [c[0] for c in CASES if not args.only or any(part in c[0] for part in args.only.split(","))]
    if args.write:
        prints = {key: fingerprint(key) for key in keys}
        args.write.write_text(json.dumps(prints, indent=1))
        print(f"wrote {len(keys)} cases to {args.write}")
        return
    stored = json.loads(args.check.read_text())
    failed = False
    for key in keys:
        if key not in stored:
            print(f"{key}: not in {args.check}")
            failed = True
            continue
        lines = compare(stored[key], fingerprint(key))
        failed |= bool(lines)
        print(f"{key}: " + ("identical" if not lines else "DIFFERENT\n  " + "\n  ".join(lines)))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
