"""The decisions of a turn as a stack of small steps: their options and what each choice does."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from itertools import combinations

from engine.core import Action, Event, Prompt
from engine.troyes import board as bd
from engine.troyes import groups
from engine.troyes.cards import activate, affordable, hire
from engine.troyes.data import activities, board
from engine.troyes.eventcards import place_cube
from engine.troyes.flow import after_countering, next_counter, next_turn, roll_die, start_round
from engine.troyes.kinds import NEUTRAL, Colour, Phase, StepKind
from engine.troyes.purse import gain_influence, gain_vp
from engine.troyes.state import Die, Step, TroyesState

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
        return Prompt(seat, "setup_place", options)
    if not state.stack:
        return _turn_menu(state, state.turn)
    step = state.stack[-1]
    return _STEP_PROMPTS[step.kind](state, step)


def _influence_options(state: TroyesState, seat: int) -> list[Action]:
    player = state.players[seat]
    has_dice = any(d.owner == seat for d in state.dice)
    options: list[Action] = []
    if has_dice and player.influence >= board().const("reroll_cost"):
        options.append(Action("reroll"))
    if has_dice and player.influence >= board().const("flip_cost"):
        options.append(Action("flip"))
    return options


def can_get_citizen(state: TroyesState, seat: int) -> bool:
    """Whether 2 influence can bring a new citizen from the general supply."""
    player = state.players[seat]
    return player.influence >= board().const("citizen_cost") and player.owned < board().const("max_citizens")


def sources(state: TroyesState, seat: int, target: str) -> list[str]:
    """Where the citizen for a placement or a new tradesman may come from."""
    player = state.players[seat]
    found: list[str] = []
    if player.supply > 0:
        found.append("supply")
    elif can_get_citizen(state, seat):
        found.append("new")
    for b in range(3):
        found += [f"b:{b}:{s}" for s, owner in enumerate(state.buildings[b]) if owner == seat]
    for i, slot in enumerate(state.cards):
        if slot.has(seat) and target != f"card:{i}":
            found.append(f"c:{i}")
    found += [f"l:{b}" for b in range(3) if seat in state.lying[b]]
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


def _some_group_works(state: TroyesState, seat: int, target: str) -> bool:
    """Whether some group of fitting dice (under some usable cube) works on the target."""
    for effect in ["", *(activities()[c].effect for c in usable_modifiers(state, seat, target))]:
        fitting = [d for d in state.dice if groups.die_fits(state, seat, target, effect, [], d)]
        if any(groups.yield_of(state, target, effect, [d]) >= 1 for d in fitting):
            return True
        pool = _search_pool(seat, effect, fitting)
        for size in range(2, groups.max_dice(target, effect) + 1):
            for combo in combinations(pool, size):
                fits = all(
                    groups.die_fits(state, seat, target, effect, combo[:i], combo[i]) for i in range(size)
                )
                if fits and groups.yield_of(state, target, effect, combo) >= 1:
                    return True
    return False


def _turn_menu(state: TroyesState, seat: int) -> Prompt:
    options = [PASS, *_influence_options(state, seat)]
    if can_get_citizen(state, seat):
        options.append(Action("citizen"))
    targets = [f"card:{i}" for i in range(len(state.cards))]
    targets += ["event", "cathedral", "building:0", "building:1", "building:2", "agriculture"]
    options += [Action.of("target", t=t) for t in targets if can_target(state, seat, t)]
    return Prompt(seat, "turn", tuple(options), default=PASS, context=(("round", state.round),))


def _reroll_prompt(state: TroyesState, step: Step) -> Prompt:
    options = [Action.of("die", id=d.id) for d in own_dice(state, step.seat)]
    return Prompt(step.seat, "reroll", (*options, BACK), default=BACK)


def _flip_prompt(state: TroyesState, step: Step) -> Prompt:
    options: list[Action] = []
    if len(step.dice) < 3:
        options += [Action.of("die", id=d.id) for d in own_dice(state, step.seat) if d.id not in step.dice]
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
    options = [
        Action.of("modifier", card=""),
        *(Action.of("modifier", card=c) for c in usable_modifiers(state, step.seat, step.target)),
    ]
    return Prompt(
        step.seat, "modifier", (*options, BACK), default=options[0], context=(("target", step.target),)
    )


def _effect(step: Step) -> str:
    return activities()[step.modifier].effect if step.modifier else ""


def _dice_prompt(state: TroyesState, step: Step) -> Prompt:
    effect = _effect(step)
    chosen = dice_by_id(state, step.dice)
    options = [
        Action.of("die", id=d.id)
        for d in state.dice
        if groups.die_fits(state, step.seat, step.target, effect, chosen, d)
    ]
    if groups.yield_of(state, step.target, effect, chosen) >= 1:
        options.append(DONE)
    context = (("target", step.target), ("modifier", step.modifier), ("chosen", step.dice))
    return Prompt(step.seat, "dice", (*options, BACK), default=BACK, context=context)


def _source_prompt(state: TroyesState, step: Step) -> Prompt:
    options = [Action.of("source", s=s) for s in sources(state, step.seat, step.target)]
    return Prompt(
        step.seat, "citizen_from", (*options, BACK), default=options[0], context=(("target", step.target),)
    )


def _activations_prompt(state: TroyesState, step: Step) -> Prompt:
    options = [Action.of("activations", n=n) for n in range(1, step.count + 1)]
    return Prompt(
        step.seat, "activations", (*options, BACK), default=options[-1], context=(("target", step.target),)
    )


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
        options += [Action.of("die", id=d.id) for d in mine if d.id not in step.dice]
    elif not extra:
        options.append(Action("concede"))
    if extra and not step.dice:
        options.append(STOP)
    if not step.dice:
        options += _influence_options(state, seat)
    default = STOP if STOP in options else None
    context = (("black", black), ("chosen", step.dice))
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
        return _after_dice(state, step)
    if kind is StepKind.SOURCE:
        return _after_source(state, replace(step, source=action["s"]))
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


def _after_dice(state: TroyesState, step: Step) -> list[Event]:
    kind, index = groups.target_kind(step.target)
    needs_citizen = kind == "building" or (kind == "card" and not state.cards[index].has(step.seat))
    if needs_citizen:
        state.stack[-1] = replace(step, kind=StepKind.SOURCE)
        return []
    return _after_source(state, step)


def _after_source(state: TroyesState, step: Step) -> list[Event]:
    kind, index = groups.target_kind(step.target)
    if kind == "card":
        dice = dice_by_id(state, step.dice)
        most = groups.yield_of(state, step.target, _effect(step), dice)
        effect = activities()[state.cards[index].id].effect
        # Only the activations still payable once the dice, the hire and a new citizen are paid.
        deniers = sum(groups.price(step.seat, dice, _effect(step)).values())
        deniers += groups.hire_cost(state, step.seat, step.target)
        influence = board().const("citizen_cost") if step.source == "new" else 0
        most = max(1, affordable(state, step.seat, effect, most, spend=(deniers, influence)))
        if most > 1:
            state.stack[-1] = replace(step, kind=StepKind.ACTIVATIONS, count=most)
            return []
    state.stack.pop()
    return commit(state, step, 1)


def _take_citizen(state: TroyesState, seat: int, source: str) -> None:
    player = state.players[seat]
    parts = source.split(":")
    if source == "supply":
        player.supply -= 1
    elif source == "new":
        player.influence -= board().const("citizen_cost")
        player.owned += 1
    elif parts[0] == "b":
        state.buildings[int(parts[1])][int(parts[2])] = None
    elif parts[0] == "c":
        slot = state.cards[int(parts[1])]
        if seat in slot.spaces:
            slot.spaces[slot.spaces.index(seat)] = None
        else:
            slot.extra.remove(seat)
    else:
        state.lying[int(parts[1])].remove(seat)


def commit(state: TroyesState, step: Step, times: int) -> list[Event]:
    """Pay for and carry out a fully chosen action; the turn ends once its effects are settled."""
    seat = step.seat
    player = state.players[seat]
    effect = _effect(step)
    dice = dice_by_id(state, step.dice)
    kind, index = groups.target_kind(step.target)
    gain = groups.yield_of(state, step.target, effect, dice)
    out: list[Event] = []
    for owner, amount in sorted(groups.price(seat, dice, effect).items()):
        player.deniers -= amount
        if owner != NEUTRAL:
            state.players[owner].deniers += amount
        out.append(Event("bought", {"seat": seat, "from": owner, "deniers": amount}))
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
            player.deniers -= groups.hire_cost(state, seat, step.target)
            _take_citizen(state, seat, step.source)
            out.append(hire(state, seat, index))
        out += activate(state, seat, index, times)
    elif kind == "cathedral":
        for value in groups.values(dice, effect):
            state.cathedral[value - 1].append(seat)
            out.append(gain_vp(state, seat, board().const("vp_per_cube"), "cathedral"))
            gain_influence(state, seat, board().cathedral_influence[value - 1])
            out.append(Event("cathedral_cube", {"seat": seat, "column": value}))
    elif kind == "event":
        for _ in range(gain):
            out += place_cube(state, index, seat)
    elif kind == "building":
        value = groups.values(dice, effect)[0]
        _take_citizen(state, seat, step.source)
        expelled = bd.enter(state, index, value, seat)
        out.append(
            Event("citizen_placed", {"seat": seat, "building": index, "value": value, "expelled": expelled})
        )
    else:
        player.deniers += gain
        out.append(Event("agriculture", {"seat": seat, "deniers": gain}))
    return out


def _reroll(state: TroyesState, seat: int, die_id: int) -> list[Event]:
    state.players[seat].influence -= board().const("reroll_cost")
    state.dice = [roll_die(state, d) if d.id == die_id else d for d in state.dice]
    state.stack.pop()
    value = next(d.value for d in state.dice if d.id == die_id)
    return [Event("reroll", {"seat": seat, "die": die_id, "value": value}, checkpoint=True)]


def _flip(state: TroyesState, seat: int, ids: tuple[int, ...]) -> list[Event]:
    state.players[seat].influence -= board().const("flip_cost")
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
    state.dice = [d for d in state.dice if d.id not in chosen]
    state.spent += len(chosen)
    gain_influence(state, seat, 1)
    out = [Event("countered", {"seat": seat, "black": beaten, "dice": [d.value for d in dice]})]
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
            break
    return out
