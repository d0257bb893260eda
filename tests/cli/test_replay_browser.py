"""The animated replay page of every game with a frames hook, in headless Chromium: it loads
with no script error, its frames advance (stepping and playing), and its last frame shows the
stored match's final scores."""

import json
import re
import shutil
import subprocess

import pytest

from sim.cli import main
from sim.core.game import get_game, installed_game_names

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--hide-scrollbars",
    "--virtual-time-budget=15000",
]

# Put first in <head>: errors of the page's own script are caught; after load it steps, plays
# for a few (virtual) seconds, goes to the last frame and writes what it saw into the DOM.
PROBE = """<head><script>
window.__errors = [];
window.addEventListener('error', e => window.__errors.push(String(e.message || e)), true);
window.addEventListener('load', () => {
  const r = window.tablesimReplay, out = {};
  const label = () => document.getElementById('label').textContent;
  out.count = r.count;
  const first = label();
  r.next();
  out.stepped = r.index;
  out.labelChanged = label() !== first;
  r.go(0);
  r.play();
  setTimeout(() => {
    out.playedTo = r.index;
    r.pause();
    r.go(r.count - 1);
    const canvas = document.getElementById('board');
    const pixels = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
    const colours = new Set();
    for (let i = 0; i < pixels.length; i += 4 * 97) colours.add(pixels[i] + ',' + pixels[i + 1] + ',' + pixels[i + 2]);
    out.colours = colours.size;
    out.scores = JSON.parse(document.getElementById('scores').dataset.scores);
    out.errors = window.__errors;
    const pre = document.createElement('pre');
    pre.id = 'probe';
    pre.textContent = 'PROBE ' + JSON.stringify(out) + ' END';
    document.body.appendChild(pre);
  }, 5000);
});
</script>"""


def _games_with_frames() -> list[str]:
    return [name for name in installed_game_names() if get_game(name).frames is not None]


def _lineup(spec) -> str:
    hints = getattr(spec, "conformance", None)
    players = list(getattr(hints, "lineup", None) or spec.demo_players)
    fewest = min(spec.player_counts)
    players = (players * fewest)[: max(fewest, min(len(players), 2))]  # the suite repeats a line-up to fill the seats
    return ",".join(players)


@pytest.mark.skipif(CHROMIUM is None, reason="no Chromium on this machine (.ci/run installs Debian's chromium)")
@pytest.mark.parametrize("game", _games_with_frames())
def test_animated_replay_runs_and_ends_on_the_stored_scores(game, tmp_path, capsys):
    spec = get_game(game)
    results = tmp_path / "results"
    assert main(["run", game, "--matches", "2", "--players", _lineup(spec), "--seed", "7", "--out", str(results)]) == 0
    page = tmp_path / "replay.html"
    assert main(["replay", str(results), "--match", "1", "--html", str(page)]) == 0
    out = capsys.readouterr().out
    stored = re.search(r"replayed final scores equal the stored ones: (.*)", out)[1]
    html = page.read_text(encoding="utf-8")
    assert "http://" not in html and "https://" not in html  # self-contained
    probe = tmp_path / "probe.html"
    probe.write_text(html.replace("<head>", PROBE, 1), encoding="utf-8")
    dom = subprocess.run(
        [CHROMIUM, *FLAGS, f"--user-data-dir={tmp_path / 'profile'}", "--dump-dom", probe.as_uri()],
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert dom.returncode == 0, dom.stderr[-2000:]
    found = re.search(r"<pre id=\"probe\">PROBE (.*?) END</pre>", dom.stdout)
    assert found, dom.stdout[-2000:]
    seen = json.loads(found[1])
    assert seen["errors"] == []
    assert seen["count"] >= 2 and seen["stepped"] == 1 and seen["labelChanged"]
    assert seen["playedTo"] >= 2  # playing moved through frames on its own
    assert seen["colours"] > 3  # something is drawn
    assert ", ".join(f"seat {s} {v:g}" for s, v in enumerate(seen["scores"])) == stored


def test_the_frames_contract_is_checked_before_writing(tmp_path):
    from analysis.replay_page import check_frames, render_replay_page

    good = get_game("pig").frames(*_pig_inputs())
    assert check_frames(good) == []
    bad = {**good, "final_scores": [1.0]}
    assert "final_scores: expected one number per seat (2)" in check_frames(bad)[0]
    broken = {**good, "frames": [{**good["frames"][0], "shapes": [{"kind": "hexagon"}]}]}
    assert any("kind one of circle, rect, line, text" in p for p in check_frames(broken))
    with pytest.raises(ValueError):
        render_replay_page(bad)
    html = render_replay_page({**good, "frames": [{**f, "label": "</script><b>"} for f in good["frames"]]})
    assert "</script><b>" not in html  # a label cannot close the data block


def _pig_inputs():
    from sim.core.profiles import load_lineup
    from sim.core.rules import load_rules
    from sim.core.seeding import MatchSeeds

    spec = get_game("pig")
    rules = load_rules(spec)
    return rules, load_lineup(spec, ["standard", "bold"], rules), MatchSeeds(3, 0)


def test_frames_end_on_the_match_scores_for_every_game_with_the_hook():
    from sim.core.profiles import load_lineup
    from sim.core.rules import load_rules
    from sim.core.seeding import MatchSeeds

    for game in _games_with_frames():
        spec = get_game(game)
        rules = load_rules(spec)
        players = load_lineup(spec, _lineup(spec).split(","), rules)
        data = spec.frames(rules, players, MatchSeeds(11, 2))
        log = spec.play_match(rules, players, MatchSeeds(11, 2))
        assert data["final_scores"] == [float(r["score"]) for r in sorted(log.players, key=lambda r: r["seat"])]
        assert data == spec.frames(rules, players, MatchSeeds(11, 2))  # pure
        json.dumps(data, allow_nan=False)  # JSON-able
