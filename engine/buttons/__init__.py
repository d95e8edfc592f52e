"""Buttons: push-your-luck dice, a 6x6 board per player, stars and lines of five."""

from engine.buttons.rules import RULES, ButtonsRules

__all__ = ["RULES", "ButtonsRules"]
