"""tablesim analysis: reads results tables, never runs games (balance excepted).

Everything here works on the tidy tables of any game (``matches``, ``players``, ``rounds``,
``events``); a game's own metrics come through its ``summary`` hook.

Modules (one job each):
    winrates       win rates per seat / profile / team: Wilson, Bonferroni–Clopper–Pearson,
                   seed design effect (estimators in sim.core.estimators)
    fairness       TOST equivalence of seat shares against 1/n ± δ, family-wise over line-ups
    bootstrap      seeded (cluster) bootstrap CIs
    outcomes       one row of outcomes per match (what variants are compared on)
    effects        paired variant effects vs the baseline: score test and interval, cluster t,
                   Holm / BH with consistent adjusted intervals, minimum detectable effects
    distributions  score and length distributions
    survival       game length as survival (Kaplan–Meier, log-rank clustered by seed; the cap censors)
    metrics        Ludii-style design metrics (balance, lead changes, drama, ...)
    skill          skill share and head-to-head matrix of profiles
    hooks          the game's own ``summary`` and ``plots`` hooks, failure-tolerant
    results        opening a results directory (manifest, tables, GameSpec)
    analyse        every table of a results directory in one pass
    narrative      the report's plain-sentence summary
    plots          the report's figures (matplotlib, Agg)
    report         the self-contained HTML (and Markdown) design report
    summary        the summary ``tablesim run`` prints
    balance/       searching rule parameters for design targets (drives the runner)
"""
