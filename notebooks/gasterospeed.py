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
# # Gastérospeed: deck and circuits as data, a replay, players, and a deck variant
#
# Gastérospeed is a snail race on a grid circuit. Every turn all players reveal a
# **speed card** at once (the highest number moves first, 1 or 2 squares), then may
# play an **action card** (a sprint, a leap, a shot at another snail, a domino wave
# along a row...). Shots and dominoes cost shell points; a snail that loses its last
# shell is **KO** for the race. **Reaction cards** cancel or return a loss. A
# championship is six races on circuits of increasing difficulty; arrivals score
# 9, 6, 4, 3, 2, 1 points, a KO snail 1 point.
#
# The publishers' rules name the mechanisms but print neither the card texts nor the
# circuit maps, so both are **data** in the rules file: every card is a deck entry
# composed of effect primitives, every circuit an ASCII map. This notebook:
#
# 1. reads the deck and the circuits as tables and maps;
# 2. replays a race turn by turn (the game's `replay`, as `tablesim replay`);
# 3. pits the simulated players against each other: tactician vs greedy vs random;
# 4. tests a deck variant — **10 Tir cards instead of 5** — and its effect on the KO rate.
#
# Units: squares, shells, cards, turns, points. Runs are small (about a minute in
# total) and seeded.

# %%
# %matplotlib inline

import time

import numpy as np
import pandas as pd
from _notebook import cleanup, workspace
from IPython.display import display
from matplotlib.figure import Figure

WORK = workspace("tablesim-gasterospeed-")  # every file this notebook writes goes here

# %% [markdown]
# ## 1. The deck as data
#
# Each `[deck.<id>]` entry of the rules is either a run of numbered speed cards, a
# number of identical action cards (resolution order 1–4, made of effect primitives:
# `move`, `shell`, `shoot`, `domino`), or reaction cards (`cancel` / `reflect`). A
# designer re-counts a card with `--set deck.tir.count=10`, or adds a new card with a
# new `[deck.<id>]` table.

# %%
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


deck = pd.DataFrame(
    [
        {
            "id": cid,
            "name": card.name,
            "kind": card.kind,
            "count": card.count,
            "numbers": f"{card.first}-{card.first + card.count - 1}" if card.kind == "speed" else "",
            "squares": card.squares if card.kind == "speed" else None,
            "order": card.order if card.kind == "action" else None,
            "effects": "; ".join(effect_text(e) for e in card.effects)
            or (card.counter if card.kind == "reaction" else ""),
        }
        for cid, card in rules.deck.items()
    ]
).set_index("id")
print(f"{deck['count'].sum()} cards:", deck.groupby("kind")["count"].sum().to_dict())
with pd.option_context("display.max_colwidth", 70):
    display(deck)

# %% [markdown]
# ## 2. The circuits as data
#
# A circuit is an ASCII map (`.` track, `S` start slots, `F` finish, `#` rail, `o`
# obstacle, `~` mud, `^ > v <` arrow squares) plus its shot table: the faces of the
# circuit's die on which a shot hits. The engine compiles each map into neighbour
# tables and a distance-to-finish field, so "forward" follows the track round bends.

# %%
from sim.gasterospeed.rules.circuit import INF, compile_circuit

circuits = {name: compile_circuit(rules.circuits[name], name) for name in rules.championship.circuits}
pd.DataFrame(
    [
        {
            "circuit": name,
            "title": c.title,
            "map (cols x rows)": f"{c.width} x {c.height}",
            "start slots": len(c.slots),
            "steps start -> finish": c.start_distance,
            "shot hits": f"{len(c.shot_hits)}/{c.die}",
            "P(hit)": len(c.shot_hits) / c.die,
            "reserve shells": c.reserve_shells,
            "obstacle damage": c.obstacle_damage,
        }
        for name, c in circuits.items()
    ]
).set_index("circuit")

# %%
left, right = circuits["stargot"].rows, circuits["virage_du_potager"].rows
width = max(len(r) for r in left) + 6
print(f"{'stargot':<{width}}virage_du_potager")
for i in range(max(len(left), len(right))):
    print(f"{left[i] if i < len(left) else '':<{width}}{right[i] if i < len(right) else ''}")

# %% [markdown]
# The distance field of the bend: steps to the finish from every square (8-neighbour
# steps honouring rails, obstacles and arrows). Snails, players and the rail rule all
# read "forward" from it.

# %%
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

# %% [markdown]
# ## 3. A race, turn by turn
#
# `spec.replay(rules, players, seeds)` tells the first race of a championship turn by
# turn with the map after every turn (`A`, `B`, `C` are the snails of seats 0, 1, 2).
# It is exactly the first race that `play_match` plays from the same seeds —
# `tablesim replay gasterospeed --seed 3 --players tactician,greedy,random` prints the
# same. The whole text is long; here are the first two turns and the end.

# %%
from sim.core import MatchSeeds, load_lineup

players = load_lineup(spec, ["tactician", "greedy", "random"], rules)
seeds = MatchSeeds(root=3, match=0)
story = spec.replay(rules, players, seeds).splitlines()
turn3 = next((i for i, line in enumerate(story) if line.startswith("=== Turn 3 ")), 60)
finish = next((i for i, line in enumerate(story) if line.startswith("Race over")), len(story) - 8)
print("\n".join(story[:turn3]))
print(f"[... {finish - 1 - turn3} lines ...]")
print("\n".join(story[finish - 1 :]))

# %% [markdown]
# The same race in the tables of `play_match` (its `rounds` table, round 1): same
# seeds, same race — the simulation is a pure function of (rules, line-up, seeds).

# %%
log = spec.play_match(rules, players, seeds)
race1 = pd.DataFrame(log.rounds).query("round == 1")
race1.assign(profile=[players[s].name for s in race1["seat"]])[
    ["seat", "profile", "circuit", "arrival", "points", "shells_left", "ko", "turns", "capped"]
]

# %% [markdown]
# ## 4. Tactician vs greedy vs random
#
# Three of the presets: `random` (uniform over legal options), `greedy` (the option that
# leaves its own snail closest to the finish now) and `tactician` (plans from what it
# can infer: blocks, shoots the leaders, keeps reactions). 60 championships, each seed
# under the 3 rotations of the seats (20 seeds × 3).

# %%
from analysis.skill import profile_matrix
from analysis.winrates import profile_win_rates
from sim.core import Cell, run_cells

cell = Cell("baseline", "tactician-greedy-random", rules, players, rotate_seats=True)
started = time.perf_counter()
trio = run_cells(spec, [cell], matches=60, root_seed=11, jobs=1, progress=False)
print(f"60 championships ({60 * len(rules.championship.circuits)} races) in {time.perf_counter() - started:.1f} s")
profile_win_rates(trio["players"])[["profile", "games", "wins", "win_rate", "ci_low", "ci_high"]]

# %% [markdown]
# Head to head: the probability that the row profile finishes a championship ahead of
# the column profile (ties count half), with its 95 % CI and the equivalent Elo gap.

# %%
matrix = profile_matrix(trio["players"])
matrix[[c for c in matrix.columns if c not in ("variant", "lineup")]]

# %% [markdown]
# Race by race: mean points per race of each profile on each circuit, and the game's
# own metrics. A snail that wanders rather than races makes a race long (random players'
# races run hundreds of turns); the turn cap (`race.turn_cap`, 5000 turns) sits far above
# the longest race measured, and `turn_capped_rate` counts the races it stopped. The win rates above do not
# add up to 1: a championship tied on points *and* race wins has no champion
# (`championship_tie_rate`).

# %%
races = trio["rounds"].merge(trio["players"][["match", "seat", "profile"]], on=["match", "seat"])
display(races.pivot_table(index="circuit", columns="profile", values="points", aggfunc="mean", sort=False).round(2))
metrics = spec.summary(trio)
pd.Series(
    {
        k: v
        for k, v in metrics.items()
        if k in ("race_turns", "turn_capped_rate", "ko_rate", "championship_tie_rate") or k.startswith("race_win_rate")
    }
).to_frame("value")

# %% [markdown]
# ## 5. A deck variant: 10 Tir cards instead of 5
#
# More shots should knock out more snails — but by how much, and does it change who
# wins? The experiment: four tacticians (an even table, so that only the deck
# differs), the baseline deck against `deck.tir.count = 10` (85 cards). No seat
# rotation: with four identical players every rotation of a seed would replay the same
# championship (each seat's choices come from its own random stream). `matches = 48`
# distinct seeds per variant, i.e. 288 races of 4 snails each.

# %%
from sim.core import ResultStore
from sim.core.experiment import load_experiment, run_experiment

experiment_file = WORK / "tir.toml"
experiment_file.write_text("""
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
""")
experiment = load_experiment(experiment_file)
results_dir = WORK / "tir-results"
started = time.perf_counter()
run_experiment(experiment, ResultStore(results_dir), jobs=1, progress=False)
print(
    f"{len(experiment.cells)} cells x {experiment.settings.matches} championships "
    f"in {time.perf_counter() - started:.1f} s"
)

# %% [markdown]
# **The KO-rate effect.** The KO rate of a championship is its KO snails over its
# snail-races (6 races × 4 snails = 24). Championship *i* of the variant replays the
# seeds of championship *i* of the baseline, so the effect is the mean paired
# difference, with a paired t interval and t-test clustered by seed (one test behind both:
# the interval excludes 0 exactly when p < 0.05) — the method of the report's effects
# table, applied to an outcome of this game (`analysis.effects.paired_mean_effect`).

# %%
from analysis.effects import paired_mean_effect
from analysis.results import load_results

tables = load_results(results_dir).tables
per_match = (
    tables["rounds"]
    .groupby(["variant", "match"])
    .agg(ko=("snails_ko", "sum"), snail_races=("seat", "size"))
    .reset_index()
)
per_match["ko_rate"] = per_match["ko"] / per_match["snail_races"]
per_match = per_match.merge(tables["matches"][["variant", "match", "seed"]], on=["variant", "match"])
wide = per_match.pivot(index=["match", "seed"], columns="variant", values="ko_rate").reset_index()
ko = paired_mean_effect(wide["tir-10"], wide["baseline"], clusters=wide["seed"], n_resamples=2000, rng=0)
print(f"KO rate per snail-race: baseline {ko['base_mean']:.3f}, tir-10 {ko['variant_mean']:.3f}")
print(
    f"effect (tir-10 - baseline): {ko['effect']:+.3f} [{ko['ci_low']:+.3f}, {ko['ci_high']:+.3f}] "
    f"(95 % CI; {ko['test']}; p = {ko['p']:.2g}; {ko['n']} paired championships)"
)
assert ko["test"].startswith("paired t")  # the method the text names
assert (ko["ci_low"] > 0 or ko["ci_high"] < 0) == (ko["p"] < 0.05)

# %% [markdown]
# The game's own metrics per variant (`analysis.game_metrics`): KO rate overall and by
# circuit, how often a Tir is played per snail-race, and the win rate of the players
# who played one.

# %%
from analysis.analyse import analyse

analysis = analyse(load_results(results_dir), n_resamples=500, seed=0)
gm = analysis.game_metrics
gm.loc[
    [
        k
        for k in gm.index
        if k.startswith(("ko_rate", "card_play_rate.tir", "card_win_rate.tir", "race_turns", "turn_capped"))
    ]
]

# %%
circuits_order = list(rules.championship.circuits)
rates = gm.loc[[f"ko_rate.{c}" for c in circuits_order]]
figure = Figure(figsize=(8, 3.8), layout="constrained")
ax = figure.add_subplot()
x = np.arange(len(circuits_order))
for i, column in enumerate(rates.columns):
    ax.bar(
        x + (i - 0.5) * 0.38,
        100 * rates[column].to_numpy(),
        0.38,
        label=column.split(" / ")[0],
        color=["#0072B2", "#D55E00"][i],
    )
ax.set_xticks(x, [c.replace("_", " ") for c in circuits_order], rotation=20)
ax.set_ylabel("KO snails (% of snail-races)")
ax.set_title("KO rate by circuit, 4 tacticians")
ax.legend()
display(figure)

# %% [markdown]
# And the standard outcomes (seat win rates, championship length in races, scores),
# paired and Holm-corrected, in the report's sentences:

# %%
from analysis.narrative import summary_sentences

for sentence in summary_sentences(analysis):
    print("-", sentence)

# %% [markdown]
# ## Takeaway
#
# * Cards and circuits are rules data: a new card is a TOML table made of effect
#   primitives, a new circuit an ASCII map; `--set deck.tir.count=10` is a deck
#   variant. The replay shows a race exactly as the batch runs play it.
# * The simulated players are ordered (tactician > greedy > random) with CIs, which is
#   what makes them usable as playtesters for rule questions.
# * A deck change is measured as a paired effect on common seeds: doubling the Tir
#   cards' count changes the KO rate by the amount and CI printed above. Whether that
#   is *good* is the designer's call; the toolkit makes it a number with an
#   uncertainty rather than a hunch.

# %% [markdown]
# The temporary folder holds every file written above. It is removed below; set
# `KEEP = True` first to keep it and open the files.

# %%
cleanup(WORK, keep=False)  # keep=True keeps the folder and its files
