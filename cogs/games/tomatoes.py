"""Diced Tomatoes on Discord: a button per die and target while they fit (else dice first, then
where they go); karma actions grouped by kind."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

from cogs.games.base import Choice, GameUI, Tone
from engine.core import Action, Event, Outcome, Prompt, Scalar
from engine.tomatoes import scoring
from engine.tomatoes.text import solo_result
from engine.words import ENGLISH, N_, Words

DIE_EMOJI = {"red": "🔴", "black": "⚫", "gold": "🟡"}

KARMA_GROUPS: dict[str, tuple[str, int, str]] = {
    "reroll": (N_("Re-roll a die"), 1, "🔄"),
    "shift": (N_("Shift a die ±1"), 2, "↕️"),
    "clean": (N_("Clean a vine"), 3, "🧹"),
    "roll_over": (N_("Roll over 1↔6"), 4, "🔃"),
    "flip": (N_("Flip a seed"), 5, "🔁"),
    "set_value": (N_("Set a die"), 6, "🎯"),
}
"""Karma action kind -> (label, cost, emoji); the costs are those of rules section 8.4."""
KARMA_VERBS = {
    "reroll": N_("Re-roll"),
    "shift": N_("Shift"),
    "clean": N_("Clean"),
    "roll_over": N_("Roll over"),
    "flip": N_("Flip"),
    "set_value": N_("Set"),
}
"""The short name of a karma action in a label that also names its die or vine."""

LABEL_MAX = 40
"""No label of a turn's menu is longer (a phone shows about this much on a button)."""
MENU_BUDGET = 10
"""At most this many components to read on a screen of a turn (issue 33: a phone user scanned
up to 20 long die -> target buttons before every placement)."""

RULES_TEXT = N_(
    "**Diced Tomatoes** (1-6 players): grow tomato vines from dice and harvest them.\n"
    "\n"
    "**Your turn**\n"
    "1. **Roll**: take 3 dice from the shared bushel and roll them with any dice passed to you.\n"
    "2. **Place** every die that fits (you must, while one fits):\n"
    " • a **red** die can be a **seed** on any empty tomato token, yours or an opponent's;\n"
    " • any die can join a vine (yours or theirs) if the vine stays a **set** (5-5-5)"
    " or a **run** (3-4-5; 6 and 1 are not neighbours).\n"
    "3. Dice that fit nowhere are **passed** to the next player, and the turn ends (karma"
    " earned for them may still be spent first).\n"
    "\n"
    "**Harvest**: a vine's 4th die harvests it. The seed goes to the **owner's** next score slot,"
    " worth its pips **-1 per black die, +1 per gold die**. Worth more than 6 is overripe:"
    " cleared for nothing. At the end of a turn overripe vines are cleared, and you may clear"
    " your own vines worth 0 or less.\n"
    "**Dicey Tomato Rules**: a harvest whose value equals its slot number is topped up to 7"
    " points and earns a ★.\n"
    "\n"
    "**Karma** (start 3, max 6; up to 12 during your own turn): earn it by completing an"
    " opponent's vine (Karma Overload: as much as its value) and from karma bits (1 per die"
    " you place on an opponent's vine or pass; 3 bits = 1 karma). Spend it at any time in your"
    " turn, before you roll too (then on vines only):\n"
    " 1 re-roll a die · 2 shift a die by 1 · 3 clean any vine · 4 turn a 1 into a 6 or a 6"
    " into a 1 · 5 flip a seed to its opposite face · 6 set a die to any value.\n"
    "\n"
    "**End**: the first to harvest 6 tomatoes gets +2 and starts the final round (everyone"
    " gets the same number of turns). The game also ends when the bushel is empty at the"
    " start of a turn.\n"
    "**Score**: harvests + bonuses + 1 per 2 karma + 1 per 3 red dice on your unfinished vines.\n"
    "**Solo**: harvest all 6 tomatoes before the dice run out; slots matching their number count.\n"
    "\n"
    "`/play tomatoes` opens a table. On your turn press where a die goes (with many"
    ' choices: the die first, then where; karma actions are in the "Spend karma" menu);'
    " ↩️ Undo takes back your moves until the next roll."
)


def _die(view: Any, index: int) -> tuple[str, int]:
    die = view.rolled[index]
    return die.colour.value, die.value


COLOUR_NAMES = {"red": N_("Red"), "black": N_("Black"), "gold": N_("Gold")}
"""A die colour's name at the start of a label."""


def die_words(colour: str, value: int, words: Words = ENGLISH) -> str:
    """ "Red 5"."""
    return words.gettext(
        "{colour} {value}", colour=words.gettext(COLOUR_NAMES.get(colour, colour)), value=value
    )


def die_label(view: Any, index: int, words: Words = ENGLISH) -> str:
    """ "Red 5" for rolled die `index`."""
    colour, value = _die(view, index)
    return die_words(colour, value, words)


def _who(prompt: Prompt, owner: int, names: Sequence[str], words: Words = ENGLISH) -> str:
    return words.gettext("You") if owner == prompt.seat else names[owner]


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


def _target(view: Any, owner: int, token: int, words: Words = ENGLISH) -> tuple[str, Tone]:
    """Where a die goes, without its owner: "new seed", "4 4 =4", "5 5 5 =5 harvest"."""
    dice = view.players[owner].tokens[token].dice
    if not dice:
        return words.gettext("new seed"), Tone.NORMAL
    if len(dice) == 3:
        return words.gettext("{vine} harvest", vine=_vine(view, owner, token)), Tone.GOOD
    return _vine(view, owner, token), Tone.NORMAL


def _rest(view: Any, prompt: Prompt, names: Sequence[str], words: Words = ENGLISH) -> list[str]:
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
        where = " ".join(str(d.value) for d in vine) or words.gettext("new seed")
        vine.append(placed)
        said = die_words(placed.colour.value, placed.value, words)
        parts.append(f"{said} → {_who(prompt, owner, names, words)}: {where}")
    return parts


class TomatoesUI(GameUI):
    """How Diced Tomatoes' prompts appear as buttons."""

    game_id = "tomatoes"
    title = N_("Diced Tomatoes")
    emoji = "🍅"
    rules_text = RULES_TEXT
    breakdown_labels = (
        ("harvests", N_("harvests")),
        ("slot bonuses", N_("slot bonuses")),
        ("first to six", N_("first to six")),
        ("karma", N_("karma")),
        ("unfinished vines", N_("vines")),
        ("tomatoes", N_("tomatoes")),
        ("matched slots", N_("matched slots")),
    )

    menu_budget = MENU_BUDGET

    def __init__(self, group_by: str = "die") -> None:
        # "die": pick a die, then where it goes; "target": pick a vine, then which die (measured
        # against each other by bench/bench_tomatoes_menu.py; "die" reads and clicks less).
        self.group_by = group_by

    def choice(
        self, view: Any, prompt: Prompt, action: Action, names: Sequence[str], *, words: Words = ENGLISH
    ) -> Choice:
        """Dice group their targets (equal dice and equal targets alike); karma folds into one menu."""
        w = words
        kind = action.kind
        if kind == "roll":
            if not action.args:
                roll = w.gettext("Roll the dice")
                return Choice("roll", roll, roll, "🎲", Tone.MAIN)
            mix = [
                w.gettext("{count} {colour}", count=action[c], colour=w.gettext(c))
                for c in (N_("red"), N_("black"), N_("gold"))
                if action[c]
            ]
            took = ", ".join(mix) or w.gettext("No new dice")
            return Choice("roll", w.gettext("Take and roll"), took, "🎲", Tone.MAIN)
        if kind == "place":
            die, owner, token = action["die"], action["owner"], action["token"]
            colour, value = _die(view, die)
            what, tone = _target(view, owner, token, w)
            who = _who(prompt, owner, names, w)
            dice = die_label(view, die, w)
            where = _fit("", who, f": {what}")
            alone = _fit(f"{dice} → ", who, f": {what}")
            emoji = DIE_EMOJI.get(colour)
            if self.group_by == "target":
                # Equal targets (empty tokens of one player, equal vines of one player) play alike.
                key = f"to:{owner}:{_target(view, owner, token)[0]}"
                return Choice(key, where, dice, emoji, tone, alone)
            return Choice(f"die:{colour}{value}", dice, where, emoji, tone, alone)
        if kind == "place_rest":
            parts = _rest(view, prompt, names, w)
            label = w.gettext("Place the rest: {dice}", dice=", ".join(parts))
            if len(label) > LABEL_MAX:
                # The question names each die.
                label = w.ngettext(
                    "Place the rest ({count} die)", "Place the rest ({count} dice)", len(parts)
                )
            return Choice("rest", label, label, "⏩", Tone.MAIN)
        if kind == "end_turn":
            passing = len(view.rolled)
            if passing:
                label = w.ngettext("End turn (pass {count} die)", "End turn (pass {count} dice)", passing)
            else:
                label = w.gettext("End turn")
            return Choice("end", label, label, "⏭️", Tone.MAIN)
        if kind in KARMA_GROUPS:
            return self._karma(view, prompt, action, names, w)
        if kind == "clear":
            token = action["token"]
            label = w.gettext(
                "Clear your token {token} (worth {value})",
                token=token + 1,
                value=view.players[prompt.seat].tokens[token].value,
            )
            return Choice(f"clear:{token}", label, label, "🧹", Tone.RISKY)
        if kind == "keep":
            zero = dict(prompt.context).get("tokens")
            label = w.gettext("Keep and end the turn") if zero else w.gettext("End turn")
            return Choice("keep", label, label, "⏭️", Tone.MAIN)
        args = ", ".join(f"{k} {v}" for k, v in action.args)
        label = f"{kind.replace('_', ' ').capitalize()} {args}".strip()
        return Choice(f"other:{kind}", label, label)

    def _karma(
        self, view: Any, prompt: Prompt, action: Action, names: Sequence[str], w: Words = ENGLISH
    ) -> Choice:
        """A karma action, in the "Spend karma" menu, grouped by kind."""
        kind = action.kind
        name, cost, emoji = KARMA_GROUPS[kind]
        group = f"{w.gettext(name)} ({cost})"
        verb = f"{w.gettext(KARMA_VERBS[kind])} ({cost}): "
        menu = w.gettext(
            "Spend karma (you have {karma}; cost in brackets)", karma=view.players[prompt.seat].karma
        )
        if kind in ("clean", "flip"):
            owner, token = action["owner"], action["token"]
            after = f": {_vine(view, owner, token)}"
            if kind == "flip":
                seed = view.players[owner].tokens[token].dice[0].value
                after += w.gettext(", seed→{value}", value=7 - seed)
            label = _fit("", _who(prompt, owner, names, w), after)
            alone = _fit(verb, _who(prompt, owner, names, w), after)
        else:
            _, value = _die(view, action["die"])
            label = die_label(view, action["die"], w)
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
        w = words
        context = dict(prompt.context)
        who = f"**{names[prompt.seat]}**"
        karma = view.players[prompt.seat].karma
        if prompt.kind == "roll":
            held = context.get("held", 0)
            asked = context.get("take", 0)
            take = asked if isinstance(asked, int) else 0
            left = ", ".join(
                w.gettext("{count} {colour}", count=context.get(f"bushel_{c}", 0), colour=w.gettext(c))
                for c in (N_("red"), N_("black"), N_("gold"))
                if context.get(f"bushel_{c}", 0)
            )
            if not held:
                ask = w.ngettext(
                    "{who}: take {count} die and roll.", "{who}: take {count} dice and roll.", take, who=who
                )
            elif len(view.players) == 1:
                ask = w.ngettext(
                    "{who}: take {count} die plus the {held} kept from your last turn and roll.",
                    "{who}: take {count} dice plus the {held} kept from your last turn and roll.",
                    take,
                    who=who,
                    held=held,
                )
            else:
                ask = w.ngettext(
                    "{who}: take {count} die plus the {held} passed to you and roll.",
                    "{who}: take {count} dice plus the {held} passed to you and roll.",
                    take,
                    who=who,
                    held=held,
                )
            bushel = w.gettext("Bushel: {dice}.", dice=left) if left else w.gettext("Bushel: empty.")
            if any(a.kind != "roll" for a in prompt.options):
                spend = w.gettext("You may spend karma on a vine first (karma {karma}).", karma=karma)
                return f"{ask} {bushel} {spend}"
            return f"{ask} {bushel}"
        if prompt.kind == "place":
            if context.get("rest"):
                rest = "; ".join(_rest(view, prompt, names, w))
                return w.gettext(
                    "{who}: each die left fits one place only ({rest}); karma {karma}.",
                    who=who,
                    rest=rest,
                    karma=karma,
                )
            if context.get("must_place"):
                return w.gettext(
                    "{who}: place your dice: choose where each one goes (karma {karma}).",
                    who=who,
                    karma=karma,
                )
            return w.gettext(
                "{who}: no die fits; end your turn or spend karma (karma {karma}).", who=who, karma=karma
            )
        if prompt.kind == "clear":
            can_spend = any(a.kind in KARMA_GROUPS for a in prompt.options)
            if karma > 6:
                karma_words = w.gettext(
                    "spend karma (above 6 is lost when your turn ends) or end your turn (karma {karma})",
                    karma=karma,
                )
            else:
                karma_words = w.gettext("spend karma or end your turn (karma {karma})", karma=karma)
            if context.get("tokens"):
                if can_spend:
                    return w.gettext(
                        "{who}: a vine of yours is worth 0 or less: clear it or keep it;"
                        " you may also {spend}.",
                        who=who,
                        spend=karma_words,
                    )
                return w.gettext("{who}: a vine of yours is worth 0 or less: clear it or keep it.", who=who)
            return w.gettext("{who}: dice passed; {spend}.", who=who, spend=karma_words)
        return w.gettext("{who}: your move.", who=who)

    def direct(self, group: Choice) -> bool:
        """A die's targets (or a target's dice) are one click each while the menu stays short."""
        return group.group.startswith(("die:", "to:"))

    def group_question(self, view: Any, prompt: Prompt, group: Choice, *, words: Words = ENGLISH) -> str:
        """ "Where does Red 5 go?" for a die; the karma action's name otherwise."""
        if group.group.startswith("die:"):
            return words.gettext("Where does **{die}** go?", die=group.group_label)
        if group.group.startswith("to:"):
            return words.gettext("Which die goes on **{vine}**?", vine=group.group_label)
        return words.gettext("**{group}**: choose.", group=group.group_label)

    def select_placeholder(self, group: Choice, *, words: Words = ENGLISH) -> str:
        """ "Red 5: where to?" above a die's targets."""
        if group.group.startswith("to:"):
            return words.gettext("{vine}: which die?", vine=group.group_label)
        return words.gettext("{die}: where to?", die=group.group_label)

    def option_summary(self, options: Mapping[str, Scalar], *, words: Words = ENGLISH) -> str:
        """The variants in play."""
        names = {
            "golden_hybrid": N_("Sunny Golden Hybrid"),
            "dicey_rules": N_("Dicey Tomato Rules"),
            "karma_overload": N_("Karma Overload"),
            "pick_colours": N_("players pick dice colours"),
        }
        on = [words.gettext(label) for key, label in names.items() if options.get(key)]
        if not on:
            return words.gettext("Variants: none (base game)")
        return words.gettext("Variants: {variants}", variants=", ".join(on))

    def result_line(self, outcome: Outcome, view: Any, *, words: Words = ENGLISH) -> str:
        """The solo result; in multiplayer the scores already say it all."""
        if len(outcome.scores) != 1:
            return ""
        player = view.players[0]
        return solo_result(scoring.matched_slots(player), len(player.slots), words)


UI = TomatoesUI()
