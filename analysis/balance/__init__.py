"""Automated balancing and sensitivity analysis over rule parameters.

``space`` (what may change), ``targets`` (what the design should achieve, measured from the
tables), ``ntbea`` (a bandit search for small discrete spaces), ``search`` (the driver behind
``tablesim balance``: optuna or NTBEA on common random numbers, pruning, resuming, and the
winner's-curse guard), ``looks`` (the α each validation look of a results directory spends),
``indices`` (Morris and Sobol indices with simultaneous intervals, for any function) and
``sensitivity`` (Morris then Sobol of rule parameters, with a dummy parameter). This is
the one part of ``analysis`` that drives the runner.
"""
