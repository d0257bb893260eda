"""``tablesim games`` and ``tablesim rules``: what is installed and what its rules are."""

from __future__ import annotations

import argparse
import json
import sys

from ..core.game import game_names, get_game
from .common import UsageError, add_rules_options, find_game, load_user_rules


def cmd_games(args: argparse.Namespace) -> int:
    rows = []
    for name in game_names():
        spec = get_game(name)
        rows.append({"name": name, "title": spec.title, "players": list(spec.player_counts)})
    if args.format == "json":
        print(json.dumps(rows, indent=2))
    else:
        name_width = max((len(row["name"]) for row in rows), default=0)
        title_width = max((len(row["title"]) for row in rows), default=0)
        for row in rows:
            counts = ", ".join(str(n) for n in row["players"])
            print(f"{row['name']:<{name_width}}  {row['title']:<{title_width}}  players: {counts}")
    return 0


def cmd_rules(args: argparse.Namespace) -> int:
    """The commented default file, with the user's values written in place (comments kept)
    and derived values (the rules' optional ``resolved()``) shown beside their keys."""
    from ..core.config import commented_toml
    from ..core.rules import default_rules_text, load_rules

    spec = find_game(args.game)
    rules = load_user_rules(spec, args)  # the shipped defaults must themselves validate
    defaults = load_rules(spec) if args.rules is not None or args.overrides else rules
    resolved = rules.resolved() if callable(getattr(rules, "resolved", None)) else {}
    sys.stdout.write(commented_toml(default_rules_text(spec), rules, defaults, resolved))
    return 0


def _toml_value(value) -> str:
    import tomli_w

    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    return tomli_w.dumps({"v": value}).split("=", 1)[1].strip()


def _short(text: str, width: int = 16) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def _bounds(doc: dict) -> str:
    low, high = doc.get("min"), doc.get("max")
    if low is None and high is None:
        return doc["type"]
    strict = ">" if doc.get("min_exclusive") else ">="
    if low is not None and high is not None and not doc.get("min_exclusive"):
        return f"{low:g} to {high:g}"
    return " and ".join(
        part
        for part in ((f"{strict} {low:g}" if low is not None else ""), (f"<= {high:g}" if high is not None else ""))
        if part
    )


def profiles_text(spec, base: str) -> str:
    """A custom profile file to copy: every key at preset ``base``'s value, with unit, bounds
    and meaning; then every preset's values side by side (as comments)."""
    from ..core.config import field_docs, flatten, to_dict
    from ..core.profiles import load_profile, presets

    tables = presets(spec)
    docs = field_docs(spec.profile_type)
    chosen = flatten(to_dict(load_profile(spec, base).profile))
    lines = [
        f"# {spec.title} player profile: save as my_player.toml, change what you want, and use it as",
        f"# --players my_player.toml,... (keys not set come from `base`). Presets: {', '.join(tables)}.",
        "",
        f"{'name = ' + chr(34) + 'my-player' + chr(34):<22}# shown in the tables (default: the file's name)",
        f"{'base = ' + chr(34) + base + chr(34):<22}# the preset the other keys start from",
        "",
    ]
    width = min(40, max(len(f"{k} = {_toml_value(chosen[k])}") for k in docs) + 2)
    for key, doc in docs.items():
        text = f"{key} = {_toml_value(chosen[key])}"
        unit = f"{doc['unit']}; " if doc.get("unit") else ""
        meaning = doc.get("doc") or ""
        lines.append(
            f"{text:<{width - 1}} # {unit}{_bounds(doc)}; default {_toml_value(doc['default'])}"
            + (f": {meaning}" if meaning else "")
        )
    lines += ["", "# The presets (each column a preset; keys a preset does not set take the default):"]
    values = {name: flatten(to_dict(load_profile(spec, name).profile)) for name in tables}
    head = max(len(k) for k in docs)
    cells = {name: [_short(_toml_value(values[name][k])) for k in docs] for name in tables}
    widths = {name: max(len(name), *(len(c) for c in cells[name])) for name in tables}
    lines.append("# " + " " * head + "  " + "  ".join(f"{n:>{widths[n]}}" for n in tables))
    for index, key in enumerate(docs):
        lines.append(f"# {key:<{head}}  " + "  ".join(f"{cells[n][index]:>{widths[n]}}" for n in tables))
    return "\n".join(lines) + "\n"


def cmd_profiles(args: argparse.Namespace) -> int:
    from ..core.config import field_docs, flatten, to_dict
    from ..core.profiles import load_profile, presets

    spec = find_game(args.game)
    names = list(presets(spec))
    base = args.preset or next((p for p in spec.demo_players if p in names), names[0] if names else None)
    if base not in names:
        raise UsageError(f"--preset {base!r}: unknown preset; allowed: {', '.join(names)}")
    if args.format == "json":
        docs = {k: {kk: vv for kk, vv in v.items()} for k, v in field_docs(spec.profile_type).items()}
        print(
            json.dumps(
                {
                    "game": spec.name,
                    "keys": docs,
                    "presets": {n: flatten(to_dict(load_profile(spec, n).profile)) for n in names},
                },
                indent=2,
                default=str,
            )
        )
    else:
        sys.stdout.write(profiles_text(spec, base))
    return 0


def cmd_new_game(args: argparse.Namespace) -> int:
    from ..skeleton import SkeletonError, write_skeleton

    if args.name in game_names():
        raise UsageError(f"NAME {args.name!r}: a game of that name is already installed; choose another")
    try:
        files = write_skeleton(args.name, args.dir)
    except SkeletonError as exc:
        raise UsageError(str(exc)) from None
    print(f"wrote {len(files)} files under {args.dir}:")
    for path in files:
        print(f"  {path}")
    print(f"next: pip install -e {args.dir} && tablesim run {args.name} --matches 100 --players steady,bold")
    return 0


def add_parsers(sub) -> None:
    """Add this module's commands to the ``tablesim`` parser."""
    p = sub.add_parser("games", help="list the games")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(func=cmd_games)

    p = sub.add_parser(
        "rules",
        help="print a game's rules as TOML (the file to copy and edit)",
        epilog="example: tablesim rules curlastique > my_rules.toml",
    )
    p.add_argument("game")
    add_rules_options(p)
    p.set_defaults(func=cmd_rules)

    p = sub.add_parser(
        "profiles",
        help="a game's player presets and every profile key (unit, bounds, meaning)",
        epilog="example: tablesim profiles curlastique --preset club > my_player.toml",
    )
    p.add_argument("game")
    p.add_argument(
        "--preset",
        default=None,
        help="the preset the printed profile starts from (default: the game's first demo profile)",
    )
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(func=cmd_profiles)

    p = sub.add_parser(
        "new-game",
        help="write a package skeleton for a new game (passes the conformance suite)",
        epilog="example: tablesim new-game dice-duel my-dice-duel/",
    )
    p.add_argument("name", help="the game's name: lower-case letters, digits and hyphens")
    p.add_argument("dir", help="a new (or empty) directory for the package")
    p.set_defaults(func=cmd_new_game)
