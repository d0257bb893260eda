"""Curlastique example files: the demo experiment, the zone-value balance search and the sensitivity
analysis (``GameSpec.examples``: ``tablesim examples`` lists them, ``tablesim demo`` plays the demo)."""
