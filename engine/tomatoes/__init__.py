"""Diced Tomatoes, as Board Game Arena plays it: seed, grow and harvest dice tomatoes."""

from engine.tomatoes.rules import RULES, TomatoRules

__all__ = ["RULES", "TomatoRules"]
