"""The Troyes bot levels: each fault of the old greedy bot, the easy and hard levels, fair play."""

from __future__ import annotations

from engine.core import LEVELS, Action
from engine.rng import Rng
from engine.troyes import RULES, TroyesState
from engine.troyes.bots import plan_value
from engine.troyes.hard import SearchBot, determinize, evaluate, shortlist
from engine.troyes.kinds import HIDDEN, Phase, StepKind
from engine.troyes.state import Die, Step
from tests.engine.troyes.helpers import R, W, Y, add_dice, table, target

PROCESSION = "W3b"


def choose(state: TroyesState, policy: str = "normal") -> Action:
    """What a bot of `policy` plays for the seat to decide now."""
    prompt = RULES.prompts(state)[0]
    return RULES.bot_action(state, prompt, policy)


def procession_table() -> tuple[TroyesState, list[Die]]:
    """Seat 0 and seat 1 each hold two white dice; seat 0 may activate the Procession."""
    state = table(2, cards=(PROCESSION,))
    add_dice(state, 0, W, 6, 6)
    add_dice(state, 1, W, 1, 1)
    return state, [d for d in state.dice if d.owner == 0]


def test_procession_is_judged_without_the_dice_the_activation_spends() -> None:
    state, mine = procession_table()
    # Spending both dice leaves seat 1 the most dice: the 2 VP per activation would go to it.
    assert plan_value(state, 0, "card:0", "", mine) < 0
    assert choose(state) != target("card:0")
    # With two more dice left after the activation, seat 0 leads and the Procession pays.
    add_dice(state, 0, Y, 1, 1, 1)
    assert plan_value(state, 0, "card:0", "", mine) > 0


def countering(black: int, *values: int, influence: int) -> TroyesState:
    """Seat 0 facing a black die of `black` with white dice of `values`."""
    state = table(2)
    state.phase = Phase.COUNTER
    state.black = [black]
    state.stack = [Step(kind=StepKind.COUNTER, seat=0)]
    add_dice(state, 0, W, *values)
    add_dice(state, 1, W, 1)
    state.players[0].influence = influence
    state.players[0].vp = 5
    return state


def test_a_reroll_that_likely_counters_a_black_die_beats_losing_2_vp() -> None:
    state = countering(6, 3, 2, influence=5)
    assert Action("concede") in RULES.prompts(state)[0].options
    assert choose(state) == Action("reroll")
    state = RULES.apply(state, 0, Action("reroll")).state
    # The 2 is the die rolled again: any of 3 to 6 makes 6 with the 3.
    two = next(d.id for d in state.dice if d.owner == 0 and d.value == 2)
    assert choose(state) == Action.of("die", id=two)


def test_a_flip_counters_a_black_die_a_reroll_would_rarely_beat() -> None:
    state = countering(5, 1, influence=4)
    assert choose(state) == Action("flip")
    state = RULES.apply(state, 0, Action("flip")).state
    # One die, chosen alone; turning it over costs 4 influence, so that click is the bot's.
    assert choose(state) == Action("done")
    state = RULES.apply(state, 0, Action("done")).state
    # The 6 then counters the 5 alone: the only way forward, and it costs nothing.
    assert state.black == [] and state.players[0].vp == 5
    assert state.players[0].influence == 1, "4 paid for the flip, 1 gained by countering"


def test_without_influence_to_spend_the_bot_concedes() -> None:
    state = countering(6, 3, 2, influence=0)
    assert choose(state) == Action("concede")


def self_play(seeds: range, policy: str = "normal") -> list[TroyesState]:
    """Finished 2-player games of one policy against itself."""
    finished = []
    for seed in seeds:
        state = RULES.setup(2, seed=seed)
        while RULES.outcome(state) is None:
            prompt = RULES.prompts(state)[0]
            state = RULES.apply(state, prompt.seat, RULES.bot_action(state, prompt, policy)).state
        finished.append(state)
    return finished


def test_normal_bots_spend_influence_on_dice_and_end_with_little_money() -> None:
    influence_spent = 0
    deniers_left: list[int] = []
    for seed in range(6):
        state = RULES.setup(2, seed=seed)
        while RULES.outcome(state) is None:
            prompt = RULES.prompts(state)[0]
            action = RULES.bot_action(state, prompt, "normal")
            influence_spent += action in (Action("reroll"), Action("flip"))
            state = RULES.apply(state, prompt.seat, action).state
        deniers_left += [p.deniers for p in state.players]
    assert influence_spent >= 6, "rerolls and flips are part of the normal bot's play"
    # Money left at the end scores nothing (the old greedy bot kept about 20 deniers).
    assert sum(deniers_left) / len(deniers_left) <= 8


def test_troyes_offers_the_three_levels() -> None:
    assert RULES.levels() == LEVELS
    assert RULES.policy("greedy") == "normal"


def test_a_determinized_world_hides_nothing_and_keeps_what_the_seat_knows() -> None:
    state = RULES.setup(3, seed=4)
    view = RULES.view(state, 1)
    world = determinize(view, 1, Rng.from_seed(9))
    assert world.players[1].characters == state.players[1].characters
    for seat in (0, 2):
        assert HIDDEN not in world.players[seat].characters
        assert not set(world.players[seat].characters) & set(state.players[1].characters)
    assert all(slot.id != HIDDEN for slot in world.cards)
    assert HIDDEN not in world.red_deck + world.white_deck + world.yellow_deck + world.character_deck
    assert len(world.red_deck) == len(state.red_deck)
    # Each seat's lead over the others' mean: the three leads add up to nothing.
    assert abs(sum(evaluate(world, seat) for seat in range(3))) < 1e-9


def searched(state: TroyesState, bot: SearchBot) -> Action:
    """What `bot` plays from the view of the seat to decide now."""
    prompt = RULES.prompts(state)[0]
    return bot.choose(RULES.view(state, prompt.seat), prompt, Rng.from_seed(state.version, prompt.seat))


def test_the_hard_bot_plays_from_its_seat_view_only() -> None:
    state, _ = procession_table()
    other = state.copy()
    other.players[1].vp = 30
    other.players[1].characters = list(reversed(other.players[1].characters))
    # No time bound here: a loaded machine must not cut one search shorter than the other.
    bot = SearchBot(budget=600.0)
    assert searched(state, bot) == searched(other, bot)
    assert searched(state, bot) in RULES.prompts(state)[0].options


def test_the_hard_bot_out_of_time_plays_the_normal_choice() -> None:
    state, _ = procession_table()
    add_dice(state, 0, Y, 1, 1, 1)
    prompt = RULES.prompts(state)[0]
    assert len(shortlist(RULES.view(state, 0), prompt)) > 1, "nothing to search"
    assert searched(state, SearchBot(budget=0.0)) == choose(state, "normal")


def test_a_hard_bot_finishes_a_game_with_legal_moves() -> None:
    (state,) = self_play(range(1), "hard")
    assert state.phase is Phase.OVER


def test_a_joust_tied_for_the_lead_is_worth_its_2_vp_to_the_bot() -> None:
    """Only the activator gains now (issue 32): a rival tied for the lead takes nothing from it."""
    state = table(2, cards=("R3b",))
    state.cards[0].spaces[0] = 0
    (four,) = add_dice(state, 0, R, 4)
    add_dice(state, 0, R, 5)
    add_dice(state, 1, R, 5)
    view = RULES.view(state, 0)
    value = plan_value(view, 0, "card:0", "", [d for d in view.dice if d.id == four])
    assert value > 1.0, value
