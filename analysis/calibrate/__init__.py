"""``tablesim calibrate``: player profiles fitted to playtest score sheets.

sheet (read, check) → space (what is fitted) → design (simulated once) → emulator (per-round
outcome probabilities) → likelihood / fit (estimates, 95 % intervals) → goodness → output.
"""
