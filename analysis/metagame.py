"""The profile matrix: every pair of profiles head to head, and what the meta-game looks like.

A results directory of ``tablesim matrix`` holds one two-player line-up per unordered pair of
profiles, all played on the same seeds with the seats rotated. From it:

* **Win matrix** P[i, j]: the share of i's matches against j that i won (a draw counts half),
  with the seed-clustered Wilson interval (:func:`analysis.skill.profile_matrix`).
* **Bradley–Terry ratings with a seat term**: logit P(the first seat wins) = r_first − r_second
  + h, fitted by logistic regression on every decided match (draws left out) with standard
  errors clustered by seed; ratings centred to mean 0, with 95 % intervals, on the logit scale
  and as Elo points (× 400 / ln 10). h is the first seat's advantage.
* **Nash equilibrium** of the symmetric zero-sum meta-game with payoff P − Pᵀ (each player picks
  a profile, the payoff is the win-rate edge): the linear programme's mixture and its support,
  the profiles a designer cannot ignore (Balduzzi et al. 2018, "Re-evaluating evaluation").
* **α-Rank** (Omidshafiei et al. 2019): the stationary distribution of the single-population
  evolutionary dynamics over the profiles, fitness the win probability, a population of
  ``population`` players and selection intensity ``alpha``.
* **Cyclic share**: the logit matrix A = logit P splits into a transitive part, r_i − r_j with
  r_i the row means of A (the least-squares potential on the complete graph), and a cyclic
  remainder (the combinatorial Hodge decomposition, as in Czarnecki et al. 2020, "Real world
  games look like spinning tops"). The cyclic share ||A − T||² / ||A||² is 0 for a purely
  transitive game (one strength per profile) and 1 for rock-paper-scissors.

Intervals of the Nash weights, the α-Rank masses and the cyclic share come from a bootstrap over
seeds: every pair was played on the same seeds, so one draw of seeds resamples every cell of the
matrix at once, keeping their correlation. The Nash and α-Rank intervals are percentile
intervals; the cyclic share's is the basic (reflected) one, as the share is biased upwards by
the noise of every cell.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from scipy.optimize import linprog

from sim.core.estimators import clustered_wilson

__all__ = [
    "MetaGame",
    "ELO",
    "pair_scores",
    "win_matrix",
    "bradley_terry",
    "nash",
    "alpha_rank",
    "cyclic_share",
    "metagame",
    "metagame_sentences",
    "metagame_sections",
    "heat_map",
]

#: Elo points per logit.
ELO = 400.0 / math.log(10.0)
#: Win probabilities are clipped to [CLIP, 1 − CLIP] before the logit of the cyclic share.
CLIP = 0.005


def pair_scores(
    tables: Mapping[str, pd.DataFrame], lineups: Mapping[str, Sequence[str]], profiles: Sequence[str]
) -> pd.DataFrame:
    """One row per match of a pair line-up: ``seed``, ``i``, ``j`` (profile indices of the first
    and second seat), ``score`` (1 the first seat won, 0 the second, 0.5 neither)."""
    players, matches = tables["players"], tables["matches"]
    index = {name: k for k, name in enumerate(profiles)}
    rows = players[players["lineup"].isin(list(lineups))]
    first = rows[rows["seat"] == 0][["lineup", "match", "slot", "won"]]
    second = rows[rows["seat"] == 1][["lineup", "match", "slot", "won"]]
    both = first.merge(second, on=["lineup", "match"], suffixes=("_a", "_b"))
    both = both.merge(matches[["lineup", "match", "seed"]], on=["lineup", "match"])
    names = [lineups[x] for x in both["lineup"]]
    both["i"] = [index[n[s]] for n, s in zip(names, both["slot_a"])]
    both["j"] = [index[n[s]] for n, s in zip(names, both["slot_b"])]
    won_a, won_b = both["won_a"].astype(bool), both["won_b"].astype(bool)
    both["score"] = np.where(won_a & ~won_b, 1.0, np.where(won_b & ~won_a, 0.0, 0.5))
    return both[["seed", "i", "j", "score"]].reset_index(drop=True)


def _seed_sums(scores: pd.DataFrame, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(seeds,), S[seed, i, j] (points of i against j) and N[seed, i, j] (matches), both orders."""
    seeds, code = np.unique(scores["seed"].to_numpy(), return_inverse=True)
    s = np.zeros((seeds.size, n, n))
    m = np.zeros((seeds.size, n, n))
    i, j, x = scores["i"].to_numpy(), scores["j"].to_numpy(), scores["score"].to_numpy()
    np.add.at(s, (code, i, j), x)
    np.add.at(s, (code, j, i), 1.0 - x)
    np.add.at(m, (code, i, j), 1.0)
    np.add.at(m, (code, j, i), 1.0)
    return seeds, s, m


def win_matrix(sums: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """P[i, j] = points of i against j over their matches (0.5 on the diagonal and where unplayed)."""
    with np.errstate(invalid="ignore", divide="ignore"):
        p = np.where(counts > 0, sums / np.where(counts > 0, counts, 1.0), 0.5)
    np.fill_diagonal(p, 0.5)
    return p


def bradley_terry(scores: pd.DataFrame, n: int) -> dict[str, Any]:
    """Bradley–Terry ratings with a first-seat term, cluster-robust over seeds.

    With too few decided matches for the fit to converge, every rating is NaN. A profile that won none of its decided matches (or lost none) has no finite rating (the
    likelihood grows without bound as it moves away): it is left out of the fit and its rating
    is −∞ (or +∞), the others are fitted among themselves.

    Returns ``ratings`` and ``ci`` ((n,) and (n, 2), logits, centred to mean 0 over the
    finite ones), ``seat`` and ``seat_ci`` (the first seat's advantage, logits), ``decided``
    (matches used) and ``unbounded`` (indices of the profiles without a finite rating)."""
    decided = scores[scores["score"] != 0.5]
    i, j, won = decided["i"].to_numpy(), decided["j"].to_numpy(), decided["score"].to_numpy() == 1.0
    wins = np.bincount(np.where(won, i, j), minlength=n)
    losses = np.bincount(np.where(won, j, i), minlength=n)
    ratings = np.where(losses == 0, np.inf, np.where(wins == 0, -np.inf, np.nan))
    ratings[(wins == 0) & (losses == 0)] = np.nan  # never decided a match: unknown
    fitted = np.flatnonzero((wins > 0) & (losses > 0))
    keep = np.isin(i, fitted) & np.isin(j, fitted)
    ci = np.column_stack([ratings, ratings])
    seat, seat_ci = float("nan"), (float("nan"), float("nan"))
    if fitted.size >= 2 and keep.any():
        column = {profile: k for k, profile in enumerate(fitted)}
        x = np.zeros((int(keep.sum()), fitted.size))
        rows = np.arange(x.shape[0])
        x[rows, [column[v] for v in i[keep]]] += 1.0
        x[rows, [column[v] for v in j[keep]]] -= 1.0
        # ratings relative to the first fitted profile (its column dropped), then centred
        design = np.column_stack([x[:, 1:], np.ones(x.shape[0])])
        fit = _logistic(won[keep].astype(float), design, decided["seed"].to_numpy()[keep])
        if fit is None:  # too few decided matches to separate the ratings: none is given
            return {
                "ratings": np.full(n, np.nan),
                "ci": np.full((n, 2), np.nan),
                "seat": float("nan"),
                "seat_ci": (float("nan"), float("nan")),
                "decided": int(len(decided)),
                "unbounded": [],
            }
        m = fitted.size
        relative = np.concatenate([[0.0], fit.params[:-1]])
        cov = np.zeros((m, m))
        cov[1:, 1:] = fit.cov_params()[:-1, :-1]
        centre = np.eye(m) - 1.0 / m
        values, vcov = centre @ relative, centre @ cov @ centre.T
        half = 1.96 * np.sqrt(np.maximum(np.diag(vcov), 0.0))
        ratings[fitted] = values
        ci[fitted] = np.column_stack([values - half, values + half])
        seat_half = 1.96 * math.sqrt(max(float(fit.cov_params()[-1, -1]), 0.0))
        seat = float(fit.params[-1])
        seat_ci = (seat - seat_half, seat + seat_half)
    return {
        "ratings": ratings,
        "ci": ci,
        "seat": seat,
        "seat_ci": seat_ci,
        "decided": int(len(decided)),
        "unbounded": [int(k) for k in np.flatnonzero(~np.isin(np.arange(n), fitted))],
    }


def _logistic(y: np.ndarray, design: np.ndarray, seeds: np.ndarray):
    """The logistic regression with seed-clustered covariance, or None when it does not converge
    to finite values (a few matches that some rating separates perfectly)."""
    import warnings

    import statsmodels.api as sm

    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        try:
            fit = sm.GLM(y, design, family=sm.families.Binomial()).fit(
                cov_type="cluster", cov_kwds={"groups": pd.factorize(seeds)[0]}
            )
        except (ValueError, np.linalg.LinAlgError):
            return None
    finite = np.all(np.isfinite(fit.params)) and np.all(np.isfinite(fit.cov_params()))
    return fit if fit.converged and finite and np.abs(fit.params).max() < 30 else None


def nash(p: np.ndarray) -> np.ndarray:
    """A Nash equilibrium mixture of the symmetric zero-sum game with payoff P − Pᵀ (the linear
    programme: maximise v with every column's payoff against the mixture at least v)."""
    payoff = p - p.T
    n = len(p)
    # variables x_1..x_n, v: minimise −v; v − Σ_i x_i payoff[i, j] ≤ 0 for every j; Σ x = 1
    objective = np.zeros(n + 1)
    objective[-1] = -1.0
    upper = np.column_stack([-payoff.T, np.ones(n)])
    solved = linprog(
        objective,
        A_ub=upper,
        b_ub=np.zeros(n),
        A_eq=[[1.0] * n + [0.0]],
        b_eq=[1.0],
        bounds=[(0, None)] * n + [(None, None)],
        method="highs",
    )
    x = np.clip(solved.x[:n], 0.0, None)
    return x / x.sum()


def alpha_rank(p: np.ndarray, alpha: float = 10.0, population: int = 50) -> np.ndarray:
    """α-Rank masses of a single population (Omidshafiei et al. 2019): a mutant profile j
    invades a population of i with the fixation probability of the Fermi process, fitness
    the expected win probability against the population; the stationary distribution of the
    chain over monomorphic populations."""
    n = len(p)
    chain = np.zeros((n, n))
    for i in range(n):
        for j in range(n):
            if i == j:
                continue
            k = np.arange(1, population)  # mutants j among the population of m
            f_mutant = ((k - 1) * p[j, j] + (population - k) * p[j, i]) / (population - 1)
            f_resident = (k * p[i, j] + (population - k - 1) * p[i, i]) / (population - 1)
            # fixation: 1 / (1 + Σ_l Π_{k ≤ l} exp(−α (f_mutant − f_resident))), in logs
            logs = np.cumsum(-alpha * (f_mutant - f_resident))
            chain[i, j] = 1.0 / (n - 1) / (1.0 + np.exp(logs).sum()) if logs.max() < 700 else 0.0
        chain[i, i] = 1.0 - chain[i].sum()
    values, vectors = np.linalg.eig(chain.T)
    stationary = np.abs(np.real(vectors[:, np.argmin(np.abs(values - 1.0))]))
    return stationary / stationary.sum()


def cyclic_share(p: np.ndarray) -> float:
    """||A − T||² / ||A||² of A = logit P (clipped), T_ij = r_i − r_j, r the row means of A."""
    q = np.clip(p, CLIP, 1.0 - CLIP)
    a = np.log(q / (1.0 - q))
    a = (a - a.T) / 2.0  # antisymmetric (it is, up to rounding, when P + Pᵀ = 1)
    r = a.mean(axis=1)
    cyclic = a - (r[:, None] - r[None, :])
    total = float((a**2).sum())
    return float((cyclic**2).sum()) / total if total > 0 else 0.0


@dataclass
class MetaGame:
    """The matrix analysis (see the module docstring); frames are one row per profile or pair."""

    profiles: list[str]
    pairs: pd.DataFrame  # profile, opponent, matches, p, ci_low, ci_high
    ratings: pd.DataFrame  # profile, rating, ci_low, ci_high (logits), elo, elo_low, elo_high, nash, nash_low,
    # nash_high, alpha_rank, alpha_low, alpha_high
    seat: float
    seat_ci: tuple[float, float]
    cyclic: float
    cyclic_ci: tuple[float, float]
    decided: int
    seeds: int


def metagame(
    tables: Mapping[str, pd.DataFrame],
    lineups: Mapping[str, Sequence[str]],
    profiles: Sequence[str],
    confidence: float = 0.95,
    bootstrap: int = 400,
    seed: int = 0,
) -> MetaGame:
    """Every number of the profile matrix from the tables of its pair line-ups."""
    profiles = list(profiles)
    n = len(profiles)
    scores = pair_scores(tables, lineups, profiles)
    seeds, sums, counts = _seed_sums(scores, n)
    total_s, total_n = sums.sum(axis=0), counts.sum(axis=0)
    p = win_matrix(total_s, total_n)
    rows = []
    for i in range(n):
        for j in range(n):
            if i != j and total_n[i, j] > 0:
                value, low, high, _ = clustered_wilson(sums[:, i, j], counts[:, i, j], confidence)
                rows.append(
                    {
                        "profile": profiles[i],
                        "opponent": profiles[j],
                        "matches": int(total_n[i, j]),
                        "p": value,
                        "ci_low": low,
                        "ci_high": high,
                    }
                )
    bt = bradley_terry(scores, n)
    rng = np.random.default_rng(seed)
    draws_nash, draws_alpha, draws_cyclic = [], [], []
    for _ in range(bootstrap):
        weights = np.bincount(rng.integers(0, seeds.size, seeds.size), minlength=seeds.size).astype(float)
        resampled = win_matrix(np.tensordot(weights, sums, 1), np.tensordot(weights, counts, 1))
        draws_nash.append(nash(resampled))
        draws_alpha.append(alpha_rank(resampled))
        draws_cyclic.append(cyclic_share(resampled))
    tail = (1 - confidence) / 2
    nash_q = np.quantile(draws_nash, [tail, 1 - tail], axis=0)
    alpha_q = np.quantile(draws_alpha, [tail, 1 - tail], axis=0)
    ratings = pd.DataFrame(
        {
            "profile": profiles,
            "rating": bt["ratings"],
            "ci_low": bt["ci"][:, 0],
            "ci_high": bt["ci"][:, 1],
            "nash": nash(p),
            "nash_low": nash_q[0],
            "nash_high": nash_q[1],
            "alpha_rank": alpha_rank(p),
            "alpha_low": alpha_q[0],
            "alpha_high": alpha_q[1],
        }
    )
    for column in ("rating", "ci_low", "ci_high"):
        ratings[column.replace("rating", "elo").replace("ci_", "elo_")] = ELO * ratings[column]
    ratings = ratings.sort_values("rating", ascending=False, kind="stable").reset_index(drop=True)
    cyclic = cyclic_share(p)
    return MetaGame(
        profiles=profiles,
        pairs=pd.DataFrame(rows),
        ratings=ratings,
        seat=bt["seat"],
        seat_ci=bt["seat_ci"],
        cyclic=cyclic,
        cyclic_ci=_basic(cyclic, draws_cyclic, tail),
        decided=bt["decided"],
        seeds=int(seeds.size),
    )


def _basic(estimate: float, draws: Sequence[float], tail: float) -> tuple[float, float]:
    """The basic (reflected) bootstrap interval, clipped to [0, 1]: the noise of every cell adds
    cyclic energy, so the share's draws sit above the estimate as the estimate sits above the
    truth, and the percentile interval would miss a transitive truth."""
    low, high = np.quantile(draws, [tail, 1 - tail])
    return float(np.clip(2 * estimate - high, 0.0, 1.0)), float(np.clip(2 * estimate - low, 0.0, 1.0))


#: Below this cyclic share the matrix reads as transitive, above CYCLIC as cyclic.
TRANSITIVE, CYCLIC = 0.1, 0.5


def metagame_sentences(game: MetaGame) -> list[str]:
    """What the matrix says, in sentences a designer can act on."""
    finite = game.ratings[np.isfinite(game.ratings["rating"])]
    low, high = game.cyclic_ci
    if high < TRANSITIVE:
        shape = (
            f"The profiles are ordered by one strength: the cyclic share of the matrix is {game.cyclic:.2f} "
            f"[{low:.2f}, {high:.2f}], so the ratings say who beats whom."
        )
    elif low > CYCLIC:
        shape = (
            f"The matrix is mostly cyclic (rock-paper-scissors): cyclic share {game.cyclic:.2f} "
            f"[{low:.2f}, {high:.2f}]; a rating cannot order these profiles."
        )
    else:
        shape = (
            f"The matrix is partly cyclic: cyclic share {game.cyclic:.2f} [{low:.2f}, {high:.2f}]; the ratings "
            "order the profiles only on average."
        )
    sentences = [shape]
    if len(finite):
        top = finite.iloc[0]
        sentences.append(
            f"Highest rated: {top.profile}, {top.elo:+.0f} Elo [{top.elo_low:+.0f}, {top.elo_high:+.0f}] "
            "(ratings centred on the mean profile)."
        )
    for r in game.ratings.itertuples():
        if r.rating == np.inf:
            sentences.append(f"{r.profile} lost no decided match: its rating is above every finite one.")
        elif r.rating == -np.inf:
            sentences.append(f"{r.profile} won no decided match: its rating is below every finite one.")
    support = [r.profile for r in game.ratings.itertuples() if r.nash > 1e-3]
    possible = [r.profile for r in game.ratings.itertuples() if r.nash_high > 1e-3]
    sentences.append(
        f"Nash equilibrium of the meta-game: {', '.join(f'{p} {100 * w:.0f} %' for p, w in zip(support, game.ratings.set_index('profile').loc[support, 'nash']))}"
        + (
            f"; the bootstrap puts weight on {', '.join(possible)}: none of these can be ruled out of optimal play."
            if set(possible) != set(support)
            else (
                "; one profile is enough to play optimally."
                if len(support) == 1
                else f"; {len(support)} profiles are part of optimal play, none can be dropped."
            )
        )
    )
    if game.seat == game.seat:
        sentences.append(
            f"The first seat's advantage: {ELO * game.seat:+.0f} Elo [{ELO * game.seat_ci[0]:+.0f}, "
            f"{ELO * game.seat_ci[1]:+.0f}] over {game.decided:,} decided matches."
        )
    return sentences


def heat_map(game: MetaGame) -> Any:
    """The win matrix as a heat map (rows beat columns), profiles in rating order."""
    from .plots import new_figure

    order = list(game.ratings["profile"])
    cells = {(r.profile, r.opponent): r.p for r in game.pairs.itertuples()}
    values = np.array([[0.5 if a == b else cells.get((a, b), np.nan) for b in order] for a in order])
    fig = new_figure(height=max(3.0, 0.55 * len(order) + 1.5), width=max(4.5, 0.8 * len(order) + 2.5))
    ax = fig.subplots()
    image = ax.imshow(values, cmap="RdBu", vmin=0.0, vmax=1.0)
    ax.set_xticks(range(len(order)), order, rotation=45, ha="right")
    ax.set_yticks(range(len(order)), order)
    for i in range(len(order)):
        for j in range(len(order)):
            if i != j and values[i, j] == values[i, j]:
                ax.text(
                    j,
                    i,
                    f"{values[i, j]:.2f}",
                    ha="center",
                    va="center",
                    fontsize=9,
                    color="white" if abs(values[i, j] - 0.5) > 0.3 else "black",
                )
    ax.set_xlabel("opponent")
    ax.set_ylabel("profile")
    ax.grid(False)
    fig.colorbar(image, ax=ax, label="P(profile beats opponent)")
    return fig


def metagame_sections(analysis: Any, make_figure, section_type: type, table_type: type) -> list:
    """The report's "Profile matrix" section (empty list without a ``matrix`` manifest)."""
    results = analysis.results
    matrix = results.manifest.get("matrix")
    if not matrix:
        return []
    game = metagame(results.tables, matrix["lineups"], matrix["profiles"], analysis.options.confidence)
    section = section_type("matrix", "Profile matrix")
    section.paragraphs = [
        "Every pair of profiles was played head to head on the same seeds, each seed with both seatings. "
        "Ratings are Bradley–Terry with a first-seat term, intervals clustered by seed; the Nash equilibrium is "
        "that of the meta-game in which each player picks a profile and wins its win-rate edge; α-Rank is the "
        "long-run share of an evolving population of players; the cyclic share is the part of the matrix no "
        "rating can explain (0: transitive, 1: rock-paper-scissors). Intervals of the last three come from a "
        "bootstrap over seeds."
    ]
    section.bullets = metagame_sentences(game)
    columns = ["profile", "rating, Elo [95 % CI]", "Nash weight [95 % CI]", "α-Rank [95 % CI]"]
    rows = [
        [
            r.profile,
            f"{r.elo:+.0f} [{r.elo_low:+.0f}, {r.elo_high:+.0f}]",
            f"{r.nash:.2f} [{r.nash_low:.2f}, {r.nash_high:.2f}]",
            f"{r.alpha_rank:.2f} [{r.alpha_low:.2f}, {r.alpha_high:.2f}]",
        ]
        for r in game.ratings.itertuples()
    ]
    section.items.append(table_type("Ratings and the meta-game", columns, rows))
    section.items.append(make_figure("P(row profile beats column profile), draws half", heat_map(game)))
    return [section]
