"""Diced Tomatoes, as Board Game Arena plays it: seed, grow and harvest dice tomatoes."""

from engine.tomatoes.events import Ev
from engine.tomatoes.karma import KARMA_ACTIONS, KarmaAction
from engine.tomatoes.rules import END_TURN, KEEP, ROLL, RULES, TomatoRules, place_action
from engine.tomatoes.state import (
    Colour,
    Die,
    GameEnd,
    Phase,
    PlayerState,
    ScoreSlot,
    TableOptions,
    Token,
    TomatoState,
)

__all__ = [
    "END_TURN",
    "KARMA_ACTIONS",
    "KEEP",
    "ROLL",
    "RULES",
    "Colour",
    "Die",
    "Ev",
    "GameEnd",
    "KarmaAction",
    "Phase",
    "PlayerState",
    "ScoreSlot",
    "TableOptions",
    "Token",
    "TomatoRules",
    "TomatoState",
    "place_action",
]
