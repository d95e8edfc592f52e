"""The game log (issue 32): every line a sentence, an outcome for every event roll, the pass money."""

from __future__ import annotations

import gettext
import re
from pathlib import Path

import pytest
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_file

from engine.core import Action, Event
from engine.troyes import RULES, text
from engine.troyes.data import activities, events
from engine.troyes.eventcards import apply_effects
from engine.troyes.flow import end_round
from engine.troyes.kinds import CITY_HALL, NEUTRAL
from engine.troyes.state import EventSlot
from engine.words import Words
from tests.engine.troyes.helpers import W, add_dice, play, table

NAMES = ["alice", "Bot"]


def line(kind: str, names: list[str] | None = None, **data: object) -> str:
    """The log line of one event."""
    return RULES.describe(Event(kind, dict(data)), names)


def test_a_line_about_the_neutral_player_starts_with_a_capital() -> None:
    assert line("event_cube", NAMES, seat=NEUTRAL, event="EY1", influence=0) == (
        "The neutral player puts a cube on Drought."
    )
    # A player's own name is written as they spell it, even in lower case.
    assert line("pass", NAMES, seat=0) == "alice passes."


def test_one_die_is_a_die() -> None:
    assert line("flip", seat=0, dice=[3]) == "Player 1 spends 4 influence to turn 1 die over."
    assert line("flip", seat=0, dice=[3, 4]) == "Player 1 spends 4 influence to turn 2 dice over."
    assert line("workforce", dice=[[0, "red", 3]]) == "Workforce rolled: 1 die."
    assert line("black_dice", values=[5]) == "Black die rolled: 5."
    assert line("black_dice", values=[5, 2]) == "Black dice rolled: 5, 2."
    assert (
        line("bought", seat=0, **{"from": 1}, deniers=2, dice=1)
        == "Player 1 pays 2 deniers for 1 die of Player 2."
    )


def test_an_apprenticeship_cube_and_an_8() -> None:
    used = line("dice_used", seat=0, target="agriculture", card="", modifier="W2a", dice=[[0, "yellow", 3]])
    assert used == "Player 1 uses yellow 3 on agriculture with an Apprenticeship cube."
    assert line("event_roll", event="Wayfarers", value=8) == "Wayfarers rolls an 8."
    assert line("event_roll", event="Wayfarers", value=4) == "Wayfarers rolls a 4."


def test_an_event_roll_that_brings_no_neutral_citizen_says_why() -> None:
    state = table(2)
    state.queue = [EventSlot(id="EY4")]  # Wayfarers: a grey citizen enters City Hall by a roll
    state.neutral_supply = 0
    _, events = apply_effects(state)
    lines = [RULES.describe(e) for e in events]
    assert lines[0].startswith("Wayfarers rolls a")
    assert lines[1] == "No neutral citizen enters the City Hall: all of them are already on the board."

    state = table(2)
    state.queue = [EventSlot(id="EY4")]
    state.buildings[CITY_HALL] = [1] * 6
    state.lying[CITY_HALL] = [1]
    _, events = apply_effects(state)
    assert [RULES.describe(e) for e in events][1] == (
        "No neutral citizen enters the City Hall: it would expel a citizen of Player 2,"
        " whose colour already lies there."
    )
    assert state.buildings[CITY_HALL] == [1] * 6


def test_the_pass_money_is_a_line_at_the_end_of_the_round() -> None:
    state = table(2)
    state.players[0].pass_money, state.players[1].pass_money = 3, 1
    state.round = state.rounds
    lines = [RULES.describe(e) for e in end_round(state)]
    assert "Player 1 collects 3 deniers of pass money." in lines
    assert "Player 2 collects 1 denier of pass money." in lines
    assert state.players[0].deniers == 13


def test_passing_is_followed_by_its_money_when_the_round_ends() -> None:
    state = table(2)
    add_dice(state, 1, W, 2)
    state = play(state, 0, Action("pass"))
    events = RULES.apply(state, 1, Action("pass")).events
    money = [RULES.describe(e) for e in events if e.kind == "pass_money"]
    assert money == [
        "Player 1 collects 2 deniers of pass money.",
        "Player 2 collects 2 deniers of pass money.",
    ]


_A_BEFORE_VOWEL = re.compile(r"\ba [AEIOUaeiou8]|\ban [^AEIOUaeiou8]")
_ONE_PLURAL = re.compile(r"\b1 (dice|deniers|cubes|citizens|activations)\b")


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_every_line_of_random_games_is_a_sentence_and_every_roll_has_its_outcome(seats: int) -> None:
    names = ["ann", "Bob", "carl", "Dee"][:seats]
    for seed in range(3):
        state = RULES.setup(seats, seed=seed)
        passed: set[int] = set()
        while RULES.outcome(state) is None:
            (prompt,) = RULES.prompts(state)
            action = RULES.bot_action(state, prompt, "random" if seed % 2 else "normal")
            events = list(RULES.apply(state, prompt.seat, action).events)
            state = RULES.apply(state, prompt.seat, action).state
            for i, event in enumerate(events):
                text = RULES.describe(event, names)
                assert text != event.kind and text.endswith("."), text
                assert text[0].isupper() or text.startswith(tuple(names)), text
                assert not _A_BEFORE_VOWEL.search(text) and not _ONE_PLURAL.search(text), text
                if event.kind == "event_roll":
                    assert events[i + 1].kind in ("neutral_enters", "neutral_stays"), "the roll's outcome"
                if event.kind == "pass":
                    passed.add(int(event.data["seat"]))
                if event.kind == "pass_money":
                    passed.discard(int(event.data["seat"]))
                if event.kind == "round_end":
                    ended_with = {int(e.data["seat"]) for e in events[i:] if e.kind == "pass_money"}
                    assert passed <= ended_with, "every player who passed collects the pass money in the log"


class _Asked(Words):
    """English that remembers every message it was asked for, as the source spells it."""

    def __init__(self) -> None:
        super().__init__("en", gettext.NullTranslations())
        self.asked: set[str] = set()

    def gettext(self, message: str, /, **fields: object) -> str:
        self.asked.add(message)
        return super().gettext(message, **fields)

    def ngettext(self, singular: str, plural: str, count: int, /, **fields: object) -> str:
        self.asked.add(singular)
        return super().ngettext(singular, plural, count, **fields)


def _extracted() -> set[str]:
    """The messages `pybabel extract -k N_` finds in the log's source (the catalog's keys)."""
    found: set[str] = set()
    for _line, message, _comments, _context in extract_from_file(
        "python", str(Path(text.__file__)), keywords={**DEFAULT_KEYWORDS, "N_": None}
    ):
        found.add(message[0] if isinstance(message, tuple) else message)
    return found


@pytest.mark.parametrize(
    ("kind", "data"),
    [
        ("countered", {"seat": 0, "black": 4, "dice": [["red", 5]], "strength": 5, "influence": 0}),
        ("countered", {"seat": 0, "black": 4, "dice": [["red", 5]], "strength": 5, "influence": 2}),
        ("event_cube", {"seat": 0, "event": "EY1", "influence": 0}),
        ("event_cube", {"seat": 0, "event": "EY1", "influence": 1}),
        ("cathedral_cube", {"seat": 1, "column": 3, "influence": 0}),
        ("cathedral_cube", {"seat": 1, "column": 3, "influence": 2}),
        ("vp", {"seat": 0, "amount": 1, "asked": 1, "why": "cathedral"}),
        ("vp", {"seat": 0, "amount": -2, "asked": -2, "why": "black die"}),
        ("vp", {"seat": 0, "amount": 0, "asked": -2, "why": "wages"}),
    ],
)
def test_each_word_of_a_log_line_is_a_catalog_message(kind: str, data: dict[str, object]) -> None:
    """A message handed to the catalog by name, not as a literal, never reaches a translator (issue 36)."""
    asked = _Asked()
    text.describe(Event(kind, data), NAMES, words=asked)
    cards = {card.name for card in [*activities().values(), *events().values()]}
    missing = asked.asked - _extracted() - cards
    assert not missing, f"not in the catalog: {sorted(missing)}"
