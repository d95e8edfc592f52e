"""Random full games: the engine contract, invariants, secrets in views, game length, bot strength."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.play import run_game
from engine.troyes import RULES, TroyesState
from engine.troyes.board import neutral_on_board
from engine.troyes.data import board
from engine.troyes.kinds import HIDDEN, NEUTRAL, Phase
from tests.conformance import random_playout

MAX_OPTIONS = 25
"""Discord's limit of options in one select."""


class Invariants:
    """Checks run on every state of a playout; remembers what it saw."""

    def __init__(self) -> None:
        self.round_dice: dict[int, int] = {}
        self.max_options = 0
        self.rounds_seen: set[int] = set()

    def __call__(self, state: TroyesState) -> None:
        cap = board().const("influence_cap")
        for seat, player in enumerate(state.players):
            assert player.deniers >= 0 and player.influence >= 0 and player.vp >= 0
            assert player.influence <= cap
            assert 0 <= player.supply <= player.owned <= board().const("max_citizens")
            on_board = sum(b.count(seat) for b in state.buildings) + sum(b.count(seat) for b in state.lying)
            tradesmen = sum(1 for c in state.cards if c.has(seat))
            assert player.supply + on_board + tradesmen == player.owned, "citizens are conserved"
        assert neutral_on_board(state) + state.neutral_supply == board().const("neutral_citizens")
        # Dice counts are conserved within a round: rolled = on the square + used.
        assert state.rolled == len(state.dice) + state.spent
        assert len({d.id for d in state.dice}) == len(state.dice)
        assert all(len(col) <= board().cathedral_levels for col in state.cathedral)
        self.rounds_seen.add(state.round)
        for prompt in RULES.prompts(state):
            self.max_options = max(self.max_options, len(prompt.options))
            assert len(prompt.options) <= MAX_OPTIONS, f"{prompt.kind} offers {len(prompt.options)}"
            assert prompt.default is None or prompt.default in prompt.options
        if state.version % 7 == 0:
            self.check_views(state)

    @staticmethod
    def check_views(state: TroyesState) -> None:
        over = state.phase is Phase.OVER
        for viewer in [None, *range(state.seats)]:
            seen = RULES.view(state, viewer)
            for seat, player in enumerate(seen.players):
                if seat == viewer or over:
                    assert player.characters == state.players[seat].characters
                    assert player.vp == state.players[seat].vp
                else:
                    assert player.characters == [HIDDEN] * len(player.characters) and player.vp == 0
            assert set(seen.character_deck) <= {HIDDEN} and set(seen.red_deck) <= {HIDDEN}
            assert all(c.revealed or c.id == HIDDEN for c in seen.cards)
            assert seen.rng.state == 0


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_random_games_keep_the_contract_and_the_invariants(seats: int) -> None:
    for seed in range(3):
        check = Invariants()
        end = random_playout(RULES, seats, seed, invariant=check, check_every=10)
        assert end.phase is Phase.OVER and end.round == {2: 4, 3: 5, 4: 6}[seats]
        assert check.rounds_seen == set(range(0, end.round + 1))
        outcome = RULES.outcome(end)
        assert outcome is not None and len(outcome.breakdown) == seats
        assert all(
            line["Total"] == score for line, score in zip(outcome.breakdown, outcome.scores, strict=True)
        )
        assert check.max_options > 1


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_greedy_games_keep_the_invariants(seats: int) -> None:
    check = Invariants()
    random_playout(RULES, seats, 11, invariant=check, check_every=25, policy="greedy")


def test_neutral_dice_are_rolled_and_can_be_bought() -> None:
    game = run_game(RULES, 3, 2)
    assert any(e.kind == "bought" and e.data["from"] == NEUTRAL for _, e in game.events)


def test_greedy_beats_random_in_at_least_80_percent_of_two_player_games() -> None:
    wins = 0
    for seed in range(200):
        greedy = seed % 2
        policies = ["random", "random"]
        policies[greedy] = "greedy"
        outcome = run_game(RULES, 2, seed, policies=policies).outcome
        wins += outcome.scores[greedy] > outcome.scores[1 - greedy]
    assert wins >= 160, f"greedy won {wins} of 200"


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seats=st.integers(2, 4), seed=st.integers(0, 2**32 - 1))
def test_any_seed_plays_to_the_end(seats: int, seed: int) -> None:
    end = random_playout(RULES, seats, seed, invariant=Invariants(), check_every=50)
    assert RULES.outcome(end) is not None


def test_undo_takes_back_own_steps_but_not_a_roll() -> None:
    from engine.core import Action

    state = RULES.setup(2, seed=3)
    while state.phase is not Phase.ACTIONS:
        (prompt,) = RULES.prompts(state)
        state = RULES.apply(state, prompt.seat, RULES.bot_action(state, prompt)).state
    seat = state.turn
    assert not RULES.can_undo(state, seat)
    menu = RULES.prompts(state)[0].options
    chosen = next(o for o in menu if o.kind == "target")
    after = RULES.apply(state, seat, chosen).state
    assert RULES.can_undo(after, seat) and RULES.undo(after, seat, state).state.stack == []
    assert Action("reroll") in menu
    rerolling = RULES.apply(state, seat, Action("reroll")).state
    own = next(o for o in RULES.prompts(rerolling)[0].options if o.kind == "die")
    rolled = RULES.apply(rerolling, seat, own).state
    assert not RULES.can_undo(rolled, seat), "a re-roll is a barrier"


def test_every_logged_event_has_an_english_line() -> None:
    kinds: set[str] = set()
    for seats in (2, 3, 4):
        for _, event in run_game(RULES, seats, 5).events:
            line = RULES.describe(event)
            assert line != event.kind and line.endswith("."), line
            kinds.add(event.kind)
    assert {"workforce", "black_dice", "dice_used", "countered", "vp", "round_end", "game_over"} <= kinds
