"""A colour's initial on every board is the board's language's (issue 36's last defect): a red die at a
Russian table says К, not R; two colours of one game never share an initial; each fits, centred, on
its die, cell or card, and English boards draw the letters they always did."""

from __future__ import annotations

from functools import cache
from importlib import import_module
from typing import Any

import pytest
from PIL import ImageChops

from engine.buttons.faces import Colour as ButtonsColour
from engine.games import get_rules
from engine.troyes.kinds import Colour as TroyesColour
from engine.words import ENGLISH, LANGUAGES, Words, words
from renderers import buttons, dice, tomatoes, troyes_marks
from renderers.initials import COLOURS, initial, neutral
from renderers.playout import states
from renderers.text import PHONE_MIN_PX, PHONE_WIDTH
from tests.renderers.helpers import layout_problems

TRANSLATED = [language for language in LANGUAGES if language != "en"]
NAMES = ("Ann", "Bob", "Cy", "Dee")


def groups(game: str, w: Words) -> list[dict[str, str]]:
    """The colours each board of `game` names by an initial, in groups drawn side by side as
    alternatives, each as {colour or "neutral": initial}."""
    if game == "tomatoes":
        return [{style.name: initial(style.name, w) for style in tomatoes.STYLES.values()}]
    if game == "buttons":
        cells = {colour.value: initial(colour.value, w) for colour in ButtonsColour}
        rolled = {
            style.name: initial(style.name, w) for style in (buttons.WHITE, buttons.GOLD, buttons.PLAIN)
        }
        return [cells, rolled]
    dice_colours = {colour.value: troyes_marks.letter(colour, w) for colour in TroyesColour}
    return [{**dice_colours, "neutral": neutral(w)}]


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("game", ["tomatoes", "buttons", "troyes"])
def test_two_colours_of_a_game_never_share_an_initial(game: str, language: str) -> None:
    w = words(language)
    found = groups(game, w)
    for group in found:
        said = list(group.values())
        assert len(set(said)) == len(said), f"{language} {game}: {group}"
        assert all(1 <= len(letter) <= 2 and letter.strip() == letter for letter in said), group
    if language != "en":
        # In a translated game no two colours share one at all. English Buttons keeps the letters it
        # always drew, G and B on both a cell colour and a die (green/gold, blue/black).
        whole = {colour: letter for group in found for colour, letter in group.items()}
        assert len(set(whole.values())) == len(whole), f"{language} {game}: {whole}"


def test_english_initials_are_the_letters_english_boards_always_drew() -> None:
    assert [initial(colour.value) for colour in ButtonsColour] == [c.letter for c in ButtonsColour]
    styles = [*tomatoes.STYLES.values(), buttons.WHITE, buttons.GOLD, buttons.PLAIN]
    initials = {style.name: initial(style.name) for style in styles}
    assert initials == {"red": "R", "black": "B", "gold": "G", "white": "W"}
    assert [troyes_marks.letter(colour) for colour in TroyesColour] == ["R", "W", "Y"]
    assert neutral() == "N"


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_colour_has_its_own_initial_in_each_translated_catalog(language: str) -> None:
    # Each language's catalog gives every colour an initial of its own (the English falls through
    # when a message is missing: a Russian board would say R again).
    w = words(language)
    for colour in COLOURS:
        assert initial(colour, w) != initial(colour, ENGLISH) or (language == "pl" and colour == "white")
    assert neutral(w) != "N" or language == "pl"


@cache
def moments(game: str, seats: int) -> tuple[Any, ...]:
    """The start, four points of a seeded bot game and its end."""
    every = list(states(get_rules(game), seats, 2024))
    return tuple(every[min(len(every) - 1, len(every) * quarter // 4)] for quarter in range(5))


@pytest.mark.parametrize("language", TRANSLATED)
@pytest.mark.parametrize("game", ["tomatoes", "buttons", "troyes"])
def test_a_board_draws_its_colours_initials_in_its_language(game: str, language: str) -> None:
    w = words(language)
    rules = get_rules(game)
    draw = import_module(f"renderers.{game}").draw
    wanted = {letter for group in groups(game, w) for letter in group.values()}
    english = {letter for group in groups(game, ENGLISH) for letter in group.values()} - wanted
    drawn: set[str] = set()
    problems: list[str] = []
    for seats in (2, 3):
        for index, state in enumerate(moments(game, seats)):
            canvas = draw(rules.view(state, 0), 0, NAMES[:seats], w=w)
            drawn |= {item.text.removeprefix("die ") for item in canvas.drawn}
            where = f"{seats} players, moment {index}"
            # The existing checks hold in the language too: no text across a panel's edge or over
            # another, and every letter 8 px tall on a phone.
            problems += [f"{where}: {p}" for p in layout_problems(canvas) if " is cut to " not in p]
            if canvas.smallest_shown_glyph(PHONE_WIDTH) < PHONE_MIN_PX:
                problems.append(f"{where}: a glyph under {PHONE_MIN_PX} px on a phone")
    if game == "tomatoes" and not rules.setup(2, None, 1).options.golden_hybrid:
        wanted.discard(initial("gold", w))
    assert wanted <= drawn, f"initials never drawn: {wanted - drawn}"
    assert not english & drawn, f"English initials drawn at a {language} table: {english & drawn}"
    assert not problems, "\n".join(problems[:10])


def _ink(letter: str, style: dice.DieStyle, size: int) -> tuple[int, int, int, int] | None:
    """The box of the pixels `letter` changes on a blank face."""
    plain = dice.die(0, style, size, "")
    marked = dice.die(0, style, size, letter)
    return ImageChops.difference(plain, marked).convert("L").point(lambda v: 255 if v > 24 else 0).getbbox()


STYLES = {
    "tomatoes": [(style, 40) for style in tomatoes.STYLES.values()],
    "buttons": [(style, size) for style in (buttons.WHITE, buttons.GOLD, buttons.PLAIN) for size in (52, 40)],
}


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("game", sorted(STYLES))
def test_a_blank_die_s_initial_is_centred_inside_its_face(game: str, language: str) -> None:
    # A Korean syllable is drawn through the font chain (DejaVu has no Hangul): it shows, centred,
    # clear of the die's rim, as a Latin capital does.
    w = words(language)
    for style, size in STYLES[game]:
        letter = initial(style.name, w)
        box = _ink(letter, style, size)
        assert box is not None, f"{letter!r} left no ink on a {style.name} die"
        left, top, right, bottom = box
        rim = max(1, round(size * style.edge_ratio))
        assert rim < left and right < size - rim and rim < top and bottom < size - rim, (letter, box)
        assert abs((left + right) / 2 - size / 2) <= 1.5, (letter, box)
        assert abs((top + bottom) / 2 - size / 2) <= 2, (letter, box)


def test_a_blank_die_s_letter_is_part_of_its_cache_key() -> None:
    english = dice.die(0, dice.RED, 40)
    russian = dice.die(0, dice.RED, 40, "К")
    korean = dice.die(0, dice.RED, 40, "빨")
    assert english.tobytes() == dice.die(0, dice.RED, 40, "R").tobytes()
    assert len({english.tobytes(), russian.tobytes(), korean.tobytes()}) == 3


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_cell_letter_reaches_further_into_its_piece_than_an_english_capital(language: str) -> None:
    # A Korean syllable or "Cz" beside a button or star: the piece is drawn smaller, so the letter
    # stays as readable as an English capital there. English cells keep their pieces' size.
    w = words(language)
    allowed = max(buttons._reach(colour.letter, buttons.PIECE) for colour in ButtonsColour)
    for colour in ButtonsColour:
        letter = initial(colour.value, w)
        piece = buttons.piece_size(letter)
        assert buttons.PIECE_MIN <= piece <= buttons.PIECE
        assert buttons._reach(letter, piece) <= allowed, (letter, piece)
        if language == "en":
            assert piece == buttons.PIECE
