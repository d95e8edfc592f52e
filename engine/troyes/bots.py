"""Troyes bots: random, and the greedy judgement behind the `easy` and `normal` levels (hard: hard.py)."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from engine.core import Action, MistakeBot, Prompt
from engine.rng import Rng
from engine.troyes import groups
from engine.troyes.actions import BOUGHT, SUPPLY, can_target, own_dice, sources, strength, usable_modifiers
from engine.troyes.board import cathedral_cubes, entry_result, standing
from engine.troyes.cards import COUNTING, STEPPED, affordable
from engine.troyes.data import activities, board, by_effect, events
from engine.troyes.eventcards import rewards
from engine.troyes.kinds import BISHOPRIC, CITY_HALL, NEUTRAL, PALACE, Colour, StepKind
from engine.troyes.state import Die, TroyesState

_BACK = Action("back")
_PASS = Action("pass")
DENIER = 0.25
INFLUENCE = 0.3
LATE_DENIER = 0.06
"""A denier in the last round: money left at the end scores nothing."""
LATE_INFLUENCE = 0.1
"""Influence in the last round or near the cap of 20."""
DENIERS_CHARACTER = "C3"
INFLUENCE_CHARACTER = "C4"
"""Characters that count deniers and influence at the end (their ids in characters.json)."""
DIE = 0.15
"""What keeping a die for another action is worth, in VP."""
BUILDING_INCOME = 0.8
"""What a citizen in a building is worth per round still to come (its die), in VP before wages."""
CUBE = 0.4
"""What a cube on an event is worth beyond its influence, in VP."""
MODIFIER = 0.6
"""What spending a delayed card's cube costs, in VP."""
NOTHING = float("-inf")


class RandomTroyesBot:
    """Any legal option, uniformly, except backing out of a started action when it can go on."""

    def choose(self, view: TroyesState, prompt: Prompt, rng: Rng) -> Action:
        """Return a random option."""
        forward = [o for o in prompt.options if o != _BACK] or list(prompt.options)
        return rng.choice(forward)


EASY_MISTAKES = 0.25
"""Share of an easy bot's decisions taken at random."""


def easy_bot() -> MistakeBot[TroyesState]:
    """The `easy` level: the normal judgement, no rerolls or flips, and a random slip now and then."""
    return MistakeBot(GreedyBot(tinker=False), EASY_MISTAKES)


class GreedyBot:
    """Takes the action worth most VP now by an estimate of deniers, influence and dice.

    With `tinker` it also spends influence on rerolls and flips when they pay: to reach a
    better action, or to counter a black die it would otherwise lose 2 VP to.
    """

    def __init__(self, tinker: bool = True) -> None:
        self.tinker = tinker

    def choose(self, view: TroyesState, prompt: Prompt, rng: Rng) -> Action:
        """Return the option of the best-valued plan for this prompt."""
        choice = self._choose(view, prompt)
        if choice.kind == "die" and choice not in prompt.options:
            choice = _twin(view, choice["id"], prompt.options) or choice
        return choice if choice in prompt.options else prompt.default or prompt.options[0]

    def _choose(self, view: TroyesState, prompt: Prompt) -> Action:
        seat = prompt.seat
        kind = prompt.kind
        if kind == "setup_place":
            return _setup_choice(view, seat, prompt.options)
        if kind == "turn":
            best = best_plan(view, seat, _targets(prompt.options))
            now = pass_value(view, seat) if best is None else max(best[0], pass_value(view, seat))
            if self.tinker:
                fix = dice_fix(view, seat, now)
                if fix is not None and Action(fix[0]) in prompt.options:
                    return Action(fix[0])
            if best is None or best[0] <= pass_value(view, seat):
                return _PASS
            return Action.of("target", t=_menu_target(best[1], prompt.options))
        if kind in ("reroll", "flip"):
            return _fix_choice(view, seat, kind, prompt.options)
        step = view.stack[-1]
        if kind == "fight_which":
            targets = [f"event:{o['index']}" for o in prompt.options if o.kind == "event"]
            best = best_plan(view, seat, targets)
            return _BACK if best is None else Action.of("event", index=groups.target_kind(best[1])[1])
        if kind == "modifier":
            best = best_plan(view, seat, [step.target])
            return _BACK if best is None else Action.of("modifier", card=best[2])
        if kind == "dice":
            return _next_die(view, seat, step.target, step.modifier, step.dice)
        if kind == "citizen_from":
            return Action.of(
                "source", s=_best_source(view, seat, [o["s"] for o in prompt.options if o != _BACK])
            )
        if kind == "activations":
            counts = [o for o in prompt.options if o != _BACK]
            card = view.cards[groups.target_kind(step.target)[1]].id
            worth = _effect_value(view, seat, activities()[card].effect, _dice_of(view, step.dice))
            pick = max if worth >= 0 else min
            return pick(counts, key=lambda o: int(o["n"]))
        if kind == "cube_on_event":
            return max(prompt.options, key=lambda o: _cube_value(view, seat, int(o["index"])))
        if kind == "counter":
            black = view.black[step.count]
            if self.tinker and not any(o.kind == "die" for o in prompt.options):
                fix = counter_fix(view, seat, black)
                if fix is not None and Action(fix[0]) in prompt.options:
                    return Action(fix[0])
            return _counter_choice(view, seat, step.dice, black, prompt.options)
        if kind == "counter_more":
            return Action("stop")
        return prompt.default or _BACK


def _twin(view: TroyesState, die_id: int, options: Sequence[Action]) -> Action | None:
    """The offered die identical to `die_id` (identical dice are one option)."""
    index = {d.id: d for d in view.dice}
    wanted = index[die_id]
    for option in options:
        other = index.get(option["id"]) if option.kind == "die" else None
        if other is not None and (other.owner, other.colour, other.value) == (
            wanted.owner,
            wanted.colour,
            wanted.value,
        ):
            return option
    return None


def _targets(options: Sequence[Action]) -> list[str]:
    found: list[str] = []
    for option in options:
        if option.kind == "target":
            found.append(option["t"])
    return found


def _menu_target(target: str, options: Sequence[Action]) -> str:
    """The menu's name of a target: an event is offered alone, or behind "event" when there are many."""
    return target if Action.of("target", t=target) in options else "event"


def pass_value(view: TroyesState, seat: int) -> float:
    """What passing is worth: its deniers."""
    return board().const("pass_deniers") * _dn(view, seat)


def _expand(view: TroyesState, targets: Sequence[str]) -> list[str]:
    out: list[str] = []
    for target in targets:
        if target == "event":
            out += [f"event:{i}" for i in range(len(view.queue))]
        else:
            out.append(target)
    return out


def _candidates(view: TroyesState, seat: int, target: str, effect: str, chosen: Sequence[Die]) -> list[Die]:
    fits = groups.fitter(view, seat, target, effect)
    fitting = [d for d in view.dice if d not in chosen and fits([], d)]
    # Keep the search small: own dice first, then the highest values.
    fitting.sort(key=lambda d: (d.owner != seat, -d.value, d.id))
    return fitting[:6]


def _groups(view: TroyesState, seat: int, target: str, effect: str, chosen: Sequence[Die]) -> list[list[Die]]:
    """Every valid group that extends `chosen` by dice of the candidates, smallest first.

    Grown die by die from valid prefixes only (a group is valid when each die fits the ones
    before it), and listed in the order of `combinations`: by size, then by candidate order.
    """
    size = groups.max_dice(target, effect)
    fits = groups.fitter(view, seat, target, effect)
    if not all(fits(chosen[:i], chosen[i]) for i in range(len(chosen))):
        return []
    pool = _candidates(view, seat, target, effect, chosen)
    found: list[tuple[int, tuple[int, ...], list[Die]]] = []

    def grow(group: list[Die], picked: tuple[int, ...]) -> None:
        if group:
            found.append((len(picked), picked, group))
        if len(group) >= size:
            return
        for index in range(picked[-1] + 1 if picked else 0, len(pool)):
            die = pool[index]
            if fits(group, die):
                grow([*group, die], (*picked, index))

    grow(list(chosen), ())
    found.sort(key=lambda item: (item[0], item[1]))
    return [group for _, _, group in found]


def best_plan(
    view: TroyesState, seat: int, targets: Sequence[str]
) -> tuple[float, str, str, list[Die]] | None:
    """The best (value, target, modifier card, dice) over the given targets, or None."""
    best: tuple[float, str, str, list[Die]] | None = None
    for target in _expand(view, targets):
        for card_id in ["", *usable_modifiers(view, seat, target)]:
            effect = activities()[card_id].effect if card_id else ""
            for group in _groups(view, seat, target, effect, []):
                value = plan_value(view, seat, target, effect, group) - (MODIFIER if card_id else 0.0)
                if best is None or value > best[0]:
                    best = (value, target, card_id, group)
    return best


def _next_die(view: TroyesState, seat: int, target: str, modifier: str, chosen_ids: Sequence[int]) -> Action:
    effect = activities()[modifier].effect if modifier else ""
    index = {d.id: d for d in view.dice}
    chosen = [index[i] for i in chosen_ids]
    best: tuple[float, list[Die]] | None = None
    for group in _groups(view, seat, target, effect, chosen):
        value = plan_value(view, seat, target, effect, group)
        if best is None or value > best[0]:
            best = (value, group)
    if best is None or best[0] == NOTHING:
        return _BACK
    rest = [d for d in best[1] if d.id not in chosen_ids]
    return Action.of("die", id=rest[0].id) if rest else Action("done")


def _dn(view: TroyesState, seat: int) -> float:
    """What one denier is worth to `seat` now: less as the end nears, where unspent money scores nothing."""
    left = rounds_left(view)
    if left >= 2:
        return DENIER
    if left == 1:
        return 0.2
    # Only a character counting deniers makes the last round's money worth keeping.
    return 0.15 if DENIERS_CHARACTER in view.players[seat].characters else LATE_DENIER


def _inf(view: TroyesState, seat: int) -> float:
    """What one influence is worth to `seat` now: little near the cap (gains are lost) or at the end."""
    if view.players[seat].influence >= board().const("influence_cap") - 2:
        return LATE_INFLUENCE
    if rounds_left(view) == 0 and INFLUENCE_CHARACTER not in view.players[seat].characters:
        return LATE_INFLUENCE
    return INFLUENCE


def rounds_left(view: TroyesState) -> int:
    """Rounds still to play after this one."""
    return view.rounds - view.round


def plan_value(view: TroyesState, seat: int, target: str, effect: str, dice: Sequence[Die]) -> float:
    """Estimated VP worth of an action (NOTHING when the group does not work on the target)."""
    amount = groups.yield_of(view, target, effect, dice)
    if amount < 1:
        return NOTHING
    cost = sum(groups.price(seat, dice, effect).values()) * _dn(view, seat) + DIE * len(dice)
    kind, index = groups.target_kind(target)
    if kind == "card":
        return _card_value(view, seat, index, amount, dice) - cost
    if kind == "event":
        return _event_value(view, seat, index, amount) - cost
    if kind == "cathedral":
        return _cathedral_value(view, seat, groups.values(dice, effect)) - cost
    if kind == "building":
        return _building_value(view, seat, index, groups.values(dice, effect)[0]) - cost
    return amount * _dn(view, seat) - cost


def _card_value(view: TroyesState, seat: int, index: int, times: int, spent: Sequence[Die] = ()) -> float:
    slot = view.cards[index]
    card = activities()[slot.id]
    value = 0.0
    if not slot.has(seat):
        free = next((i for i, s in enumerate(slot.spaces) if s is None), None)
        value += (card.space_vp[free] if free is not None else 0) - card.cost * _dn(view, seat)
        value -= _source_cost(view, seat, sources(view, seat, f"card:{index}"))
    times = max(0, affordable(view, seat, card.effect, times))
    return value + times * _effect_value(view, seat, card.effect, spent)


def _effect_value(view: TroyesState, seat: int, effect: str, spent: Sequence[Die] = ()) -> float:
    """VP worth of one activation of `effect`, the dice of `spent` gone from the square."""
    player = view.players[seat]
    others = [s for s in range(view.seats) if s != seat]
    if effect in (
        "blacksmith",
        "militiaman",
        "tithe",
        "monk",
        "priest",
        "apprenticeship",
        "confession",
        "templar",
    ):
        return 0.7 if rounds_left(view) or player.cubes.get(effect, 0) < 2 else 0.3
    card = by_effect(effect)
    if card is not None and not card.delayed and effect not in COUNTING | STEPPED:
        # A card of fixed figures (the data's): what it gives less what it costs, in VP.
        gain, price = card.gain, card.price
        dn, inf = _dn(view, seat), _inf(view, seat)
        return gain.vp + gain.deniers * dn + gain.influence * inf - price.deniers * dn - price.influence * inf
    table = {
        "archer": 2 / 3 * (_inf(view, seat) + 0.7),
        "diplomat": 0.7,
    }
    if effect in table:
        return table[effect]
    if effect == "miller":
        return 2 * _dn(view, seat) * max(standing(view, PALACE, seat), standing(view, BISHOPRIC, seat))
    if effect == "glassblower":
        return float(cathedral_cubes(view, seat) // 2)
    if effect == "captain":
        return float(sum(1 for slot in view.queue if seat in slot.cubes))
    if effect == "tax_collector":
        return _dn(view, seat) * sum(standing(view, CITY_HALL, o) for o in [*others, NEUTRAL])
    if effect == "chivalry":
        reds = sum(1 for d in view.dice if d.owner == seat and d.colour is Colour.RED)
        return (_inf(view, seat) + 0.7) * reds
    if effect in ("procession", "joust"):
        return _race_value(view, seat, effect, spent)
    return 0.0


def _race_value(view: TroyesState, seat: int, effect: str, spent: Sequence[Die]) -> float:
    """Procession: 2 VP to each leader once the activation's dice are gone, rivals' gains cost;
    Joust: 2 VP to the activator alone if they lead (ties included)."""
    gone = {d.id for d in spent}
    left = [d for d in view.dice if d.id not in gone]
    if effect == "procession":
        totals = [sum(1 for d in left if d.owner == s) for s in range(view.seats)]
    else:
        reds = [d for d in left if d.colour is Colour.RED]
        totals = [sum(d.value for d in reds if d.owner == s) for s in range(view.seats)]
    best = max(totals)
    if best < 1:
        return -0.1
    leaders = [s for s in range(view.seats) if totals[s] == best]
    mine = 2.0 if seat in leaders else 0.0
    if effect == "joust":
        return mine - 0.1
    rivals = 2.0 * sum(1 for s in leaders if s != seat) / max(1, view.seats - 1)
    return mine - rivals - 0.1


def _event_value(view: TroyesState, seat: int, index: int, cubes: int) -> float:
    slot = view.queue[index]
    card = events()[slot.id]
    value = cubes * (_inf(view, seat) + CUBE)
    after = [*slot.cubes, *([seat] * cubes)]
    if len(after) >= card.banners:
        value += rewards(after, card.vp).get(seat, 0) + (0.0 if card.permanent else 1.0 + card.black_dice)
    return value


def _cathedral_value(view: TroyesState, seat: int, values: Sequence[int]) -> float:
    value = 0.0
    covered = {lv for col in view.cathedral for lv, owner in enumerate(col) if owner == seat}
    heights = [len(col) for col in view.cathedral]
    for v in values:
        level = heights[v - 1]
        heights[v - 1] += 1
        value += 1 + board().cathedral_influence[v - 1] * _inf(view, seat)
        if level not in covered:
            covered.add(level)
            value += 2
    return value


def _building_value(view: TroyesState, seat: int, building: int, value: int) -> float:
    future = rounds_left(view)
    wage = board().buildings[building].wage
    worth = future * (BUILDING_INCOME - wage * DENIER)
    _, expelled = entry_result(view, building, value)
    if expelled == seat:
        worth -= future * (BUILDING_INCOME - wage * DENIER)
    elif expelled is not None:
        worth += 0.2 * future
    return worth - _source_cost(view, seat, sources(view, seat, f"building:{building}"))


def _source_cost(view: TroyesState, seat: int, found: Sequence[str]) -> float:
    return min((_one_source_cost(view, s) for s in found), default=10.0)


def _one_source_cost(view: TroyesState, source: str) -> float:
    if source == SUPPLY:
        return 0.0
    if source == BOUGHT:
        return 2 * INFLUENCE
    return 1.5  # a tradesman moved from another card loses that card


def _best_source(view: TroyesState, seat: int, found: Sequence[str]) -> str:
    return min(found, key=lambda s: (_one_source_cost(view, s), found.index(s)))


def _cube_value(view: TroyesState, seat: int, index: int) -> float:
    return _event_value(view, seat, index, 1) + 0.01 * len(view.queue[index].cubes)


def _counter_choice(
    view: TroyesState, seat: int, chosen: Sequence[int], black: int, options: Sequence[Action]
) -> Action:
    if not any(o.kind == "die" for o in options):
        return Action("concede") if Action("concede") in options else Action("stop")
    mine = own_dice(view, seat)
    fixed = [d for d in mine if d.id in chosen]
    free = [d for d in mine if d.id not in chosen]
    best: tuple[tuple[int, int], list[Die]] | None = None
    for size in range(1, min(3, len(free)) + 1):
        for combo in combinations(free, size):
            power = strength([*fixed, *combo])
            if power >= black:
                key = (size, power)
                if best is None or key < best[0]:
                    best = (key, list(combo))
        if best is not None:
            break
    pick = max(free, key=lambda d: (strength([d]), -d.id)) if best is None else best[1][0]
    return Action.of("die", id=pick.id)


def _setup_choice(view: TroyesState, seat: int, options: Sequence[Action]) -> Action:
    preference = {CITY_HALL: 0, BISHOPRIC: 1, PALACE: 2}

    def key(option: Action) -> tuple[int, int, int]:
        b = int(option["building"])
        return (standing(view, b, seat), preference[b], int(option["space"]))

    return min(options, key=key)


# -- spending influence on the dice ------------------------------------------------------

Fix = tuple[str, tuple[int, ...]]
"""("reroll", (die,)) or ("flip", (dice...)): a way to spend influence on own dice."""
FIX_MARGIN = 0.3
"""A reroll or flip must beat the best action now by this much VP, its influence paid."""


def _dice_of(view: TroyesState, ids: Sequence[int]) -> list[Die]:
    wanted = set(ids)
    return [d for d in view.dice if d.id in wanted]


def _with_values(view: TroyesState, changed: dict[int, int]) -> TroyesState:
    """A copy of the view with some dice showing other values."""
    seen = view.copy()
    seen.dice = [Die(d.id, d.colour, changed[d.id], d.owner) if d.id in changed else d for d in view.dice]
    return seen


def _low_dice(view: TroyesState, seat: int) -> list[Die]:
    """Own dice worth turning over or rolling again: the lowest ones, at most three."""
    return sorted((d for d in own_dice(view, seat) if d.value <= 3), key=lambda d: (d.value, d.id))[:3]


def _plan_worth(view: TroyesState, seat: int) -> float:
    best = best_plan(view, seat, _turn_targets(view, seat))
    return max(pass_value(view, seat), NOTHING if best is None else best[0])


def _turn_targets(view: TroyesState, seat: int) -> list[str]:
    targets = [f"card:{i}" for i in range(len(view.cards))]
    targets += ["cathedral", "building:0", "building:1", "building:2", "agriculture"]
    targets += [f"event:{i}" for i in range(len(view.queue))]
    return [t for t in targets if can_target(view, seat, t)]


def dice_fix(view: TroyesState, seat: int, now: float) -> Fix | None:
    """The reroll or flip of own low dice whose best next action beats `now` by more than its influence."""
    player = view.players[seat]
    low = _low_dice(view, seat)
    if not low:
        return None
    worth = _inf(view, seat)
    best: tuple[float, Fix] | None = None
    if player.influence >= board().const("reroll_cost"):
        die = low[0]
        mean = sum(_plan_worth(_with_values(view, {die.id: v}), seat) for v in range(1, 7)) / 6
        gain = mean - now - worth * board().const("reroll_cost")
        best = (gain, ("reroll", (die.id,)))
    if player.influence >= board().const("flip_cost"):
        for size in range(1, len(low) + 1):
            dice = low[:size]
            after = _plan_worth(_with_values(view, {d.id: 7 - d.value for d in dice}), seat)
            gain = after - now - worth * board().const("flip_cost")
            if best is None or gain > best[0]:
                best = (gain, ("flip", tuple(d.id for d in dice)))
    return best[1] if best is not None and best[0] > FIX_MARGIN else None


def counter_fix(view: TroyesState, seat: int, black: int) -> Fix | None:
    """How to reach `black` with own dice by spending influence, when it pays against losing 2 VP."""
    player = view.players[seat]
    mine = own_dice(view, seat)
    if not mine:
        return None
    loss = -board().const("black_failure_vp") + _inf(view, seat)
    worth = _inf(view, seat)
    power = strength(mine)
    flip: Fix | None = None
    if player.influence >= board().const("flip_cost"):
        ranked = sorted(mine, key=lambda d: (strength([d]) * (7 - 2 * d.value), -d.id), reverse=True)
        for size in range(1, min(3, len(ranked)) + 1):
            dice = ranked[:size]
            flipped = [Die(d.id, d.colour, 7 - d.value, d.owner) for d in dice]
            after = power + strength(flipped) - strength(dice)
            if after >= black:
                flip = ("flip", tuple(d.id for d in dice))
                break
    if player.influence >= board().const("reroll_cost"):
        die = min(mine, key=lambda d: (d.value, d.id))
        rest = power - strength([die])
        rolls = [rest + strength([Die(die.id, die.colour, v, seat)]) for v in range(1, 7)]
        chance = sum(1 for total in rolls if total >= black) / 6
        if chance * loss > worth * board().const("reroll_cost") and (chance >= 0.5 or flip is None):
            return ("reroll", (die.id,))
    if flip is not None and loss > worth * board().const("flip_cost"):
        return flip
    return None


def _fix_choice(view: TroyesState, seat: int, kind: str, options: Sequence[Action]) -> Action:
    """The die to reroll or the next die to flip, by the plan that chose this prompt."""
    step = view.stack[-1]
    under = view.stack[-2] if len(view.stack) > 1 else None
    if under is not None and under.kind is StepKind.COUNTER:
        fix = counter_fix(view, seat, view.black[under.count])
    else:
        fix = dice_fix(view, seat, _plan_worth(view, seat))
    wanted = [] if fix is None or fix[0] != kind else [i for i in fix[1] if i not in step.dice]
    for die_id in wanted:
        if Action.of("die", id=die_id) in options:
            return Action.of("die", id=die_id)
        twin = _twin(view, die_id, options)
        if twin is not None:
            return twin
    if Action("done") in options:
        return Action("done")
    return _BACK
