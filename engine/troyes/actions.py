"""The decisions of a turn as a stack of small steps: their options and what each choice does.

The prompt kinds, their options, defaults and context fields are listed in DATA.md ("Prompts").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from itertools import combinations

from engine.codec import JSON
from engine.core import Action, Event, Prompt
from engine.troyes import board as bd
from engine.troyes import groups
from engine.troyes.cards import ACTIVATION_PRICE, activate, activation_price, affordable, hire
from engine.troyes.data import activities, board
from engine.troyes.eventcards import place_cube
from engine.troyes.flow import after_countering, next_counter, next_turn, roll_die, start_round
from engine.troyes.kinds import NEUTRAL, Colour, Phase, StepKind
from engine.troyes.purse import gain_influence, gain_vp
from engine.troyes.state import Die, Step, TroyesState
from engine.troyes.text import asked_yield

BACK = Action("back")
DONE = Action("done")
PASS = Action("pass")
STOP = Action("stop")


def own_dice(state: TroyesState, seat: int) -> list[Die]:
    """The dice in a seat's district."""
    return [d for d in state.dice if d.owner == seat]


def strength(dice: Sequence[Die]) -> int:
    """Countering strength of dice against a black die: red dice count double (§5)."""
    return sum(d.value * (2 if d.colour is Colour.RED else 1) for d in dice)


def dice_by_id(state: TroyesState, ids: Sequence[int]) -> list[Die]:
    """The dice with these ids, in that order."""
    index = {d.id: d for d in state.dice}
    return [index[i] for i in ids]


# -- what a seat may do now ---------------------------------------------------------------


def current_prompt(state: TroyesState) -> Prompt | None:
    """The one decision pending now, if any."""
    if state.phase is Phase.OVER:
        return None
    if state.phase is Phase.PLACEMENT:
        seat = state.placement_order[0]
        options = tuple(
            Action.of("place", building=b, space=s)
            for b in range(3)
            for s, owner in enumerate(state.buildings[b])
            if owner is None
        )
        return _priced(Prompt(seat, "setup_place", options, default=options[0]), state, None)
    if not state.stack:
        return _priced(_turn_menu(state, state.turn), state, None)
    return step_prompt(state, state.stack[-1])


def step_prompt(state: TroyesState, step: Step) -> Prompt:
    """The prompt of a pending step, with what each option's click takes."""
    return _priced(_STEP_PROMPTS[step.kind](state, step), state, step)


Cost = tuple[int, int]
"""Deniers and influence."""

FREE: Cost = (0, 0)


def _priced(prompt: Prompt, state: TroyesState, step: Step | None) -> Prompt:
    """Add `spend_deniers` and `spend_influence`: what choosing each option takes from the seat now."""
    costs = [click_cost(state, prompt.kind, step, o) for o in prompt.options]
    context = (
        *prompt.context,
        ("spend_deniers", tuple(c[0] for c in costs)),
        ("spend_influence", tuple(c[1] for c in costs)),
    )
    return replace(prompt, context=context)


def click_cost(state: TroyesState, kind: str, step: Step | None, option: Action) -> Cost:
    """Deniers and influence the seat pays at once when it chooses `option` (nothing is paid later)."""
    if option == BACK:
        return FREE
    if kind == "turn" and option.kind == "citizen":
        return (0, board().const("citizen_cost"))
    if kind == "reroll":
        return (0, board().const("reroll_cost"))
    if kind == "flip" and option == DONE:
        return (0, board().const("flip_cost"))
    if step is None:
        return FREE
    if kind == "dice" and option == DONE:
        return _plan_cost(state, *_plan(state, _after_group(state, step)))
    if kind == "citizen_from":
        return _plan_cost(state, *_plan(state, replace(step, source=str(option["s"]))))
    if kind == "activations":
        return action_cost(state, step, int(option["n"]))
    return FREE


def may_use_influence(state: TroyesState, kind: str) -> bool:
    """Whether this kind of influence use is open: one kind only before an action or a black die.

    The seed: "Gracz może skorzystać tylko z jednego rodzaju takiej czynności" (the player may use
    only one kind of it), and a re-roll "można to wykonywać wielokrotnie" (may be repeated).
    """
    return state.influence_used in ("", kind)


def _influence_options(state: TroyesState, seat: int) -> list[Action]:
    player = state.players[seat]
    has_dice = any(d.owner == seat for d in state.dice)
    options: list[Action] = []
    for kind in ("reroll", "flip"):
        if has_dice and player.influence >= board().const(f"{kind}_cost") and may_use_influence(state, kind):
            options.append(Action(kind))
    return options


def can_get_citizen(state: TroyesState, seat: int) -> bool:
    """Whether 2 influence can bring a new citizen from the general supply."""
    player = state.players[seat]
    return player.influence >= board().const("citizen_cost") and player.owned < board().const("max_citizens")


SUPPLY = "supply"
BOUGHT = "new"
"""Sources of a citizen: the personal supply, or one bought for 2 influence when it is empty."""


def citizen_source(state: TroyesState, seat: int) -> str | None:
    """Where a new citizen comes from: the supply, else one bought when the supply is empty (§4.2)."""
    if state.players[seat].supply > 0:
        return SUPPLY
    return BOUGHT if can_get_citizen(state, seat) else None


def sources(state: TroyesState, seat: int, target: str) -> list[str]:
    """Where the citizen for a placement or a new tradesman may come from.

    A building takes only a citizen of the supply (or a bought one); a card also a tradesman
    moved from another card ("c:<index>"). Citizens in buildings or lying stay where they are.
    """
    found = [source] if (source := citizen_source(state, seat)) else []
    if groups.target_kind(target)[0] == "card":
        found += [f"c:{i}" for i, slot in enumerate(state.cards) if slot.has(seat) and target != f"card:{i}"]
    return found


def usable_modifiers(state: TroyesState, seat: int, target: str) -> list[str]:
    """Delayed cards on which `seat` has a cube that may modify an action on `target`."""
    cubes = state.players[seat].cubes
    return [
        card_id
        for card_id in sorted(cubes)
        if cubes[card_id] > 0 and groups.modifier_fits(state, target, activities()[card_id].effect)
    ]


def can_target(state: TroyesState, seat: int, target: str) -> bool:
    """Whether an action on `target` can be completed now: a citizen if one is needed, and a group."""
    kind, index = groups.target_kind(target)
    if kind == "card":
        slot = state.cards[index]
        if not slot.revealed:
            return False
        if not slot.has(seat) and not sources(state, seat, target):
            return False
    if kind == "building" and not sources(state, seat, target):
        return False
    if target == "event":
        return any(_some_group_works(state, seat, f"event:{i}") for i in range(len(state.queue)))
    return _some_group_works(state, seat, target)


def _search_pool(seat: int, effect: str, fitting: list[Die]) -> list[Die]:
    """The few dice among which a working group exists whenever any does.

    Larger groups only help by their total, and a group's price depends only on how many of its
    dice are bought, so the best group with k bought dice takes the k highest bought dice and
    the highest own ones (with the Tithe, at most one die of each other district).
    """
    by_value = sorted(fitting, key=lambda d: (-d.value, d.id))
    own = [d for d in by_value if d.owner == seat][: groups.MAX_GROUP]
    bought = [d for d in by_value if d.owner != seat]
    if effect == "tithe":
        bought = list({d.owner: d for d in reversed(bought)}.values())
        bought.sort(key=lambda d: (-d.value, d.id))
    return own + bought[: groups.MAX_GROUP]


def completes(state: TroyesState, seat: int, target: str, effect: str, chosen: Sequence[Die]) -> bool:
    """Whether the chosen dice, with none or more dice added, make a group that works on the target.

    Only the total matters for cards, events and agriculture, so the highest dice are enough to
    search; a building takes one die, and in the cathedral adding dice never frees a column.
    """
    if groups.yield_of(state, target, effect, chosen) >= 1:
        return True
    room = groups.max_dice(target, effect) - len(chosen)
    fits = groups.fitter(state, seat, target, effect)
    fitting = [d for d in state.dice if fits(chosen, d)]
    if room <= 0 or not fitting:
        return False
    if groups.target_kind(target)[0] in ("building", "cathedral"):
        return not chosen and any(groups.yield_of(state, target, effect, [d]) >= 1 for d in fitting)
    pool = _search_pool(seat, effect, fitting)
    for size in range(1, room + 1):
        for combo in combinations(pool, size):
            group = [*chosen, *combo]
            valid = all(fits(group[:i], group[i]) for i in range(len(chosen), len(group)))
            if valid and groups.yield_of(state, target, effect, group) >= 1:
                return True
    return False


def _effects_that_complete(state: TroyesState, seat: int, target: str) -> list[str]:
    """The cube choices ("" for none) under which some group works on the target."""
    cards = ["", *usable_modifiers(state, seat, target)]
    return [c for c in cards if completes(state, seat, target, activities()[c].effect if c else "", [])]


def _some_group_works(state: TroyesState, seat: int, target: str) -> bool:
    """Whether some group of fitting dice (under some usable cube) works on the target."""
    return bool(_effects_that_complete(state, seat, target))


def distinct(dice: Sequence[Die]) -> list[Die]:
    """One die of each (owner, colour, value): identical dice are one option."""
    seen: dict[tuple[int, Colour, int], Die] = {}
    for die in dice:
        seen.setdefault((die.owner, die.colour, die.value), die)
    return list(seen.values())


def _turn_menu(state: TroyesState, seat: int) -> Prompt:
    options = [PASS, *_influence_options(state, seat)]
    if can_get_citizen(state, seat) and may_use_influence(state, "citizen"):
        options.append(Action("citizen"))
    targets = [f"card:{i}" for i in range(len(state.cards))]
    targets += ["cathedral", "building:0", "building:1", "building:2", "agriculture"]
    options += [Action.of("target", t=t) for t in targets if can_target(state, seat, t)]
    events = [f"event:{i}" for i in range(len(state.queue)) if can_target(state, seat, f"event:{i}")]
    # Events are offered one by one (one click less) unless that passes Discord's 25 options.
    if len(options) + len(events) <= MAX_OPTIONS:
        options += [Action.of("target", t=t) for t in events]
    elif events:
        options.append(Action.of("target", t="event"))
    context = (
        ("round", state.round),
        ("pass_deniers", board().const("pass_deniers")),
        ("reroll_cost", board().const("reroll_cost")),
        ("flip_cost", board().const("flip_cost")),
        ("citizen_cost", board().const("citizen_cost")),
        ("hire", tuple(_hire_costs(state, seat, options))),
    )
    return Prompt(seat, "turn", tuple(options), default=PASS, context=context)


MAX_OPTIONS = 25
"""Discord's limit of options in one select."""


def _hire_costs(state: TroyesState, seat: int, options: Sequence[Action]) -> list[int]:
    """The hire cost of each option, in option order (0 for a staffed card or any other option)."""
    return [
        groups.hire_cost(state, seat, o["t"]) if o.kind == "target" and o["t"].startswith("card") else 0
        for o in options
    ]


def _reroll_prompt(state: TroyesState, step: Step) -> Prompt:
    options = [Action.of("die", id=d.id) for d in distinct(own_dice(state, step.seat))]
    return Prompt(step.seat, "reroll", (*options, BACK), default=BACK)


def _flip_prompt(state: TroyesState, step: Step) -> Prompt:
    options: list[Action] = []
    if len(step.dice) < 3:
        left = [d for d in own_dice(state, step.seat) if d.id not in step.dice]
        options += [Action.of("die", id=d.id) for d in distinct(left)]
    if step.dice:
        options.append(DONE)
    return Prompt(step.seat, "flip", (*options, BACK), default=BACK, context=(("chosen", step.dice),))


def _event_target_prompt(state: TroyesState, step: Step) -> Prompt:
    options = [
        Action.of("event", index=i)
        for i in range(len(state.queue))
        if can_target(state, step.seat, f"event:{i}")
    ]
    return Prompt(step.seat, "fight_which", (*options, BACK), default=BACK)


def _modifier_prompt(state: TroyesState, step: Step) -> Prompt:
    options = [Action.of("modifier", card=c) for c in _effects_that_complete(state, step.seat, step.target)]
    return Prompt(step.seat, "modifier", (*options, BACK), default=BACK, context=(("target", step.target),))


def _effect(step: Step) -> str:
    return activities()[step.modifier].effect if step.modifier else ""


def _dice_prompt(state: TroyesState, step: Step) -> Prompt:
    effect = _effect(step)
    seat = step.seat
    chosen = dice_by_id(state, step.dice)
    offered = [
        d
        for d in distinct([d for d in state.dice if d.id not in step.dice])
        if groups.die_fits(state, seat, step.target, effect, chosen, d)
        and completes(state, seat, step.target, effect, [*chosen, d])
    ]
    options = [Action.of("die", id=d.id) for d in offered]
    now = groups.yield_of(state, step.target, effect, chosen)
    if now >= 1:
        options.append(DONE)
    paid = group_price(seat, chosen, effect)
    context = (
        ("target", step.target),
        ("modifier", step.modifier),
        ("chosen", step.dice),
        ("total", groups.total(chosen, effect)),
        ("yield", now),
        # The price of the dice chosen so far (2 deniers per bought die per die in the group).
        ("paid", paid),
        # One per option: what the group's dice will have cost in all once it is chosen ("done":
        # the price so far; "back": 0). An own die raises it too when the group holds bought dice.
        (
            "prices",
            (
                *(group_price(seat, [*chosen, d], effect) for d in offered),
                *[paid] * (len(options) - len(offered)),
                0,
            ),
        ),
    )
    return Prompt(seat, "dice", (*options, BACK), default=BACK, context=context)


def group_price(seat: int, dice: Sequence[Die], effect: str) -> int:
    """Deniers a group's bought dice cost in all."""
    return sum(groups.price(seat, dice, effect).values())


def _source_prompt(state: TroyesState, step: Step) -> Prompt:
    options = [Action.of("source", s=s) for s in sources(state, step.seat, step.target)]
    context = (("target", step.target), ("citizen_cost", board().const("citizen_cost")))
    return Prompt(step.seat, "citizen_from", (*options, BACK), default=BACK, context=context)


ASKED = frozenset({*ACTIVATION_PRICE, "procession"})
"""Cards whose number of activations is asked: each one costs something, or may give others VP."""


def _activations_prompt(state: TroyesState, step: Step) -> Prompt:
    options = [Action.of("activations", n=n) for n in range(1, step.count + 1)]
    card = state.cards[groups.target_kind(step.target)[1]].id
    effect = activities()[card].effect
    # The engine's English, for readers of the prompt alone (CLI, records); the cog words it itself.
    yields = tuple(asked_yield(card, n) for n in range(1, step.count + 1))
    context = (("target", step.target), ("card", card), ("effect", effect), ("yields", yields))
    return Prompt(step.seat, "activations", (*options, BACK), default=options[-1], context=context)


def _event_cube_prompt(state: TroyesState, step: Step) -> Prompt:
    options = tuple(Action.of("event", index=i) for i in range(len(state.queue)))
    return Prompt(step.seat, "cube_on_event", options, default=options[0], context=(("left", step.count),))


EXTRA = "extra"
"""Step.target of a black die countered by choice after the obligatory highest one (§5)."""


def _counter_prompt(state: TroyesState, step: Step) -> Prompt:
    seat = step.seat
    mine = own_dice(state, seat)
    black = state.black[step.count]
    extra = step.target == EXTRA
    options: list[Action] = []
    if strength(mine) >= black:
        options += [Action.of("die", id=d.id) for d in distinct([d for d in mine if d.id not in step.dice])]
    elif not extra:
        options.append(Action("concede"))
    if extra and not step.dice:
        options.append(STOP)
    if not step.dice:
        options += _influence_options(state, seat)
    else:
        options.append(BACK)
    dice_options = [o for o in options if o.kind == "die"]
    if STOP in options:
        default: Action = STOP
    elif dice_options:
        # The turn clock counters with the strongest die: always a step towards beating the black die.
        default = max(dice_options, key=lambda o: strength(dice_by_id(state, [o["id"]])))
    else:
        default = options[0]
    chosen = dice_by_id(state, step.dice)
    context = (("black", black), ("chosen", step.dice), ("strength", strength(chosen)), ("extra", extra))
    return Prompt(seat, "counter", tuple(options), default=default, context=context)


def beatable(state: TroyesState, seat: int) -> list[int]:
    """The distinct black dice values a seat's own dice can still beat, highest first."""
    power = strength(own_dice(state, seat))
    return sorted({v for v in state.black if v <= power}, reverse=True)


def _continue_prompt(state: TroyesState, step: Step) -> Prompt:
    options = [Action.of("black", value=v) for v in beatable(state, step.seat)]
    return Prompt(step.seat, "counter_more", (*options, STOP), default=STOP)


def _automatic(state: TroyesState, step: Step) -> Prompt:
    raise AssertionError(f"step {step.kind} is automatic")


_STEP_PROMPTS = {
    StepKind.REROLL: _reroll_prompt,
    StepKind.FLIP: _flip_prompt,
    StepKind.EVENT_TARGET: _event_target_prompt,
    StepKind.MODIFIER: _modifier_prompt,
    StepKind.DICE: _dice_prompt,
    StepKind.SOURCE: _source_prompt,
    StepKind.ACTIVATIONS: _activations_prompt,
    StepKind.EVENT_CUBE: _event_cube_prompt,
    StepKind.COUNTER: _counter_prompt,
    StepKind.CONTINUE: _continue_prompt,
    StepKind.ARCHER: _automatic,
    StepKind.END_TURN: _automatic,
}


def only_way_forward(prompt: Prompt) -> Action | None:
    """The single option other than going back, if the prompt has exactly one."""
    forward = [o for o in prompt.options if o != BACK]
    return forward[0] if len(forward) == 1 else None


def costs_nothing(prompt: Prompt, option: Action) -> bool:
    """Whether choosing `option` takes nothing now and does not raise the group's price."""
    context = dict(prompt.context)
    place = prompt.options.index(option)
    for key in ("spend_deniers", "spend_influence"):
        spent = context.get(key)
        if isinstance(spent, tuple) and spent[place]:
            return False
    prices = context.get("prices")
    return not (isinstance(prices, tuple) and prices[place] != context.get("paid", 0))


# -- carrying a choice out -----------------------------------------------------------------


def play(state: TroyesState, seat: int, action: Action) -> list[Event]:
    """Apply a validated choice, then run the automatic steps that follow it."""
    if state.phase is Phase.PLACEMENT:
        out = _setup_place(state, seat, action)
    elif not state.stack:
        out = _menu(state, seat, action)
    else:
        out = _step(state, seat, action)
    return out + settle(state)


def _setup_place(state: TroyesState, seat: int, action: Action) -> list[Event]:
    state.buildings[action["building"]][action["space"]] = seat
    state.players[seat].supply -= 1
    state.placement_order.pop(0)
    out = [Event("setup_place", {"seat": seat, "building": action["building"], "space": action["space"] + 1})]
    if state.placement_order:
        return out
    for spaces in state.buildings:
        for s, owner in enumerate(spaces):
            if owner is None and state.neutral_supply > 0:
                spaces[s] = NEUTRAL
                state.neutral_supply -= 1
    return out + start_round(state)


def _menu(state: TroyesState, seat: int, action: Action) -> list[Event]:
    player = state.players[seat]
    if action.kind == "pass":
        player.passed = True
        player.pass_money += board().const("pass_deniers")
        return [Event("pass", {"seat": seat}), *next_turn(state)]
    if action.kind == "citizen":
        state.influence_used = "citizen"
        player.influence -= board().const("citizen_cost")
        player.owned += 1
        player.supply += 1
        return [Event("new_citizen", {"seat": seat})]
    if action.kind in ("reroll", "flip"):
        state.stack.append(Step(kind=StepKind(action.kind), seat=seat))
        return []
    target = action["t"]
    if target == "event":
        state.stack.append(Step(kind=StepKind.EVENT_TARGET, seat=seat))
    else:
        state.stack.append(_first_step(state, seat, target))
    return []


def _first_step(state: TroyesState, seat: int, target: str) -> Step:
    kind = StepKind.MODIFIER if usable_modifiers(state, seat, target) else StepKind.DICE
    return Step(kind=kind, seat=seat, target=target)


def _step(state: TroyesState, seat: int, action: Action) -> list[Event]:
    step = state.stack[-1]
    kind = step.kind
    if action == BACK:
        # Nothing is paid before the last step, so backing out just forgets the choices.
        while state.stack and state.stack[-1].kind not in (StepKind.COUNTER, StepKind.END_TURN):
            state.stack.pop()
        if state.stack and state.stack[-1].kind is StepKind.COUNTER:
            state.stack[-1] = replace(state.stack[-1], dice=())
        return []
    if kind is StepKind.REROLL:
        return _reroll(state, seat, action["id"])
    if kind is StepKind.FLIP:
        if action == DONE:
            return _flip(state, seat, step.dice)
        state.stack[-1] = Step(kind=kind, seat=seat, dice=(*step.dice, action["id"]))
        return []
    if kind is StepKind.EVENT_TARGET:
        state.stack[-1] = _first_step(state, seat, f"event:{action['index']}")
        return []
    if kind is StepKind.MODIFIER:
        state.stack[-1] = Step(kind=StepKind.DICE, seat=seat, target=step.target, modifier=action["card"])
        return []
    if kind is StepKind.DICE:
        if action != DONE:
            state.stack[-1] = replace(step, dice=(*step.dice, action["id"]))
            return []
        return _go(state, *_plan(state, _after_group(state, step)))
    if kind is StepKind.SOURCE:
        return _go(state, *_plan(state, replace(step, source=action["s"])))
    if kind is StepKind.ACTIVATIONS:
        state.stack.pop()
        return commit(state, step, action["n"])
    if kind is StepKind.EVENT_CUBE:
        if step.count > 1:
            state.stack[-1] = Step(kind=kind, seat=seat, count=step.count - 1)
        else:
            state.stack.pop()
        return place_cube(state, action["index"], seat)
    if kind is StepKind.COUNTER:
        return _counter(state, step, action)
    if kind is StepKind.CONTINUE:
        if action == STOP:
            next_counter(state, seat)
        else:
            index = state.black.index(action["value"])
            state.stack[-1] = Step(kind=StepKind.COUNTER, seat=seat, target=EXTRA, count=index)
        return []
    raise AssertionError(f"unexpected step {kind}")


def _after_group(state: TroyesState, step: Step) -> Step:
    """The action once its group is chosen: the citizen's source settled when it has one way."""
    kind, index = groups.target_kind(step.target)
    if kind == "building":
        # §4.2: a building's citizen comes from the supply, or is bought: never a question.
        return replace(step, source=citizen_source(state, step.seat) or SUPPLY)
    if kind == "card" and not state.cards[index].has(step.seat):
        found = sources(state, step.seat, step.target)
        if len(found) != 1:
            return replace(step, kind=StepKind.SOURCE)
        return replace(step, source=found[0])
    return step


def _plan(state: TroyesState, step: Step) -> tuple[Step, int]:
    """The next question (and 0), or the action to carry out and its number of activations."""
    if step.kind is StepKind.SOURCE and not step.source:
        return step, 0
    kind, index = groups.target_kind(step.target)
    if kind != "card":
        return step, 1
    times = most_activations(state, step)
    if times > 1 and activities()[state.cards[index].id].effect in ASKED:
        return replace(step, kind=StepKind.ACTIVATIONS, count=times), 0
    return step, times


def _plan_cost(state: TroyesState, step: Step, times: int) -> Cost:
    """What carrying out a plan takes now: nothing while a question is left."""
    return action_cost(state, step, times) if times else FREE


def action_cost(state: TroyesState, step: Step, times: int) -> Cost:
    """Deniers and influence `commit` takes: bought dice, hire, a bought citizen, the activations."""
    seat = step.seat
    deniers = group_price(seat, dice_by_id(state, step.dice), _effect(step))
    influence = board().const("citizen_cost") if step.source == BOUGHT else 0
    kind, index = groups.target_kind(step.target)
    if kind == "card":
        if step.source:
            deniers += groups.hire_cost(state, seat, step.target)
        effect = activities()[state.cards[index].id].effect
        more = activation_price(state, seat, effect, times, spend=(deniers, influence))
        deniers, influence = deniers + more[0], influence + more[1]
    return deniers, influence


def _go(state: TroyesState, step: Step, times: int) -> list[Event]:
    """Ask the plan's next question, or carry the action out."""
    if not times:
        state.stack[-1] = step
        return []
    state.stack.pop()
    return commit(state, step, times)


def most_activations(state: TroyesState, step: Step) -> int:
    """How many activations the chosen group gives and the player can still pay for (at least 1)."""
    index = groups.target_kind(step.target)[1]
    dice = dice_by_id(state, step.dice)
    most = groups.yield_of(state, step.target, _effect(step), dice)
    effect = activities()[state.cards[index].id].effect
    # Only the activations still payable once the dice, the hire and a new citizen are paid.
    deniers = group_price(step.seat, dice, _effect(step))
    if step.source:
        deniers += groups.hire_cost(state, step.seat, step.target)
    influence = board().const("citizen_cost") if step.source == BOUGHT else 0
    return max(1, affordable(state, step.seat, effect, most, spend=(deniers, influence)))


def leave_card(state: TroyesState, index: int, seat: int) -> None:
    """Take `seat`'s tradesman off a card; those behind move up, one from the illustration last."""
    slot = state.cards[index]
    if seat in slot.extra:
        slot.extra.remove(seat)
        return
    # The seed: "kolejka nadzorców odpowiednio przesuwa się, aby zapełnić zwolnione miejsce".
    kept = [s for s in slot.spaces if s is not None and s != seat]
    while len(kept) < len(slot.spaces) and slot.extra:
        kept.append(slot.extra.pop(0))
    slot.spaces = kept + [None] * (len(slot.spaces) - len(kept))


def _take_citizen(state: TroyesState, seat: int, source: str) -> dict[str, JSON]:
    """Take the citizen from its source; what the log says about it."""
    player = state.players[seat]
    if source == SUPPLY:
        player.supply -= 1
        return {"source": SUPPLY}
    if source == BOUGHT:
        cost = board().const("citizen_cost")
        player.influence -= cost
        player.owned += 1
        return {"source": BOUGHT, "influence": cost}
    index = int(source.split(":")[1])
    leave_card(state, index, seat)
    return {"source": "card", "from": state.cards[index].id}


def commit(state: TroyesState, step: Step, times: int) -> list[Event]:
    """Pay for and carry out a fully chosen action; the turn ends once its effects are settled."""
    seat = step.seat
    player = state.players[seat]
    state.influence_used = ""
    effect = _effect(step)
    dice = dice_by_id(state, step.dice)
    kind, index = groups.target_kind(step.target)
    gain = groups.yield_of(state, step.target, effect, dice)
    out: list[Event] = []
    for owner, amount in sorted(groups.price(seat, dice, effect).items()):
        player.deniers -= amount
        if owner != NEUTRAL:
            state.players[owner].deniers += amount
        bought = sum(1 for d in dice if d.owner == owner)
        out.append(Event("bought", {"seat": seat, "from": owner, "deniers": amount, "dice": bought}))
    if step.modifier:
        player.cubes[step.modifier] -= 1
        if not player.cubes[step.modifier]:
            del player.cubes[step.modifier]
    used = set(step.dice)
    state.dice = [d for d in state.dice if d.id not in used]
    state.spent += len(used)
    shown = [[d.owner, d.colour.value, d.value] for d in dice]
    named = state.cards[index].id if kind == "card" else state.queue[index].id if kind == "event" else ""
    used_on = {"seat": seat, "target": step.target, "card": named, "modifier": step.modifier, "dice": shown}
    out.append(Event("dice_used", used_on))
    state.stack.append(Step(kind=StepKind.END_TURN, seat=seat))
    if kind == "card":
        if step.source:
            cost = groups.hire_cost(state, seat, step.target)
            player.deniers -= cost
            came = _take_citizen(state, seat, step.source)
            hired = hire(state, seat, index)
            out.append(Event(hired.kind, {**hired.data, **came, "cost": cost}))
        out += activate(state, seat, index, times)
    elif kind == "cathedral":
        for value in groups.values(dice, effect):
            state.cathedral[value - 1].append(seat)
            out.append(gain_vp(state, seat, board().const("vp_per_cube"), "cathedral"))
            got = gain_influence(state, seat, board().cathedral_influence[value - 1])
            out.append(Event("cathedral_cube", {"seat": seat, "column": value, "influence": got}))
    elif kind == "event":
        for _ in range(gain):
            out += place_cube(state, index, seat)
    elif kind == "building":
        value = groups.values(dice, effect)[0]
        came = _take_citizen(state, seat, step.source)
        expelled = bd.enter(state, index, value, seat)
        placed = {"seat": seat, "building": index, "value": value, "expelled": expelled, **came}
        out.append(Event("citizen_placed", placed))
    else:
        player.deniers += gain
        out.append(Event("agriculture", {"seat": seat, "deniers": gain}))
    return out


def _reroll(state: TroyesState, seat: int, die_id: int) -> list[Event]:
    state.players[seat].influence -= board().const("reroll_cost")
    state.influence_used = "reroll"
    state.dice = [roll_die(state, d) if d.id == die_id else d for d in state.dice]
    state.stack.pop()
    value = next(d.value for d in state.dice if d.id == die_id)
    return [Event("reroll", {"seat": seat, "die": die_id, "value": value}, checkpoint=True)]


def _flip(state: TroyesState, seat: int, ids: tuple[int, ...]) -> list[Event]:
    state.players[seat].influence -= board().const("flip_cost")
    state.influence_used = "flip"
    state.dice = [
        Die(id=d.id, colour=d.colour, value=7 - d.value, owner=d.owner) if d.id in ids else d
        for d in state.dice
    ]
    state.stack.pop()
    return [Event("flip", {"seat": seat, "dice": list(ids)})]


def _counter(state: TroyesState, step: Step, action: Action) -> list[Event]:
    seat = step.seat
    if action.kind in ("reroll", "flip"):
        state.stack.append(Step(kind=StepKind(action.kind), seat=seat))
        return []
    if action.kind == "concede":
        return _concede(state, seat)
    if action == STOP:
        next_counter(state, seat)
        return []
    chosen = (*step.dice, action["id"])
    dice = dice_by_id(state, chosen)
    if strength(dice) < state.black[step.count]:
        state.stack[-1] = replace(step, dice=chosen)
        return []
    beaten = state.black.pop(step.count)
    state.influence_used = ""
    state.dice = [d for d in state.dice if d.id not in chosen]
    state.spent += len(chosen)
    got = gain_influence(state, seat, 1)
    shown = [[d.colour.value, d.value] for d in dice]
    countered = {"seat": seat, "black": beaten, "dice": shown, "strength": strength(dice), "influence": got}
    out = [Event("countered", countered)]
    if not state.black:
        return out + after_countering(state)
    # §5: after the highest, the player may counter any others he chooses.
    if beatable(state, seat):
        state.stack[-1] = Step(kind=StepKind.CONTINUE, seat=seat)
    else:
        next_counter(state, seat)
    return out


def _concede(state: TroyesState, seat: int) -> list[Event]:
    beaten = state.black.pop(0)
    state.influence_used = ""
    out = [Event("not_countered", {"seat": seat, "black": beaten})]
    out.append(gain_vp(state, seat, board().const("black_failure_vp"), "black die"))
    if not state.black:
        return out + after_countering(state)
    next_counter(state, seat)
    return out


def settle(state: TroyesState) -> list[Event]:
    """Run automatic steps until someone must decide (or the game is over)."""
    out: list[Event] = []
    while state.phase is not Phase.OVER and state.stack:
        step = state.stack[-1]
        if step.kind is StepKind.END_TURN:
            state.stack.pop()
            out += next_turn(state)
        elif step.kind is StepKind.ARCHER:
            if step.count == 0:
                state.stack.pop()
                continue
            state.stack[-1] = Step(kind=StepKind.ARCHER, seat=step.seat, count=step.count - 1)
            roll = state.rng.die()
            out.append(Event("archer_roll", {"seat": step.seat, "value": roll}, checkpoint=True))
            if roll >= 3:
                state.stack.append(Step(kind=StepKind.EVENT_CUBE, seat=step.seat, count=1))
        elif step.kind is StepKind.COUNTER and not own_dice(state, step.seat):
            if step.target == EXTRA:
                next_counter(state, step.seat)
            else:
                out += _concede(state, step.seat)
        else:
            # A step with one way forward is taken without asking (going back is no choice),
            # unless it costs something or adds to the group's price: money moves only on a click.
            prompt = step_prompt(state, step)
            only = only_way_forward(prompt)
            if only is None or not costs_nothing(prompt, only):
                break
            out += _step(state, step.seat, only)
    return out
