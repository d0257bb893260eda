# ---
# jupyter:
#   jupytext:
#     formats: ipynb,py:percent
#     notebook_metadata_filter: -jupytext.text_representation.jupytext_version
#     text_representation:
#       extension: .py
#       format_name: percent
#       format_version: '1.3'
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # tablesim in ten minutes
#
# **tablesim** plays thousands of simulated matches of a tabletop game with explicit
# player skill and rule variants, then reports win rates, game lengths and the effect
# of every variant *with its uncertainty*. This tour is for a game designer who wants
# to test a rule change; it uses Curlastique (pucks flicked by an elastic into a
# scoring target) because its matches are quick, but every step works the same for
# Carrom and Gastérospeed.
#
# What you will do:
#
# 1. list the games, read a game's rules and change one with an override;
# 2. play a hundred matches in memory and look at the four tidy tables;
# 3. compute win rates with confidence intervals;
# 4. write a small **experiment file** (baseline + one variant, seat rotation) and run it;
# 5. measure the variant's effect with a paired CI and a Holm-corrected p-value;
# 6. draw a plot and write the self-contained HTML design report.
#
# Everything is seeded: rerunning the notebook gives the same numbers. The runs are
# deliberately small (a hundred matches or two) so that the notebook runs in well under
# a minute; real studies use thousands (`tablesim experiment FILE --jobs 4`).

# %%
# %matplotlib inline

import subprocess
import sys

from _notebook import cleanup, workspace
from IPython.display import display

WORK = workspace("tablesim-tour-")  # every file this notebook writes goes here

# %% [markdown]
# ## 1. Games, rules and overrides
#
# A game plugs into tablesim through one small object, its `GameSpec`: its rules type
# (loaded from a commented TOML file), its player presets, and a pure function that
# plays one match from (rules, line-up, seeds). `get_game` returns it.

# %%
from sim.core import game_names, get_game

for name in game_names():
    spec = get_game(name)
    print(f"{name:<14} {spec.title:<14} players: {', '.join(map(str, spec.player_counts))}")

# %% [markdown]
# The command line does the same (`tablesim games`); here we call it through the
# notebook's Python so that it uses the same installation.

# %%
print(subprocess.run([sys.executable, "-m", "sim.cli", "games"], capture_output=True, text=True, check=True).stdout)

# %% [markdown]
# **Rules are data.** Every number a designer may want to change is a key of the game's
# default rules file, with its unit and where the default comes from (the published
# rules, "seed", or our reconstruction). This is the file `tablesim rules curlastique`
# prints and a designer copies; here are its first lines.

# %%
from sim.core import default_rules_text, load_rules

spec = get_game("curlastique")
print("\n".join(default_rules_text(spec).splitlines()[:24]))

# %% [markdown]
# `load_rules` validates the file into a frozen dataclass tree; read any key as an
# attribute. Units: metres, seconds, points.

# %%
rules = load_rules(spec)
print("target score      :", rules.game.target_score, "points")
print("zone values       :", rules.zones.values, "points, innermost ring first")
print("zone radii        :", rules.zones.radii, "m")
print("sliding friction  :", rules.physics.friction)
print("pucks per player  :", rules.game.pucks_per_player)

# %% [markdown]
# **Overrides** change any dotted key without editing a file — exactly what
# `--set KEY=VALUE` does on the command line. They accept `"key=value"` strings (the
# value read as TOML) or `(key, value)` pairs. Bad input fails with one line per
# problem, naming the key and what is allowed.

# %%
from sim.core import ConfigError

bullseye = load_rules(spec, overrides=["zones.values=[150, 80, 40, 20]", ("game.target_score", 500)])
print("overridden zone values:", bullseye.zones.values)

try:
    load_rules(spec, overrides=["zones.colour=red", "game.target_score=lots"])
except ConfigError as error:
    print("\nrejected:\n" + str(error))

# %% [markdown]
# ## 2. Players, and a hundred matches in memory
#
# Skill is explicit: a profile holds execution noise (σ of the start position in m, of
# the aim in degrees, of the speed relative to it) and a planning budget (candidate
# shots × noisy outcomes simulated per candidate). Presets are just named profiles.

# %%
from sim.core import load_lineup, preset_names

print("presets:", preset_names(spec))
players = load_lineup(spec, ["club", "casual"], rules)
for player in players:
    print(player.name, player.profile)

# %% [markdown]
# A run is a list of **cells** (one variant × one line-up) and a number of matches.
# Match *i* of every cell is played from the same seeds (common random numbers), so
# variants can be compared match by match. With `rotate_seats=True` each seed is played
# under every rotation of the line-up, so nobody keeps the first-player advantage:
# 100 matches of a 2-player line-up = 50 seeds × 2 seatings. Each *player* draws its
# execution noise from its own random stream, which follows it from seat to seat; so the
# rotations of one seed are different matches even when every profile is the same (the
# cell after the run checks it), but they share the seed's other draws and are correlated:
# the analysis treats the matches of one seed as one cluster.
#
# `run_cells` returns the tables in memory (pass `store=ResultStore(dir)` to keep them
# on disk; `jobs=2` would use two worker processes and give the *same* tables).

# %%
import time

from sim.core import Cell, run_cells

cell = Cell(variant="baseline", lineup="club-vs-casual", rules=rules, players=players, rotate_seats=True)
started = time.perf_counter()
tables = run_cells(spec, [cell], matches=100, root_seed=7, jobs=1, progress=False)
print(f"played 100 matches in {time.perf_counter() - started:.1f} s")
assert tables["matches"]["seed"].nunique() == 50 and set(tables["matches"]["rotation"]) == {0, 1}
again = run_cells(spec, [cell], matches=10, root_seed=7, jobs=2, chunk_size=3, progress=False)
first10 = tables["players"][tables["players"]["match"] < 10].reset_index(drop=True)
assert again["players"].reset_index(drop=True).equals(first10)  # two workers: the same tables
{name: frame.shape for name, frame in tables.items()}

# %% [markdown]
# Identical profiles under rotation: do the two seatings of a seed replay one match? No —
# each player keeps its own stream, so the throws of the two seatings differ in every seed
# (here: two `club` players, 20 seeds); their final scores may still coincide by chance.

# %%
twins = load_lineup(spec, ["club", "club"], rules)
same = run_cells(
    spec,
    [Cell("baseline", "club-vs-club", rules, twins, rotate_seats=True)],
    matches=40,
    root_seed=7,
    jobs=1,
    progress=False,
)
match_throws = same["events"].groupby("match")["executed_x"].agg(tuple)  # every throw of a match, in order
seeds = same["matches"].set_index("match")["seed"]
throws_differ = match_throws.groupby(seeds.reindex(match_throws.index)).nunique() == 2
scores = (
    same["players"]
    .assign(rotation=same["players"]["match"] % 2)
    .pivot_table(index=["seed", "seat"], columns="rotation", values="score")
)
scores_differ = (scores[0] != scores[1]).groupby(level="seed").any()
print(
    f"seeds whose two seatings throw differently: {throws_differ.mean():.0%}; "
    f"end on different scores: {scores_differ.mean():.0%} of {len(throws_differ)}"
)
assert throws_differ.all()  # never the very same match

# %% [markdown]
# ## 3. The tidy tables
#
# Every game fills the same four tables, each keyed by `variant, lineup, match`:
#
# | table | one row per | key columns |
# |---|---|---|
# | `matches` | match | winner (seat), rounds, finished (False if a cap stopped it), seed, rotation |
# | `players` | match × seat | seat, slot (position in the line-up), profile, score, rank, won |
# | `rounds` | match × round × seat | points of the round, cumulative score |
# | `events` | game event (here: one throw) | free-form: shot family, executed aim, where the puck stopped |
#
# They are ordinary pandas DataFrames: filter, group and plot them as you like.

# %%
tables["matches"].head()

# %%
tables["players"].head(6)

# %%
tables["rounds"].head(6)

# %%
events = tables["events"]
events[["match", "round", "seat", "family", "executed_speed", "final_x", "final_y", "zone", "out"]].head()

# %% [markdown]
# A question answered straight from the tables: how often does each profile score, per
# throw, and where (the `zone` column is the points of the spot where the thrown puck
# stopped, 0 if it went out)?

# %%
throws = events.merge(tables["players"][["match", "seat", "profile"]], on=["match", "seat"])
throws.groupby("profile").agg(throws=("zone", "size"), mean_zone_points=("zone", "mean"), out_rate=("out", "mean"))

# %% [markdown]
# ## 4. Win rates with confidence intervals
#
# Every rate comes with its uncertainty. `win_rates` gives Wilson 95 % intervals per
# group; `seat_win_rates` gives *simultaneous* intervals over all seats of a line-up
# (Bonferroni–Clopper–Pearson: each seat's exact interval at level 1 − α/n, so they cover
# every seat at once with probability at least 95 %), computed on the effective sample
# size n/deff for the correlation between the two seatings of one seed (the
# `design_effect` column; 1 = as good as independent matches).

# %%
from analysis.winrates import seat_win_rates, win_rates

win_rates(tables["players"], "profile")

# %%
by_seat = seat_win_rates(tables["players"])
assert by_seat["method"].str.startswith("Bonferroni–Clopper–Pearson").all()
half_width = float(((by_seat["ci_high"] - by_seat["ci_low"]) / 2).mean())
assert 0.05 < half_width < 0.2, half_width  # "about ± 10 percentage points", checked below
by_seat[["lineup", "seat", "games", "wins", "win_rate", "ci_low", "ci_high", "design_effect", "method"]]

# %% [markdown]
# With 100 matches the intervals are wide (about ± 10 percentage points): enough to see
# a large skill gap, far too few to judge a seat advantage of a few points. That is
# what the intervals are for — they say how many matches a question needs.
#
# ## 5. An experiment file: baseline + one variant
#
# An experiment is a TOML file — the unit a designer keeps, shares and reruns. Here: the
# *bullseye-150* variant raises the centre ring from 100 to 150 points; the baseline
# plays to 500 points. Both are played on the same seeds, with seat rotation, by a club
# and a casual player. `matches` counts matches per variant and line-up (100 = 50 seeds
# × 2 seatings).

# %%
experiment_file = WORK / "bullseye.toml"
experiment_file.write_text("""
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
""")
print(experiment_file.read_text())

# %% [markdown]
# `load_experiment` validates the whole file (every variant's rules, every line-up)
# before anything runs; `run_experiment` plays every cell into a `ResultStore` — a
# directory with `manifest.json` (the experiment, every variant's full rules, seeds,
# versions) and one Parquet folder per table. Rerunning it resumes: stored chunks are
# skipped. This is what `tablesim experiment bullseye.toml --out DIR` does.

# %%
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
parts = {p: p.stat().st_mtime_ns for p in results_dir.glob("*/*.parquet")}
run_experiment(experiment, ResultStore(results_dir), jobs=1, progress=False)  # a rerun resumes...
assert {p: p.stat().st_mtime_ns for p in results_dir.glob("*/*.parquet")} == parts  # ...and plays nothing

# %% [markdown]
# ## 6. The analysis API: variant effects with paired CIs and corrected p-values
#
# `load_results` opens a results directory; `analyse` computes every table of the
# report in one pass. `analysis.effects` holds one row per line-up × variant × outcome:
# the baseline's and the variant's value, the **paired** difference (variant −
# baseline, match *i* against match *i*), its 95 % CI, the raw p-value and the p-value
# corrected for testing many outcomes at once (Holm). Win rates are in proportions,
# game length in rounds, scores in points.
#
# The effects are tests with the intervals that invert them (score tests for rates, paired
# t-tests clustered by seed for means), so an interval excludes 0 exactly when its p-value
# is below 0.05. `n_resamples` sets the bootstrap resamples of the report's other intervals
# (means of scores and lengths, design metrics); 500 keeps this notebook fast (the report's
# default is 2,000).

# %%
from analysis.analyse import analyse
from analysis.results import load_results

results = load_results(results_dir)
analysis = analyse(results, n_resamples=500, seed=0)
effects = analysis.effects
tested = effects[effects["test"] != "identical outcomes"]
assert (((tested["ci_low"] > 0) | (tested["ci_high"] < 0)) == (tested["p"] < 0.05)).all()
effects[["variant", "label", "unit", "base", "value", "effect", "ci_low", "ci_high", "p", "p_adjusted"]]

# %% [markdown]
# The same, as the report's plain sentences (`summary_sentences`): estimates with CIs,
# and for each variant its effects that stay significant after the correction.

# %%
from analysis.narrative import effect_sentence, summary_sentences

for sentence in summary_sentences(analysis):
    print("-", sentence)
print()
length = effects[effects["outcome"] == "rounds"].iloc[0]
print("game length:", effect_sentence(length))
assert length["effect"] < 0  # the bigger bullseye shortens the game (checked, as said below)

# %% [markdown]
# A bigger bullseye makes the target score reachable sooner, so games get shorter; with
# 100 matches per variant the CI says by how much. Whether the bigger bullseye helps the
# better player (the `club`'s win rate) or the first player is a much finer question:
# those CIs are wide, and the corrected p-values say whether anything is shown.
#
# ## 7. A plot
#
# The report's figures are plain matplotlib `Figure`s built by `analysis.plots`; here
# the forest plot of the continuous effects (each panel in its own unit, filled marker =
# significant after Holm).

# %%
from analysis import plots

figure = plots.effects_plot(effects, "club-vs-casual", kind="continuous")
display(figure)

# %% [markdown]
# ## 8. The HTML design report
#
# `build_report` (or `tablesim report DIR`) writes one self-contained HTML file —
# summary sentences, win rates, fairness verdict, effects, distributions, survival of
# game length, design metrics, the game's own metrics and plots, and how to reproduce
# the run. Open it in a browser or send it to the rest of the design team.

# %%
from analysis.report import build_report

report = build_report(results_dir, WORK / "bullseye-report.html", n_resamples=500)
print(report, f"{report.stat().st_size / 1e6:.1f} MB")

# %% [markdown]
# ## Takeaway
#
# * A rule change is one line (`set = { "zones.values" = [150, 80, 40, 20] }`) in an
#   experiment file; the baseline and the variant replay the same seeds, so their
#   difference is measured match by match.
# * Every number comes with its uncertainty: Wilson / simultaneous CIs for win rates,
#   paired CIs for effects, Holm-corrected p-values across outcomes. Small runs give
#   wide intervals — the answer is "play more matches", not "trust the point estimate".
# * The same four tables, the same analysis and the same report work for every game.
#   Next: the per-game notebooks (`curlastique`, `carrom`, `gasterospeed`) and
#   `balancing` (searching the zone values for design targets).

# %% [markdown]
# The temporary folder holds every file written above. It is removed below; set
# `KEEP = True` first to keep it and open the files.

# %%
cleanup(WORK, keep=False)  # keep=True keeps the folder and its files
