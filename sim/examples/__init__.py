"""Example experiment, balance and sensitivity files (used by `tablesim demo` and the README)."""
