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
# # Curlastique: shots, skill and a zone-value variant
#
# Curlastique is a table game of flicked pucks: each player in turn launches one of
# their 5 pucks with an elastic from the near end of a 0.5 m × 1 m board towards a
# target of four rings (100, 80, 40, 20 points, innermost first). Pucks knock each other
# around; a puck touching the rim, a corner piece, a peg or the elastic is out for the
# round. After everyone has thrown, pucks still on the board score their ring; the first
# to 500 points wins.
#
# The simulator plays it with real physics (sliding friction, restitution, exact
# contact times) and simulated players whose skill is explicit: execution noise plus a
# planning budget. This notebook:
#
# 1. reads the rules and draws the board;
# 2. plays single shots with the shot function of `tablesim shot curlastique`;
# 3. compares the skill presets — where their throws land, and expert vs novice matches;
# 4. runs a small experiment: the **bullseye-150** variant (`zones.values = [150, 80, 40, 20]`)
#    against the baseline, with paired effects;
# 5. looks at where pucks stop, through the game's own plots hook.
#
# Units: metres, seconds, m/s, degrees, points. Runs are small (about a minute in total)
# and seeded.

# %%
# %matplotlib inline

import time

import numpy as np
import pandas as pd
from _notebook import cleanup, workspace
from IPython.display import Image, display
from matplotlib.figure import Figure

WORK = workspace("tablesim-curlastique-")  # every file this notebook writes goes here

# %% [markdown]
# ## 1. The rules and the board
#
# The default rules are a commented TOML file; every number a designer may balance is a
# key. Here are the ones that shape the target and the throw.

# %%
from sim.core import get_game, load_rules, to_dict

spec = get_game("curlastique")
rules = load_rules(spec)
g = rules.game
print(
    f"{g.pucks_per_player} pucks each, first to {g.target_score} points (cap: {g.max_rounds} rounds), teams: {g.teams}"
)
pd.DataFrame(
    {"ring": ["bullseye", "2nd", "3rd", "outer"], "points": rules.zones.values, "outer radius (m)": rules.zones.radii}
)

# %%
pd.Series(
    {
        "board width (m)": rules.board.width,
        "board length (m)": rules.board.length,
        "target centre from the near rim (m)": rules.zones.centre_y,
        "elastic from the near rim (m)": rules.board.elastic_y,
        "puck diameter (m)": rules.puck.diameter,
        "puck mass (kg)": rules.puck.mass,
        "sliding friction μ": rules.physics.friction,
        "puck–puck restitution": rules.physics.restitution,
        "fastest launch (m/s)": rules.max_speed,
    }
).to_frame("value")

# %%
from sim.curlastique.show.plot import draw_board

figure = Figure(figsize=(3.6, 6.5), layout="constrained")
draw_board(figure.add_subplot(), rules)
figure.axes[0].set_title("the board (ring values in points)", fontsize=10)
display(figure)

# %% [markdown]
# ## 2. One shot, as `tablesim shot` plays it
#
# `spec.shot(rules, x, angle_deg, speed, state)` simulates one throw without any
# execution noise: start `x` m off the axis, aimed `angle_deg` from straight ahead, at
# `speed` m/s. Under Coulomb friction a lone puck slides v² / (2 μ g); at
# 1.38 m/s that is 1.38² / (2 × 0.15 × 9.81) ≈ 0.65 m, which brings it from the elastic
# to the centre of the target. (The command-line equivalent is
# `tablesim shot curlastique --speed 1.38 --plot shot.png`.)

# %%
draw = spec.shot(rules, x=0.0, angle_deg=0.0, speed=1.38, state=None)
print(draw.text())
draw.plot(WORK / "draw.png")
display(Image(filename=str(WORK / "draw.png"), width=300))

# %% [markdown]
# A **takeout**: an opponent (seat 1) sits on the bullseye, with a second puck short of
# the target. The board's state is a small TOML file (the same as
# `tablesim shot curlastique --state FILE`). Thrown at 1.8 m/s straight up the axis,
# our puck hits the bullseye puck head-on, sends it into the far rim (out) and stays
# near the centre.

# %%
state = WORK / "takeout.toml"
state.write_text("""
thrower = 0          # seat of the thrown puck

[[pucks]]            # the opponent's puck on the bullseye
owner = 1
x = 0.0
y = 0.75

[[pucks]]            # and one short of the target
owner = 1
x = 0.05
y = 0.62
""")
takeout = spec.shot(rules, x=0.0, angle_deg=0.0, speed=1.8, state=str(state))
print(takeout.text())
takeout.plot(WORK / "takeout.png")
display(Image(filename=str(WORK / "takeout.png"), width=300))

# %% [markdown]
# The outcome is also data (`as_dict()`: every puck's start and end, the events with
# their exact times in s and positions in m, the points per seat), e.g. the events:

# %%
pd.DataFrame(takeout.as_dict()["events"])

# %% [markdown]
# ## 3. Skill presets
#
# A profile is a handful of numbers: σ of the start position (m), of the aim (degrees),
# of the launch speed (relative), and how many candidate shots the planner evaluates ×
# how many noisy outcomes of each it simulates. Presets are just named profiles; a
# designer can write their own in a TOML file (`base = "club"` plus the keys to change).

# %%
from sim.core import load_profile, preset_names

presets = {name: to_dict(load_profile(spec, name).profile) for name in preset_names(spec)}
pd.DataFrame(presets).T.drop(columns="families")

# %% [markdown]
# **What the noise means on the board.** Each preset tries the same draw to the centre
# (x = 0, straight, 1.38 m/s) 400 times; its own noise perturbs each throw and the
# physics says where it stops. Points are the ring each throw would score on an empty
# board.

# %%
from sim.curlastique.players.policies import make_policy
from sim.curlastique.rules.board import simulate_throws
from sim.curlastique.rules.scoring import scorer
from sim.curlastique.show.plot import SEAT_COLOURS

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
    rows.append(
        {
            "preset": name,
            "mean points per throw": points.mean(),
            "bullseye share": (points == rules.zones.values[0]).mean(),
            "out share": 1 - alive.mean(),
            "SD across (mm)": 1000 * stop[alive, 0].std(),
            "SD along (mm)": 1000 * stop[alive, 1].std(),
        }
    )
pd.DataFrame(rows).set_index("preset")

# %%
figure = Figure(figsize=(8, 4.2), layout="constrained")
for ax, name in zip(figure.subplots(1, 2), ["expert", "novice"]):
    draw_board(ax, rules)
    ax.scatter(*clouds[name].T, s=4, alpha=0.5, color=SEAT_COLOURS[1], linewidths=0)
    ax.set_xlim(-0.25, 0.25)
    ax.set_ylim(0.45, 1.0)
    ax.set_title(f"{name}: 400 draws to the centre", fontsize=10)
display(figure)

# %% [markdown]
# The spread along the board is larger than across it: a relative speed error σ_v
# moves the stopping point by about 2 × 0.65 m × σ_v (the slide grows with the speed
# squared), while an aim error σ_θ (in radians) moves it sideways by about 0.65 m × σ_θ.
#
# **Expert vs novice in real matches.** Two players, each seed played with both
# seatings (`rotate_seats=True`) so that the first-player advantage cancels out:
# 40 matches = 20 seeds × 2.

# %%
from analysis.skill import skill_share
from analysis.winrates import profile_win_rates
from sim.core import Cell, load_lineup, run_cells

duel = Cell("baseline", "expert-vs-novice", rules, load_lineup(spec, ["expert", "novice"], rules), rotate_seats=True)
started = time.perf_counter()
duel_tables = run_cells(spec, [duel], matches=40, root_seed=3, jobs=1, progress=False)
print(f"40 matches in {time.perf_counter() - started:.1f} s")
profile_win_rates(duel_tables["players"])[["profile", "games", "wins", "win_rate", "ci_low", "ci_high"]]

# %% [markdown]
# The **skill share** rescales the stronger profile's win rate so that 0 = pure luck
# (it wins 1/2, as identical players would) and 1 = it always wins; its CI is the win
# rate's, mapped. The game's own `summary` hook adds Curlastique-specific metrics, e.g.
# the points scored per puck thrown by each profile and the mix of shot families the
# planners chose.

# %%
share = skill_share(duel_tables["players"])
display(share[["profile", "win_rate", "share", "share_low", "share_high"]])
metrics = spec.summary(duel_tables)
pd.Series(
    {key: value for key, value in metrics.items() if key.startswith(("points_per_throw", "shot_share", "out_rate"))}
).to_frame("value")

# %% [markdown]
# ## 4. An experiment: bullseye-150 against the baseline
#
# Does a more valuable bullseye change who wins, and how long games last? The
# experiment below is the example experiment of docs/design.md — four club players, a
# baseline to 500 points and one variant — with one change: no seat rotation. Each seat
# draws its execution noise from its own random stream, so with four *identical*
# profiles every rotation of a seed replays exactly the same match; rotation only pays
# with mixed line-ups. `matches = 64` distinct seeds per variant is a smoke test of the
# question; a real study would use thousands (`tablesim experiment FILE --jobs 4`).

# %%
from sim.core import ResultStore
from sim.core.experiment import load_experiment, run_experiment

experiment_file = WORK / "bullseye.toml"
experiment_file.write_text("""
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
""")
experiment = load_experiment(experiment_file)
results_dir = WORK / "bullseye-results"
started = time.perf_counter()
run_experiment(experiment, ResultStore(results_dir), jobs=1, progress=False)
print(f"{len(experiment.cells)} cells x {experiment.settings.matches} matches in {time.perf_counter() - started:.1f} s")

# %% [markdown]
# `analyse` pairs match *i* of the variant with match *i* of the baseline (same seeds,
# same seating) and reports each effect as variant − baseline with a 95 % CI and a
# Holm-corrected p-value. Win-rate effects are differences of proportions (0.05 = 5
# percentage points); lengths are in rounds, scores in points.

# %%
from analysis.analyse import analyse
from analysis.results import load_results

analysis = analyse(load_results(results_dir), n_resamples=500, seed=0)
analysis.effects[["label", "unit", "base", "value", "effect", "ci_low", "ci_high", "p_adjusted"]]

# %%
from analysis import plots

display(plots.seat_win_rates_plot(analysis.seat_rates, "club-4p", ["baseline", "bullseye-150"], band=0.02))
display(plots.effects_plot(analysis.effects, "club-4p", kind="continuous"))

# %% [markdown]
# The same in plain sentences (effects are stated only when significant after Holm):

# %%
from analysis.narrative import summary_sentences

for sentence in summary_sentences(analysis):
    print("-", sentence)

# %% [markdown]
# The game's own metrics side by side (`analysis.game_metrics` comes from the same
# `summary` hook as above, one column per variant / line-up). Does the planner change
# which shots it plays when the bullseye is worth more?

# %%
gm = analysis.game_metrics
gm.loc[[m for m in gm.index if not m.startswith(("win_rate", "points_per_throw"))]]

# %% [markdown]
# ## 5. Where pucks stop: the game's plots hook
#
# A game may provide its own figures for reports (`GameSpec.plots`); Curlastique draws
# where every thrown puck came to rest (those still in play after their throw). The
# hook is called on a cell's tables — here the baseline's and the variant's separately,
# selected with `analysis.hooks.cell_tables`. (The hook draws the default rings, so the
# variant's bullseye is labelled 100 although it scores 150 there.)

# %%
from analysis.hooks import cell_tables

tables = load_results(results_dir).tables
for variant in ["baseline", "bullseye-150"]:
    for title, figure in spec.plots(cell_tables(tables, variant, "club-4p")):
        figure.axes[0].set_title(f"{variant}: {title.lower()}", fontsize=9)
        display(figure)

# %% [markdown]
# The same question as numbers: the share of throws ending in each ring (by the
# distance of the puck's centre from the target's centre) or out of play.

# %%
events = tables["events"]
distance = np.hypot(events["final_x"], events["final_y"] - rules.zones.centre_y)
ring = pd.cut(distance, [0, *rules.zones.radii, np.inf], labels=["bullseye", "2nd", "3rd", "outer", "beyond"]).astype(
    str
)
landed = events.assign(ring=np.where(events["out"].astype(bool), "out", ring))
pd.crosstab(landed["variant"], landed["ring"], normalize="index")[
    ["bullseye", "2nd", "3rd", "outer", "beyond", "out"]
].round(3)

# %% [markdown]
# ## Takeaway
#
# * Single shots are deterministic physics: `spec.shot` shows exactly what a throw does
#   (and `tablesim shot` draws it). Skill lives in the noise added to the intended
#   shot, so presets differ visibly in where their draws land, and decisively in
#   matches.
# * A zone-value change is one line of an experiment file. Paired with the baseline's
#   seeds, a few dozen matches per variant already measure large effects (scores,
#   game length) with honest CIs; seat-advantage questions need thousands of matches
#   (the fairness sentence says roughly how many).
# * To *choose* zone values for design targets (a fair first seat, a median game of
#   4–7 rounds), see `balancing.ipynb`.

# %% [markdown]
# The temporary folder holds every file written above. It is removed below; set
# `KEEP = True` first to keep it and open the files.

# %%
cleanup(WORK, keep=False)  # keep=True keeps the folder and its files
