"""The turn UI of the toy race (tests/toygame.py), registered as a fourth game by test_fourth_game."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cogs.games.base import Choice, GameUI, Tone
from engine.core import Action, Prompt
from engine.words import ENGLISH, Words


class RaceUI(GameUI):
    """Stride buttons, then Roll (or take the stride back to 0)."""

    game_id = "race"
    title = "Race"
    emoji = "🏁"
    rules_text = "**Race**: choose a stride, roll a die, move stride × die; first to the goal wins."

    def choice(
        self, view: Any, prompt: Prompt, action: Action, names: Sequence[str], *, words: Words = ENGLISH
    ) -> Choice:
        """Every option is its own button."""
        if action.kind == "roll":
            return Choice("roll", "Roll", "Roll", "🎲", Tone.GOOD)
        label = f"Stride {action['n']}"
        return Choice(label, label, label)

    def question(self, view: Any, prompt: Prompt, names: Sequence[str], *, words: Words = ENGLISH) -> str:
        """Who moves and what they choose."""
        asked = "choose a stride" if prompt.kind == "stride" else "roll"
        return f"{names[prompt.seat]}, {asked} (at {view.positions[prompt.seat]} of {view.goal})."

    def private_text(self, view: Any, seat: int, names: Sequence[str]) -> str:
        """The seat's secret number, which only it sees."""
        return f"Your secret number is {view.secret[seat]}."


UI = RaceUI()
