"""The design report: renders from toy-game tables, parses, has every section, valid PNGs."""

import base64
import io
import json
import re
from html.parser import HTMLParser
from pathlib import Path
from types import SimpleNamespace

import matplotlib.image as mpimg
import numpy as np
import pandas as pd
import pytest
from matplotlib.figure import Figure

from analysis import results as results_module
from analysis.report import SECTIONS, build_report
from sim.cli import main

from .toydata import make_experiment, write_team_results

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


class StrictParser(HTMLParser):
    """Collects ids, images and links; records any unbalanced tag."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.errors, self.ids, self.images, self.links, self.tags = [], [], set(), [], [], set()

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.tags.add(tag)
        if "id" in attrs:
            self.ids.add(attrs["id"])
        if tag == "img":
            self.images.append(attrs)
        for key in ("src", "href"):
            if key in attrs:
                self.links.append(attrs[key])
        if tag not in VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes <{self.stack[-1] if self.stack else None}>")
        else:
            self.stack.pop()


def parse(html: str) -> StrictParser:
    parser = StrictParser()
    parser.feed(html)
    parser.close()
    return parser


@pytest.fixture(scope="module")
def experiment_report(tmp_path_factory):
    folder = make_experiment(tmp_path_factory.mktemp("report"), matches=36)
    html = build_report(folder, markdown=folder.parent / "md" / "report.md", n_resamples=300)
    return folder, html


def test_report_is_written_beside_the_results_and_parses(experiment_report):
    folder, html_path = experiment_report
    assert html_path == folder / "report.html"
    parser = parse(html_path.read_text(encoding="utf-8"))
    assert parser.errors == [] and parser.stack == []
    assert {section_id for section_id, _ in SECTIONS} <= parser.ids
    assert "script" not in parser.tags  # nothing to run
    assert all(link.startswith(("#", "data:image/png;base64,")) for link in parser.links)  # no network


def test_every_image_is_a_valid_embedded_png(experiment_report):
    _, html_path = experiment_report
    images = parse(html_path.read_text(encoding="utf-8")).images
    assert len(images) >= 10
    for image in images:
        assert image["alt"]
        data = base64.b64decode(image["src"].removeprefix("data:image/png;base64,"), validate=True)
        assert data.startswith(PNG_SIGNATURE)
        pixels = mpimg.imread(io.BytesIO(data), format="png")
        assert pixels.shape[0] > 200 and pixels.shape[1] > 200


def test_summary_states_effects_in_sentences_and_the_rules_are_reproducible(experiment_report):
    folder, html_path = experiment_report
    html = html_path.read_text(encoding="utf-8")
    summary = html[html.index('id="summary"') : html.index('id="win-rates"')]
    lucky = summary[summary.index("Line-up lucky-vs-2 (lucky, plain, plain)") :]
    assert re.search(
        r"Variant seat0-bonus raises seat 0&#39;s win rate \(first to play\) "
        r"by [\d.]+ percentage points \[[\d.]+, [\d.]+\] \([\d.]+ % adjusted interval; "
        r"[\d.]+ % → [\d.]+ %; "
        r"p (&lt;|=) [\d.]+ after Holm\)",
        lucky,
    )
    assert "Variant same played every match exactly as the baseline did" in summary
    reproduce = html[html.index('id="reproduce"') :]
    assert "seat0_bonus = 2.0" in reproduce and "[game]" in reproduce and "max_rounds = 4" in reproduce
    assert "tablesim experiment" in reproduce and "Root seed 11" in reproduce
    manifest = json.loads((folder / "manifest.json").read_text())
    assert manifest["versions"]["numpy"] in reproduce


def test_markdown_export_has_the_sections_and_its_figures_beside_it(experiment_report):
    folder, _ = experiment_report
    markdown = folder.parent / "md" / "report.md"
    text = markdown.read_text(encoding="utf-8")
    for _, title in SECTIONS:
        assert f"## {title}" in text
    links = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", text)
    assert links and all((markdown.parent / link).read_bytes().startswith(PNG_SIGNATURE) for link in links)
    assert "| variant | line-up | seat |" in text


def test_report_of_a_plain_run_via_the_cli(tmp_path, capsys):
    out = tmp_path / "run"
    assert (
        main(["run", "toy-dice", "--matches", "42", "--players", "plain,plain,plain", "--out", str(out), "--seed", "4"])
        == 0
    )
    assert main(["report", str(out), "--out", str(tmp_path / "r.html")]) == 0
    html = (tmp_path / "r.html").read_text(encoding="utf-8")
    parser = parse(html)
    assert parser.errors == [] and {s for s, _ in SECTIONS} <= parser.ids
    summary = html[html.index('id="summary"') : html.index('id="win-rates"')]
    assert "42 matches of line-up plain,plain,plain" in summary
    assert "too few to show fairness within 33.3 ± 2 points" in summary
    assert "no variant to compare" in html.lower() or "holds no variant" in html


def _fake_spec(summary=None, plots=None):
    return SimpleNamespace(name="toy-dice", title="Toy with hooks", summary=summary, plots=plots)


def _plot_hook(tables):
    figure = Figure(figsize=(4, 3))
    figure.add_subplot().plot(tables["matches"]["rounds"].to_numpy())
    return [("Rounds by match (game plot)", figure)]


def test_game_hooks_are_called_and_their_failures_degrade(monkeypatch, tmp_path):
    out = tmp_path / "run"
    assert main(["run", "toy-dice", "--matches", "12", "--players", "plain,lucky", "--out", str(out)]) == 0
    spec = _fake_spec(
        summary=lambda tables: {"mean_rolls": float(len(tables["events"])) / len(tables["matches"])}, plots=_plot_hook
    )
    monkeypatch.setattr(results_module, "get_game", lambda name: spec)
    html = build_report(out, n_resamples=200).read_text(encoding="utf-8")
    game = html[html.index('id="game"') : html.index('id="reproduce"')]
    assert "mean_rolls" in game and "Rounds by match (game plot)" in game and "data:image/png" in game

    def broken(tables):
        raise RuntimeError("boom")

    monkeypatch.setattr(results_module, "get_game", lambda name: _fake_spec(summary=broken, plots=broken))
    html = build_report(out, n_resamples=200).read_text(encoding="utf-8")
    game = html[html.index('id="game"') : html.index('id="reproduce"')]
    assert "summary failed (RuntimeError: boom)" in game and "plots failed (RuntimeError: boom)" in game

    def unknown(name):
        raise KeyError(f"unknown game {name!r}")

    monkeypatch.setattr(results_module, "get_game", unknown)
    html = build_report(out, n_resamples=200).read_text(encoding="utf-8")
    assert "is not available here" in html and parse(html).errors == []


def test_team_game_without_rounds_table_and_unknown_game(tmp_path):
    folder = write_team_results(tmp_path / "teams")
    html = build_report(folder, n_resamples=200).read_text(encoding="utf-8")
    parser = parse(html)
    assert parser.errors == [] and {s for s, _ in SECTIONS} <= parser.ids
    assert "Win rate by team" in html and "team 0&#39;s win rate" in html
    assert "is not available here" in html  # no GameSpec: no game metrics, the rest still works
    summary = html[html.index('id="summary"') : html.index('id="win-rates"')]
    assert "Variant team0-up raises team 0&#39;s win rate" in summary


def _text(html: str) -> str:
    """The visible text of an HTML report (tags dropped, entities decoded)."""
    import html as html_module

    return html_module.unescape(re.sub(r"<[^>]+>", " ", re.sub(r"<img[^>]*>", "", html)))


def test_method_notes_describe_the_methods_as_they_are(experiment_report):
    """The report's method notes name the methods in use, and nothing is called "conservative"
    (an unclustered log-rank under rotation is not; every method is described by what it
    guarantees)."""
    _, html_path = experiment_report
    text = _text(html_path.read_text(encoding="utf-8"))
    assert "conservative" not in text.lower()
    for phrase in (
        "Bonferroni–Clopper–Pearson",
        "effective sample size n/deff",
        "family",
        "Shaffer",
        "score test",
        "Tango",
        "adjusted interval",
        "minimum detectable effect",
        "seed-clustered",
        "paired",
        "Brookmeyer–Crowley",
        "clipped to [0, 1]",
        "not applicable",
        "80 %",
    ):
        assert phrase in text, phrase
    for gone in ("Goodman", "McNemar's test (exact below 25", "BCa bootstrap interval over seeds and paired t"):
        assert gone not in text, gone


def test_no_detectable_effect_comes_with_the_smallest_effect_the_run_could_detect():
    from types import SimpleNamespace

    from analysis.effects import variant_effects
    from analysis.narrative import _variant_sentences

    rng = np.random.default_rng(3)
    base = (rng.random(400) < 0.5).astype(float)
    variant = np.where(rng.random(400) < 0.1, 1 - base, base)  # no true effect
    rounds = rng.integers(3, 9, 400).astype(float)
    outcomes = pd.DataFrame(
        {
            "variant": ["baseline"] * 400 + ["tweak"] * 400,
            "lineup": "x",
            "match": np.tile(np.arange(400), 2),
            "seed": np.tile(np.arange(400), 2),
            "seat0_won": np.r_[base, variant],
            "seat1_won": 1 - np.r_[base, variant],
            "rounds": np.r_[rounds, rounds + rng.integers(-1, 2, 400)],
        }
    )
    effects = variant_effects(outcomes)
    assert effects["mde"].notna().all() and (effects["p_adjusted"] >= 0.05).all()
    analysis = SimpleNamespace(effects=effects, options=SimpleNamespace(correction="holm", alpha=0.05))
    sentence = _variant_sentences(analysis, "x", "tweak", several_lineups=False)[0]
    assert "no detectable effect" in sentence and "with 80 % power it would have detected" in sentence
    mde = 100 * effects.loc[effects["outcome"] == "seat0_won", "mde"].iloc[0]
    assert f"{mde:.1f} percentage points" in sentence and "rounds of game length" in sentence


@pytest.mark.parametrize(
    "name, needle",
    [
        ("curlastique_balance", "Looks not recorded"),
        ("gasterospeed_balance", "Looks not recorded"),
        ("curlastique_sensitivity", "Monte Carlo noise is"),
    ],
)
def test_stored_example_directories_still_report(tmp_path, name, needle):
    """The stored examples report; directories written before look records say so."""
    import shutil

    from analysis.balance.report import build_search_report

    stored = Path(__file__).resolve().parents[2] / "reports" / "examples" / name
    copy = tmp_path / name
    shutil.copytree(stored, copy)
    (copy / "looks.json").unlink(missing_ok=True)  # as written before looks were recorded
    text = _text(build_search_report(copy).read_text(encoding="utf-8"))
    assert needle in text


def test_a_sensitivity_directory_analysed_with_the_noise_mixed_in_asks_for_a_rerun(tmp_path):
    """A directory whose indices did not separate the noise is not shown as if they did."""
    import json

    from analysis.balance.report import build_search_report

    (tmp_path / "manifest.json").write_text(json.dumps({"kind": "sensitivity", "game": "curlastique"}))
    (tmp_path / "sensitivity.json").write_text(json.dumps({"morris": [], "sobol": [], "noise_floor": {}}))
    text = _text(build_search_report(tmp_path).read_text(encoding="utf-8"))
    assert "Rerun tablesim sensitivity" in text and "mixed the Monte Carlo noise" in text
