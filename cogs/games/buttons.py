"""Buttons on Discord: roll or opt out, place a button on a cell, use the gold die, place stars."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cogs.games.base import Choice, GameUI, Tone
from engine.buttons.state import Phase
from engine.core import Action, Event, Prompt, Scalar
from engine.words import ENGLISH, N_, Words

COLOUR_EMOJI = {"red": "🟥", "yellow": "🟨", "green": "🟩", "blue": "🟦"}

RULES_TEXT = N_(
    "**Buttons** (2-4 players): fill your 6×6 board with buttons, turn them into stars.\n"
    "\n"
    "**Your turn**: **roll** all the dice in the pool, or **opt out** (only once you have a"
    " button this round: you keep them and leave the round).\n"
    "After a roll the **white die** gives the row and each **black die** a column: place one"
    " button on one of those cells. A cell is free if it has no button or star and no button"
    " next to it (up, down, left, right; diagonals and stars are fine).\n"
    " • No free cell: you **bust**, lose this round's buttons and leave the round.\n"
    " • Everyone else still in the round **may** place a button at white × **gold** die.\n"
    "Each player leaving the round takes **one** plain black die out of the pool, with 2 players"
    " too (a table option makes it two with 2 players).\n"
    "\n"
    "**End of the round** (everyone has left it): **+1 star** for opting out, **+1** per colour"
    " with 3+ buttons, **+1 more** if that colour is one of your bonus colours. You choose which"
    " of this round's buttons become stars; the other buttons go.\n"
    "**End**: after a round in which someone has a **line of 5 stars** (row or column) or"
    " **12 stars**. Score = stars + 100 for a line of 5.\n"
    "\n"
    "`/play buttons` opens a table. On your turn press Roll or Opt out, then a cell."
)


COLOUR_NAMES = {"red": N_("Red"), "yellow": N_("Yellow"), "green": N_("Green"), "blue": N_("Blue")}
"""A cell colour's name in a label."""


def cell_label(view: Any, seat: int, action: Action, words: Words = ENGLISH) -> tuple[str, str | None]:
    """ "Red 3-5" (row-column) for the cell an action names on `seat`'s board, with its emoji."""
    row, col = int(action["row"]), int(action["col"])
    colour = view.boards[seat].colour((row, col)).value
    name = words.gettext(COLOUR_NAMES.get(colour, colour.capitalize()))
    return words.gettext("{colour} {row}-{col}", colour=name, row=row, col=col), COLOUR_EMOJI.get(colour)


class ButtonsUI(GameUI):
    """How Buttons' prompts appear as buttons."""

    game_id = "buttons"
    title = N_("Buttons")
    emoji = "🔘"
    rules_text = RULES_TEXT
    breakdown_labels = (("stars", N_("stars")), ("line of 5", N_("line of 5")))
    optional_choices = N_("the gold die on another player's roll")

    def choice(
        self, view: Any, prompt: Prompt, action: Action, names: Sequence[str], *, words: Words = ENGLISH
    ) -> Choice:
        """Every option stands alone: a roll has at most six candidate cells."""
        w = words
        kind = action.kind
        if kind == "roll":
            roll = w.gettext("Roll the dice")
            return Choice("roll", roll, roll, "🎲", Tone.MAIN)
        if kind == "stop":
            stop = w.gettext("Opt out, keep my buttons")
            return Choice("stop", stop, stop, "✋", Tone.GOOD)
        if kind == "decline":
            skip = w.gettext("Skip the gold die")
            return Choice("decline", skip, skip, "⏭️")
        if kind in ("place", "star"):
            cell, emoji = cell_label(view, prompt.seat, action, w)
            if kind == "star":
                label, tone = w.gettext("Star on {cell}", cell=cell), Tone.GOOD
            elif prompt.kind == "gold":
                label, tone = w.gettext("Gold die: button on {cell}", cell=cell), Tone.MAIN
            else:
                label, tone = w.gettext("Button on {cell}", cell=cell), Tone.MAIN
            group = "star" if kind == "star" else "place"
            return Choice(f"{group}:{action['row']}-{action['col']}", label, label, emoji, tone)
        label = kind.replace("_", " ").capitalize()
        return Choice(f"other:{kind}", label, label)

    def question(self, view: Any, prompt: Prompt, names: Sequence[str], *, words: Words = ENGLISH) -> str:
        """What the player is asked, with the dice that matter."""
        w = words
        context = dict(prompt.context)
        who = f"**{names[prompt.seat]}**"
        if prompt.kind == "turn":
            held = context.get("buttons", 0)
            dice = context.get("dice", 0)
            count = dice if isinstance(dice, int) else 0
            if isinstance(held, int) and held:
                return w.ngettext(
                    "{who}: roll the {dice} dice or opt out (you have {count} button this round).",
                    "{who}: roll the {dice} dice or opt out (you have {count} buttons this round).",
                    held,
                    who=who,
                    dice=count,
                )
            return w.gettext("{who}: roll the {dice} dice or opt out.", who=who, dice=count)
        if prompt.kind == "place":
            columns = context.get("black", ())
            black = ", ".join(str(v) for v in columns) if isinstance(columns, tuple) else str(columns)
            return w.gettext(
                "{who}: white {white}, black {black}: place a button.",
                who=who,
                white=context.get("white"),
                black=black,
            )
        if prompt.kind == "gold":
            return w.gettext(
                "{who}: you may use the gold die (row {row}, column {column}).",
                who=who,
                row=context.get("white"),
                column=context.get("gold"),
            )
        if prompt.kind == "star":
            due = context.get("stars_due", 1)
            if isinstance(due, int) and due > 1:
                return w.ngettext(
                    "{who}: choose where your {count} star go.",
                    "{who}: choose where your {count} stars go.",
                    due,
                    who=who,
                )
            return w.gettext("{who}: choose where your star goes.", who=who)
        return w.gettext("{who}: your move.", who=who)

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

    def option_summary(self, options: Mapping[str, Scalar], *, words: Words = ENGLISH) -> str:
        """The one table option: how many plain dice a player takes when leaving the round."""
        if options.get("two_dice_2p"):
            return words.gettext("Variant: two plain dice per exit with 2 players")
        return words.gettext("Leaving the round takes one plain die")


UI = ButtonsUI()
