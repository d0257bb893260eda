"""tablesim analysis: reads results tables, never runs games (balance excepted).

Everything here works on the tidy tables of any game (``matches``, ``players``, ``rounds``,
``events``); a game's own metrics come through its ``summary`` hook.
"""
