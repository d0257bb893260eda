"""Game-independent core: configuration, games registry, profiles, seeding, runner, store."""

from .config import ConfigError, build, load_config, param, to_dict, to_toml
from .game import GameSpec, MatchLog, Player, game_names, get_game, register
from .profiles import load_lineup, load_profile, preset_names
from .rules import default_rules_text, load_rules
from .runner import Cell, run_cells
from .seeding import MatchSeeds
from .store import ResultStore, load_tables, scan_table

__all__ = [
    "ConfigError",
    "build",
    "load_config",
    "param",
    "to_dict",
    "to_toml",
    "GameSpec",
    "MatchLog",
    "Player",
    "game_names",
    "get_game",
    "register",
    "load_lineup",
    "load_profile",
    "preset_names",
    "default_rules_text",
    "load_rules",
    "Cell",
    "run_cells",
    "MatchSeeds",
    "ResultStore",
    "load_tables",
    "scan_table",
]
