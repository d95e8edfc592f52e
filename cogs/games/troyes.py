"""Troyes on Discord: each engine step is one row of choices labelled with what it costs and gives.

The labels read the prompt's kind, its options and its context, and fall back to plain words
for anything they do not know, so a new prompt kind of the engine still shows (plainly).
Labels are built from the public view only: a board message is seen by everyone.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cogs.games.base import Choice, GameUI, Tone
from engine.core import Action, ArgValue, Event, Outcome, Prompt, Scalar
from engine.troyes import board as city
from engine.troyes import groups, scoring
from engine.troyes.data import activities, board, characters, events
from engine.troyes.kinds import BISHOPRIC, CITY_HALL, HIDDEN, NEUTRAL, PALACE, Colour
from engine.troyes.state import Die, TroyesState
from engine.words import count, noun, signed

COLOUR_EMOJI = {"red": "🟥", "white": "⬜", "yellow": "🟨"}
BUILDING_EMOJI = ("🏰", "⛪", "🏛️")
CATHEDRAL_EMOJI = "🏗️"
EVENT_EMOJI = "⚔️"
BLACK_EMOJI = "⬛"

CUBE_WORDS = {
    "blacksmith": "+5 to the red group",
    "militiaman": "yellow dice as red",
    "templar": "1 white die as 2 red",
    "tithe": "others' yellow dice free",
    "monk": "1 white die as 3 yellow",
    "priest": "+3 to each yellow die",
    "apprenticeship": "every die counts 5",
    "confession": "+2 to every die",
}
"""What a delayed card's cube does to a group, in a few words."""

ORDINAL_SUFFIX = {1: "st", 2: "nd", 3: "rd"}

LABEL_ROOM = 80
"""Discord's limit of characters in a button or select option label."""

TURN_STARTERS = frozenset({"round", "actions"})
"""Events after which the board is a new message: a new round, and the action phase."""

RULES_TEXT = "\n".join(
    (
        "**Troyes** (2-4 players; 4, 5 or 6 rounds): build the city of Troyes with"
        " dice: your citizens in the **Palace** (red), **Bishopric** (white) and **City Hall**"
        " (yellow) each bring one die of that colour every round.",
        "",
        "**A round**: new activity cards are revealed (rounds 1-3), everyone gets 10 deniers and"
        " pays wages for their citizens, all dice are rolled into their owners' districts, events"
        " arrive, and **black dice** attack.",
        "**Black dice**: from the start player, each player in turn must beat the highest black"
        " die with the total of their own dice (red dice count double), or lose 2 VP; after the"
        " highest you may beat others. Each black die beaten gives 1 influence.",
        "",
        "**Your action** (in turn, until everyone passed or no die is left): use a group of 1-3"
        " dice of one colour; your own dice are free, another player's die costs 2 deniers"
        " per die in the group, paid to its owner.",
        " • **Activity card** of the dice's colour: total ÷ divisor = activations. Your first use"
        " hires a tradesman (pay the card's cost, place a citizen on it).",
        " • **Event**: total ÷ divisor = cubes on its banners; most cubes win it (VP, Henry I).",
        " • **Cathedral**: white dice, one cube per die in the column of its value (VP, influence).",
        " • **Building**: one die places a citizen in the row of its value, pushing the row;"
        " the last one is expelled and lies there until the round ends.",
        " • **Agriculture**: yellow dice, total ÷ 2 = deniers.",
        "Influence, one kind before each action or black die: 1 re-rolls one of your dice (again"
        " and again), 4 turns up to 3 of them over (1↔6), 2 buys a citizen. **Pass** for 2 deniers"
        " (+1 each time you are passed over).",
        "",
        "**Secrets**: your victory points and your character stay hidden; press **My hand**."
        " At the end every character scores for everyone (citizens on buildings, cathedral"
        " cubes, deniers, influence, tradesmen or events won: 1/3/6 VP).",
        "**End**: after the last round: VP + tradesmen spaces + events with your cube + characters,"
        " -2 VP per cathedral level without your cube.",
        "",
        "The printed card numbers (costs, divisors, spaces, banners) are not public: Meeple uses"
        " estimates, listed in `engine/troyes/DATA.md` (values in `engine/troyes/data/`).",
        "`/play troyes` opens a table; `tiebreak` breaks ties by deniers, then influence.",
    )
)


# -- words for the things on the board ----------------------------------------------------


def colour_word(colour: Colour | str | None) -> str:
    """ "red", "white", "yellow" (or "any colour")."""
    if colour is None:
        return "any colour"
    return colour.value if isinstance(colour, Colour) else str(colour)


def building_name(index: int) -> str:
    """ "Palace", "Bishopric" or "City Hall"."""
    return board().buildings[index].name


def owner_word(owner: int, seat: int, names: Sequence[str], *, capital: bool = True) -> str:
    """ "Your", "Ann's" or "Neutral" for a die's or citizen's owner, as `seat` reads it."""
    if owner == seat:
        return "Your" if capital else "your"
    if owner == NEUTRAL:
        return "Neutral" if capital else "neutral"
    name = names[owner] if 0 <= owner < len(names) else f"Player {owner + 1}"
    return f"{name}'s"


def find_die(view: TroyesState, die_id: ArgValue) -> Die | None:
    """A die of the city square by id (None once it is gone)."""
    return next((d for d in view.dice if d.id == die_id), None)


def citizen_owner(owner: int, seat: int, names: Sequence[str]) -> str:
    """Whose citizen is expelled, short: "your own", "a neutral", "Ann"."""
    if owner == seat:
        return "your own"
    if owner == NEUTRAL:
        return "a neutral"
    return names[owner] if 0 <= owner < len(names) else f"Player {owner + 1}"


def die_words(die: Die) -> str:
    """ "white 5"."""
    return f"{die.colour.value} {die.value}"


def card_label(view: TroyesState, index: int, seat: int, hire: int | None = None) -> str:
    """ "Merchant: yellow, divide by 3, hire 2 deniers" (or "your tradesman" once hired).

    `hire` is the engine's hire cost from the prompt; without one, the card's printed cost.
    """
    slot = view.cards[index]
    if slot.id == HIDDEN or slot.id not in activities():
        return f"Activity card {index + 1}"
    card = activities()[slot.id]
    colour = "any colour" if card.effect == "pilgrimage" else card.colour.value
    cost = card.cost if hire is None else hire
    tail = (
        "your tradesman"
        if slot.has(seat)
        else f"hire {count(cost, 'denier', 'deniers')}{bought_citizen(view, seat)}"
    )
    return f"{card.name}: {colour}, divide by {card.divisor}, {tail}"


def bought_citizen(view: TroyesState, seat: int) -> str:
    """ " + 2 influence" when the seat's supply is empty, so a new citizen must be bought (§4.2)."""
    if view.players[seat].supply > 0:
        return ""
    return f" + {board().const('citizen_cost')} influence"


def event_name(view: TroyesState, index: int) -> str:
    """An event's name, with its place among namesakes in the queue: "Brigands (2nd)"."""
    slot = view.queue[index]
    name = events()[slot.id].name
    same = [i for i, other in enumerate(view.queue) if events()[other.id].name == name]
    if len(same) < 2:
        return name
    place = same.index(index) + 1
    return f"{name} ({place}{ORDINAL_SUFFIX.get(place, 'th')})"


def banners_free(view: TroyesState, index: int) -> str:
    """ "1 of 2 banners free" for the event at `index` of the queue."""
    slot = view.queue[index]
    banners = events()[slot.id].banners
    return f"{banners - len(slot.cubes)} of {count(banners, 'banner', 'banners')} free"


def event_label(view: TroyesState, index: int) -> str:
    """ "Drought: yellow, divide by 5, 1 of 2 banners free"."""
    if not 0 <= index < len(view.queue):
        return f"Event {index + 1}"
    card = events()[view.queue[index].id]
    numbers = f"divide by {card.divisor}, {banners_free(view, index)}"
    return f"{event_name(view, index)}: {card.combat.value}, {numbers}"


def cube_label(view: TroyesState, index: int) -> str:
    """ "War (1 of 3 banners free)"."""
    if not 0 <= index < len(view.queue):
        return f"event {index + 1}"
    return f"{event_name(view, index)} ({banners_free(view, index)})"


def target_name(view: TroyesState, target: str) -> str:
    """What an action aims at, in words: "the Merchant", "the Palace", "the cathedral"."""
    kind, index = groups.target_kind(target)
    if kind == "card" and 0 <= index < len(view.cards) and view.cards[index].id in activities():
        return f"the {activities()[view.cards[index].id].name}"
    if kind == "event" and 0 <= index < len(view.queue):
        return f"the {event_name(view, index)}"
    if kind == "building" and 0 <= index < 3:
        return f"the {building_name(index)}"
    if kind == "cathedral":
        return "the cathedral"
    if kind == "agriculture":
        return "agriculture"
    return target.replace("_", " ")


def target_emoji(view: TroyesState, target: str) -> str | None:
    """The emoji of an action's target."""
    kind, index = groups.target_kind(target)
    if kind == "card" and 0 <= index < len(view.cards):
        return COLOUR_EMOJI.get(view.cards[index].colour.value)
    if kind == "building" and 0 <= index < 3:
        return BUILDING_EMOJI[index]
    return {"event": EVENT_EMOJI, "cathedral": CATHEDRAL_EMOJI, "agriculture": "🌾"}.get(kind)


def effect_of(modifier: ArgValue) -> str:
    """The effect of the delayed card whose cube modifies a group ("" for none)."""
    return activities()[str(modifier)].effect if modifier and str(modifier) in activities() else ""


# -- what an activation gives --------------------------------------------------------------


def activation_yield(view: TroyesState, seat: int, index: int, times: int) -> str:
    """What `times` activations of activity card `index` give `seat`, e.g. "pay 6 deniers, +4 VP"."""
    card = activities()[view.cards[index].id]
    n = times
    if card.delayed:
        return f"{count(n, f'{card.name} cube', f'{card.name} cubes')} to use later"
    effect = card.effect
    if effect == "miller":
        most = max(city.standing(view, PALACE, seat), city.standing(view, BISHOPRIC, seat))
        return signed(2 * most * n, "denier", "deniers")
    if effect == "glassblower":
        return f"+{city.cathedral_cubes(view, seat) // 2 * n} VP"
    if effect == "captain":
        carrying = sum(1 for slot in view.queue if seat in slot.cubes)
        return f"+{carrying * n} VP"
    if effect == "tax_collector":
        due = sum(city.standing(view, CITY_HALL, s) for s in range(view.seats) if s != seat)
        due += city.standing(view, CITY_HALL, NEUTRAL)
        return f"{signed(due * n, 'denier', 'deniers')} from City Hall"
    if effect == "chivalry":
        return f"{n}× a cube on events per red die left"
    fixed = {
        "artisan": f"pay {n} influence, {signed(6 * n, 'denier', 'deniers')}",
        "merchant": signed(2 * n, "denier", "deniers"),
        "innkeeper": f"pay {count(n, 'denier', 'deniers')}, +{n} influence",
        "journeyman": f"pay {count(3 * n, 'denier', 'deniers')}, +{2 * n} VP",
        "goldsmith": f"{signed(2 * n, 'denier', 'deniers')}, +{n} VP",
        "sculptor": f"+{n} VP",
        "pilgrimage": f"+{2 * n} VP",
        "procession": f"+{2 * n} VP to the most dice left",
        "joust": f"+{2 * n} VP if your red total left is the highest",
        "hunting": f"+{3 * n} influence",
        "mercenary": signed(3 * n, "denier", "deniers"),
        "troubadour": f"pay {3 * n} influence, +{2 * n} VP",
        "archer": f"{count(n, 'roll', 'rolls')}: 3+ puts a cube on an event",
        "diplomat": f"pay {n} influence, {count(n, 'cube', 'cubes')} on events",
    }
    if effect in fixed:
        return fixed[effect]
    return f"{n}× {card.text.rstrip('.')}"


def group_result(
    view: TroyesState, seat: int, target: str, modifier: str, dice: Sequence[Die], names: Sequence[str]
) -> str:
    """What the chosen dice do on `target`, e.g. "3 activations: +6 deniers"."""
    kind, index = groups.target_kind(target)
    effect = effect_of(modifier)
    got = groups.yield_of(view, target, effect, dice)
    if kind == "card" and 0 <= index < len(view.cards) and view.cards[index].id in activities():
        return f"{count(got, 'activation', 'activations')}: {activation_yield(view, seat, index, got)}"
    if kind == "event":
        return f"{count(got, 'cube', 'cubes')} on {target_name(view, target)}"
    if kind == "cathedral":
        columns = ", ".join(str(v) for v in groups.values(dice, effect))
        return f"build in {noun(len(dice), 'column', 'columns')} {columns}"
    if kind == "building" and dice:
        value = groups.values(dice, effect)[0]
        _, expelled = city.entry_result(view, index, value)
        out = f"enter with a {value}"
        if expelled is None:
            return out
        return f"{out}, expelling {citizen_owner(expelled, seat, names)}"
    if kind == "agriculture":
        return signed(got, "denier", "deniers")
    return count(got, "use", "uses")


def die_outcome(
    view: TroyesState, seat: int, target: str, modifier: str, group: Sequence[Die], names: Sequence[str]
) -> str:
    """What the group would give with this die last, e.g. " → 2 activations" ("" when nothing yet)."""
    kind, index = groups.target_kind(target)
    effect = effect_of(modifier)
    got = groups.yield_of(view, target, effect, group)
    if kind == "building":
        _, expelled = city.entry_result(view, index, groups.values(group, effect)[0])
        return "" if expelled is None else f" → expels {citizen_owner(expelled, seat, names)}"
    if got < 1 or kind == "cathedral":
        return ""
    if kind == "card":
        return f" → {count(got, 'activation', 'activations')}"
    if kind == "event":
        return f" → {count(got, 'cube', 'cubes')}"
    return f" → {signed(got, 'denier', 'deniers')}" if kind == "agriculture" else ""


def stated(prompt: Prompt, action: Action, key: str) -> int:
    """The engine's per-option figure `key` of the prompt's context for `action` (0 when absent)."""
    values = _context(prompt).get(key)
    if not isinstance(values, tuple) or action not in prompt.options:
        return 0
    place = prompt.options.index(action)
    return int(values[place]) if place < len(values) else 0


def paid_so_far(prompt: Prompt) -> int:
    """The engine's price of the dice chosen so far in a group (0 when it says nothing)."""
    paid = _context(prompt).get("paid", 0)
    return paid if isinstance(paid, int) else 0


def spend_words(prompt: Prompt, action: Action) -> str:
    """What the engine says choosing `action` takes now: "pay 8 deniers and 2 influence" ("" if nothing)."""
    deniers = stated(prompt, action, "spend_deniers")
    influence = stated(prompt, action, "spend_influence")
    parts = [count(deniers, "denier", "deniers")] if deniers else []
    if influence:
        parts.append(f"{influence} influence")
    return f"pay {', '.join(parts)}" if parts else ""


# -- the mapping -------------------------------------------------------------------------


def _alone(key: str, label: str, emoji: str | None = None, tone: Tone = Tone.NORMAL) -> Choice:
    """An option that is its own group: one click plays it."""
    return Choice(key, label, label, emoji, tone)


def _context(prompt: Prompt) -> dict[str, ArgValue]:
    return dict(prompt.context)


def _chosen(view: TroyesState, prompt: Prompt) -> list[Die]:
    ids = _context(prompt).get("chosen", ())
    found = [find_die(view, i) for i in (ids if isinstance(ids, tuple) else (ids,))]
    return [d for d in found if d is not None]


class TroyesUI(GameUI):
    """How Troyes' prompts appear as buttons and selects."""

    game_id = "troyes"
    title = "Troyes"
    emoji = "🏰"
    rules_text = RULES_TEXT
    breakdown_labels = (
        ("VP tokens", "VP"),
        ("Tradesmen spaces", "tradesmen"),
        ("Uncountered events with a cube", "events"),
        ("Cathedral levels missing", "cathedral"),
    )
    breakdown_hidden = frozenset({"Total"})

    def choice(self, view: Any, prompt: Prompt, action: Action, names: Sequence[str]) -> Choice:
        """Every option is one click; its label says what it costs and what it gives."""
        kind, seat = action.kind, prompt.seat
        if kind == "back":
            return _alone("back", "Back", "⬅️")
        if kind == "pass":
            money = board().const("pass_deniers")
            return _alone("pass", f"Pass ({signed(money, 'denier', 'deniers')})", "⏭️", Tone.MAIN)
        if kind == "reroll":
            return _alone("reroll", f"Re-roll a die ({board().const('reroll_cost')} influence)", "🔄")
        if kind == "flip":
            return _alone("flip", f"Turn up to 3 dice over ({board().const('flip_cost')} influence)", "🔃")
        if kind == "citizen":
            pay = spend_words(prompt, action) or f"{board().const('citizen_cost')} influence"
            return _alone("citizen", f"New citizen ({pay})", "🧍")
        if kind == "target":
            hire = stated(prompt, action, "hire") if "hire" in _context(prompt) else None
            return self._target(view, seat, str(action["t"]), hire)
        if kind == "place":
            b, s = int(action["building"]), int(action["space"])
            return _alone(f"place:{b}:{s}", f"{building_name(b)}, space {s + 1}", BUILDING_EMOJI[b])
        if kind == "die":
            return self._die(view, prompt, action, names)
        if kind == "done":
            return self._done(view, prompt, names)
        if kind == "modifier":
            card = str(action["card"])
            if not card:
                return _alone("modifier:", "No cube", "▫️")
            spec = activities()[card]
            what = CUBE_WORDS.get(spec.effect, spec.text.rstrip("."))
            return _alone(f"modifier:{card}", f"Use a {spec.name} cube ({what})", "🧊")
        if kind == "source":
            return self._source(view, prompt, str(action["s"]), names)
        if kind == "activations":
            return self._activations(view, prompt, int(action["n"]))
        if kind == "event":
            index = int(action["index"])
            if prompt.kind in ("cube_on_event", "event_cube"):
                label = f"Cube on {cube_label(view, index)}"
            else:
                label = event_label(view, index)
            return _alone(f"event:{index}", label, EVENT_EMOJI)
        if kind == "concede":
            loss = -board().const("black_failure_vp")
            return _alone("concede", f"Do not counter (lose {loss} VP)", BLACK_EMOJI, Tone.RISKY)
        if kind == "black":
            return _alone(f"black:{action['value']}", f"Counter a black {action['value']} too", BLACK_EMOJI)
        if kind == "stop":
            label = "Stop countering" if prompt.kind.startswith("counter") else "Stop"
            return _alone("stop", label, "⏹️", Tone.MAIN)
        words = ", ".join(f"{k} {v}" for k, v in action.args)
        label = f"{kind.replace('_', ' ').capitalize()} {words}".strip()
        return _alone(f"other:{kind}:{words}", label)

    def _target(self, view: TroyesState, seat: int, target: str, hire: int | None = None) -> Choice:
        kind, index = groups.target_kind(target)
        emoji = target_emoji(view, target)
        if kind == "card":
            label = card_label(view, index, seat, hire)
        elif kind == "event":
            label = f"Fight {event_label(view, index)}" if index >= 0 else "Fight an event"
        elif kind == "cathedral":
            label = "Build in the cathedral (white dice)"
        elif kind == "building":
            colour = colour_word(board().buildings[index].colour)
            label = f"Citizen in the {building_name(index)} ({colour} die{bought_citizen(view, seat)})"
        elif kind == "agriculture":
            label = f"Agriculture: yellow, divide by {board().const('agriculture_divisor')} for deniers"
        else:
            label = target_name(view, target).capitalize()
        return _alone(f"target:{target}", label, emoji)

    def _die(self, view: TroyesState, prompt: Prompt, action: Action, names: Sequence[str]) -> Choice:
        seat = prompt.seat
        die = find_die(view, action["id"])
        if die is None:
            return _alone(f"die:{action['id']}", f"Die {action['id']}")
        emoji = COLOUR_EMOJI.get(die.colour.value)
        whose = owner_word(die.owner, seat, names)
        if prompt.kind == "reroll":
            pay = spend_words(prompt, action)
            return _alone(
                f"die:{die.id}", f"Re-roll your {die_words(die)}" + (f" ({pay})" if pay else ""), emoji
            )
        if prompt.kind == "flip":
            return _alone(f"die:{die.id}", f"Turn over your {die_words(die)} (→ {7 - die.value})", emoji)
        label = f"{whose} {die_words(die)}"
        if prompt.kind == "counter":
            if die.colour is Colour.RED:
                label += f" (counts {2 * die.value})"
            return _alone(f"die:{die.id}", label, emoji)
        chosen = _chosen(view, prompt)
        modifier = str(_context(prompt).get("modifier", "") or "")
        # The engine's price of the whole group once this die joins it (one per option).
        group = stated(prompt, action, "prices")
        if group != paid_so_far(prompt):
            label += f" (the group costs {count(group, 'denier', 'deniers')})"
        elif die.owner != seat:
            label += " (free: Tithe)" if effect_of(modifier) == "tithe" else ""
        target = str(_context(prompt).get("target", ""))
        if target:
            label += die_outcome(view, seat, target, modifier, [*chosen, die], names)
        return _alone(f"die:{die.id}", label, emoji)

    def _done(self, view: TroyesState, prompt: Prompt, names: Sequence[str]) -> Choice:
        context = _context(prompt)
        if prompt.kind == "flip":
            pay = spend_words(prompt, Action("done")) or f"{board().const('flip_cost')} influence"
            return _alone("done", f"Turn them over ({pay})", "🔃", Tone.MAIN)
        target = str(context.get("target", ""))
        if target:
            result = group_result(
                view,
                prompt.seat,
                target,
                str(context.get("modifier", "") or ""),
                _chosen(view, prompt),
                names,
            )
            pay = spend_words(prompt, Action("done"))
            label = f"Done: {result}" + (f"; {pay}" if pay else "")
            if len(label) > LABEL_ROOM:
                # The price must show: the yield's details give way ("2 activations" stays).
                label = f"Done: {result.split(':')[0]}" + (f"; {pay}" if pay else "")
            return _alone("done", label, "✅", Tone.GOOD)
        return _alone("done", "Done", "✅", Tone.GOOD)

    def _source(self, view: TroyesState, prompt: Prompt, source: str, names: Sequence[str]) -> Choice:
        pay = spend_words(prompt, Action.of("source", s=source))
        tail = f" ({pay})" if pay else ""
        parts = source.split(":")
        if source == "supply":
            return _alone("source:supply", f"From your supply{tail}", "🧍", Tone.MAIN)
        if source == "new":
            return _alone("source:new", f"Buy one{tail}", "🧍")
        if parts[0] == "b" and len(parts) == 3:
            label = f"Move your citizen from the {building_name(int(parts[1]))}, space {int(parts[2]) + 1}"
        elif parts[0] == "c" and len(parts) == 2:
            label = f"Move your tradesman from {target_name(view, f'card:{parts[1]}')}"
        elif parts[0] == "l" and len(parts) == 2:
            label = f"Your citizen lying on the {building_name(int(parts[1]))}"
        else:
            label = f"Citizen from {source}"
        return _alone(f"source:{source}", label + tail, "🧍")

    def _activations(self, view: TroyesState, prompt: Prompt, times: int) -> Choice:
        context = _context(prompt)
        target = str(context.get("target", ""))
        kind, index = groups.target_kind(target)
        told = context.get("yields", ())
        if isinstance(told, tuple) and 0 < times <= len(told):
            # The engine's own words for what this many activations give.
            label = f"{times}×: {told[times - 1]}"
        elif kind == "card" and 0 <= index < len(view.cards) and view.cards[index].id in activities():
            label = f"{times}×: {activation_yield(view, prompt.seat, index, times)}"
        else:
            label = f"{times}×"
        pay = spend_words(prompt, Action.of("activations", n=times))
        if pay:
            label += f"; in all: {pay}"
        return _alone(f"activations:{times}", label, None, Tone.GOOD if times > 1 else Tone.NORMAL)

    def question(self, view: Any, prompt: Prompt, names: Sequence[str]) -> str:
        """What the player to move is asked, with the facts the choice depends on."""
        seat = prompt.seat
        who = f"**{names[seat]}**"
        context = _context(prompt)
        target = str(context.get("target", ""))
        chosen = _chosen(view, prompt)
        picked = ", ".join(die_words(d) for d in chosen)
        kind = prompt.kind
        if kind == "setup_place":
            return f"{who}: place one of your citizens on a free space of a building."
        if kind == "turn":
            player = view.players[seat]
            money = count(player.deniers, "denier", "deniers")
            return (
                f"{who}: your action (round {view.round}). You have {money},"
                f" {player.influence} influence, {count(player.supply, 'citizen', 'citizens')} in supply."
            )
        if kind == "counter":
            black = context.get("black", "?")
            have = f" Chosen: {picked} (strength {sum_strength(chosen)})." if chosen else ""
            return f"{who}: counter the black {black} with your own dice (red counts double).{have}"
        if kind == "counter_more":
            return f"{who}: you may counter another black die."
        if kind == "dice":
            place = target_name(view, target)
            modifier = str(context.get("modifier", "") or "")
            cube = f" with a {activities()[modifier].name} cube" if modifier in activities() else ""
            if chosen:
                result = group_result(view, seat, target, modifier, chosen, names)
                paid = paid_so_far(prompt)
                return (
                    f"{who}: dice for {place}{cube}. Chosen: {picked} ({result});"
                    f" the dice cost {count(paid, 'denier', 'deniers')} so far. Add a die or finish."
                )
            money = view.players[seat].deniers
            price = count(board().const("die_price"), "denier", "deniers")
            return (
                f"{who}: choose dice for {place}{cube} (yours are free; another's die costs"
                f" {price} per die in the group; you have {money})."
            )
        if kind == "modifier":
            return f"{who}: use one of your cubes on {target_name(view, target)}?"
        if kind == "citizen_from":
            return f"{who}: where does the citizen for {target_name(view, target)} come from?"
        if kind == "activations":
            return f"{who}: how many activations of {target_name(view, target)}?"
        if kind == "fight_which":
            return f"{who}: which event do you fight?"
        if kind in ("cube_on_event", "event_cube"):
            left = context.get("left", 1)
            return f"{who}: put a cube on an event ({left} to place)."
        if kind == "reroll":
            return f"{who}: which of your dice do you re-roll ({board().const('reroll_cost')} influence)?"
        if kind == "flip":
            have = f" Chosen: {picked}." if chosen else ""
            return f"{who}: choose up to 3 of your dice to turn over.{have}"
        return f"{who}: your move."

    def starts_turn(self, event: Event) -> bool:
        """A new round and the start of the actions get a new board message."""
        return event.kind in TURN_STARTERS

    def private_text(self, view: Any, seat: int, names: Sequence[str]) -> str:
        """The seat's victory points and character cards, which nobody else sees."""
        player = view.players[seat]
        lines = [f"🏆 Your victory points: **{player.vp}**"]
        for card_id in player.characters:
            card = characters().get(card_id)
            if card is None:
                continue
            offset = card.two_player_offset if view.seats == 2 else 0
            steps = "/".join(str(t + offset) for t in card.thresholds)
            vp = "/".join(str(v) for v in card.vp)
            now = scoring.metric(view, seat, card.metric)
            lines.append(
                f"🎭 Your character: **{card.name}**: at the end everyone scores {vp} VP for"
                f" {steps} {METRIC_WORDS.get(card.metric, card.metric.replace('_', ' '))}"
                f" (you: {now} now, {scoring.character_vp(view, seat, card)} VP)."
            )
        cubes = ", ".join(
            f"{activities()[c].name} ×{n}" for c, n in sorted(player.cubes.items()) if c in activities()
        )
        if cubes:
            lines.append(f"🧊 Your cubes: {cubes}")
        return "\n".join(lines)

    def option_summary(self, options: Mapping[str, Scalar]) -> str:
        """The tie rule in play."""
        if options.get("tiebreak"):
            return "Ties are broken by deniers, then influence"
        return "Tied players share the victory"

    def final_reveal(self, view: Any, names: Sequence[str]) -> str:
        """Each player's character cards, secret until now."""
        parts = []
        for seat, player in enumerate(view.players):
            held = [characters()[c].name for c in player.characters if c in characters()]
            if held:
                name = names[seat] if seat < len(names) else f"Player {seat + 1}"
                parts.append(f"**{name}**: {', '.join(held)}")
        return "🎭 Characters: " + " · ".join(parts) if parts else ""

    def result_line(self, outcome: Outcome) -> str:
        """Nothing more: the scores name the winners (the engine's summary says "Player N")."""
        return ""


METRIC_WORDS = {
    "citizens_on_buildings": "citizens on buildings",
    "cathedral_cubes": "cubes in the cathedral",
    "deniers": "deniers",
    "influence": "influence",
    "tradesmen": "tradesmen on activity cards",
    "events_taken": "events won",
}
"""A character's metric in words."""


def sum_strength(dice: Sequence[Die]) -> int:
    """Countering strength: red dice count double."""
    return sum(d.value * (2 if d.colour is Colour.RED else 1) for d in dice)


UI = TroyesUI()
