"""Known-truth figures: the rates the simulation tests of the statistics assert (validation under
rotation, repeated looks, log-rank, fairness, skill share), printed with the tests' seeds and sizes.

Not a test module. Run from the repository root (about 5 minutes on one core):
    PYTHONPATH=. .venv/bin/python -m tests.analysis.figures_known_truth
"""

import numpy as np
import pandas as pd

from analysis.balance.looks import Ledger
from analysis.balance.targets import Target, check_tables
from analysis.fairness import cell_verdict, fair_power, lineup_matches_needed, matches_for_equivalence, seat_fairness
from analysis.skill import skill_share
from analysis.survival import km_summary, logrank_vs_baseline
from tests.analysis.test_fairness import _fair_tables
from tests.analysis.test_survival import _many, _scipy_logrank
from tests.analysis.toydata import rotation_tables
from tests.balance.test_validation import _claims, _unclustered

REPS = 1000
for seats, p in ((2, 0.55), (4, 0.30)):
    rng = np.random.default_rng(seats)
    re = [Target(metric="profile_win_rate", profile="focal", low=p - 0.1, high=p)]
    le = [Target(metric="rounds_mean", low=5.0, high=6.0)]
    m = np.zeros(3)
    for rep in range(REPS):
        t = rotation_tables(600 // seats * 2, seats, p, rng)
        m += [
            check_tables(re, t)[0]["met"],
            check_tables(le, t, bootstrap=200, seed=rep)[0]["met"],
            check_tables(re, _unclustered(t))[0]["met"],
        ]
    print(
        f"1. validation, {seats} seats: false met rate-edge {m[0] / REPS:.3f}, length-edge {m[1] / REPS:.3f}, seeds ignored {m[2] / REPS:.3f}"
    )
rng = np.random.default_rng(2)
looks = [(0, 2000), (0, 4000), (1, 2000)]
f = o = 0
for rep in range(REPS):
    rounds = {0: rotation_tables(2000, 2, 0.55, rng), 1: rotation_tables(1000, 2, 0.55, rng, first_seed=10**6)}
    of = lambda r, n: {k: v[v["match"] % 10**6 < n] if len(v) else v for k, v in rounds[r].items()}
    f += _claims(looks, of, Ledger(None, 0.05, 3))
    if rep < REPS // 4:
        o += _claims(looks, of, Ledger(None, 0.15, 3))
print(
    f"2. three looks: overall false met {f / REPS:.3f} (ledger), {o / (REPS // 4):.3f} (0.05 per look, 250 data sets)"
)
for paired in (False, True):
    mt = _many(2000, np.random.default_rng(30 + paired), paired=paired)
    tab = logrank_vs_baseline(mt)
    print(f"3. log-rank type I, paired={paired}: {(tab['p'] < 0.05).mean():.4f}")
    if not paired:
        old = [
            _scipy_logrank(g[g.variant == "slower"], g[g.variant == "baseline"])
            for _, g in mt[mt.lineup.isin([f"r{i}" for i in range(300)])].groupby("lineup")
        ]
        print(f"   unclustered scipy log-rank, same data (300 sets): {np.mean(np.array(old) < 0.05):.3f}")
mt = _many(500, np.random.default_rng(40), effect=0.15, paired=True)
tab = logrank_vs_baseline(mt)
un = [_scipy_logrank(g[g.variant == "slower"], g[g.variant == "baseline"]) for _, g in mt.groupby("lineup")]
print(
    f"3. power, shared seeds, +15 %: clustered paired {(tab['p'] < 0.05).mean():.3f}, unpaired {np.mean(np.array(un) < 0.05):.3f}"
)
mt = _many(2000, np.random.default_rng(50), paired=False)
base = mt[mt.variant == "baseline"]
r = km_summary(base)
cov = ((r.median_low <= 4) & ((r.median_high >= 4) | r.median_high.isna())).mean()
nv = km_summary(base[base.lineup.isin([f"r{i}" for i in range(500)])].drop(columns="seed"))
ncov = ((nv.median_low <= 4) & ((nv.median_high >= 4) | nv.median_high.isna())).mean()
print(f"3. KM median 95 % CI coverage under rotation: clustered {cov:.4f}, Greenwood (500 sets) {ncov:.3f}")
needed = lineup_matches_needed(4, 0.02)
rng = np.random.default_rng(4)
fair = np.mean([cell_verdict(seat_fairness(_fair_tables(rng, 1, needed, 4))) == "fair" for _ in range(600)])
print(
    f"4. advised {needed} decided matches (4 seats, ±2 pts): shown fair {fair:.3f} of 600; per-seat advice "
    f"{matches_for_equivalence(0.25, 0.02)} gives {fair_power(4015, 4, 0.02, seed=1):.3f} (10,000 simulated)"
)
print(f"   advice 2 seats {lineup_matches_needed(2, 0.02)}, 3 seats {lineup_matches_needed(3, 0.02)}")
rng = np.random.default_rng(6)
tables = pd.concat(
    [rotation_tables(1000, 2, 0.5, rng, lineup=f"r{i}")["players"] for i in range(1000)], ignore_index=True
)
sh = skill_share(tables)
fo = sh[sh.profile == "focal"]
print(
    f"6. skill share under luck: mean {fo.share.mean():.4f}, zero in {(fo.share == 0).mean():.3f}, CI contains 0 in {(fo.share_low == 0).mean():.3f}"
)
rng = np.random.default_rng(9)
fl = un = 0
for _ in range(1000):
    s = seat_fairness(_fair_tables(rng, 12, 400, 3))
    fl += s.groupby("lineup").apply(cell_verdict, include_groups=False).isin(["small bias", "unfair"]).any()
    un += (s.p_bias_cell < 0.05).any()
print(f"9. 12 fair line-ups: at least one flagged {fl / 1000:.3f} (family-wise), {un / 1000:.3f} (unadjusted)")

# 8. Ishigami at the example's size (tests/balance/test_sensitivity.py); noisy Ishigami: python -m tests.balance.noisy_ishigami
from SALib.analyze import sobol as sa
from SALib.sample import sobol as ss

from analysis.balance.sensitivity import analyse_function
from tests.balance.noisy_ishigami import DUMMY, PARAMETERS, truth
from tests.balance.test_sensitivity import _example_settings, _ishigami

s1, st, _ = truth()
cov = sal = x3 = 0
R = 300
for seed in range(R):
    sob = analyse_function(_ishigami, _example_settings(seed), PARAMETERS, ["y"], DUMMY).sobol
    r = sob.set_index("parameter")
    cov += all(
        r.loc[k, "S1_low"] <= s1[k] <= r.loc[k, "S1_high"] and r.loc[k, "ST_low"] <= st[k] <= r.loc[k, "ST_high"]
        for k in s1
    )
    x3 += bool(r.loc["x3", "S1_effect"])
    pr = {"num_vars": 4, "names": list(r.index), "bounds": [[-np.pi, np.pi]] * 3 + [[0, 1]]}
    X = ss.sample(pr, 32, calc_second_order=False, seed=seed)
    res = sa.analyze(pr, _ishigami(X, "")[:, 0], calc_second_order=False, seed=seed)
    sal += all(
        abs(res["S1"][i] - s1[k]) <= res["S1_conf"][i] and abs(res["ST"][i] - st[k]) <= res["ST_conf"][i]
        for i, k in enumerate(s1)
    )
print(
    f"8. Ishigami N=32: all six true indices inside: ours {cov / R:.3f}, SALib *_conf {sal / R:.3f}; x3 S1 called an effect {x3 / R:.3f}"
)
sob = analyse_function(_ishigami, _example_settings(), PARAMETERS, ["y"], DUMMY).sobol
print(
    sob[["parameter", "S1", "S1_low", "S1_high", "ST", "ST_low", "ST_high", "verdict"]].round(3).to_string(index=False)
)
