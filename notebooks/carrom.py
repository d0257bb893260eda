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
# # Carrom: the ICF board, family vs ICF rules, queen and fouls, solo practice
#
# Carrom is played on a square board with a pocket in each corner: each player flicks a
# heavier **striker** from their base line at 9 white and 9 black coins and the red
# **queen**. Singles: one side pockets the whites, the other the blacks; the queen must
# be *covered* (an own coin pocketed right after it); the board's winner scores the
# opponent's coins left (plus 3 for a covered queen, while below 22 points), at most 12
# a board; first to 25 points or the leader after 8 boards wins.
#
# tablesim ships two rule sets: `family` (the French family sheet) and `icf` (the
# International Carrom Federation's Laws, 1993), and every difference between them is
# one switch a designer can flip on its own. This notebook:
#
# 1. reads the ICF equipment and the rule switches;
# 2. plays the break with the shot function of `tablesim shot carrom` and draws it;
# 3. compares `family` and `icf` as two variants of one experiment;
# 4. reads the queen and foul metrics from the game's own summary;
# 5. measures shot-making alone: strokes to clear a board in solo practice, per preset.
#
# Units: metres, m/s, degrees, points, strokes. All runs are small (about a minute in
# total) and seeded.

# %%
# %matplotlib inline

import dataclasses
import time

import numpy as np
import pandas as pd
from _notebook import cleanup, workspace
from IPython.display import Image, display
from matplotlib.figure import Figure

WORK = workspace("tablesim-carrom-")  # every file this notebook writes goes here

# %% [markdown]
# ## 1. The ICF board and the rule switches
#
# The defaults of `[board]`, `[coins]` and `[striker]` are the ICF equipment sizes; the
# friction and restitutions are our documented defaults (no published carrom
# measurements exist), to be calibrated.

# %%
from sim.core import get_game, load_rules

spec = get_game("carrom")
rules = load_rules(spec)
b = rules.board
pd.Series(
    {
        "playing surface side (m)": b.side,
        "pocket diameter (m)": b.pocket_diameter,
        "base line from the cushion (m)": b.baseline_offset,
        "coin diameter (m)": rules.coins.diameter,
        "coin mass (kg)": rules.coins.mass,
        "striker diameter (m)": rules.striker.diameter,
        "striker mass (kg)": rules.striker.mass,
        "hardest flick (m/s)": rules.striker.max_speed,
        "sliding friction μ": rules.physics.friction,
        "target (points)": rules.game.target_points,
        "boards at most": rules.game.max_boards,
    }
).to_frame("value")

# %% [markdown]
# `ruleset = "family"` or `"icf"` sets every switch of `[rules]` left at `"auto"`;
# writing `true` or `false` for one switch overrides it whatever the rule set (e.g.
# `--set ruleset=icf --set rules.dues=false`). The effective values are
# `rules.switches`:

# %%
from sim.carrom.rules.schema import SWITCHES

icf_rules = load_rules(spec, overrides=["ruleset=icf"])
family, icf = dataclasses.asdict(rules.switches), dataclasses.asdict(icf_rules.switches)
switches = pd.DataFrame(
    {"family": family, "icf": icf, "meaning": {name: doc for name, (_, _, doc) in SWITCHES.items()}}
)
with pd.option_context("display.max_colwidth", 90):
    display(switches)

# %% [markdown]
# ## 2. The break
#
# `spec.shot(rules, x, angle_deg, speed)` plays one stroke of seat 0 from the break
# formation (queen in the centre, 6 coins around it, 12 around those): the striker at
# `x` m along the base line, aimed `angle_deg` anticlockwise from straight ahead, at
# `speed` m/s — no execution noise. The drawing shows each disc's path (dotted circle:
# where it started). Command line: `tablesim shot carrom --speed 4 --plot break.png`.

# %%
straight = spec.shot(rules, x=0.0, angle_deg=0.0, speed=4.0)
print(straight.text())
straight.plot(WORK / "break.png")
display(Image(filename=str(WORK / "break.png"), width=420))

# %% [markdown]
# A break 1.5° to the right and a little harder sinks a white. The outcome is also data:
# every disc's start, end and status, and every contact with its time.

# %%
angled = spec.shot(rules, x=0.0, angle_deg=-1.5, speed=4.5)
print(angled.text())
angled.plot(WORK / "break-angled.png")
display(Image(filename=str(WORK / "break-angled.png"), width=420))
outcome = angled.as_dict()
print(pd.DataFrame(outcome["events"])["kind"].value_counts().to_dict())
pd.DataFrame(outcome["discs"]).query("status != 'rest'")

# %% [markdown]
# ## 3. Family vs ICF as two variants
#
# The two rule sets are two variants of one experiment: the ICF laws are the variant,
# the family sheet the baseline. The line-up is a club player against a casual one,
# each seed played with both seatings (`rotate_seats = true`); `matches = 30` per
# variant is 15 seeds × 2 — enough to see large differences in how boards unfold, not
# small ones in who wins.

# %%
from sim.core import ResultStore
from sim.core.experiment import load_experiment, run_experiment

experiment_file = WORK / "rulesets.toml"
experiment_file.write_text("""
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
""")
experiment = load_experiment(experiment_file)
results_dir = WORK / "rulesets-results"
started = time.perf_counter()
run_experiment(experiment, ResultStore(results_dir), jobs=1, progress=False)
print(f"{len(experiment.cells)} cells x {experiment.settings.matches} matches in {time.perf_counter() - started:.1f} s")

# %% [markdown]
# Paired effects (ICF − family, match *i* against match *i*) with 95 % CIs and
# Holm-corrected p-values. In carrom a "round" is a **board**, so the game length is in
# boards; scores are in points; win rates are proportions.

# %%
from analysis.analyse import analyse
from analysis.results import load_results

analysis = analyse(load_results(results_dir), n_resamples=500, seed=0)
analysis.effects[["label", "unit", "base", "value", "effect", "ci_low", "ci_high", "p_adjusted"]]

# %%
from analysis.narrative import summary_sentences

for sentence in summary_sentences(analysis):
    print("-", sentence)

# %% [markdown]
# The skill gap between a club and a casual player decides who wins under either rule
# set (see the skill-share sentence), so the win-rate effects are nil here; what the
# rule set changes is how boards unfold.
#
# ## 4. Queen and fouls: the game's own summary
#
# Carrom's `summary` hook computes board-level metrics from the tables: the share of
# boards where the queen was pocketed, covered, or came back; fouls per board;
# strokes per board; and the **break advantage** — how
# often the breaker's side wins a board it breaks — with its 95 % Wilson CI.
# `analysis.game_metrics` holds it per variant.

# %%
gm = analysis.game_metrics
keys = [
    "boards_per_game",
    "strokes_per_board",
    "points_per_board",
    "queen_pocketed_rate",
    "queen_covered_rate",
    "queen_returned_rate",
    "fouls_per_board",
    "break_advantage",
    "break_advantage_ci_low",
    "break_advantage_ci_high",
    "stuck_board_rate",
    "draw_rate",
]
gm.loc[[k for k in keys if k in gm.index]]

# %% [markdown]
# Strokes per board differ between the rule sets more than anything in the effects
# table. That is not one of the standard outcomes, but any per-match quantity can be
# compared the same way: pair match *i* of the variant with match *i* of the baseline
# and take the mean paired difference with a paired t interval and test clustered by seed
# (the matches of one seed, its rotations, are one cluster; `analysis.effects.paired_mean_effect`,
# the function behind the effects table; the interval inverts the very test beside it).

# %%
from analysis.effects import paired_mean_effect

per_match = load_results(results_dir).tables["matches"]
per_match = per_match.assign(strokes_per_board=per_match["strokes"] / per_match["rounds"])
wide = per_match.pivot(index=["match", "seed"], columns="variant", values="strokes_per_board").reset_index()
effect = paired_mean_effect(wide["icf"], wide["baseline"], clusters=wide["seed"], n_resamples=2000, rng=0)
print(
    f"strokes per board: family {effect['base_mean']:.1f}, ICF {effect['variant_mean']:.1f}; "
    f"ICF - family = {effect['effect']:+.1f} strokes [{effect['ci_low']:+.1f}, {effect['ci_high']:+.1f}] "
    f"(95 % CI, {effect['test']}; p = {effect['p']:.2g}, {effect['n']} pairs)"
)
assert effect["test"].startswith("paired t")  # the method the text names
assert (effect["ci_low"] > 0 or effect["ci_high"] < 0) == (effect["p"] < 0.05)  # one test behind both

# %% [markdown]
# The same counts straight from the tables: per stroke, `events` records the foul (an
# empty string if none) and the queen's fate (`queen_event`). Which fouls and queen
# events does each rule set produce, per 100 strokes?

# %%
tables = load_results(results_dir).tables
strokes = tables["events"]


def per_100(column):
    """Strokes of each kind per 100 strokes, by variant."""
    return pd.crosstab(strokes["variant"], strokes[column]).div(strokes.groupby("variant").size(), axis=0) * 100


display(per_100("foul").drop(columns="", errors="ignore").round(2))
per_100("queen_event").drop(columns="", errors="ignore").round(2)

# %% [markdown]
# The game's plots hook draws where coins go down (pockets named from the shooter's
# seat) and the distribution of strokes per board, over both variants:

# %%
for title, figure in spec.plots(tables):
    display(figure)

# %% [markdown]
# ## 5. Solo practice: strokes to clear a board
#
# Matches mix shot-making with tactics and luck. Solo practice isolates shot-making: one
# player clears all 19 coins (queen included, no cover, no dues) from the break
# formation; fewer strokes = better shots. Board *i* uses the same seeds for every
# preset (common random numbers). 10 boards per preset here; the module's command line
# (`python benchmarks/carrom_practice.py --boards 40`) prints the same table for more.

# %%
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
    return pd.Series({"boards": len(strokes), "mean strokes": strokes.mean(), "ci_low": low, "ci_high": high})


table = practice.groupby("profile", sort=False)["strokes"].apply(t_interval).unstack()
table["cleared"] = practice.groupby("profile", sort=False)["cleared"].mean()
table["striker pocketed per board"] = practice.groupby("profile", sort=False)["striker_pocketed"].mean()
table

# %%
figure = Figure(figsize=(7, 3.6), layout="constrained")
ax = figure.add_subplot()
ax.errorbar(
    range(len(table)),
    table["mean strokes"],
    yerr=[table["mean strokes"] - table["ci_low"], table["ci_high"] - table["mean strokes"]],
    fmt="o",
    capsize=5,
    color="#0072B2",
    label="mean, 95 % t CI",
)
for i, name in enumerate(table.index):
    ax.scatter(
        np.full(10, i) + np.linspace(-0.12, 0.12, 10),
        practice.loc[practice["profile"] == name, "strokes"],
        s=10,
        color="0.6",
    )
ax.set_xticks(range(len(table)), table.index)
ax.set_ylabel("strokes to clear the board")
ax.set_title("Solo practice: 10 boards per preset (grey: each board)")
ax.legend()
display(figure)

# %% [markdown]
# ## Takeaway
#
# * The board, the discs and the physics are data (ICF sizes by default); `spec.shot`
#   shows exactly what one stroke does, deterministically.
# * "Which rules?" is an experiment like any other: `family` vs `icf` (or a single
#   switch, e.g. `rules.dues = false`) as variants on common seeds, compared match by
#   match with paired CIs. The queen and foul metrics of the game's own summary explain
#   *why* boards differ.
# * Solo practice separates shot-making from tactics: the presets are ordered by
#   strokes to clear a board, which is how their noise levels were calibrated.

# %% [markdown]
# The temporary folder holds every file written above. It is removed below; set
# `KEEP = True` first to keep it and open the files.

# %%
cleanup(WORK, keep=False)  # keep=True keeps the folder and its files
