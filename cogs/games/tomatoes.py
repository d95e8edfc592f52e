"""Diced Tomatoes on Discord: a button per die and target while they fit (else dice first, then
where they go); karma actions grouped by kind."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

from cogs.games.base import Choice, GameUI, Tone
from engine.core import Action, Event, Outcome, Prompt, Scalar
from engine.words import ENGLISH, Words

DIE_EMOJI = {"red": "🔴", "black": "⚫", "gold": "🟡"}

KARMA_GROUPS: dict[str, tuple[str, int, str]] = {
    "reroll": ("Re-roll a die", 1, "🔄"),
    "shift": ("Shift a die ±1", 2, "↕️"),
    "clean": ("Clean a vine", 3, "🧹"),
    "roll_over": ("Roll over 1↔6", 4, "🔃"),
    "flip": ("Flip a seed", 5, "🔁"),
    "set_value": ("Set a die", 6, "🎯"),
}
"""Karma action kind -> (label, cost, emoji); the costs are those of rules section 8.4."""
KARMA_VERBS = {
    "reroll": "Re-roll",
    "shift": "Shift",
    "clean": "Clean",
    "roll_over": "Roll over",
    "flip": "Flip",
    "set_value": "Set",
}
"""The short name of a karma action in a label that also names its die or vine."""

LABEL_MAX = 40
"""No label of a turn's menu is longer (a phone shows about this much on a button)."""
MENU_BUDGET = 10
"""At most this many components to read on a screen of a turn (issue 33: a phone user scanned
up to 20 long die -> target buttons before every placement)."""

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
        "3. Dice that fit nowhere are **passed** to the next player, and the turn ends (karma"
        " earned for them may still be spent first).",
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
        ' choices: the die first, then where; karma actions are in the "Spend karma" menu);'
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


def _who(prompt: Prompt, owner: int, names: Sequence[str]) -> str:
    return "You" if owner == prompt.seat else names[owner]


def _fit(before: str, name: str, after: str) -> str:
    """`before + name + after`, the name shortened so that the whole is at most LABEL_MAX long."""
    room = LABEL_MAX - len(before) - len(after)
    if len(name) > room:
        name = name[: max(room - 1, 3)].rstrip() + "…"
    return before + name + after


def _vine(view: Any, owner: int, token: int) -> str:
    """A vine as "4 ⚫3 ⚫2 =2": its dice (colour marked unless red), and its value when a black
    or gold die makes it differ from the seed's face ("5 5" is worth 5)."""
    found = view.players[owner].tokens[token]
    dice = " ".join(
        ("" if d.colour.value == "red" else DIE_EMOJI[d.colour.value]) + str(d.value) for d in found.dice
    )
    return dice if found.value == found.dice[0].value else f"{dice} ={found.value}"


def _target(view: Any, owner: int, token: int) -> tuple[str, Tone]:
    """Where a die goes, without its owner: "new seed", "4 4 =4", "5 5 5 =5 harvest"."""
    dice = view.players[owner].tokens[token].dice
    if not dice:
        return "new seed", Tone.NORMAL
    if len(dice) == 3:
        return f"{_vine(view, owner, token)} harvest", Tone.GOOD
    return _vine(view, owner, token), Tone.NORMAL


def _rest(view: Any, prompt: Prompt, names: Sequence[str]) -> list[str]:
    """ "Red 5 → Bob: 4 4 =4" for each die of a forced rest (context "rest": die, owner, token
    triples in playing order, die indices as they are at each step)."""
    flat = cast(tuple[int, ...], dict(prompt.context).get("rest", ()))
    rolled = list(view.rolled)
    tokens = {
        (o, t): list(view.players[o].tokens[t].dice) for o in range(len(view.players)) for t in range(3)
    }
    parts = []
    for at in range(0, len(flat), 3):
        die, owner, token = flat[at : at + 3]
        placed = rolled.pop(die)
        vine = tokens[(owner, token)]
        where = " ".join(str(d.value) for d in vine) or "new seed"
        vine.append(placed)
        parts.append(
            f"{placed.colour.value.capitalize()} {placed.value} → {_who(prompt, owner, names)}: {where}"
        )
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

    menu_budget = MENU_BUDGET

    def __init__(self, group_by: str = "die") -> None:
        # "die": pick a die, then where it goes; "target": pick a vine, then which die (measured
        # against each other by bench/bench_tomatoes_menu.py; "die" reads and clicks less).
        self.group_by = group_by

    def choice(
        self, view: Any, prompt: Prompt, action: Action, names: Sequence[str], *, words: Words = ENGLISH
    ) -> Choice:
        # Diced Tomatoes' labels and questions are not in the catalog yet: English whatever `words` says.
        """Dice group their targets (equal dice and equal targets alike); karma folds into one menu."""
        kind = action.kind
        if kind == "roll":
            if not action.args:
                return Choice("roll", "Roll the dice", "Roll the dice", "🎲", Tone.MAIN)
            mix = [f"{action[c]} {c}" for c in ("red", "black", "gold") if action[c]]
            return Choice("roll", "Take and roll", ", ".join(mix) or "No new dice", "🎲", Tone.MAIN)
        if kind == "place":
            die, owner, token = action["die"], action["owner"], action["token"]
            colour, value = _die(view, die)
            what, tone = _target(view, owner, token)
            who = _who(prompt, owner, names)
            dice = die_label(view, die)
            where = _fit("", who, f": {what}")
            alone = _fit(f"{dice} → ", who, f": {what}")
            emoji = DIE_EMOJI.get(colour)
            if self.group_by == "target":
                # Equal targets (empty tokens of one player, equal vines of one player) play alike.
                key = f"to:{owner}:{what}"
                return Choice(key, where, dice, emoji, tone, alone)
            return Choice(f"die:{colour}{value}", dice, where, emoji, tone, alone)
        if kind == "place_rest":
            parts = _rest(view, prompt, names)
            label = "Place the rest: " + ", ".join(parts)
            if len(label) > LABEL_MAX:
                label = f"Place the rest ({len(parts)} dice)"  # the question names each die
            return Choice("rest", label, label, "⏩", Tone.MAIN)
        if kind == "end_turn":
            count = len(view.rolled)
            label = f"End turn (pass {count} {'die' if count == 1 else 'dice'})" if count else "End turn"
            return Choice("end", label, label, "⏭️", Tone.MAIN)
        if kind in KARMA_GROUPS:
            return self._karma(view, prompt, action, names)
        if kind == "clear":
            token = action["token"]
            label = f"Clear your token {token + 1} (worth {view.players[prompt.seat].tokens[token].value})"
            return Choice(f"clear:{token}", label, label, "🧹", Tone.RISKY)
        if kind == "keep":
            zero = dict(prompt.context).get("tokens")
            label = "Keep and end the turn" if zero else "End turn"
            return Choice("keep", label, label, "⏭️", Tone.MAIN)
        args = ", ".join(f"{k} {v}" for k, v in action.args)
        label = f"{kind.replace('_', ' ').capitalize()} {args}".strip()
        return Choice(f"other:{kind}", label, label)

    def _karma(self, view: Any, prompt: Prompt, action: Action, names: Sequence[str]) -> Choice:
        """A karma action, in the "Spend karma" menu, grouped by kind."""
        kind = action.kind
        name, cost, emoji = KARMA_GROUPS[kind]
        group = f"{name} ({cost})"
        verb = f"{KARMA_VERBS[kind]} ({cost}): "
        menu = f"Spend karma (you have {view.players[prompt.seat].karma}; cost in brackets)"
        if kind in ("clean", "flip"):
            owner, token = action["owner"], action["token"]
            after = f": {_vine(view, owner, token)}"
            if kind == "flip":
                seed = view.players[owner].tokens[token].dice[0].value
                after += f", seed→{7 - seed}"
            label = _fit("", _who(prompt, owner, names), after)
            alone = _fit(verb, _who(prompt, owner, names), after)
        else:
            _, value = _die(view, action["die"])
            label = die_label(view, action["die"])
            if kind == "shift":
                label += f" → {value + action['by']}"
            elif kind == "roll_over":
                label += f" → {7 - value}"
            elif kind == "set_value":
                label += f" → {action['value']}"
            alone = verb + label
        return Choice(f"karma:{kind}", group, label, emoji, Tone.RISKY, alone, menu=menu)

    def board_key(self, view: Any) -> object:
        """The vines, harvests and karma, not the dice in play: the caption and the buttons say
        the roll (a die placed changes a vine, so the board is drawn again)."""
        players = tuple((p.tokens, p.slots, p.karma, p.karma_bits) for p in view.players)
        return (players, view.first_to_six, view.final_round, view.ended)

    def starts_turn(self, event: Event) -> bool:
        """A "turn" event opens each turn (solo games included)."""
        return event.kind == "turn"

    def question(self, view: Any, prompt: Prompt, names: Sequence[str], *, words: Words = ENGLISH) -> str:
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
            if context.get("rest"):
                rest = "; ".join(_rest(view, prompt, names))
                return f"{who}: each die left fits one place only ({rest}); karma {karma}."
            if context.get("must_place"):
                return f"{who}: place your dice: choose where each one goes (karma {karma})."
            return f"{who}: no die fits; end your turn or spend karma (karma {karma})."
        if prompt.kind == "clear":
            can_spend = any(a.kind in KARMA_GROUPS for a in prompt.options)
            cap = " (above 6 is lost when your turn ends)" if karma > 6 else ""
            karma_words = f"spend karma{cap} or end your turn (karma {karma})"
            if context.get("tokens"):
                more = f"; you may also {karma_words}" if can_spend else ""
                return f"{who}: a vine of yours is worth 0 or less: clear it or keep it{more}."
            return f"{who}: dice passed; {karma_words}."
        return f"{who}: your move."

    def direct(self, group: Choice) -> bool:
        """A die's targets (or a target's dice) are one click each while the menu stays short."""
        return group.group.startswith(("die:", "to:"))

    def group_question(self, view: Any, prompt: Prompt, group: Choice, *, words: Words = ENGLISH) -> str:
        """ "Where does Red 5 go?" for a die; the karma action's name otherwise."""
        if group.group.startswith("die:"):
            return f"Where does **{group.group_label}** go?"
        if group.group.startswith("to:"):
            return f"Which die goes on **{group.group_label}**?"
        return f"**{group.group_label}**: choose."

    def select_placeholder(self, group: Choice, *, words: Words = ENGLISH) -> str:
        """ "Red 5: where to?" above a die's targets."""
        if group.group.startswith("to:"):
            return f"{group.group_label}: which die?"
        return f"{group.group_label}: where to?"

    def option_summary(self, options: Mapping[str, Scalar], *, words: Words = ENGLISH) -> str:
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
