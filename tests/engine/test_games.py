"""The game registry: each entry's rules answer to its id, and `hidden_information` tells the truth."""

from __future__ import annotations

import gettext
import importlib
import inspect
import pkgutil
from typing import Any

import pytest

from engine import SKELETON
from engine.core import Rules
from engine.games import GAMES, Game, UnknownGame, game, get_rules, registration
from engine.words import Words
from tests.toygame import RULES as RACE


@pytest.mark.parametrize("entry", GAMES.values(), ids=list(GAMES))
def test_each_registered_game_has_rules_of_its_id_and_sample_seats_it_allows(entry: Game) -> None:
    assert game(entry.id) is entry
    rules = get_rules(entry.id)
    assert rules.id == entry.id
    assert entry.sample_seats == tuple(sorted(entry.sample_seats))
    assert all(rules.min_players <= n <= rules.max_players for n in entry.sample_seats)


def test_a_registration_finds_its_parts_by_convention_unless_named() -> None:
    plain = registration("chess", (2,))
    assert (plain.rules, plain.renderer, plain.ui) == ("engine.chess", "renderers.chess", "cogs.games.chess")
    named = registration("race", (3, 2), rules="tests.toygame", renderer=None, ui="tests.cogs.race_ui")
    assert (named.rules, named.renderer, named.ui) == ("tests.toygame", None, "tests.cogs.race_ui")
    assert named.sample_seats == (2, 3) and named.seats == 3
    assert "chess" not in GAMES, "a registration is not registered until `register`"
    with pytest.raises(UnknownGame):
        get_rules("chess")


def _sees_more(rules: Rules[Any], seats: int, moves: int = 80) -> bool:
    """Whether some seat's view differs from the spectators' in the first `moves` states of a bot game."""
    state = rules.setup(seats, None, 5)
    for _ in range(moves):
        spectator = rules.view(state, None)
        if any(rules.view(state, seat) != spectator for seat in range(seats)):
            return True
        prompts = rules.prompts(state)
        if not prompts:
            break
        state = rules.apply(state, prompts[0].seat, rules.bot_action(state, prompts[0])).state
    return False


@pytest.mark.parametrize("game_id", list(GAMES))
def test_hidden_information_is_set_exactly_for_games_whose_seats_see_more(game_id: str) -> None:
    rules = get_rules(game_id)
    assert rules.hidden_information == _sees_more(rules, GAMES[game_id].seats)


def test_the_toy_race_hides_its_secrets_and_says_so() -> None:
    assert RACE.hidden_information and _sees_more(RACE, 2)


@pytest.mark.parametrize("entry", GAMES.values(), ids=list(GAMES))
def test_each_registered_game_package_follows_the_skeleton(entry: Game) -> None:
    package = importlib.import_module(entry.rules)
    assert package.__file__ is not None and package.__file__.endswith("__init__.py"), "a game is a package"
    found = {module.name for module in pkgutil.iter_modules(package.__path__)} | {"__init__"}
    assert set(SKELETON) <= found, f"{entry.id} lacks {sorted(set(SKELETON) - found)}"
    assert package.RULES is importlib.import_module(f"{entry.rules}.rules").RULES
    assert package.RULES.option_specs == importlib.import_module(f"{entry.rules}.options").OPTION_SPECS
    describe = importlib.import_module(f"{entry.rules}.text").describe
    assert "words" in inspect.signature(describe).parameters, "the engine's words come in a Words"


class _Marked(Words):
    """A language whose every message comes back bracketed, so a line built outside the catalog shows."""

    def __init__(self) -> None:
        super().__init__("xx", gettext.NullTranslations())

    def gettext(self, message: str, /, **fields: object) -> str:
        return f"⟦{super().gettext(message, **fields)}⟧"

    def ngettext(self, singular: str, plural: str, count: int, /, **fields: object) -> str:
        return f"⟦{super().ngettext(singular, plural, count, **fields)}⟧"


@pytest.mark.parametrize("game_id", list(GAMES))
def test_every_log_line_of_a_game_is_one_catalog_message(game_id: str) -> None:
    """Issue 36: the engine's text goes through the Words it is handed, a whole message per line."""
    rules = get_rules(game_id)
    marked = _Marked()
    for seats in game(game_id).sample_seats:
        state = rules.setup(seats, None, seats)
        events = list(rules.opening(state))
        while prompts := rules.prompts(state):
            transition = rules.apply(state, prompts[0].seat, rules.bot_action(state, prompts[0], "random"))
            state = transition.state
            events += transition.events
        for event in events:
            for names in (None, ["Ann", "Bob", "Cy", "Dee", "Eve", "Flo"]):
                line = rules.describe(event, names, words=marked)
                assert not line or (line.startswith("⟦") and line.endswith("⟧")), line
