"""Troyes: the rules engine (2 to 4 players), data-driven from engine/troyes/data/."""

from engine.troyes.rules import RULES, TroyesRules
from engine.troyes.state import TroyesState

__all__ = ["RULES", "TroyesRules", "TroyesState"]
