"""Property-based fuzzing of the command line and of the files it reads.

Random commands, options, ``--set`` keys and values, rules / experiment / profile files
(random keys, types and values, or bytes that are not TOML at all), manifests and paths (a
file where a folder is expected, /proc, devices, 300-character names). Every case must end
with exit status 0 or 2 — an exception escaping :func:`sim.cli.main` fails the test, which
is how a traceback shows up in-process — and a refused case (exit 2) must leave the working
directory exactly as it was. Runs on the toy game with a handful of matches, bounded for CI;
a few cases also go through a real subprocess.
"""

from __future__ import annotations

import datetime
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import tomli_w
from hypothesis import HealthCheck, Phase, event, given, settings
from hypothesis import strategies as st

from sim.cli import main
from tests.core import toygame  # noqa: F401  (registers toy-dice)
from tests.core.reliability import SCRIPT, snapshot

pytestmark = pytest.mark.filterwarnings("ignore")

FUZZ = settings(
    max_examples=int(os.environ.get("TABLESIM_FUZZ_EXAMPLES", "80")),
    deadline=None,
    phases=[Phase.explicit, Phase.reuse, Phase.generate, Phase.shrink],
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large],
    derandomize=not os.environ.get("TABLESIM_FUZZ_RANDOM"),
)
#: Experiment files play matches (and a rerun) when they are sound: a fifth of the examples
#: keeps the suite's budget; TABLESIM_FUZZ_EXAMPLES raises both.
FUZZ_EXPERIMENTS = settings(FUZZ, max_examples=max(1, FUZZ.max_examples // 5))

RULE_KEYS = [
    "game.target",
    "game.max_rounds",
    "game.seat0_bonus",
    "dice.sides",
    "dice.faces",
    "dice.mode",
    "dice",
    "game",
    "game.nope",
    "nope",
    "nope.deeper.key",
    "dice.faces.x",
    "game.target.x",
    "Game.Target",
    "deck.tir.count",
    "dice.mode.sum",
]
PROFILES = ["plain", "lucky", "wizard", "", " plain ", "PLAIN", "profile.toml", "missing.toml"]

# -- values ------------------------------------------------------------------------------------
scalars = st.one_of(
    st.integers(-(2**63), 2**63 - 1),
    st.integers(-3, 60),
    st.booleans(),
    st.floats(allow_nan=True, allow_infinity=True),
    st.floats(-5, 50),
    st.text(max_size=12),
    st.sampled_from(["sum", "max", "min", ""]),
    st.dates(datetime.date(1, 1, 1), datetime.date(9999, 12, 31)),
)
values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=7),
        st.dictionaries(st.sampled_from(["sides", "target", "x", "faces", "mode"]), inner, max_size=3),
    ),
    max_leaves=10,
)
keys = st.one_of(
    st.sampled_from(RULE_KEYS), st.text(st.characters(blacklist_categories=("Cs",)), min_size=0, max_size=10)
)


def toml_literal(value) -> str:
    return tomli_w.dumps({"v": value})[4:].strip()


set_items = st.one_of(
    st.builds(lambda k, v: f"{k}={toml_literal(v)}", st.sampled_from(RULE_KEYS), values),
    st.builds(lambda k, raw: f"{k}={raw}", keys, st.text(max_size=15)),
    st.text(max_size=12),
)


def nested(key_strategy, depth=2):
    leaf = values
    return st.dictionaries(
        key_strategy, leaf if depth == 0 else st.one_of(leaf, nested(key_strategy, depth - 1)), max_size=4
    )


SOUND_RULES = [
    {"game": {"target": 30}},
    {"dice": {"sides": 4, "mode": "max"}},
    {"game": {"max_rounds": 8}},
    {"dice": {"sides": 3, "faces": [3, 2, 1]}},
    {},
]
SOUND_PROFILES = [{"bonus": 1.0}, {"base": "lucky", "name": "steady"}, {"name": "p" * 300}, {}]

toml_documents = st.one_of(
    st.sampled_from(SOUND_RULES + SOUND_PROFILES).map(tomli_w.dumps),
    nested(
        st.sampled_from(
            ["game", "dice", "target", "sides", "faces", "mode", "max_rounds", "bonus", "base", "name", "x"]
        )
    ).map(tomli_w.dumps),
    st.text(max_size=80),
    st.binary(max_size=60).map(lambda b: b.decode("latin-1")),
)


@st.composite
def experiment_files(draw) -> str:
    sound = draw(st.booleans())

    def pick(good, bad):
        return draw(st.sampled_from(good)) if sound and draw(st.integers(0, 6)) else draw(st.sampled_from(good + bad))

    doc = {
        "game": pick(["toy-dice"], ["chess", 3]),
        "matches": pick([1, 3, 6], [0, -1, 10**16, "3", 2.5]),
        "seed": pick([0, 7, 2**62], [-1]),
        "chunk_size": pick([1, 4, 25], [0, 10**7]),
    }
    if draw(st.booleans()):
        doc["rotate_seats"] = pick([True, False], ["yes"])
    if draw(st.booleans()):
        doc["baseline"] = {
            "set": draw(st.dictionaries(st.sampled_from(RULE_KEYS), values, max_size=2))
            if not sound
            else {"game.target": 30}
        }
    variant = st.fixed_dictionaries(
        {"name": st.sampled_from(["v", "a/b", "x" * 300] if sound else ["v", "baseline", "", "x" * 300, "a/b"])},
        optional={
            "set": st.dictionaries(st.sampled_from(RULE_KEYS), values, max_size=2)
            if not sound
            else st.sampled_from([{"dice.sides": 4}, {"dice.faces": [6, 5, 4, 3, 2, 1]}]),
            "rules": st.sampled_from(["", "rules.toml"] if sound else ["rules.toml", "missing.toml", ".", ""]),
        },
    )
    doc["variants"] = draw(st.lists(variant, max_size=2, unique_by=lambda v: v["name"]))
    players = st.lists(
        st.sampled_from(["plain", "lucky"] if sound else PROFILES),
        min_size=2 if sound else 0,
        max_size=4 if sound else 5,
    )
    doc["lineups"] = draw(
        st.lists(
            st.fixed_dictionaries(
                {
                    "name": st.sampled_from(["pl", "p/l", "y" * 300] if sound else ["pl", "p/l", "", "y" * 300]),
                    "players": players,
                }
            ),
            min_size=1 if sound else 0,
            max_size=2,
            unique_by=lambda x: x["name"],
        )
    )
    if not sound:
        for key, value in draw(
            st.dictionaries(st.sampled_from(["precision", "nope", "game", "lineups"]), values, max_size=1)
        ).items():
            doc[key] = value
    try:
        return tomli_w.dumps(doc)
    except Exception:  # a value TOML cannot hold: write it as plain text instead
        return json.dumps(doc, default=str)


# -- paths -------------------------------------------------------------------------------------
PATHS = [
    "out",
    "deep/er/out",
    "a_file",
    "a_file/sub",
    "a_dir",
    "/proc/x",
    "/proc/self/mem",
    "/dev/zero",
    "/dev/null",
    "z" * 300,
    "sp ace/é",
    "",
    ".",
    "results_dir",
    "results_dir/matches",
]


def sandbox(tmp: Path) -> None:
    (tmp / "a_file").write_text("x")
    (tmp / "a_dir").mkdir()


def _template(root: Path) -> Path:
    """A small finished results directory, made once and copied into each case that wants one."""
    folder = root / "template"
    if not folder.exists():
        assert (
            main(
                [
                    "run",
                    "toy-dice",
                    "--matches",
                    "6",
                    "--players",
                    "plain,lucky",
                    "--chunk-size",
                    "3",
                    "--out",
                    str(folder),
                    "--no-progress",
                ]
            )
            == 0
        )
    return folder


@pytest.fixture(scope="module")
def template(tmp_path_factory):
    return _template(tmp_path_factory.mktemp("fuzz-template"))


def _prepare(tmp: Path, template: Path, files: dict[str, str], results: str | None) -> None:
    sandbox(tmp)
    for name, text in files.items():
        (tmp / name).write_text(text, encoding="utf-8", errors="surrogatepass")
    if results is not None:
        shutil.copytree(template, tmp / "results_dir")
        if results == "damaged-part":
            victim = sorted((tmp / "results_dir" / "matches").glob("*.parquet"))[0]
            victim.write_bytes(victim.read_bytes()[:50])
        elif results != "intact":
            (tmp / "results_dir" / "manifest.json").write_text(results, errors="surrogatepass")


def run_case(tmp: Path, argv: list[str], capsys) -> tuple[int, str]:
    cwd = os.getcwd()
    os.chdir(tmp)
    try:
        before = snapshot(tmp)
        capsys.readouterr()
        code = main(argv)
        err = capsys.readouterr().err
        after = snapshot(tmp)
    finally:
        os.chdir(cwd)
    event(f"{argv[0] if argv else '(none)'}: exit {code}")
    assert code in (0, 2, 3), (argv, code, err)
    assert "Traceback" not in err, (argv, err)
    if code == 3:  # written from a results directory that lacks matches (a damaged part set aside)
        assert argv[0] in ("report", "export") and " is incomplete: " in err.strip().splitlines()[-1], (argv, err)
    if code == 2:
        assert err.strip(), argv  # a refusal says why
        assert after == before, (argv, err, set(after) ^ set(before))
    return code, err


VALID_SETS = [
    "game.target=30",
    "game.max_rounds=10",
    "dice.sides=4",
    "dice.mode=max",
    "dice.faces=[1,2,3,4,5,9]",
    "dice.faces=[9,5,4,3,2,1]",
    "game.seat0_bonus=1.5",
]


@st.composite
def run_commands(draw) -> list[str]:
    """Mostly sound commands with a few things wrong (or none), and some entirely random ones."""
    sound = draw(st.booleans())

    def pick(good, bad):
        return draw(st.sampled_from(good)) if sound and draw(st.integers(0, 5)) else draw(st.sampled_from(good + bad))

    players = draw(
        st.lists(
            st.sampled_from(["plain", "lucky"] if sound else PROFILES),
            min_size=2 if sound else 1,
            max_size=4 if sound else 5,
        )
    )
    argv = [
        "run",
        pick(["toy-dice"], ["chess", ""]),
        "--matches",
        pick(["1", "3", "12"], ["0", "-2", str(10**16)]),
        "--players",
        ",".join(players),
        "--no-progress",
    ]
    for item in draw(st.lists(st.sampled_from(VALID_SETS) if sound and draw(st.booleans()) else set_items, max_size=3)):
        argv += ["--set", item]
    optional = {
        "--rules": (["rules.toml"], PATHS),
        "--out": (["out", "deep/er/out", "sp ace/é", "z" * 300], PATHS),
        "--jobs": (["1", "1000", "-1"], ["0", "-7", "x"]),
        "--chunk-size": (["1", "5"], ["0", "1000000", "2.5"]),
        "--seed": (["0", "3", str(2**70)], ["-1"]),
        "--lineup": (["x", "a/b", "y" * 300], [""]),
        "--format": (["json", "text"], ["xml"]),
        "--backend": (["loky", "sequential", "threading"], ["nope"]),
    }
    for flag in draw(st.lists(st.sampled_from(sorted(optional)), unique=True, max_size=4)):
        argv += [flag, pick(*optional[flag])]
    return argv


@st.composite
def other_commands(draw) -> list[str]:
    kind = draw(st.sampled_from(["rules", "experiment", "report", "replay", "shot", "misc"]))
    if kind == "rules":
        argv = ["rules", draw(st.sampled_from(["toy-dice", "nope"]))]
        for item in draw(st.lists(set_items, max_size=3)):
            argv += ["--set", item]
        if draw(st.booleans()):
            argv += ["--rules", draw(st.sampled_from(["rules.toml", *PATHS]))]
        return argv
    if kind == "experiment":
        argv = ["experiment", draw(st.sampled_from(["exp.toml"] * 6 + PATHS)), "--no-progress"]
        if draw(st.integers(0, 3)):
            argv += ["--out", draw(st.sampled_from(["out", "z" * 300, "deep/er/out"] * 3 + PATHS))]
        if draw(st.booleans()):
            argv += ["--jobs", draw(st.sampled_from(["1", "0", "-2"]))]
        return argv
    if kind == "report":
        argv = ["report", draw(st.sampled_from(["results_dir", "results_dir", *PATHS]))]
        for flag, suffixes in (("--out", [".html", ".txt", ""]), ("--markdown", [".md", ".html"])):
            if draw(st.booleans()):
                argv += [flag, draw(st.sampled_from(PATHS)) + draw(st.sampled_from(suffixes))]
        return argv
    if kind == "replay":
        return [
            "replay",
            draw(st.sampled_from(["toy-dice", "gasterospeed", "nope"])),
            "--match",
            draw(st.sampled_from(["-1", "x"])),
            "--seed",
            draw(st.sampled_from(["0", "-3"])),
        ]
    if kind == "shot":
        argv = [
            "shot",
            draw(st.sampled_from(["toy-dice", "curlastique"])),
            "--speed",
            draw(st.sampled_from(["1.3", "nan", "-1", "x"])),
        ]
        if draw(st.booleans()):
            argv += ["--plot", draw(st.sampled_from(PATHS)) + draw(st.sampled_from([".png", ".svg", ".xyz", ""]))]
        if draw(st.booleans()):
            argv += ["--state", draw(st.sampled_from(["rules.toml", *PATHS]))]
        return argv
    return draw(
        st.sampled_from(
            [
                ["demo", "--jobs", "0"],
                ["demo", "--out", "a_file/x"],
                ["bench", "--seconds", "0"],
                ["games", "--format", "xml"],
                [],
                ["nope"],
                ["--version"],
                ["balance", "a_dir"],
                ["sensitivity", "/proc/self/mem"],
                ["balance", "exp.toml", "--jobs", "0"],
                ["run", "toy-dice"],
                ["run", "toy-dice", "--matches", "1e3", "--players", "a"],
            ]
        )
    )


files = st.fixed_dictionaries(
    {"rules.toml": toml_documents, "profile.toml": toml_documents, "exp.toml": experiment_files()}
)
results_kinds = st.one_of(
    st.none(),
    st.sampled_from(
        [
            "intact",
            "damaged-part",
            "{}",
            "[]",
            '{"kind": "run"',
            '{"kind": "run", "game": "toy-dice"}',
            '{"kind": 3, "game": []}',
        ]
    ),
    st.text(max_size=30),
)


@FUZZ
@given(argv=run_commands(), files=files)
def test_fuzz_run_and_its_files(tmp_path_factory, template, capsys, argv, files):
    tmp = tmp_path_factory.mktemp("case")
    _prepare(tmp, template, files, None)
    run_case(tmp, argv, capsys)


@FUZZ
@given(argv=other_commands(), files=files, results=results_kinds)
def test_fuzz_other_commands(tmp_path_factory, template, capsys, argv, files, results):
    if argv[:1] == ["report"] and results == "intact" and "--markdown" not in argv and "--out" not in argv:
        results = "{}"  # a full report takes seconds: keep those for the tests of the report itself
    tmp = tmp_path_factory.mktemp("case")
    _prepare(tmp, template, files, results)
    run_case(tmp, argv, capsys)


@FUZZ_EXPERIMENTS
@given(
    experiment=experiment_files(),
    rules=st.sampled_from(SOUND_RULES).map(tomli_w.dumps) | toml_documents,
    out=st.sampled_from(["out", "z" * 300, "deep/er/out", "a_file", "/proc/x"]),
)
def test_fuzz_experiment_files(tmp_path_factory, template, capsys, experiment, rules, out):
    tmp = tmp_path_factory.mktemp("case")
    _prepare(tmp, template, {"exp.toml": experiment, "rules.toml": rules}, None)
    code, _ = run_case(tmp, ["experiment", "exp.toml", "--out", out, "--no-progress"], capsys)
    if code == 0:  # what was played is what the file asked for, and a rerun plays nothing
        assert run_case(tmp, ["experiment", "exp.toml", "--out", out, "--no-progress"], capsys)[0] == 0


SUBPROCESS_CASES = [
    ["run", "toy-dice", "--matches", "3", "--players", "plain,lucky", "--rules", "/proc/self/mem"],
    ["run", "toy-dice", "--matches", "3", "--players", "plain,lucky", "--set", "dice.faces=[1,2]", "--out", "o"],
    ["run", "toy-dice", "--matches", "nope", "--players", "plain"],
    ["report", "results_dir"],
    ["experiment", "exp.toml", "--out", "a_file/x"],
    ["rules", "toy-dice", "--set", "game="],
]


@pytest.mark.parametrize("argv", SUBPROCESS_CASES, ids=lambda a: " ".join(a)[:40])
def test_fuzz_cases_through_a_real_process(tmp_path, template, argv):
    _prepare(
        tmp_path,
        template,
        {"exp.toml": 'game = "toy-dice"\nmatches = 2\n[[lineups]]\nname = "p"\nplayers = ["plain", "lucky"]\n'},
        "{}",
    )
    (tmp_path / "cli.py").write_text(SCRIPT)
    before = snapshot(tmp_path)
    done = subprocess.run(
        [sys.executable, str(tmp_path / "cli.py"), *argv], cwd=tmp_path, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and done.stderr.startswith("tablesim: error: ")
    assert snapshot(tmp_path) == before
