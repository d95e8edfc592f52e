"""Diced Tomatoes on Discord: a button per die and target while they fit (else dice first, then
where they go); karma actions grouped by kind."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

import discord
from discord import app_commands

from cogs.games.base import Choice, GameUI, Tone
from engine.core import Action, Event, Outcome, Prompt, Scalar
from tables.paces import PACE_HELP, PaceName

DIE_EMOJI = {"red": "🔴", "black": "⚫", "gold": "🟡"}

KARMA_GROUPS: dict[str, tuple[str, int, str]] = {
    "reroll": ("Re-roll a die", 1, "🔄"),
    "shift": ("Shift a die ±1", 2, "↕️"),
    "clean": ("Clean a vine", 3, "🧹"),
    "roll_over": ("Roll over 1↔6", 4, "🔃"),
    "flip": ("Flip a seed", 5, "🔁"),
    "set_value": ("Set a die to any value", 6, "🎯"),
}
"""Karma action kind -> (label, cost, emoji); the costs are those of rules section 8.4."""

RULES_TEXT = "\n".join(
    (
        "**Diced Tomatoes** (1-6 players): grow tomato vines from dice and harvest them.",
        "",
        "**Your turn**",
        "1. **Roll**: take 3 dice from the shared bushel and roll them with any dice passed to you.",
        "2. **Place** every die that fits (you must, while one fits):",
        " • a **red** die can be a **seed** on any empty tomato token, yours or an opponent's;",
        " • any die can join a vine (yours or theirs) if the vine stays a **set** (5-5-5)"
        " or a **run** (3-4-5; 6 and 1 are not neighbours).",
        "3. Dice that fit nowhere are **passed** to the next player, and the turn ends.",
        "",
        "**Harvest**: a vine's 4th die harvests it. The seed goes to the **owner's** next score slot,"
        " worth its pips **-1 per black die, +1 per gold die**. Worth more than 6 is overripe:"
        " cleared for nothing. At the end of a turn overripe vines are cleared, and you may clear"
        " your own vines worth 0 or less.",
        "**Dicey Tomato Rules**: a harvest whose value equals its slot number is topped up to 7"
        " points and earns a ★.",
        "",
        "**Karma** (start 3, max 6; up to 12 during your own turn): earn it by completing an"
        " opponent's vine (Karma Overload: as much as its value) and from karma bits (1 per die"
        " you place on an opponent's vine or pass; 3 bits = 1 karma). Spend it at any time in your"
        " turn, before you roll too (then on vines only):",
        " 1 re-roll a die · 2 shift a die by 1 · 3 clean any vine · 4 turn a 1 into a 6 or a 6"
        " into a 1 · 5 flip a seed to its opposite face · 6 set a die to any value.",
        "",
        "**End**: the first to harvest 6 tomatoes gets +2 and starts the final round (everyone"
        " gets the same number of turns). The game also ends when the bushel is empty at the"
        " start of a turn.",
        "**Score**: harvests + bonuses + 1 per 2 karma + 1 per 3 red dice on your unfinished vines.",
        "**Solo**: harvest all 6 tomatoes before the dice run out; slots matching their number count.",
        "",
        "`/play tomatoes` opens a table. On your turn press where a die goes (with many"
        " choices: the die first, then where);"
        " ↩️ Undo takes back your moves until the next roll.",
    )
)


def _die(view: Any, index: int) -> tuple[str, int]:
    die = view.rolled[index]
    return die.colour.value, die.value


def die_label(view: Any, index: int) -> str:
    """ "Red 5" for rolled die `index`."""
    colour, value = _die(view, index)
    return f"{colour.capitalize()} {value}"


def _whose(prompt: Prompt, owner: int, names: Sequence[str]) -> str:
    return "Your" if owner == prompt.seat else f"{names[owner]}'s"


def _vine(view: Any, owner: int, token: int) -> str:
    """A vine as "4 ⚫3 ⚫2 = 2": its dice (colour marked unless red) and its value."""
    found = view.players[owner].tokens[token]
    dice = " ".join(
        ("" if d.colour.value == "red" else DIE_EMOJI[d.colour.value]) + str(d.value) for d in found.dice
    )
    return f"{dice} = {found.value}"


def _rest(view: Any, prompt: Prompt, names: Sequence[str]) -> list[str]:
    """ "Red 5 → Bob's token 2" for each die of a forced rest (context "rest": die, owner, token
    triples in playing order, die indices as they are at each step)."""
    flat = cast(tuple[int, ...], dict(prompt.context).get("rest", ()))
    rolled = list(view.rolled)
    parts = []
    for at in range(0, len(flat), 3):
        die, owner, token = flat[at : at + 3]
        placed = rolled.pop(die)
        where = f"{_whose(prompt, owner, names)} token {token + 1}"
        parts.append(f"{placed.colour.value.capitalize()} {placed.value} → {where}")
    return parts


class TomatoesUI(GameUI):
    """How Diced Tomatoes' prompts appear as buttons."""

    game_id = "tomatoes"
    title = "Diced Tomatoes"
    emoji = "🍅"
    rules_text = RULES_TEXT
    breakdown_labels = (
        ("harvests", "harvests"),
        ("slot bonuses", "slot bonuses"),
        ("first to six", "first to six"),
        ("karma", "karma"),
        ("unfinished vines", "vines"),
        ("tomatoes", "tomatoes"),
        ("matched slots", "matched slots"),
    )

    def choice(self, view: Any, prompt: Prompt, action: Action, names: Sequence[str]) -> Choice:
        """Dice group their targets; karma actions group by kind; the rest stand alone."""
        kind = action.kind
        if kind == "roll":
            if not action.args:
                return Choice("roll", "Roll the dice", "Roll the dice", "🎲", Tone.MAIN)
            mix = [f"{action[c]} {c}" for c in ("red", "black", "gold") if action[c]]
            return Choice("roll", "Take and roll", ", ".join(mix) or "No new dice", "🎲", Tone.MAIN)
        if kind == "place":
            die, owner, token = action["die"], action["owner"], action["token"]
            colour, _ = _die(view, die)
            vine = view.players[owner].tokens[token].dice
            target = f"{_whose(prompt, owner, names)} token {token + 1}"
            if not vine:
                label, tone = f"{target}: new seed", Tone.NORMAL
            elif len(vine) == 3:
                label, tone = f"{target} ({_vine(view, owner, token)}): harvest!", Tone.GOOD
            else:
                label, tone = f"{target} ({_vine(view, owner, token)})", Tone.NORMAL
            group_label = die_label(view, die)
            return Choice(
                f"die:{die}", group_label, label, DIE_EMOJI.get(colour), tone, f"{group_label} → {label}"
            )
        if kind == "place_rest":
            label = "Place the rest: " + ", ".join(_rest(view, prompt, names))
            return Choice("rest", label, label, "⏩", Tone.MAIN)
        if kind == "end_turn":
            count = len(view.rolled)
            label = f"End turn (pass {count} {'die' if count == 1 else 'dice'})" if count else "End turn"
            return Choice("end", label, label, "⏭️", Tone.MAIN)
        if kind in KARMA_GROUPS:
            name, cost, emoji = KARMA_GROUPS[kind]
            group = f"{name} ({cost} karma)"
            if kind in ("clean", "flip"):
                owner, token = action["owner"], action["token"]
                target = f"{_whose(prompt, owner, names)} token {token + 1} ({_vine(view, owner, token)})"
                if kind == "flip":
                    seed = view.players[owner].tokens[token].dice[0].value
                    target += f": seed {seed} → {7 - seed}"
                return Choice(f"karma:{kind}", group, target, emoji, Tone.RISKY)
            die = action["die"]
            _, value = _die(view, die)
            label = die_label(view, die)
            if kind == "shift":
                label += f" → {value + action['by']}"
            elif kind == "roll_over":
                label += f" → {7 - value}"
            elif kind == "set_value":
                label += f" → {action['value']}"
            return Choice(f"karma:{kind}", group, label, emoji, Tone.RISKY)
        if kind == "clear":
            token = action["token"]
            label = f"Clear your token {token + 1} (worth {view.players[prompt.seat].tokens[token].value})"
            return Choice(f"clear:{token}", label, label, "🧹", Tone.RISKY)
        if kind == "keep":
            return Choice("keep", "Keep and end the turn", "Keep and end the turn", "⏭️", Tone.MAIN)
        words = ", ".join(f"{k} {v}" for k, v in action.args)
        label = f"{kind.replace('_', ' ').capitalize()} {words}".strip()
        return Choice(f"other:{kind}", label, label)

    def board_key(self, view: Any) -> object:
        """The vines, harvests and karma, not the dice in play: the caption and the buttons say
        the roll (a die placed changes a vine, so the board is drawn again)."""
        players = tuple((p.tokens, p.slots, p.karma, p.karma_bits) for p in view.players)
        return (players, view.first_to_six, view.final_round, view.ended)

    def starts_turn(self, event: Event) -> bool:
        """A "turn" event opens each turn (solo games included)."""
        return event.kind == "turn"

    def question(self, view: Any, prompt: Prompt, names: Sequence[str]) -> str:
        """What the player to move is asked, with the facts that matter for it."""
        context = dict(prompt.context)
        who = f"**{names[prompt.seat]}**"
        karma = view.players[prompt.seat].karma
        if prompt.kind == "roll":
            held = context.get("held", 0)
            source = "kept from your last turn" if len(view.players) == 1 else "passed to you"
            extra = f" plus the {held} {source}" if held else ""
            left = ", ".join(
                f"{context.get(f'bushel_{c}', 0)} {c}"
                for c in ("red", "black", "gold")
                if context.get(f"bushel_{c}", 0)
            )
            karma_first = any(a.kind != "roll" for a in prompt.options)
            spend = f" You may spend karma on a vine first (karma {karma})." if karma_first else ""
            bushel = f"Bushel: {left or 'empty'}."
            return f"{who}: take {context.get('take', 0)} dice{extra} and roll. {bushel}{spend}"
        if prompt.kind == "place":
            if context.get("must_place"):
                return f"{who}: place your dice: choose where each one goes (karma {karma})."
            return f"{who}: no die fits; end your turn or spend karma (karma {karma})."
        if prompt.kind == "clear":
            return f"{who}: a vine of yours is worth 0 or less: clear it or keep it."
        return f"{who}: your move."

    def direct(self, group: Choice) -> bool:
        """A die's targets are one click each ("Red 5 → Your token 2") while they all fit."""
        return group.group.startswith("die:")

    def group_question(self, view: Any, prompt: Prompt, group: Choice) -> str:
        """ "Where does Red 5 go?" for a die; the karma action's name otherwise."""
        if group.group.startswith("die:"):
            return f"Where does **{group.group_label}** go?"
        return f"**{group.group_label}**: choose."

    def option_summary(self, options: Mapping[str, Scalar]) -> str:
        """The variants in play."""
        names = {
            "golden_hybrid": "Sunny Golden Hybrid",
            "dicey_rules": "Dicey Tomato Rules",
            "karma_overload": "Karma Overload",
            "pick_colours": "players pick dice colours",
        }
        on = [label for key, label in names.items() if options.get(key)]
        return "Variants: " + (", ".join(on) if on else "none (base game)")

    def result_line(self, outcome: Outcome) -> str:
        """The solo result; in multiplayer the scores already say it all."""
        return outcome.summary if len(outcome.scores) == 1 else ""


UI = TomatoesUI()


@app_commands.command(
    name="tomatoes", description="Open a Diced Tomatoes table (1-6 players) in this channel"
)
@app_commands.describe(
    golden="Sunny Golden Hybrid: gold dice add 1 to a vine (default on)",
    dicey="Dicey Tomato Rules: slot matches are topped up to 7 with a star (default on)",
    karma_overload="Karma Overload: completing a vine earns its value in karma, plus karma bits (default on)",
    pick_colours="The player to roll picks the colours of the dice taken (default off: random)",
    pace=PACE_HELP,
)
async def play_command(
    interaction: discord.Interaction[Any],
    golden: bool = True,
    dicey: bool = True,
    karma_overload: bool = True,
    pick_colours: bool = False,
    pace: PaceName = "daily",
) -> None:
    """/play tomatoes: open a lobby with the chosen variants."""
    # Imported here: the platform imports every game module, so a top-level import would cycle.
    from cogs.platform.lobby import open_lobby

    options: dict[str, Scalar] = {
        "golden_hybrid": golden,
        "dicey_rules": dicey,
        "karma_overload": karma_overload,
        "pick_colours": pick_colours,
    }
    await open_lobby(interaction, UI.game_id, options, pace)
