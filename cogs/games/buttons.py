"""Buttons on Discord: roll or opt out, place a button on a cell, use the gold die, place stars."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cogs.games.base import Choice, GameUI, Tone
from engine.buttons.state import Phase
from engine.core import Action, Event, Prompt, Scalar
from engine.words import count

COLOUR_EMOJI = {"red": "🟥", "yellow": "🟨", "green": "🟩", "blue": "🟦"}

RULES_TEXT = "\n".join(
    (
        "**Buttons** (2-4 players): fill your 6×6 board with buttons, turn them into stars.",
        "",
        "**Your turn**: **roll** all the dice in the pool, or **opt out** (only once you have a"
        " button this round: you keep them and leave the round).",
        "After a roll the **white die** gives the row and each **black die** a column: place one"
        " button on one of those cells. A cell is free if it has no button or star and no button"
        " next to it (up, down, left, right; diagonals and stars are fine).",
        " • No free cell: you **bust**, lose this round's buttons and leave the round.",
        " • Everyone else still in the round **may** place a button at white × **gold** die.",
        "Each player leaving the round takes **one** plain black die out of the pool, with 2 players"
        " too (a table option makes it two with 2 players).",
        "",
        "**End of the round** (everyone has left it): **+1 star** for opting out, **+1** per colour"
        " with 3+ buttons, **+1 more** if that colour is one of your bonus colours. You choose which"
        " of this round's buttons become stars; the other buttons go.",
        "**End**: after a round in which someone has a **line of 5 stars** (row or column) or"
        " **12 stars**. Score = stars + 100 for a line of 5.",
        "",
        "`/play buttons` opens a table. On your turn press Roll or Opt out, then a cell.",
    )
)


def cell_label(view: Any, seat: int, action: Action) -> tuple[str, str | None]:
    """ "Red 3-5" (row-column) for the cell an action names on `seat`'s board, with its emoji."""
    row, col = int(action["row"]), int(action["col"])
    colour = view.boards[seat].colour((row, col)).value
    return f"{colour.capitalize()} {row}-{col}", COLOUR_EMOJI.get(colour)


class ButtonsUI(GameUI):
    """How Buttons' prompts appear as buttons."""

    game_id = "buttons"
    title = "Buttons"
    emoji = "🔘"
    rules_text = RULES_TEXT
    breakdown_labels = (("stars", "stars"), ("line of 5", "line of 5"))
    optional_choices = "the gold die on another player's roll"

    def choice(self, view: Any, prompt: Prompt, action: Action, names: Sequence[str]) -> Choice:
        """Every option stands alone: a roll has at most six candidate cells."""
        kind = action.kind
        if kind == "roll":
            return Choice("roll", "Roll the dice", "Roll the dice", "🎲", Tone.MAIN)
        if kind == "stop":
            return Choice("stop", "Opt out, keep my buttons", "Opt out, keep my buttons", "✋", Tone.GOOD)
        if kind == "decline":
            return Choice("decline", "Skip the gold die", "Skip the gold die", "⏭️")
        if kind in ("place", "star"):
            cell, emoji = cell_label(view, prompt.seat, action)
            if kind == "star":
                label, tone = f"Star on {cell}", Tone.GOOD
            elif prompt.kind == "gold":
                label, tone = f"Gold die: button on {cell}", Tone.MAIN
            else:
                label, tone = f"Button on {cell}", Tone.MAIN
            group = "star" if kind == "star" else "place"
            return Choice(f"{group}:{cell}", label, label, emoji, tone)
        label = kind.replace("_", " ").capitalize()
        return Choice(f"other:{kind}", label, label)

    def question(self, view: Any, prompt: Prompt, names: Sequence[str]) -> str:
        """What the player is asked, with the dice that matter."""
        context = dict(prompt.context)
        who = f"**{names[prompt.seat]}**"
        if prompt.kind == "turn":
            held = context.get("buttons", 0)
            mine = (
                f" (you have {count(held, 'button', 'buttons')} this round)"
                if isinstance(held, int) and held
                else ""
            )
            return f"{who}: roll the {context.get('dice', '')} dice or opt out{mine}."
        if prompt.kind == "place":
            columns = context.get("black", ())
            black = ", ".join(str(v) for v in columns) if isinstance(columns, tuple) else str(columns)
            return f"{who}: white {context.get('white')}, black {black}: place a button."
        if prompt.kind == "gold":
            return (
                f"{who}: you may use the gold die (row {context.get('white')}, column {context.get('gold')})."
            )
        if prompt.kind == "star":
            due = context.get("stars_due", 1)
            stars = (
                f"your {count(due, 'star', 'stars')} go"
                if isinstance(due, int) and due > 1
                else "your star goes"
            )
            return f"{who}: choose where {stars}."
        return f"{who}: your move."

    def render_options(self, view: Any, seat: int, prompt: Prompt | None) -> Mapping[str, Any]:
        """The cells the viewer's own buttons offer for the open roll, outlined on their board."""
        if prompt is None or prompt.kind not in ("place", "gold"):
            return {}
        cells = [(int(a["row"]), int(a["col"])) for a in prompt.options if a.kind == "place"]
        return {"legal_cells": cells}

    def board_key(self, view: Any) -> object:
        """The players' boards and the round, not the dice: the caption and the cell buttons say
        the roll. Stars chosen at the end of a round show on the next round's board."""
        if view.phase is Phase.STARS:
            return ("stars", view.round)
        boards = tuple(
            (tuple(b.buttons), tuple(b.stars), b.status, b.dice_aside, b.earned) for b in view.boards
        )
        return (view.round, view.pool, view.phase is Phase.OVER, boards)

    def starts_turn(self, event: Event) -> bool:
        """A "turn" event opens each turn."""
        return event.kind == "turn"

    def option_summary(self, options: Mapping[str, Scalar]) -> str:
        """The one table option: how many plain dice a player takes when leaving the round."""
        if options.get("two_dice_2p"):
            return "Variant: two plain dice per exit with 2 players"
        return "Leaving the round takes one plain die"


UI = ButtonsUI()
