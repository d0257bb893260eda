"""tablesim: Monte Carlo simulators for tabletop games (the `sim` package).

`sim` never imports `analysis`; the command line in `sim.cli` is the one place that wires
the two together (docs/design.md).
"""

__version__ = "0.1.0"
