"""Build the tutorial notebooks of tablesim from this one script (outputs stripped).

    .venv/bin/python notebooks/_build.py            # rewrite every notebook
    .venv/bin/python notebooks/_build.py tour       # only notebooks/tour.ipynb

Each notebook is a list of cells: ``md(text)`` or ``code(text)``. The written ``.ipynb`` files
carry no outputs and no execution counts (tests/test_notebooks.py executes them); edit the
notebooks here, not in Jupyter, so that they stay reproducible and reviewable.
"""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

HERE = Path(__file__).resolve().parent


def md(text: str):
    return new_markdown_cell(textwrap.dedent(text).strip("\n"))


def code(text: str):
    return new_code_cell(textwrap.dedent(text).strip("\n"))


def render(name: str) -> str:
    """The ``.ipynb`` text of notebook ``name`` (no outputs, stable cell ids)."""
    notebook = new_notebook(cells=NOTEBOOKS[name](), metadata={
        "kernelspec": {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"},
        "language_info": {"name": "python"},
    })
    for index, cell in enumerate(notebook.cells):  # stable ids: rebuilding gives no diff
        cell["id"] = f"{name}-{index:02d}"
    nbformat.validate(notebook)
    return nbformat.writes(notebook) + "\n"


def write(name: str) -> Path:
    path = HERE / f"{name}.ipynb"
    path.write_text(render(name), encoding="utf-8")
    return path


#: The first code cell of every notebook: imports, a temporary folder, display settings.
def setup(prefix: str, extra: str = "") -> object:
    text = textwrap.dedent("""
        %matplotlib inline
        import tempfile
        from pathlib import Path

        import numpy as np
        import pandas as pd
        from IPython.display import Image, display
        EXTRA
        pd.set_option("display.width", 120)
        pd.set_option("display.max_columns", 20)
        pd.set_option("display.float_format", "{:.4g}".format)

        # every file this notebook writes goes here, never into the repository
        WORK = Path(tempfile.mkdtemp(prefix="PREFIX"))
        print("temporary folder:", WORK)
    """)
    return code(text.replace("EXTRA\n", textwrap.dedent(extra).strip("\n") + "\n" if extra else "")
                .replace("PREFIX", prefix))


def cleanup() -> list:
    return [
        md("""
            The temporary folder holds every file written above. It is removed below; set
            `KEEP = True` first to keep it and open the files.
        """),
        code("""
            import shutil

            KEEP = False
            if not KEEP:
                shutil.rmtree(WORK, ignore_errors=True)
            print("kept:" if KEEP else "removed:", WORK)
        """),
    ]


# =============================================================================================
# tour
# =============================================================================================

def tour() -> list:
    return [
        md("""
            # tablesim in ten minutes

            **tablesim** plays thousands of simulated matches of a tabletop game with explicit
            player skill and rule variants, then reports win rates, game lengths and the effect
            of every variant *with its uncertainty*. This tour is for a game designer who wants
            to test a rule change; it uses Curlastique (pucks flicked by an elastic into a
            scoring target) because its matches are quick, but every step works the same for
            Carrom and Gastérospeed.

            What you will do:

            1. list the games, read a game's rules and change one with an override;
            2. play a hundred matches in memory and look at the four tidy tables;
            3. compute win rates with confidence intervals;
            4. write a small **experiment file** (baseline + one variant, seat rotation) and run it;
            5. measure the variant's effect with a paired CI and a Holm-corrected p-value;
            6. draw a plot and write the self-contained HTML design report.

            Everything is seeded: rerunning the notebook gives the same numbers. The runs are
            deliberately small (a hundred matches or two) so that the notebook runs in well under
            a minute; real studies use thousands (`tablesim experiment FILE --jobs 4`).
        """),
        setup("tablesim-tour-", extra="import subprocess\nimport sys"),
        md("""
            ## 1. Games, rules and overrides

            A game plugs into tablesim through one small object, its `GameSpec`: its rules type
            (loaded from a commented TOML file), its player presets, and a pure function that
            plays one match from (rules, line-up, seeds). `get_game` returns it.
        """),
        code("""
            from sim.core import game_names, get_game

            for name in game_names():
                spec = get_game(name)
                print(f"{name:<14} {spec.title:<14} players: {', '.join(map(str, spec.player_counts))}")
        """),
        md("""
            The command line does the same (`tablesim games`); here we call it through the
            notebook's Python so that it uses the same installation.
        """),
        code("""
            print(subprocess.run([sys.executable, "-m", "sim.cli", "games"], capture_output=True,
                                 text=True, check=True).stdout)
        """),
        md("""
            **Rules are data.** Every number a designer may want to change is a key of the game's
            default rules file, with its unit and where the default comes from (the published
            rules, "seed", or our reconstruction). This is the file `tablesim rules curlastique`
            prints and a designer copies; here are its first lines.
        """),
        code("""
            from sim.core import default_rules_text, load_rules

            spec = get_game("curlastique")
            print("\\n".join(default_rules_text(spec).splitlines()[:24]))
        """),
        md("""
            `load_rules` validates the file into a frozen dataclass tree; read any key as an
            attribute. Units: metres, seconds, points.
        """),
        code("""
            rules = load_rules(spec)
            print("target score      :", rules.game.target_score, "points")
            print("zone values       :", rules.zones.values, "points, innermost ring first")
            print("zone radii        :", rules.zones.radii, "m")
            print("sliding friction  :", rules.physics.friction)
            print("pucks per player  :", rules.game.pucks_per_player)
        """),
        md("""
            **Overrides** change any dotted key without editing a file — exactly what
            `--set KEY=VALUE` does on the command line. They accept `"key=value"` strings (the
            value read as TOML) or `(key, value)` pairs. Bad input fails with one line per
            problem, naming the key and what is allowed.
        """),
        code("""
            from sim.core import ConfigError

            bullseye = load_rules(spec, overrides=["zones.values=[150, 80, 40, 20]",
                                                   ("game.target_score", 500)])
            print("overridden zone values:", bullseye.zones.values)

            try:
                load_rules(spec, overrides=["zones.colour=red", "game.target_score=lots"])
            except ConfigError as error:
                print("\\nrejected:\\n" + str(error))
        """),
        md("""
            ## 2. Players, and a hundred matches in memory

            Skill is explicit: a profile holds execution noise (σ of the start position in m, of
            the aim in degrees, of the speed relative to it) and a planning budget (candidate
            shots × noisy outcomes simulated per candidate). Presets are just named profiles.
        """),
        code("""
            from sim.core import load_lineup, preset_names

            print("presets:", preset_names(spec))
            players = load_lineup(spec, ["club", "casual"], rules)
            for player in players:
                print(player.name, player.profile)
        """),
        md("""
            A run is a list of **cells** (one variant × one line-up) and a number of matches.
            Match *i* of every cell is played from the same seeds (common random numbers), so
            variants can be compared match by match. With `rotate_seats=True` each seed is played
            under every rotation of the line-up, so nobody keeps the first-player advantage:
            100 matches of a 2-player line-up = 50 seeds × 2 seatings. (Rotation is for *mixed*
            line-ups: each seat draws its execution noise from its own random stream, so with
            identical profiles every rotation of a seed replays the very same match — play more
            seeds instead.)

            `run_cells` returns the tables in memory (pass `store=ResultStore(dir)` to keep them
            on disk; `jobs=2` would use two worker processes and give the *same* tables).
        """),
        code("""
            import time

            from sim.core import Cell, run_cells

            cell = Cell(variant="baseline", lineup="club-vs-casual", rules=rules, players=players,
                        rotate_seats=True)
            started = time.perf_counter()
            tables = run_cells(spec, [cell], matches=100, root_seed=7, jobs=1, progress=False)
            print(f"played 100 matches in {time.perf_counter() - started:.1f} s")
            {name: frame.shape for name, frame in tables.items()}
        """),
        md("""
            ## 3. The tidy tables

            Every game fills the same four tables, each keyed by `variant, lineup, match`:

            | table | one row per | key columns |
            |---|---|---|
            | `matches` | match | winner (seat), rounds, finished (False if a cap stopped it), seed, rotation |
            | `players` | match × seat | seat, slot (position in the line-up), profile, score, rank, won |
            | `rounds` | match × round × seat | points of the round, cumulative score |
            | `events` | game event (here: one throw) | free-form: shot family, executed aim, where the puck stopped |

            They are ordinary pandas DataFrames: filter, group and plot them as you like.
        """),
        code("""
            tables["matches"].head()
        """),
        code("""
            tables["players"].head(6)
        """),
        code("""
            tables["rounds"].head(6)
        """),
        code("""
            events = tables["events"]
            events[["match", "round", "seat", "family", "executed_speed", "final_x", "final_y", "zone", "out"]].head()
        """),
        md("""
            A question answered straight from the tables: how often does each profile score, per
            throw, and where (the `zone` column is the points of the spot where the thrown puck
            stopped, 0 if it went out)?
        """),
        code("""
            throws = events.merge(tables["players"][["match", "seat", "profile"]], on=["match", "seat"])
            throws.groupby("profile").agg(throws=("zone", "size"), mean_zone_points=("zone", "mean"),
                                          out_rate=("out", "mean"))
        """),
        md("""
            ## 4. Win rates with confidence intervals

            Every rate comes with its uncertainty. `win_rates` gives Wilson 95 % intervals per
            group; `seat_win_rates` gives *simultaneous* intervals over all seats of a line-up
            (they cover every seat at once), widened for the correlation between the two seatings
            of one seed (the `design_effect` column; 1 = as good as independent matches).
        """),
        code("""
            from analysis.winrates import seat_win_rates, win_rates

            win_rates(tables["players"], "profile")
        """),
        code("""
            seat_win_rates(tables["players"])[["lineup", "seat", "games", "wins", "win_rate", "ci_low",
                                                "ci_high", "design_effect", "method"]]
        """),
        md("""
            With 100 matches the intervals are wide (about ± 10 percentage points): enough to see
            a large skill gap, far too few to judge a seat advantage of a few points. That is
            what the intervals are for — they say how many matches a question needs.

            ## 5. An experiment file: baseline + one variant

            An experiment is a TOML file — the unit a designer keeps, shares and reruns. Here: the
            *bullseye-150* variant raises the centre ring from 100 to 150 points; the baseline
            plays to 500 points. Both are played on the same seeds, with seat rotation, by a club
            and a casual player. `matches` counts matches per variant and line-up (100 = 50 seeds
            × 2 seatings).
        """),
        code("""
            experiment_file = WORK / "bullseye.toml"
            experiment_file.write_text('''
            game = "curlastique"
            matches = 100             # per variant and line-up
            seed = 7
            rotate_seats = true       # play each seed under every rotation of the line-up

            [baseline]
            set = { "game.target_score" = 500 }

            [[variants]]
            name = "bullseye-150"
            set = { "zones.values" = [150, 80, 40, 20] }

            [[lineups]]
            name = "club-vs-casual"
            players = ["club", "casual"]
            ''')
            print(experiment_file.read_text())
        """),
        md("""
            `load_experiment` validates the whole file (every variant's rules, every line-up)
            before anything runs; `run_experiment` plays every cell into a `ResultStore` — a
            directory with `manifest.json` (the experiment, every variant's full rules, seeds,
            versions) and one Parquet folder per table. Rerunning it resumes: stored chunks are
            skipped. This is what `tablesim experiment bullseye.toml --out DIR` does.
        """),
        code("""
            from sim.core import ResultStore
            from sim.core.experiment import load_experiment, run_experiment

            experiment = load_experiment(experiment_file)
            print("variants:", experiment.variants)
            print("cells   :", [(c.variant, c.lineup, [p.name for p in c.players]) for c in experiment.cells])

            results_dir = WORK / "bullseye-results"
            started = time.perf_counter()
            stored = run_experiment(experiment, ResultStore(results_dir), jobs=1, progress=False)
            print(f"played {len(stored['matches'])} matches in {time.perf_counter() - started:.1f} s")
            print(sorted(p.name for p in results_dir.iterdir()))
        """),
        md("""
            ## 6. The analysis API: variant effects with paired CIs and corrected p-values

            `load_results` opens a results directory; `analyse` computes every table of the
            report in one pass. `analysis.effects` holds one row per line-up × variant × outcome:
            the baseline's and the variant's value, the **paired** difference (variant −
            baseline, match *i* against match *i*), its 95 % CI, the raw p-value and the p-value
            corrected for testing many outcomes at once (Holm). Win rates are in proportions,
            game length in rounds, scores in points.

            `n_resamples` sets the bootstrap resamples of the continuous effects; 500 keeps this
            notebook fast (the report's default is 2,000).
        """),
        code("""
            from analysis.analyse import analyse
            from analysis.results import load_results

            results = load_results(results_dir)
            analysis = analyse(results, n_resamples=500, seed=0)
            effects = analysis.effects
            effects[["variant", "label", "unit", "base", "value", "effect", "ci_low", "ci_high", "p",
                     "p_adjusted"]]
        """),
        md("""
            The same, as the report's plain sentences (`summary_sentences`): estimates with CIs,
            and for each variant its effects that stay significant after the correction.
        """),
        code("""
            from analysis.narrative import effect_sentence, summary_sentences

            for sentence in summary_sentences(analysis):
                print("-", sentence)
            print()
            length = effects[effects["outcome"] == "rounds"].iloc[0]
            print("game length:", effect_sentence(length))
        """),
        md("""
            A bigger bullseye makes the target score reachable sooner, so games get shorter; with
            100 matches per variant the CI says by how much. Whether the bigger bullseye helps the
            better player (the `club`'s win rate) or the first player is a much finer question:
            those CIs are wide, and the corrected p-values say whether anything is shown.

            ## 7. A plot

            The report's figures are plain matplotlib `Figure`s built by `analysis.plots`; here
            the forest plot of the continuous effects (each panel in its own unit, filled marker =
            significant after Holm).
        """),
        code("""
            from analysis import plots

            figure = plots.effects_plot(effects, "club-vs-casual", kind="continuous")
            display(figure)
        """),
        md("""
            ## 8. The HTML design report

            `build_report` (or `tablesim report DIR`) writes one self-contained HTML file —
            summary sentences, win rates, fairness verdict, effects, distributions, survival of
            game length, design metrics, the game's own metrics and plots, and how to reproduce
            the run. Open it in a browser or send it to the rest of the design team.
        """),
        code("""
            from analysis.report import build_report

            report = build_report(results_dir, WORK / "bullseye-report.html", n_resamples=500)
            print(report, f"{report.stat().st_size / 1e6:.1f} MB")
        """),
        md("""
            ## Takeaway

            * A rule change is one line (`set = { "zones.values" = [150, 80, 40, 20] }`) in an
              experiment file; the baseline and the variant replay the same seeds, so their
              difference is measured match by match.
            * Every number comes with its uncertainty: Wilson / simultaneous CIs for win rates,
              paired CIs for effects, Holm-corrected p-values across outcomes. Small runs give
              wide intervals — the answer is "play more matches", not "trust the point estimate".
            * The same four tables, the same analysis and the same report work for every game.
              Next: the per-game notebooks (`curlastique`, `carrom`, `gasterospeed`) and
              `balancing` (searching the zone values for design targets).
        """),
        *cleanup(),
    ]


# =============================================================================================
# curlastique
# =============================================================================================

def curlastique() -> list:
    return [
        md("""
            # Curlastique: shots, skill and a zone-value variant

            Curlastique is a table game of flicked pucks: each player in turn launches one of
            their 5 pucks with an elastic from the near end of a 0.5 m × 1 m board towards a
            target of four rings (100, 80, 40, 20 points, innermost first). Pucks knock each other
            around; a puck touching the rim, a corner piece, a peg or the elastic is out for the
            round. After everyone has thrown, pucks still on the board score their ring; the first
            to 500 points wins.

            The simulator plays it with real physics (sliding friction, restitution, exact
            contact times) and simulated players whose skill is explicit: execution noise plus a
            planning budget. This notebook:

            1. reads the rules and draws the board;
            2. plays single shots with the shot function of `tablesim shot curlastique`;
            3. compares the skill presets — where their throws land, and expert vs novice matches;
            4. runs a small experiment: the **bullseye-150** variant (`zones.values = [150, 80, 40, 20]`)
               against the baseline, with paired effects;
            5. looks at where pucks stop, through the game's own plots hook.

            Units: metres, seconds, m/s, degrees, points. Runs are small (about a minute in total)
            and seeded.
        """),
        setup("tablesim-curlastique-", extra="""
            import time

            from matplotlib.figure import Figure
        """),
        md("""
            ## 1. The rules and the board

            The default rules are a commented TOML file; every number a designer may balance is a
            key. Here are the ones that shape the target and the throw.
        """),
        code("""
            from sim.core import get_game, load_rules, to_dict

            spec = get_game("curlastique")
            rules = load_rules(spec)
            g = rules.game
            print(f"{g.pucks_per_player} pucks each, first to {g.target_score} points "
                  f"(cap: {g.max_rounds} rounds), teams: {g.teams}")
            pd.DataFrame({"ring": ["bullseye", "2nd", "3rd", "outer"], "points": rules.zones.values,
                          "outer radius (m)": rules.zones.radii})
        """),
        code("""
            pd.Series({
                "board width (m)": rules.board.width, "board length (m)": rules.board.length,
                "target centre from the near rim (m)": rules.zones.centre_y,
                "elastic from the near rim (m)": rules.board.elastic_y,
                "puck diameter (m)": rules.puck.diameter, "puck mass (kg)": rules.puck.mass,
                "sliding friction μ": rules.physics.friction,
                "puck–puck restitution": rules.physics.restitution,
                "fastest launch (m/s)": rules.max_speed,
            }).to_frame("value")
        """),
        code("""
            from sim.curlastique.plot import draw_board

            figure = Figure(figsize=(3.6, 6.5), layout="constrained")
            draw_board(figure.add_subplot(), rules)
            figure.axes[0].set_title("the board (ring values in points)", fontsize=10)
            display(figure)
        """),
        md("""
            ## 2. One shot, as `tablesim shot` plays it

            `spec.shot(rules, x, angle_deg, speed, state)` simulates one throw without any
            execution noise: start `x` m off the axis, aimed `angle_deg` from straight ahead, at
            `speed` m/s. Under Coulomb friction a lone puck slides v² / (2 μ g); at
            1.38 m/s that is 1.38² / (2 × 0.15 × 9.81) ≈ 0.65 m, which brings it from the elastic
            to the centre of the target. (The command-line equivalent is
            `tablesim shot curlastique --speed 1.38 --plot shot.png`.)
        """),
        code("""
            draw = spec.shot(rules, x=0.0, angle_deg=0.0, speed=1.38, state=None)
            print(draw.text())
            draw.plot(WORK / "draw.png")
            display(Image(filename=str(WORK / "draw.png"), width=300))
        """),
        md("""
            A **takeout**: an opponent (seat 1) sits on the bullseye, with a second puck short of
            the target. The board's state is a small TOML file (the same as
            `tablesim shot curlastique --state FILE`). Thrown at 1.8 m/s straight up the axis,
            our puck hits the bullseye puck head-on, sends it into the far rim (out) and stays
            near the centre.
        """),
        code("""
            state = WORK / "takeout.toml"
            state.write_text('''
            thrower = 0          # seat of the thrown puck

            [[pucks]]            # the opponent's puck on the bullseye
            owner = 1
            x = 0.0
            y = 0.75

            [[pucks]]            # and one short of the target
            owner = 1
            x = 0.05
            y = 0.62
            ''')
            takeout = spec.shot(rules, x=0.0, angle_deg=0.0, speed=1.8, state=str(state))
            print(takeout.text())
            takeout.plot(WORK / "takeout.png")
            display(Image(filename=str(WORK / "takeout.png"), width=300))
        """),
        md("""
            The outcome is also data (`as_dict()`: every puck's start and end, the events with
            their exact times in s and positions in m, the points per seat), e.g. the events:
        """),
        code("""
            pd.DataFrame(takeout.as_dict()["events"])
        """),
        md("""
            ## 3. Skill presets

            A profile is a handful of numbers: σ of the start position (m), of the aim (degrees),
            of the launch speed (relative), and how many candidate shots the planner evaluates ×
            how many noisy outcomes of each it simulates. Presets are just named profiles; a
            designer can write their own in a TOML file (`base = "club"` plus the keys to change).
        """),
        code("""
            from sim.core import load_profile, preset_names

            presets = {name: to_dict(load_profile(spec, name).profile) for name in preset_names(spec)}
            pd.DataFrame(presets).T.drop(columns="families")
        """),
        md("""
            **What the noise means on the board.** Each preset tries the same draw to the centre
            (x = 0, straight, 1.38 m/s) 400 times; its own noise perturbs each throw and the
            physics says where it stops. Points are the ring each throw would score on an empty
            board.
        """),
        code("""
            from sim.curlastique.board import simulate_throws
            from sim.curlastique.players import make_policy
            from sim.curlastique.plot import SEAT_COLOURS
            from sim.curlastique.scoring import scorer

            score = scorer(rules.zones, rules.puck.radius)
            empty, nobody = np.zeros((0, 2)), np.zeros(0, dtype=np.int64)
            clouds, rows = {}, []
            for name in ["expert", "club", "casual", "novice"]:
                policy = make_policy(load_profile(spec, name).profile, rules)
                x, angle, speed = policy.noisy(0.0, 0.0, 1.38, np.random.default_rng(2024), samples=400)
                final, on = simulate_throws(rules, empty, nobody, 0, x, angle, speed)
                stop, alive = final[:, -1], on[:, -1]
                clouds[name] = stop[alive]
                points = score.points(stop, alive)
                rows.append({"preset": name, "mean points per throw": points.mean(),
                             "bullseye share": (points == rules.zones.values[0]).mean(),
                             "out share": 1 - alive.mean(),
                             "SD across (mm)": 1000 * stop[alive, 0].std(),
                             "SD along (mm)": 1000 * stop[alive, 1].std()})
            pd.DataFrame(rows).set_index("preset")
        """),
        code("""
            figure = Figure(figsize=(8, 4.2), layout="constrained")
            for ax, name in zip(figure.subplots(1, 2), ["expert", "novice"]):
                draw_board(ax, rules)
                ax.scatter(*clouds[name].T, s=4, alpha=0.5, color=SEAT_COLOURS[1], linewidths=0)
                ax.set_xlim(-0.25, 0.25)
                ax.set_ylim(0.45, 1.0)
                ax.set_title(f"{name}: 400 draws to the centre", fontsize=10)
            display(figure)
        """),
        md("""
            The spread along the board is larger than across it: a relative speed error σ_v
            moves the stopping point by about 2 × 0.65 m × σ_v (the slide grows with the speed
            squared), while an aim error σ_θ (in radians) moves it sideways by about 0.65 m × σ_θ.

            **Expert vs novice in real matches.** Two players, each seed played with both
            seatings (`rotate_seats=True`) so that the first-player advantage cancels out:
            40 matches = 20 seeds × 2.
        """),
        code("""
            from analysis.skill import skill_share
            from analysis.winrates import profile_win_rates
            from sim.core import Cell, load_lineup, run_cells

            duel = Cell("baseline", "expert-vs-novice", rules, load_lineup(spec, ["expert", "novice"], rules),
                        rotate_seats=True)
            started = time.perf_counter()
            duel_tables = run_cells(spec, [duel], matches=40, root_seed=3, jobs=1, progress=False)
            print(f"40 matches in {time.perf_counter() - started:.1f} s")
            profile_win_rates(duel_tables["players"])[["profile", "games", "wins", "win_rate", "ci_low", "ci_high"]]
        """),
        md("""
            The **skill share** rescales the stronger profile's win rate so that 0 = pure luck
            (it wins 1/2, as identical players would) and 1 = it always wins; its CI is the win
            rate's, mapped. The game's own `summary` hook adds Curlastique-specific metrics, e.g.
            the points scored per puck thrown by each profile and the mix of shot families the
            planners chose.
        """),
        code("""
            share = skill_share(duel_tables["players"])
            display(share[["profile", "win_rate", "share", "share_low", "share_high"]])
            metrics = spec.summary(duel_tables)
            pd.Series({key: value for key, value in metrics.items()
                       if key.startswith(("points_per_throw", "shot_share", "out_rate"))}).to_frame("value")
        """),
        md("""
            ## 4. An experiment: bullseye-150 against the baseline

            Does a more valuable bullseye change who wins, and how long games last? The
            experiment below is the example of the design document — four club players, a
            baseline to 500 points and one variant — with one change: no seat rotation. Each seat
            draws its execution noise from its own random stream, so with four *identical*
            profiles every rotation of a seed replays exactly the same match; rotation only pays
            with mixed line-ups. `matches = 64` distinct seeds per variant is a smoke test of the
            question; a real study would use thousands (`tablesim experiment FILE --jobs 4`).
        """),
        code("""
            from sim.core import ResultStore
            from sim.core.experiment import load_experiment, run_experiment

            experiment_file = WORK / "bullseye.toml"
            experiment_file.write_text('''
            game = "curlastique"
            matches = 64              # per variant and line-up
            seed = 7
            rotate_seats = false      # identical players: rotations would replay the same matches

            [baseline]
            set = { "game.target_score" = 500 }

            [[variants]]
            name = "bullseye-150"
            set = { "zones.values" = [150, 80, 40, 20] }

            [[lineups]]
            name = "club-4p"
            players = ["club", "club", "club", "club"]
            ''')
            experiment = load_experiment(experiment_file)
            results_dir = WORK / "bullseye-results"
            started = time.perf_counter()
            run_experiment(experiment, ResultStore(results_dir), jobs=1, progress=False)
            print(f"{len(experiment.cells)} cells x {experiment.settings.matches} matches "
                  f"in {time.perf_counter() - started:.1f} s")
        """),
        md("""
            `analyse` pairs match *i* of the variant with match *i* of the baseline (same seeds,
            same seating) and reports each effect as variant − baseline with a 95 % CI and a
            Holm-corrected p-value. Win-rate effects are differences of proportions (0.05 = 5
            percentage points); lengths are in rounds, scores in points.
        """),
        code("""
            from analysis.analyse import analyse
            from analysis.results import load_results

            analysis = analyse(load_results(results_dir), n_resamples=500, seed=0)
            analysis.effects[["label", "unit", "base", "value", "effect", "ci_low", "ci_high", "p_adjusted"]]
        """),
        code("""
            from analysis import plots

            display(plots.seat_win_rates_plot(analysis.seat_rates, "club-4p", ["baseline", "bullseye-150"],
                                              band=0.02))
            display(plots.effects_plot(analysis.effects, "club-4p", kind="continuous"))
        """),
        md("""
            The same in plain sentences (effects are stated only when significant after Holm):
        """),
        code("""
            from analysis.narrative import summary_sentences

            for sentence in summary_sentences(analysis):
                print("-", sentence)
        """),
        md("""
            The game's own metrics side by side (`analysis.game_metrics` comes from the same
            `summary` hook as above, one column per variant / line-up). Does the planner change
            which shots it plays when the bullseye is worth more?
        """),
        code("""
            gm = analysis.game_metrics
            gm.loc[[m for m in gm.index if not m.startswith(("win_rate", "points_per_throw"))]]
        """),
        md("""
            ## 5. Where pucks stop: the game's plots hook

            A game may provide its own figures for reports (`GameSpec.plots`); Curlastique draws
            where every thrown puck came to rest (those still in play after their throw). The
            hook is called on a cell's tables — here the baseline's and the variant's separately,
            selected with `analysis.hooks.cell_tables`. (The hook draws the default rings, so the
            variant's bullseye is labelled 100 although it scores 150 there.)
        """),
        code("""
            from analysis.hooks import cell_tables

            tables = load_results(results_dir).tables
            for variant in ["baseline", "bullseye-150"]:
                for title, figure in spec.plots(cell_tables(tables, variant, "club-4p")):
                    figure.axes[0].set_title(f"{variant}: {title.lower()}", fontsize=9)
                    display(figure)
        """),
        md("""
            The same question as numbers: the share of throws ending in each ring (by the
            distance of the puck's centre from the target's centre) or out of play.
        """),
        code("""
            events = tables["events"]
            distance = np.hypot(events["final_x"], events["final_y"] - rules.zones.centre_y)
            ring = pd.cut(distance, [0, *rules.zones.radii, np.inf],
                          labels=["bullseye", "2nd", "3rd", "outer", "beyond"]).astype(str)
            landed = events.assign(ring=np.where(events["out"].astype(bool), "out", ring))
            pd.crosstab(landed["variant"], landed["ring"], normalize="index")[
                ["bullseye", "2nd", "3rd", "outer", "beyond", "out"]].round(3)
        """),
        md("""
            ## Takeaway

            * Single shots are deterministic physics: `spec.shot` shows exactly what a throw does
              (and `tablesim shot` draws it). Skill lives in the noise added to the intended
              shot, so presets differ visibly in where their draws land, and decisively in
              matches.
            * A zone-value change is one line of an experiment file. Paired with the baseline's
              seeds, a few dozen matches per variant already measure large effects (scores,
              game length) with honest CIs; seat-advantage questions need thousands of matches
              (the fairness sentence says roughly how many).
            * To *choose* zone values for design targets (a fair first seat, a median game of
              4–7 rounds), see `balancing.ipynb`.
        """),
        *cleanup(),
    ]


# =============================================================================================
# carrom
# =============================================================================================

def carrom() -> list:
    return [
        md("""
            # Carrom: the ICF board, family vs ICF rules, queen and fouls, solo practice

            Carrom is played on a square board with a pocket in each corner: each player flicks a
            heavier **striker** from their base line at 9 white and 9 black coins and the red
            **queen**. Singles: one side pockets the whites, the other the blacks; the queen must
            be *covered* (an own coin pocketed right after it); the board's winner scores the
            opponent's coins left (plus 3 for a covered queen, while below 22 points), at most 12
            a board; first to 25 points or the leader after 8 boards wins.

            tablesim ships two rule sets: `family` (the French family sheet) and `icf` (the
            International Carrom Federation's Laws, 1993), and every difference between them is
            one switch a designer can flip on its own. This notebook:

            1. reads the ICF equipment and the rule switches;
            2. plays the break with the shot function of `tablesim shot carrom` and draws it;
            3. compares `family` and `icf` as two variants of one experiment;
            4. reads the queen and foul metrics from the game's own summary;
            5. measures shot-making alone: strokes to clear a board in solo practice, per preset.

            Units: metres, m/s, degrees, points, strokes. All runs are small (about a minute in
            total) and seeded.
        """),
        setup("tablesim-carrom-", extra="""
            import dataclasses
            import time

            from matplotlib.figure import Figure
        """),
        md("""
            ## 1. The ICF board and the rule switches

            The defaults of `[board]`, `[coins]` and `[striker]` are the ICF equipment sizes; the
            friction and restitutions are our documented defaults (no published carrom
            measurements exist), to be calibrated.
        """),
        code("""
            from sim.core import get_game, load_rules

            spec = get_game("carrom")
            rules = load_rules(spec)
            b = rules.board
            pd.Series({
                "playing surface side (m)": b.side, "pocket diameter (m)": b.pocket_diameter,
                "base line from the cushion (m)": b.baseline_offset,
                "coin diameter (m)": rules.coins.diameter, "coin mass (kg)": rules.coins.mass,
                "striker diameter (m)": rules.striker.diameter, "striker mass (kg)": rules.striker.mass,
                "hardest flick (m/s)": rules.striker.max_speed, "sliding friction μ": rules.physics.friction,
                "target (points)": rules.game.target_points, "boards at most": rules.game.max_boards,
            }).to_frame("value")
        """),
        md("""
            `ruleset = "family"` or `"icf"` sets every switch of `[rules]` left at `"auto"`;
            writing `true` or `false` for one switch overrides it whatever the rule set (e.g.
            `--set ruleset=icf --set rules.dues=false`). The effective values are
            `rules.switches`:
        """),
        code("""
            from sim.carrom.rules import SWITCHES

            icf_rules = load_rules(spec, overrides=["ruleset=icf"])
            family, icf = dataclasses.asdict(rules.switches), dataclasses.asdict(icf_rules.switches)
            switches = pd.DataFrame({"family": family, "icf": icf,
                                     "meaning": {name: doc for name, (_, _, doc) in SWITCHES.items()}})
            with pd.option_context("display.max_colwidth", 90):
                display(switches)
        """),
        md("""
            ## 2. The break

            `spec.shot(rules, x, angle_deg, speed)` plays one stroke of seat 0 from the break
            formation (queen in the centre, 6 coins around it, 12 around those): the striker at
            `x` m along the base line, aimed `angle_deg` anticlockwise from straight ahead, at
            `speed` m/s — no execution noise. The drawing shows each disc's path (dotted circle:
            where it started). Command line: `tablesim shot carrom --speed 4 --plot break.png`.
        """),
        code("""
            straight = spec.shot(rules, x=0.0, angle_deg=0.0, speed=4.0)
            print(straight.text())
            straight.plot(WORK / "break.png")
            display(Image(filename=str(WORK / "break.png"), width=420))
        """),
        md("""
            A break 1.5° to the right and a little harder sinks a white. The outcome is also data:
            every disc's start, end and status, and every contact with its time.
        """),
        code("""
            angled = spec.shot(rules, x=0.0, angle_deg=-1.5, speed=4.5)
            print(angled.text())
            angled.plot(WORK / "break-angled.png")
            display(Image(filename=str(WORK / "break-angled.png"), width=420))
            outcome = angled.as_dict()
            print(pd.DataFrame(outcome["events"])["kind"].value_counts().to_dict())
            pd.DataFrame(outcome["discs"]).query("status != 'rest'")
        """),
        md("""
            ## 3. Family vs ICF as two variants

            The two rule sets are two variants of one experiment: the ICF laws are the variant,
            the family sheet the baseline. The line-up is a club player against a casual one,
            each seed played with both seatings (`rotate_seats = true`); `matches = 30` per
            variant is 15 seeds × 2 — enough to see large differences in how boards unfold, not
            small ones in who wins.
        """),
        code("""
            from sim.core import ResultStore
            from sim.core.experiment import load_experiment, run_experiment

            experiment_file = WORK / "rulesets.toml"
            experiment_file.write_text('''
            game = "carrom"
            matches = 30              # per variant: 15 seeds x 2 seatings
            seed = 5
            rotate_seats = true

            [baseline]
            set = { "ruleset" = "family" }

            [[variants]]
            name = "icf"
            set = { "ruleset" = "icf" }

            [[lineups]]
            name = "club-vs-casual"
            players = ["club", "casual"]
            ''')
            experiment = load_experiment(experiment_file)
            results_dir = WORK / "rulesets-results"
            started = time.perf_counter()
            run_experiment(experiment, ResultStore(results_dir), jobs=1, progress=False)
            print(f"{len(experiment.cells)} cells x {experiment.settings.matches} matches "
                  f"in {time.perf_counter() - started:.1f} s")
        """),
        md("""
            Paired effects (ICF − family, match *i* against match *i*) with 95 % CIs and
            Holm-corrected p-values. In carrom a "round" is a **board**, so the game length is in
            boards; scores are in points; win rates are proportions.
        """),
        code("""
            from analysis.analyse import analyse
            from analysis.results import load_results

            analysis = analyse(load_results(results_dir), n_resamples=500, seed=0)
            analysis.effects[["label", "unit", "base", "value", "effect", "ci_low", "ci_high", "p_adjusted"]]
        """),
        code("""
            from analysis.narrative import summary_sentences

            for sentence in summary_sentences(analysis):
                print("-", sentence)
        """),
        md("""
            The skill gap between a club and a casual player decides who wins under either rule
            set (see the skill-share sentence), so the win-rate effects are nil here; what the
            rule set changes is how boards unfold.

            ## 4. Queen and fouls: the game's own summary

            Carrom's `summary` hook computes board-level metrics from the tables: the share of
            boards where the queen was pocketed, covered, or came back; fouls per board;
            strokes per board; and the **break advantage** — how
            often the breaker's side wins a board it breaks — with its 95 % Wilson CI.
            `analysis.game_metrics` holds it per variant.
        """),
        code("""
            gm = analysis.game_metrics
            keys = ["boards_per_game", "strokes_per_board", "points_per_board", "queen_pocketed_rate",
                    "queen_covered_rate", "queen_returned_rate", "fouls_per_board", "break_advantage",
                    "break_advantage_ci_low", "break_advantage_ci_high", "stuck_board_rate", "draw_rate"]
            gm.loc[[k for k in keys if k in gm.index]]
        """),
        md("""
            Strokes per board differ between the rule sets more than anything in the effects
            table. That is not one of the standard outcomes, but any per-match quantity can be
            compared the same way: pair match *i* of the variant with match *i* of the baseline
            and bootstrap the mean difference over seeds (`analysis.effects.paired_mean_effect`,
            the function behind the effects table).
        """),
        code("""
            from analysis.effects import paired_mean_effect

            per_match = load_results(results_dir).tables["matches"]
            per_match = per_match.assign(strokes_per_board=per_match["strokes"] / per_match["rounds"])
            wide = per_match.pivot(index=["match", "seed"], columns="variant", values="strokes_per_board").reset_index()
            effect = paired_mean_effect(wide["icf"], wide["baseline"], clusters=wide["seed"], n_resamples=2000, rng=0)
            print(f"strokes per board: family {effect['base_mean']:.1f}, ICF {effect['variant_mean']:.1f}; "
                  f"ICF - family = {effect['effect']:+.1f} strokes [{effect['ci_low']:+.1f}, {effect['ci_high']:+.1f}] "
                  f"(95 % BCa bootstrap over seeds; paired t p = {effect['p']:.2g}, {effect['n']} pairs)")
        """),
        md("""
            The same counts straight from the tables: per stroke, `events` records the foul (an
            empty string if none) and the queen's fate (`queen_event`). Which fouls and queen
            events does each rule set produce, per 100 strokes?
        """),
        code("""
            tables = load_results(results_dir).tables
            strokes = tables["events"]
            per_100 = lambda column: (pd.crosstab(strokes["variant"], strokes[column])
                                      .div(strokes.groupby("variant").size(), axis=0) * 100)
            display(per_100("foul").drop(columns="", errors="ignore").round(2))
            per_100("queen_event").drop(columns="", errors="ignore").round(2)
        """),
        md("""
            The game's plots hook draws where coins go down (pockets named from the shooter's
            seat) and the distribution of strokes per board, over both variants:
        """),
        code("""
            for title, figure in spec.plots(tables):
                display(figure)
        """),
        md("""
            ## 5. Solo practice: strokes to clear a board

            Matches mix shot-making with tactics and luck. Solo practice isolates shot-making: one
            player clears all 19 coins (queen included, no cover, no dues) from the break
            formation; fewer strokes = better shots. Board *i* uses the same seeds for every
            preset (common random numbers). 10 boards per preset here; the module's command line
            (`python -m sim.carrom.practice --boards 40`) prints the same table for more.
        """),
        code("""
            from scipy import stats

            from sim.carrom.practice import practice_table
            from sim.core import load_lineup

            presets = ["beginner", "casual", "club", "champion"]
            players = [load_lineup(spec, [name, name], rules)[0] for name in presets]
            started = time.perf_counter()
            practice = practice_table(rules, players, boards=10, seed=0, max_strokes=300)
            print(f"{len(practice)} practice boards in {time.perf_counter() - started:.1f} s")

            def t_interval(strokes):
                low, high = stats.t.interval(0.95, len(strokes) - 1, loc=strokes.mean(), scale=stats.sem(strokes))
                return pd.Series({"boards": len(strokes), "mean strokes": strokes.mean(),
                                  "ci_low": low, "ci_high": high})

            table = practice.groupby("profile", sort=False)["strokes"].apply(t_interval).unstack()
            table["cleared"] = practice.groupby("profile", sort=False)["cleared"].mean()
            table["striker pocketed per board"] = practice.groupby("profile", sort=False)["striker_pocketed"].mean()
            table
        """),
        code("""
            figure = Figure(figsize=(7, 3.6), layout="constrained")
            ax = figure.add_subplot()
            ax.errorbar(range(len(table)), table["mean strokes"],
                        yerr=[table["mean strokes"] - table["ci_low"], table["ci_high"] - table["mean strokes"]],
                        fmt="o", capsize=5, color="#0072B2", label="mean, 95 % t CI")
            for i, name in enumerate(table.index):
                ax.scatter(np.full(10, i) + np.linspace(-0.12, 0.12, 10),
                           practice.loc[practice["profile"] == name, "strokes"], s=10, color="0.6")
            ax.set_xticks(range(len(table)), table.index)
            ax.set_ylabel("strokes to clear the board")
            ax.set_title("Solo practice: 10 boards per preset (grey: each board)")
            ax.legend()
            display(figure)
        """),
        md("""
            ## Takeaway

            * The board, the discs and the physics are data (ICF sizes by default); `spec.shot`
              shows exactly what one stroke does, deterministically.
            * "Which rules?" is an experiment like any other: `family` vs `icf` (or a single
              switch, e.g. `rules.dues = false`) as variants on common seeds, compared match by
              match with paired CIs. The queen and foul metrics of the game's own summary explain
              *why* boards differ.
            * Solo practice separates shot-making from tactics: the presets are ordered by
              strokes to clear a board, which is how their noise levels were calibrated.
        """),
        *cleanup(),
    ]


# =============================================================================================
# balancing
# =============================================================================================

def balancing() -> list:
    return [
        md("""
            # Balancing Curlastique's zone values

            A designer's question: **which four ring values** (innermost first, today 100, 80,
            40, 20 points) make a four-player club game to 500 points

            * fair to the first player — seat 0 should win 25 % ± 2 percentage points of the
              games, like everyone else, and
            * of a comfortable length — the median game should last 4 to 7 rounds?

            There are 20⁴ candidate value sets on a 10-point grid, and every measurement is
            noisy, so `tablesim balance` searches them with a Bayesian optimiser (optuna's TPE)
            on **common random numbers** (every trial replays the same seeds), stops hopeless
            trials early, and finally re-plays the best few candidates on **fresh seeds** with
            more matches: a target counts as met only if an equivalence test (TOST, α = 0.05) on
            those fresh seeds shows it inside its band. That last step guards against the
            winner's curse — the best of many noisy trials is usually luckier than it is good.

            The full search of `sim/examples/curlastique_balance.toml` (its trials of a few hundred
            matches each, then the validation of the best candidates on thousands of fresh
            matches) takes a quarter of an hour or more on two cores. This notebook

            1. reads the balance file: the search space and the targets;
            2. measures the default values against the targets;
            3. runs a **tiny** search live (5 trials × 12 matches) to show the mechanics and the
               files it writes;
            4. presents the **stored result of the full run** (`reports/examples/curlastique_balance/`)
               if it is there, and says honestly whether the targets were met;
            5. does the same for the stored **sensitivity analysis** (Morris, Sobol).
        """),
        setup("tablesim-balancing-", extra="""
            import json
            import shutil
            import time
            import tomllib

            import tomli_w
            from matplotlib.figure import Figure
        """),
        md("""
            The example files live in the repository (`sim/examples/`), and the stored results
            under `reports/examples/`. The notebook runs from `notebooks/`, so the repository is
            the first parent folder holding `sim/examples/`.
        """),
        code("""
            import sim

            candidates = [Path.cwd(), *Path.cwd().parents, Path(sim.__file__).resolve().parent.parent]
            ROOT = next(p for p in candidates if (p / "sim" / "examples" / "curlastique_balance.toml").exists())
            EXAMPLE = ROOT / "sim" / "examples" / "curlastique_balance.toml"
            STORED_BALANCE = ROOT / "reports" / "examples" / "curlastique_balance"
            STORED_SENSITIVITY = ROOT / "reports" / "examples" / "curlastique_sensitivity"
            print("repository:", ROOT)
        """),
        md("""
            ## 1. The balance file

            A copy goes to the temporary folder (the notebook never writes into the repository).
            Read it top to bottom: the game and its seed, matches per trial, the baseline rules
            (500 points), the line-up, one parameter (the whole list `zones.values`: 4 integers in
            [10, 200] on a 10-point grid, kept decreasing so that the bullseye is always worth
            the most), two targets, and the search settings.
        """),
        code("""
            balance_file = WORK / "curlastique_balance.toml"
            shutil.copy(EXAMPLE, balance_file)
            print(balance_file.read_text())
        """),
        md("""
            `load_balance` validates the whole file — including both corners of the space as
            rule sets — before anything runs.
        """),
        code("""
            from analysis.balance.search import load_balance

            balance = load_balance(balance_file)
            for p in balance.space.parameters:
                grid = p.grid()
                print(f"parameter {p.key}: {p.kind}, {p.length} values in [{p.low:g}, {p.high:g}] step {p.step:g} "
                      f"({len(grid)} levels each), order {p.order!r}")
            targets = pd.DataFrame([{"target": t.label, "band low": t.band[0], "band high": t.band[1], "pull": t.pull}
                                    for t in balance.settings.targets])
            targets
        """),
        md("""
            **The loss.** Each trial measures the targets' metrics and scores them with a band
            loss: Σ max(0, |m − centre| − half-width)² / half-width² — zero anywhere inside every
            band, growing quadratically outside (in units of the band's half-width). For example:
        """),
        code("""
            from analysis.balance.targets import band_loss, objective

            for seat0, median in [(0.25, 5), (0.235, 5), (0.26, 7), (0.29, 5), (0.25, 8.5), (0.20, 3)]:
                values = [seat0, median]
                print(f"seat 0 wins {seat0:.3f}, median {median} rounds -> loss "
                      f"{band_loss(list(balance.settings.targets), values):.2f}, search objective "
                      f"{objective(list(balance.settings.targets), values):.3f}")
        """),
        md("""
            **The pull.** A zero loss anywhere in the band would let the search settle on a point
            that sits, in sample, at 23.5 %: measured again on fresh seeds it falls outside the
            band about half the time. The seat target's `pull = 0.1` adds 0.1 × ((m − 25 %) / 2 %)²
            to what the optimiser minimises, so among in-band points it prefers the middle. The
            verdict still uses only the band.
        """),
        md("""
            ## 2. Where the default values stand

            `evaluate` plays matches of the line-up under a point of the space and measures the
            targets — what every trial does. 40 matches of the default values (a quick look,
            not a verdict: the seat-0 rate's 95 % CI is about ± 13 points at this size):
        """),
        code("""
            from analysis.balance.search import evaluate
            from analysis.balance.targets import measure
            from analysis.winrates import wilson_interval

            default_point = {"zones.values": [100, 80, 40, 20]}
            started = time.perf_counter()
            tables, values = evaluate(balance, default_point, root_seed=balance.settings.seed, matches=40)
            print(f"40 matches in {time.perf_counter() - started:.1f} s")
            for target, value in zip(balance.settings.targets, values):
                print(f"{target.label:<28} {value:.3f}   band [{target.band[0]:g}, {target.band[1]:g}]")
            wins = int(tables["players"].query("seat == 0")["won"].sum())
            low, high = wilson_interval(wins, 40)
            print(f"seat 0: {wins}/40 wins, 95 % Wilson CI [{float(low):.2f}, {float(high):.2f}]; "
                  f"loss {band_loss(list(balance.settings.targets), values):.2f}")
        """),
        md("""
            The targets constrain seat 0 only. A glance at every seat (simultaneous 95 % CIs)
            is a reminder that "fair to the first player" is not "fair": a seat-0 target can be
            met while another seat keeps an advantage — add a target per seat if that matters.
        """),
        code("""
            from analysis.winrates import seat_win_rates

            seat_win_rates(tables["players"])[["seat", "games", "wins", "win_rate", "ci_low", "ci_high"]]
        """),
        md("""
            ## 3. A tiny search, live

            The same file with a toy budget: 12 matches per trial (played in 2 blocks of 6 seeds:
            after the first block, optuna's Wilcoxon pruner may stop a trial that is clearly worse
            than the best so far), 5 trials, and the best 2 candidates validated on 24 fresh
            matches. Far too small to balance anything — it shows the mechanics and the files.
        """),
        code("""
            from analysis.balance.search import run_balance

            tiny = tomllib.loads(EXAMPLE.read_text())
            tiny["matches"] = 12
            tiny["search"].update(trials=5, blocks=2, validate_top=2, validate_matches=24)
            tiny_file = WORK / "curlastique_balance_tiny.toml"
            tiny_file.write_text(tomli_w.dumps(tiny))

            tiny_out = WORK / "tiny-search"
            started = time.perf_counter()
            run_balance(load_balance(tiny_file), tiny_out, jobs=1, progress=False)
            print(f"tiny search in {time.perf_counter() - started:.1f} s; files:",
                  sorted(p.name for p in tiny_out.iterdir()))
        """),
        md("""
            The output folder holds `trials/NNNN.json` (one per finished trial: a killed search
            resumes from them), `trials.csv` (all trials), `validation.json` (the fresh-seed
            replays), `balance.json` (the summary) and `best_rules.toml` (a complete rules file,
            ready for `--rules`). The helpers below read such a folder; they serve the tiny run
            now and the stored full run next.
        """),
        code("""
            def read_search(folder: Path) -> dict:
                \"\"\"Trials, validation and summary of a balance output folder (what exists of them).\"\"\"
                out = {"manifest": {}, "trials": pd.DataFrame(), "candidates": [], "summary": None, "best_rules": None}
                if (folder / "manifest.json").exists():
                    out["manifest"] = json.loads((folder / "manifest.json").read_text())
                if (folder / "trials.csv").exists():  # written when the search ends
                    out["trials"] = pd.read_csv(folder / "trials.csv")
                rows = [json.loads(p.read_text()) for p in sorted(folder.glob("trials/*.json"))]
                if len(rows) > len(out["trials"]):  # a search still running: one JSON per finished trial
                    out["trials"] = pd.DataFrame([{"number": r["number"], "state": r["state"], "loss": r["loss"],
                                                   **{f"param:{k}": json.dumps(v) for k, v in r["point"].items()},
                                                   **{f"value:{k}": v for k, v in r["values"].items()}} for r in rows])
                if (folder / "validation.json").exists():
                    validation = json.loads((folder / "validation.json").read_text())
                    out["candidates"] = validation["candidates"]
                    if validation.get("baseline"):  # the rules before the search, on the same fresh seeds
                        out["candidates"] = [{**validation["baseline"], "trial": "baseline", "point": "baseline",
                                              "in_sample_loss": np.nan}] + out["candidates"]
                if (folder / "balance.json").exists():
                    out["summary"] = json.loads((folder / "balance.json").read_text())
                if (folder / "best_rules.toml").exists():
                    out["best_rules"] = (folder / "best_rules.toml").read_text()
                return out


            def convergence(trials: pd.DataFrame, title: str) -> Figure:
                \"\"\"Every trial's loss and the best loss so far, by trial number.\"\"\"
                figure = Figure(figsize=(7.5, 3.6), layout="constrained")
                ax = figure.add_subplot()
                loss = pd.to_numeric(trials["loss"], errors="coerce")
                complete = trials["state"] == "complete"
                ax.scatter(trials.loc[complete, "number"], loss[complete], color="#0072B2", s=25,
                           label="trial (in-sample loss)")
                if (~complete).any():
                    ax.scatter(trials.loc[~complete, "number"], loss[~complete], color="#D55E00", marker="x",
                               label="pruned (loss of the blocks played)")
                best = loss.where(complete).cummin()
                ax.step(trials["number"], best, where="post", color="black", label="best so far")
                ax.set_yscale("symlog", linthresh=0.1)
                ax.set_xlabel("trial")
                ax.set_ylabel("band loss (0 = every target in its band)")
                ax.set_title(title)
                ax.legend(fontsize=9)
                return figure


            def verdict(check: dict) -> str:
                low, high = check["band"]
                if check["met"]:
                    return "met (90 % CI inside the band)"
                if check["ci_high"] < low or check["ci_low"] > high:
                    return "missed (CI outside the band)"
                if check["ci_high"] - check["ci_low"] > high - low:
                    return "undecided (CI wider than the band)"
                return "not shown (CI crosses a band edge)"


            def validation_table(candidates: list) -> pd.DataFrame:
                \"\"\"One row per validated candidate × target: fresh-seed value, 90 % CI, TOST.\"\"\"
                rows = []
                for c in candidates:
                    for check in c["targets"]:
                        point = c["point"] if isinstance(c["point"], str) else json.dumps(c["point"])
                        rows.append({"trial": c["trial"], "point": point,
                                     "in-sample loss": c["in_sample_loss"], "fresh loss": c["fresh_loss"],
                                     "matches": c["matches"], "target": check["target"],
                                     "band": f"[{check['band'][0]:g}, {check['band'][1]:g}]",
                                     "value": check["value"], "ci_low": check["ci_low"], "ci_high": check["ci_high"],
                                     "TOST p": check.get("p_tost", np.nan), "verdict": verdict(check)})
                return pd.DataFrame(rows)


            def conclusion(search: dict) -> str:
                summary = search["summary"]
                if summary is None or summary.get("best") is None:
                    return "No validated candidate (the search has not finished)."
                best = summary["best"]
                lines = [f"Best candidate: trial {best['trial']}, {json.dumps(best['point'])}, replayed on "
                         f"{best['matches']:,} matches of fresh seeds (root seed {best['fresh_seed']})."]
                for check in best["targets"]:
                    lines.append(f"  {check['target']}: {check['value']:.3g}, 90 % CI [{check['ci_low']:.3g}, "
                                 f"{check['ci_high']:.3g}], band [{check['band'][0]:g}, {check['band'][1]:g}] -> "
                                 f"{verdict(check)}")
                met = summary["meets_all_targets"]
                lines.append("Every target met on fresh seeds: " + ("YES." if met else "NO — the targets were not shown to be met."))
                return "\\n".join(lines)
        """),
        code("""
            search = read_search(tiny_out)
            display(search["trials"])
            display(convergence(search["trials"], "tiny search (5 trials x 12 matches)"))
            display(validation_table(search["candidates"]))
            print(conclusion(search))
        """),
        md("""
            With 12 matches per trial a loss of 0 means little: the validation on fresh seeds
            says whether the candidate holds up, and with 24 matches its CIs are far wider than
            the ±2-point band — "undecided" is the honest answer.

            **How many validation matches can confirm the seat-0 target at all?** TOST passes
            when the 90 % CI lies inside 25 % ± 2 points. Even if a candidate is *exactly* fair,
            its CI half-width 1.645 · √(0.25 · 0.75 / n) must be below 0.02, and to pass with 80 %
            probability it needs more still (`analysis.fairness.matches_for_equivalence`):
        """),
        code("""
            from scipy.stats import norm

            from analysis.fairness import matches_for_equivalence

            def tost_power(n: int, true_rate: float, low: float = 0.23, high: float = 0.27, alpha: float = 0.05) -> float:
                \"\"\"P(the 90 % CI of n matches lies inside [low, high]) when the true rate is true_rate (normal approx.).\"\"\"
                se = np.sqrt(true_rate * (1 - true_rate) / n)
                z = norm.ppf(1 - alpha)
                return max(0.0, norm.cdf((high - true_rate) / se - z) - norm.cdf((low - true_rate) / se + z))

            at_all = matches_for_equivalence(0.25, 0.02, alpha=0.05, power=1e-9)
            likely = matches_for_equivalence(0.25, 0.02, alpha=0.05, power=0.8)
            planned = balance.settings.search.validate_matches
            print(f"smallest n whose 90 % CI can fit in the band (true rate exactly 25 %): {at_all:,}")
            print(f"n for an 80 % chance to show equivalence when the true rate is 25 %: {likely:,}")
            print(f"validation matches in the example file: {planned:,}; chance to show equivalence if the "
                  f"true rate is 25 %: {tost_power(planned, 0.25):.0%}, if it is 24 %: {tost_power(planned, 0.24):.0%}, "
                  f"if it is 23 %: {tost_power(planned, 0.23):.0%}")
            if planned < at_all:
                print(f"=> with {planned:,} validation matches the seat-0 target cannot be shown to be met, "
                      f"whatever the candidate: its verdict can at best be 'undecided'.")
        """),
        md("""
            ## 4. The stored full search

            The full run (`tablesim balance sim/examples/curlastique_balance.toml --out
            reports/examples/curlastique_balance --jobs 2`) is stored in the repository. If it is
            present, the same helpers present it.
        """),
        code("""
            full = read_search(STORED_BALANCE) if STORED_BALANCE.is_dir() else None
            if full is None or full["trials"].empty:
                print(f"No stored search in {STORED_BALANCE}.\\nTo produce it (a quarter of an hour or more on 2 cores), "
                      f"from the repository:\\n  tablesim balance sim/examples/curlastique_balance.toml "
                      f"--out reports/examples/curlastique_balance --jobs 2")
            else:
                manifest = full["manifest"]
                print("command:", manifest.get("command", "?"), "| status:", manifest.get("status", "?"))
                if manifest.get("status") != "complete":
                    print("The search has not finished: what follows covers the trials stored so far.")
                trials = full["trials"]
                print(f"{len(trials)} trials, {int((trials['state'] == 'pruned').sum())} pruned")
                display(trials.sort_values("loss").head(10))
                display(convergence(trials, f"full search ({len(trials)} trials)"))
        """),
        md("""
            The validated candidates: each replayed on fresh seeds; each target's value with its
            90 % CI (the TOST interval: both one-sided tests at α = 0.05 pass exactly when it lies
            inside the band) and the verdict.
        """),
        code("""
            if full is not None and full["candidates"]:
                display(validation_table(full["candidates"]))
                print(conclusion(full))
            else:
                print("No validation stored yet (validation.json is written after the last trial).")
        """),
        code("""
            if full is not None and full["best_rules"]:
                print("\\n".join(full["best_rules"].splitlines()[:16]))
            else:
                print("No best_rules.toml stored yet.")
        """),
        md("""
            **Reading the verdict honestly.** A candidate with a zero in-sample loss is a
            candidate, not a result: the conclusion above is the fresh-seed replay's. If a target
            is "undecided", the search may well have found good values but the validation
            budget cannot show it (see the matches computed in section 3): raise
            `validate_matches` (or loosen the band) rather than trust the in-sample number. "Not
            shown (CI crosses a band edge)" means the estimate may well be inside the band but
            the true value could lie just outside it: the candidate is close, not confirmed. If a
            target is "missed", the space or the line-up cannot reach it — a seat advantage, for
            instance, may not be fixable by ring values alone. And an integer metric such as the
            median number of rounds can sit exactly on a band edge with a CI of zero width:
            "met" then means "on the edge of the band".

            **Did we ask the right question?** The target was seat 0's win rate. Every seat
            matters to a player: below, the best rules (if stored) play 160 four-player club
            games (one worker, about half a minute), and every seat's win rate is shown with its
            95 % CI.
        """),
        code("""
            from sim.core import get_game
            from sim.core.profiles import load_lineup
            from sim.core.rules import load_rules
            from sim.core.runner import Cell, run_cells
            from analysis.winrates import seat_win_rates

            if full is not None and full["best_rules"]:
                spec = get_game("curlastique")
                best_rules = load_rules(spec, STORED_BALANCE / "best_rules.toml")
                club4 = load_lineup(spec, ["club"] * 4, best_rules)
                check = run_cells(spec, [Cell("best", "club-4p", best_rules, club4)], matches=160,
                                  root_seed=2026, jobs=1, progress=False)
                by_seat = seat_win_rates(check["players"])[["seat", "games", "wins", "win_rate", "ci_low", "ci_high"]]
                display(by_seat)
                last = by_seat.iloc[-1]
                print(f"seat 0 wins {by_seat.iloc[0]['win_rate']:.0%}, the last seat {last['win_rate']:.0%} "
                      f"[{last['ci_low']:.0%}, {last['ci_high']:.0%}]")
            else:
                print("No stored best rules.")
        """),
        md("""
            In the stored runs the last seat wins about half of the games whatever the ring
            values: it throws last in the first round, and since the lowest score starts each
            later round, the leader keeps throwing last. Ring values can make seat 0 fair, not the
            table: that needs a turn-order rule (for instance, the leader starts), which is an
            experiment on rules, not a search over values. A balance file can target every seat
            (one `seat_win_rate` target per seat) to make the search say so itself.

            ## 5. The stored sensitivity analysis

            Before searching, a designer may ask *which* rules matter. `tablesim sensitivity`
            (`sim/examples/curlastique_sensitivity.toml`: the four zone values and the friction,
            4-player club games to 500 points) screens every parameter with **Morris** elementary effects, then
            measures **Sobol** indices of the strongest ones. A dummy parameter that changes
            nothing is included as the reference: a parameter not clearly above it has no effect
            the run can see (the output below checks whether the dummy really measures noise).

            * Morris μ*: mean absolute change of the output when the parameter moves across its
              range (output units per full range), over the trajectories; σ: how much that change
              depends on the other parameters (interactions, non-linearity).
            * Sobol ST: the share of the output's variance due to the parameter, interactions
              included (0–1, noisy with few samples).
        """),
        code("""
            def above_floor(frame: pd.DataFrame, value: str, conf: str) -> pd.DataFrame:
                \"\"\"Flag parameters whose index minus its CI half-width exceeds the dummy's index plus its own.\"\"\"
                from analysis.balance.sensitivity import DUMMY

                rows = []
                for output, group in frame.groupby("output", sort=False):
                    dummy = group[group["parameter"] == DUMMY]
                    floor = float((dummy[value] + dummy[conf]).iloc[0]) if len(dummy) else 0.0
                    rows.append(group.assign(noise_floor=floor, above_floor=(group[value] - group[conf]) > floor)
                                .sort_values(value, ascending=False))
                return pd.concat(rows, ignore_index=True)


            morris_csv, sobol_csv = STORED_SENSITIVITY / "morris.csv", STORED_SENSITIVITY / "sobol.csv"
            if not morris_csv.exists():
                print(f"No stored sensitivity analysis in {STORED_SENSITIVITY}.\\nTo produce it, from the "
                      f"repository:\\n  tablesim sensitivity sim/examples/curlastique_sensitivity.toml "
                      f"--out reports/examples/curlastique_sensitivity --jobs 2")
            else:
                morris = above_floor(pd.read_csv(morris_csv), "mu_star", "mu_star_conf")
                display(morris)
                if sobol_csv.exists():
                    display(above_floor(pd.read_csv(sobol_csv), "ST", "ST_conf"))
                for output, group in morris.groupby("output", sort=False):
                    clear = [p for p in group.loc[group["above_floor"], "parameter"]]
                    print(f"{output}: clearly above the noise floor (Morris): {', '.join(clear) or 'none'}")
                from analysis.balance.sensitivity import DUMMY

                if (morris.loc[morris["parameter"] == DUMMY, "mu_star"] == 0).all():
                    print("\\nCaution: the dummy's index is exactly 0. Every sample point replays the same seeds "
                          "(common random numbers), so a parameter that changes nothing reproduces the tables "
                          "exactly and the dummy measures no Monte Carlo noise at all. Any real rule change, "
                          "however irrelevant, reshuffles the noisy outcomes, so here 'above the floor' only "
                          "means 'the CI of the index excludes 0'; small indices may be noise (see the next check).")
                if (STORED_SENSITIVITY / "sensitivity.png").exists():
                    display(Image(filename=str(STORED_SENSITIVITY / "sensitivity.png"), width=760))
        """),
        md("""
            **A second noise floor, from the run's own size.** Each Morris step moves one
            parameter by Δ = levels / (2 (levels − 1)) of its range and divides the change of the
            output by Δ. If the parameter did nothing but the outcomes were independent Monte
            Carlo draws at the two ends of the step, the change would have a standard deviation
            of √2 · σ, with σ the standard error of the output at one point (for a win rate of
            n matches, √(p(1 − p)/n)), and μ* — the mean of its absolute value — would be about
            √(2/π) · √2 · σ / Δ. Indices not clearly above that are indistinguishable from noise.
            (Common random numbers correlate neighbouring points and lower the noise somewhat,
            so this floor is on the cautious side.) σ is estimated from the stored sample
            points' tables when they are there (`morris/`), else from the line-up size.
        """),
        code("""
            from math import pi, sqrt

            from sim.core.store import load_tables


            def monte_carlo_floor(folder: Path) -> dict:
                \"\"\"Morris μ* that pure Monte Carlo noise would give each output (NaN where unknown).\"\"\"
                info = json.loads((folder / "sensitivity.json").read_text())
                settings = info["settings"]
                n, levels = settings["matches"], settings["morris"]["levels"]
                step = levels / (2 * (levels - 1))  # SALib's Morris step, as a fraction of each range
                points = folder / "morris"
                tables = load_tables(points) if (points / "matches").is_dir() else None
                lineup = settings["lineups"][0]
                floors = {}
                for label, output in zip(info["outputs"], settings["outputs"]):
                    sd = float("nan")
                    if output["metric"] in ("seat_win_rate", "profile_win_rate", "completion"):
                        p = 1 / len(lineup["players"])
                        if tables is not None:
                            players = tables["players"][tables["players"]["lineup"] == lineup["name"]]
                            matches = tables["matches"][tables["matches"]["lineup"] == lineup["name"]]
                            p = {"seat_win_rate": players.loc[players["seat"] == output["seat"], "won"].mean(),
                                 "profile_win_rate": players.loc[players["profile"] == output["profile"], "won"].mean(),
                                 "completion": matches["finished"].astype(float).mean()}[output["metric"]]
                        sd = sqrt(p * (1 - p) / n)
                    elif output["metric"] == "rounds_mean" and tables is not None:
                        matches = tables["matches"][tables["matches"]["lineup"] == lineup["name"]]
                        sd = float(matches.groupby("variant")["rounds"].std().mean()) / sqrt(n)
                    floors[label] = sqrt(2 / pi) * sqrt(2) * sd / step
                return floors


            if not (STORED_SENSITIVITY / "sensitivity.json").exists():
                print("No stored sensitivity analysis: nothing to check.")
            else:
                floors = monte_carlo_floor(STORED_SENSITIVITY)
                checked = pd.read_csv(STORED_SENSITIVITY / "morris.csv")
                checked = checked[checked["parameter"] != DUMMY].assign(mc_floor=checked["output"].map(floors))
                checked["above_mc_floor"] = (checked["mu_star"] - checked["mu_star_conf"]) > checked["mc_floor"]
                display(checked.sort_values(["output", "mu_star"], ascending=[True, False]).reset_index(drop=True))
                for output, group in checked.groupby("output", sort=False):
                    floor = floors[output]
                    if np.isnan(floor):
                        print(f"{output}: no Monte Carlo floor (the sample points' tables are not stored)")
                        continue
                    clear = list(group.loc[group["above_mc_floor"], "parameter"])
                    print(f"{output}: Monte Carlo floor of mu* = {floor:.3g}; clearly above it: "
                          f"{', '.join(clear) or 'none — this run cannot tell which parameter matters'}")
        """),
        md("""
            ## Takeaway

            * A balance problem is a file: a parameter space over rule keys, targets with bands,
              and a search budget. `tablesim balance` searches on common random numbers, prunes
              hopeless trials, and validates the best candidates on fresh seeds.
            * Only the fresh-seed TOST verdict says whether a target is met; in-sample losses are
              optimistic by construction (the winner's curse). The matches a ±2-point band needs
              — thousands — are the real cost of a balancing claim, and the notebook computes
              them before anyone runs the search.
            * Sensitivity analysis with a dummy parameter tells which rules are worth searching
              at all: everything not above the noise floor can stay as it is — provided the
              floor really measures the noise; the run's own size gives a second, independent
              floor, and an index below it is a question the run was too small to answer.
        """),
        *cleanup(),
    ]


# =============================================================================================
# gasterospeed
# =============================================================================================

def gasterospeed() -> list:
    return [
        md("""
            # Gastérospeed: deck and circuits as data, a replay, players, and a deck variant

            Gastérospeed is a snail race on a grid circuit. Every turn all players reveal a
            **speed card** at once (the highest number moves first, 1 or 2 squares), then may
            play an **action card** (a sprint, a leap, a shot at another snail, a domino wave
            along a row...). Shots and dominoes cost shell points; a snail that loses its last
            shell is **KO** for the race. **Reaction cards** cancel or return a loss. A
            championship is six races on circuits of increasing difficulty; arrivals score
            9, 6, 4, 3, 2, 1 points, a KO snail 1 point.

            The publishers' rules name the mechanisms but print neither the card texts nor the
            circuit maps, so both are **data** in the rules file: every card is a deck entry
            composed of effect primitives, every circuit an ASCII map. This notebook:

            1. reads the deck and the circuits as tables and maps;
            2. replays a race turn by turn (the game's `replay`, as `tablesim replay`);
            3. pits the simulated players against each other: tactician vs greedy vs random;
            4. tests a deck variant — **10 Tir cards instead of 5** — and its effect on the KO rate.

            Units: squares, shells, cards, turns, points. Runs are small (about a minute in
            total) and seeded.
        """),
        setup("tablesim-gasterospeed-", extra="""
            import time

            from matplotlib.figure import Figure
        """),
        md("""
            ## 1. The deck as data

            Each `[deck.<id>]` entry of the rules is either a run of numbered speed cards, a
            number of identical action cards (resolution order 1–4, made of effect primitives:
            `move`, `shell`, `shoot`, `domino`), or reaction cards (`cancel` / `reflect`). A
            designer re-counts a card with `--set deck.tir.count=10`, or adds a new card with a
            new `[deck.<id>]` table.
        """),
        code("""
            from sim.core import get_game, load_rules

            spec = get_game("gasterospeed")
            rules = load_rules(spec)

            def effect_text(effect) -> str:
                if effect.op == "move":
                    how = "rolled direction" if effect.roll else f"dirs {list(effect.directions)}"
                    text = f"move {effect.squares} {effect.path} ({how}{', jostle' if effect.jostle else ''})"
                elif effect.op == "shell":
                    text = f"shell {effect.amount:+d}" + (f" on {list(effect.faces)}" if effect.faces else "")
                elif effect.op == "shoot":
                    text = f"shoot range {effect.range}"
                else:
                    text = effect.op
                return text + (" if behind" if effect.condition == "behind" else "")

            deck = pd.DataFrame([{
                "id": cid, "name": card.name, "kind": card.kind, "count": card.count,
                "numbers": f"{card.first}-{card.first + card.count - 1}" if card.kind == "speed" else "",
                "squares": card.squares if card.kind == "speed" else None,
                "order": card.order if card.kind == "action" else None,
                "effects": "; ".join(effect_text(e) for e in card.effects) or (card.counter if card.kind == "reaction" else ""),
            } for cid, card in rules.deck.items()]).set_index("id")
            print(f"{deck['count'].sum()} cards:", deck.groupby("kind")["count"].sum().to_dict())
            with pd.option_context("display.max_colwidth", 70):
                display(deck)
        """),
        md("""
            ## 2. The circuits as data

            A circuit is an ASCII map (`.` track, `S` start slots, `F` finish, `#` rail, `o`
            obstacle, `~` mud, `^ > v <` arrow squares) plus its shot table: the faces of the
            circuit's die on which a shot hits. The engine compiles each map into neighbour
            tables and a distance-to-finish field, so "forward" follows the track round bends.
        """),
        code("""
            from sim.gasterospeed.circuit import INF, compile_circuit

            circuits = {name: compile_circuit(rules.circuits[name], name) for name in rules.championship.circuits}
            pd.DataFrame([{
                "circuit": name, "title": c.title, "map (cols x rows)": f"{c.width} x {c.height}",
                "start slots": len(c.slots), "steps start -> finish": c.start_distance,
                "shot hits": f"{len(c.shot_hits)}/{c.die}", "P(hit)": len(c.shot_hits) / c.die,
                "reserve shells": c.reserve_shells, "obstacle damage": c.obstacle_damage,
            } for name, c in circuits.items()]).set_index("circuit")
        """),
        code("""
            left, right = circuits["stargot"].rows, circuits["virage_du_potager"].rows
            width = max(len(r) for r in left) + 6
            print(f"{'stargot':<{width}}virage_du_potager")
            for i in range(max(len(left), len(right))):
                print(f"{left[i] if i < len(left) else '':<{width}}{right[i] if i < len(right) else ''}")
        """),
        md("""
            The distance field of the bend: steps to the finish from every square (8-neighbour
            steps honouring rails, obstacles and arrows). Snails, players and the rail rule all
            read "forward" from it.
        """),
        code("""
            bend = circuits["virage_du_potager"]
            dist = np.array(bend.dist, dtype=float).reshape(bend.height, bend.width)
            dist[dist >= INF] = np.nan
            figure = Figure(figsize=(7, 5), layout="constrained")
            ax = figure.add_subplot()
            image = ax.imshow(dist, cmap="viridis_r")
            figure.colorbar(image, ax=ax, label="steps to the finish (squares)")
            ax.set_title(f"{bend.title}: distance to the finish")
            ax.set_xlabel("column")
            ax.set_ylabel("row")
            display(figure)
        """),
        md("""
            ## 3. A race, turn by turn

            `spec.replay(rules, players, seeds)` tells the first race of a championship turn by
            turn with the map after every turn (`A`, `B`, `C` are the snails of seats 0, 1, 2).
            It is exactly the first race that `play_match` plays from the same seeds —
            `tablesim replay gasterospeed --seed 3 --players tactician,greedy,random` prints the
            same. The whole text is long; here are the first two turns and the end.
        """),
        code("""
            from sim.core import MatchSeeds, load_lineup

            players = load_lineup(spec, ["tactician", "greedy", "random"], rules)
            seeds = MatchSeeds(root=3, match=0)
            story = spec.replay(rules, players, seeds).splitlines()
            turn3 = next((i for i, line in enumerate(story) if line.startswith("=== Turn 3 ")), 60)
            finish = next((i for i, line in enumerate(story) if line.startswith("Race over")), len(story) - 8)
            print("\\n".join(story[:turn3]))
            print(f"[... {finish - 1 - turn3} lines ...]")
            print("\\n".join(story[finish - 1:]))
        """),
        md("""
            The same race in the tables of `play_match` (its `rounds` table, round 1): same
            seeds, same race — the simulation is a pure function of (rules, line-up, seeds).
        """),
        code("""
            log = spec.play_match(rules, players, seeds)
            race1 = pd.DataFrame(log.rounds).query("round == 1")
            race1.assign(profile=[players[s].name for s in race1["seat"]])[
                ["seat", "profile", "circuit", "arrival", "points", "shells_left", "ko", "turns", "capped"]]
        """),
        md("""
            ## 4. Tactician vs greedy vs random

            Three of the presets: `random` (uniform over legal options), `greedy` (the option that
            leaves its own snail closest to the finish now) and `tactician` (plans from what it
            can infer: blocks, shoots the leaders, keeps reactions). 60 championships, each seed
            under the 3 rotations of the seats (20 seeds × 3).
        """),
        code("""
            from analysis.skill import profile_matrix
            from analysis.winrates import profile_win_rates
            from sim.core import Cell, run_cells

            cell = Cell("baseline", "tactician-greedy-random", rules, players, rotate_seats=True)
            started = time.perf_counter()
            trio = run_cells(spec, [cell], matches=60, root_seed=11, jobs=1, progress=False)
            print(f"60 championships ({60 * len(rules.championship.circuits)} races) in "
                  f"{time.perf_counter() - started:.1f} s")
            profile_win_rates(trio["players"])[["profile", "games", "wins", "win_rate", "ci_low", "ci_high"]]
        """),
        md("""
            Head to head: the probability that the row profile finishes a championship ahead of
            the column profile (ties count half), with its 95 % CI and the equivalent Elo gap.
        """),
        code("""
            matrix = profile_matrix(trio["players"])
            matrix[[c for c in matrix.columns if c not in ("variant", "lineup")]]
        """),
        md("""
            Race by race: mean points per race of each profile on each circuit, and the game's
            own metrics. A snail that wanders rather than races keeps the race going until the
            turn cap (60 turns), which `turn_capped_rate` measures. The win rates above do not
            add up to 1: a championship tied on points *and* race wins has no champion
            (`championship_tie_rate`).
        """),
        code("""
            races = trio["rounds"].merge(trio["players"][["match", "seat", "profile"]], on=["match", "seat"])
            display(races.pivot_table(index="circuit", columns="profile", values="points", aggfunc="mean",
                                      sort=False).round(2))
            metrics = spec.summary(trio)
            pd.Series({k: v for k, v in metrics.items()
                       if k in ("race_turns", "turn_capped_rate", "ko_rate", "championship_tie_rate")
                       or k.startswith("race_win_rate")}).to_frame("value")
        """),
        md("""
            ## 5. A deck variant: 10 Tir cards instead of 5

            More shots should knock out more snails — but by how much, and does it change who
            wins? The experiment: four tacticians (an even table, so that only the deck
            differs), the baseline deck against `deck.tir.count = 10` (85 cards). No seat
            rotation: with four identical players every rotation of a seed would replay the same
            championship (each seat's choices come from its own random stream). `matches = 48`
            distinct seeds per variant, i.e. 288 races of 4 snails each.
        """),
        code("""
            from sim.core import ResultStore
            from sim.core.experiment import load_experiment, run_experiment

            experiment_file = WORK / "tir.toml"
            experiment_file.write_text('''
            game = "gasterospeed"
            matches = 48              # championships per variant
            seed = 21
            rotate_seats = false      # identical players: rotations would replay the same matches

            [[variants]]
            name = "tir-10"
            set = { "deck.tir.count" = 10 }

            [[lineups]]
            name = "tacticians-4p"
            players = ["tactician", "tactician", "tactician", "tactician"]
            ''')
            experiment = load_experiment(experiment_file)
            results_dir = WORK / "tir-results"
            started = time.perf_counter()
            run_experiment(experiment, ResultStore(results_dir), jobs=1, progress=False)
            print(f"{len(experiment.cells)} cells x {experiment.settings.matches} championships "
                  f"in {time.perf_counter() - started:.1f} s")
        """),
        md("""
            **The KO-rate effect.** The KO rate of a championship is its KO snails over its
            snail-races (6 races × 4 snails = 24). Championship *i* of the variant replays the
            seeds of championship *i* of the baseline, so the effect is the mean paired
            difference, with a BCa bootstrap CI over seeds and a paired t-test — the method of
            the report's effects table, applied to an outcome of this game
            (`analysis.effects.paired_mean_effect`).
        """),
        code("""
            from analysis.effects import paired_mean_effect
            from analysis.results import load_results

            tables = load_results(results_dir).tables
            per_match = (tables["rounds"].groupby(["variant", "match"])
                         .agg(ko=("snails_ko", "sum"), snail_races=("seat", "size")).reset_index())
            per_match["ko_rate"] = per_match["ko"] / per_match["snail_races"]
            per_match = per_match.merge(tables["matches"][["variant", "match", "seed"]], on=["variant", "match"])
            wide = per_match.pivot(index=["match", "seed"], columns="variant", values="ko_rate").reset_index()
            ko = paired_mean_effect(wide["tir-10"], wide["baseline"], clusters=wide["seed"], n_resamples=2000, rng=0)
            print(f"KO rate per snail-race: baseline {ko['base_mean']:.3f}, tir-10 {ko['variant_mean']:.3f}")
            print(f"effect (tir-10 - baseline): {ko['effect']:+.3f} [{ko['ci_low']:+.3f}, {ko['ci_high']:+.3f}] "
                  f"(95 % CI; {ko['test']}; p = {ko['p']:.2g}; {ko['n']} paired championships)")
        """),
        md("""
            The game's own metrics per variant (`analysis.game_metrics`): KO rate overall and by
            circuit, how often a Tir is played per snail-race, and the win rate of the players
            who played one.
        """),
        code("""
            from analysis.analyse import analyse

            analysis = analyse(load_results(results_dir), n_resamples=500, seed=0)
            gm = analysis.game_metrics
            gm.loc[[k for k in gm.index if k.startswith(("ko_rate", "card_play_rate.tir", "card_win_rate.tir",
                                                         "race_turns", "turn_capped"))]]
        """),
        code("""
            circuits_order = list(rules.championship.circuits)
            rates = gm.loc[[f"ko_rate.{c}" for c in circuits_order]]
            figure = Figure(figsize=(8, 3.8), layout="constrained")
            ax = figure.add_subplot()
            x = np.arange(len(circuits_order))
            for i, column in enumerate(rates.columns):
                ax.bar(x + (i - 0.5) * 0.38, 100 * rates[column].to_numpy(), 0.38, label=column.split(" / ")[0],
                       color=["#0072B2", "#D55E00"][i])
            ax.set_xticks(x, [c.replace("_", " ") for c in circuits_order], rotation=20)
            ax.set_ylabel("KO snails (% of snail-races)")
            ax.set_title("KO rate by circuit, 4 tacticians")
            ax.legend()
            display(figure)
        """),
        md("""
            And the standard outcomes (seat win rates, championship length in races, scores),
            paired and Holm-corrected, in the report's sentences:
        """),
        code("""
            from analysis.narrative import summary_sentences

            for sentence in summary_sentences(analysis):
                print("-", sentence)
        """),
        md("""
            ## Takeaway

            * Cards and circuits are rules data: a new card is a TOML table made of effect
              primitives, a new circuit an ASCII map; `--set deck.tir.count=10` is a deck
              variant. The replay shows a race exactly as the batch runs play it.
            * The simulated players are ordered (tactician > greedy > random) with CIs, which is
              what makes them usable as playtesters for rule questions.
            * A deck change is measured as a paired effect on common seeds: doubling the Tir
              cards' count changes the KO rate by the amount and CI printed above. Whether that
              is *good* is the designer's call; the toolkit makes it a number with an
              uncertainty rather than a hunch.
        """),
        *cleanup(),
    ]


NOTEBOOKS = {
    "tour": tour,
    "curlastique": curlastique,
    "carrom": carrom,
    "gasterospeed": gasterospeed,
    "balancing": balancing,
}


def main(argv: list[str]) -> int:
    names = argv or list(NOTEBOOKS)
    unknown = [n for n in names if n not in NOTEBOOKS]
    if unknown:
        print(f"unknown notebook(s) {', '.join(unknown)}; allowed: {', '.join(NOTEBOOKS)}", file=sys.stderr)
        return 2
    for name in names:
        print(write(name))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
