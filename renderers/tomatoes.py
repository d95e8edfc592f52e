"""The Diced Tomatoes board, portrait for phones: the move, the dice on the table, one panel per player.

Every number and letter is at least TEXT_MIN pixels, which keeps digits and capitals 8 px tall
when a phone shows the board 400 px wide (issue 12). Dice not rolled yet show their colour's
initial (R, B, G in English; the board's language's own in another) and are counted by colour
rather than drawn one by one, so they stay large.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PIL import Image

from engine.tomatoes import karma, scoring, turn
from engine.tomatoes.state import (
    SLOTS_PER_TRACK,
    Colour,
    Die,
    GameEnd,
    Phase,
    PlayerState,
    ScoreSlot,
    Token,
    TomatoState,
)
from engine.words import ENGLISH, N_, Words
from engine.words import words as words_in
from renderers import dice, palette, shapes
from renderers.kit import Canvas
from renderers.layout import Box, row_width
from renderers.text import clean_name, fit, font, game_over_line, smallest_legible, width, wrap

WIDTH = 720
PAD = 12
GAP = 10
TEXT_MIN = smallest_legible(WIDTH)
"""The smallest font size on the board (digits 15 px tall, 8.3 px at 400 px wide)."""
TEXT = 24
NAME = 28
STATUS = 30
LETTER_DIE = 40
"""A blank die whose letter is TEXT_MIN tall (dice.letter_size)."""
LINE_H = 40
TABLE_H = 10 + LINE_H + 6 + 56 + 10
TABLE_EMPTY_H = 10 + LINE_H + 10
"""The strip with no dice to show: its label and the bushel only."""
TOKEN_H = 104
SLOT_H = 56
PANEL_H = 12 + LINE_H + 8 + TOKEN_H + 8 + SLOT_H + 12
KARMA_W = 150
LEGEND_LINE = 46

STYLES = {Colour.RED: dice.RED, Colour.BLACK: dice.BLACK, Colour.GOLD: dice.GOLD}
EMPTY_SLOT = palette.mix(palette.PANEL_EDGE, palette.TEXT_DIM, 0.45)

_PHASE_WORDS = {
    Phase.ROLL: N_("roll the dice"),
    Phase.PLACE: N_("place dice"),
    Phase.CLEAR: N_("end of turn"),
    Phase.OVER: "",
}


def _possessive(name: str) -> str:
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def render(
    view: TomatoState, viewer: int | None, names: Sequence[str], *, language: str = "en"
) -> Image.Image:
    """The table as `viewer` (None: a spectator) sees it, with the players' display names, in `language`."""
    return draw(view, viewer, names, w=words_in(language)).image


def draw(view: TomatoState, viewer: int | None, names: Sequence[str], *, w: Words = ENGLISH) -> Canvas:
    """The board drawn on a canvas, which also records the text sizes used (the phone check)."""
    players = view.players
    shown = [clean_name(names[seat] if seat < len(names) else "", seat) for seat in range(len(players))]
    scores = _scores(view)
    status = _status_lines(view, viewer, shown, scores, w)
    header_h = 28 + len(status) * (STATUS + 10)
    legend = _legend_entries(view, w)
    legend_h = _legend_height(legend, WIDTH - 2 * PAD)
    table_h = TABLE_H if view.rolled or _waiting(view) else TABLE_EMPTY_H
    height = PAD + header_h + GAP + table_h + GAP + len(players) * (PANEL_H + GAP) + legend_h + PAD
    canvas = Canvas(WIDTH, height, words=w)
    area = canvas.box.inset(PAD)
    header, rest = area.take_top(header_h, GAP)
    table, rest = rest.take_top(table_h, GAP)
    _header(canvas, header, view, status, w)
    _table(canvas, table, view, w)
    for seat, player in enumerate(players):
        panel, rest = rest.take_top(PANEL_H, GAP)
        _player(canvas, panel, view, seat, player, shown[seat], seat == viewer, scores[seat], w)
    _legend(canvas, rest, legend)
    return canvas


def _scores(view: TomatoState) -> list[int]:
    """Points so far (multiplayer) or matched slots (solo), as the result would count them."""
    if view.solo:
        return [len(scoring.matched_slots(view.players[0]))]
    return [sum(scoring.breakdown(view, seat).values()) for seat in range(len(view.players))]


# -- header ----------------------------------------------------------------------------------


def _status_lines(
    view: TomatoState, viewer: int | None, names: list[str], scores: list[int], w: Words
) -> list[str]:
    """Whose turn and what they do (or the result), wrapped to at most two lines."""
    if view.ended is not GameEnd.NONE:
        text = _result_line(view, names, scores, w)
    else:
        doing = w.gettext(_PHASE_WORDS[view.phase])
        name = fit(names[view.active], font(STATUS), 400)
        if view.active == viewer:
            text = w.gettext("Your turn: {doing}", doing=doing)
        elif name.endswith("s"):
            text = w.gettext("{name}' turn: {doing}", name=name, doing=doing)
        else:
            text = w.gettext("{name}'s turn: {doing}", name=name, doing=doing)
    return wrap(text, font(STATUS), WIDTH - 2 * PAD - 44)


def _header(canvas: Canvas, box: Box, view: TomatoState, status: list[str], w: Words) -> None:
    over = view.ended is not GameEnd.NONE
    tag = (w.gettext("FINAL ROUND"), palette.WARNING) if view.final_round and not over else None
    canvas.header(box, w.gettext("DICED TOMATOES"), status, over=over, tag=tag, sizes=(TEXT_MIN, STATUS))


def _result_line(view: TomatoState, names: list[str], scores: list[int], w: Words) -> str:
    if view.solo:
        if len(view.players[0].slots) >= SLOTS_PER_TRACK:
            return w.gettext("Game over: won, {matched} of 6 slots matched", matched=scores[0])
        return w.gettext("Game over: lost, {matched} of 6 slots matched", matched=scores[0])
    best = max(scores)
    return game_over_line([names[seat] for seat, score in enumerate(scores) if score == best], best, words=w)


# -- the table: dice rolled or to roll, and the bushel ----------------------------------------


def _counts(row: Sequence[Die]) -> list[tuple[Colour, int]]:
    """How many dice of each colour `row` holds, in the order red, black, gold."""
    return [(colour, n) for colour in Colour if (n := sum(1 for die in row if die.colour is colour))]


def _chips_width(counts: Sequence[tuple[Colour, int]]) -> int:
    """How wide `_chips` draws these counts."""
    face = font(TEXT)
    return sum(LETTER_DIE + 4 + round(width(f"×{n}", face)) + 12 for _, n in counts) - 12 if counts else 0


def _chips(canvas: Canvas, x: int, cy: int, counts: Sequence[tuple[Colour, int]]) -> int:
    """Blank dice with their colour's letter, each followed by its count; returns the x after them."""
    for colour, count in counts:
        canvas.die(x, cy - LETTER_DIE // 2, LETTER_DIE, 0, STYLES[colour])
        x += LETTER_DIE + 4
        x += round(canvas.text((x, cy), f"×{count}", TEXT, anchor="lm")) + 12
    return x - 12


def _waiting(view: TomatoState) -> bool:
    """Whether the active player is about to roll (the strip shows the dice they will roll)."""
    return view.phase is Phase.ROLL and view.ended is GameEnd.NONE


def _table(canvas: Canvas, box: Box, view: TomatoState, w: Words) -> None:
    """The shared strip: the dice on the table (rolled, or waiting to be rolled) and the bushel."""
    canvas.panel(box, fill=palette.PANEL_SUNK)
    inner = box.inset(14, 10)
    top, bottom = inner.take_top(LINE_H, 6)
    cy = top.y + LINE_H // 2
    colours = [Colour.RED, Colour.BLACK] + ([Colour.GOLD] if view.options.golden_hybrid else [])
    bushel = [(colour, view.bushel.get(colour, 0)) for colour in colours]
    chips_x = top.right - _chips_width(bushel)
    _chips(canvas, chips_x, cy, bushel)
    canvas.text(
        (chips_x - 10, cy), w.gettext("Bushel"), TEXT_MIN, fill=palette.TEXT_DIM, bold=False, anchor="rm"
    )
    waiting = _waiting(view)
    if view.rolled:
        label = w.gettext("Rolled dice")
    elif waiting:
        label = w.gettext("To roll")
    else:
        label = w.gettext("No dice on the table")
    canvas.text((top.x, cy), label, TEXT_MIN, fill=palette.TEXT_DIM, anchor="lm")
    middle = bottom.y + 28
    if view.rolled:
        _dice_row(canvas, bottom.x, middle, 56, view.rolled, bottom.right)
    elif waiting:
        # Before the roll: the dice passed on (by colour) and how many come from the bushel.
        x = _chips(canvas, bottom.x, middle, _counts(view.players[view.active].hand))
        take = turn.dice_to_take(view)
        if x > bottom.x:
            text = w.ngettext("+ {count} from the bushel", "+ {count} from the bushel", take)
        else:
            text = w.ngettext("{count} from the bushel", "{count} from the bushel", take)
        start = x + 14 if x > bottom.x else x
        canvas.text(
            (start, middle), text, TEXT, fill=palette.TEXT_DIM, anchor="lm", max_width=bottom.right - start
        )


def _dice_row(canvas: Canvas, x: int, middle: int, size: int, row: Sequence[Die], right: int) -> int:
    """Rolled dice left to right, smaller when many, "+N" for any that still do not fit."""
    smallest = 36
    gap = max(4, size // 6)
    while size > smallest and x + row_width(len(row), size, gap) > right:
        size -= 2
        gap = max(4, size // 6)
    fits = len(row)
    if x + row_width(len(row), size, gap) > right:
        # Room for the "+N" note after the dice that fit.
        fits = max(0, (right - x - 60 + gap) // (size + gap))
    for die in row[:fits]:
        canvas.die(x, middle - size // 2, size, die.value, STYLES[die.colour])
        x += size + gap
    if fits < len(row):
        x += round(canvas.text((x, middle), f"+{len(row) - fits}", TEXT, anchor="lm")) + gap
    return x


# -- a player's panel ------------------------------------------------------------------------


def _player(
    canvas: Canvas,
    box: Box,
    view: TomatoState,
    seat: int,
    player: PlayerState,
    name: str,
    is_viewer: bool,
    score: int,
    w: Words,
) -> None:
    active = seat == view.active and view.ended is GameEnd.NONE
    if active:
        canvas.panel(box, fill=palette.ACTIVE_PANEL, edge=palette.ACTIVE, thickness=5)
    else:
        canvas.panel(box)
    inner = box.inset(12)
    top, rest = inner.take_top(LINE_H, 8)
    _name_line(canvas, top, view, seat, player, name, is_viewer, active, score, w)
    tokens, rest = rest.take_top(TOKEN_H, 8)
    for index, token_box in enumerate(tokens.columns(3, 8)):
        _token(canvas, token_box, index, player.tokens[index], w)
    karma_box, track = rest.take_right(KARMA_W, 12)
    _track(canvas, track, player)
    _karma(canvas, karma_box, view, player)


def _tags(view: TomatoState, seat: int, is_viewer: bool, w: Words = ENGLISH) -> list[tuple[str, palette.RGB]]:
    """The player's tags, most important first."""
    tags: list[tuple[str, palette.RGB]] = []
    if is_viewer:
        tags.append((w.gettext("YOU"), palette.GOOD))
    bonus = view.options.first_to_six_bonus
    if view.first_to_six == seat and not view.solo and bonus:
        # The first to harvest six tomatoes scores the bonus (rules section 11); a solo game has no race.
        tags.append((w.gettext("first to 6: +{bonus}", bonus=bonus), palette.STAR))
    if not view.solo:
        # Turn order, worded so that no tag reads as a ranking ("1st" once did, on final boards).
        if seat == view.first_seat:
            tags.append((w.gettext("starts"), palette.PANEL_EDGE))
        elif seat == view.last_seat:
            tags.append((w.gettext("plays last"), palette.PANEL_EDGE))
    return tags


def _name_line(
    canvas: Canvas,
    box: Box,
    view: TomatoState,
    seat: int,
    player: PlayerState,
    name: str,
    is_viewer: bool,
    active: bool,
    score: int,
    w: Words,
) -> None:
    """Name and tags on the left; the dice passed for the next roll and the score on the right."""
    cy = box.y + box.h // 2
    unit = w.gettext("matched") if view.solo else w.ngettext("pt", "pts", abs(score))
    unit_w = canvas.text((box.right, cy + 10), unit, TEXT_MIN, fill=palette.TEXT_DIM, anchor="rs", bold=False)
    right = box.right - round(unit_w) - 6
    right -= round(canvas.text((right, cy + 10), str(score), NAME + 4, anchor="rs")) + 14
    hand = _counts(player.hand)
    if hand:
        start = right - _chips_width(hand)
        _chips(canvas, start, cy, hand)
        label_w = canvas.text(
            (start - 8, cy), w.gettext("next"), TEXT_MIN, fill=palette.TEXT_DIM, bold=False, anchor="rm"
        )
        right = start - 8 - round(label_w) - 14
    x = box.x
    if active:
        canvas.paste(shapes.arrow(26), x, cy - 13)
        x += 32
    tags = _tags(view, seat, is_viewer, w)
    pills_w = sum(canvas.pill_width(text, TEXT_MIN) + 6 for text, _ in tags)
    while tags and right - x - pills_w < 120:
        pills_w -= canvas.pill_width(tags.pop()[0], TEXT_MIN) + 6
    colour = palette.ACTIVE if active else palette.TEXT
    x += round(canvas.text((x, cy), name, NAME, fill=colour, anchor="lm", max_width=right - x - pills_w - 4))
    x += 10
    for text, fill in tags:
        x = canvas.pill(x, cy - (TEXT_MIN + TEXT_MIN // 2) // 2, text, TEXT_MIN, fill).right + 6


def _token(canvas: Canvas, box: Box, index: int, token: Token, w: Words = ENGLISH) -> None:
    """A tomato token: its number, the vine's dice (seed first, marked) and the vine's value."""
    canvas.panel(box, fill=palette.PANEL_SUNK, edge=None, radius=10)
    canvas.paste(shapes.tomato(28, ripe=not token.empty), box.x + 8, box.y + 6)
    canvas.text((box.x + 42, box.y + 8), str(index + 1), TEXT, fill=palette.TEXT_DIM)
    if token.empty:
        canvas.text(
            (box.center[0], box.y + 66),
            w.gettext("empty"),
            TEXT,
            fill=palette.TEXT_DIM,
            bold=False,
            anchor="mm",
        )
        return
    value = token.value
    # Worth 0 or less (may be cleared) or over 6 (overripe, cleared at the end of the turn):
    # a warning colour and a "!" so it reads without colour too.
    spoiled = value <= 0 or value > 6
    canvas.text(
        (box.right - 10, box.y + 6),
        f"= {value}{'!' if spoiled else ''}",
        TEXT + 2,
        anchor="ra",
        fill=palette.WARNING if spoiled else palette.ACTIVE,
    )
    size = 52
    gap = 8
    x = box.x + (box.w - row_width(3, size, gap)) // 2
    y = box.bottom - size - 10
    for position, die in enumerate(token.dice):
        if position == 0:
            # The seed: a green frame and a sprout, so it reads without colour too.
            canvas.draw.rounded_rectangle(
                (x - 4, y - 4, x + size + 3, y + size + 3), radius=12, outline=palette.LEAF, width=4
            )
            canvas.paste_centred(shapes.sprout(22), x + size - 2, y - 2)
        canvas.die(x, y, size, die.value, STYLES[die.colour])
        x += size + gap
    for _ in range(len(token.dice), 3):
        canvas.draw.rounded_rectangle(
            (x, y, x + size - 1, y + size - 1), radius=9, outline=palette.PANEL_EDGE, width=2
        )
        x += size + gap


def _track(canvas: Canvas, box: Box, player: PlayerState) -> None:
    """The six score slots: the harvested seed, its points and a star for a matched slot."""
    for number, slot_box in enumerate(box.columns(SLOTS_PER_TRACK, 6), 1):
        slot = player.slots[number - 1] if number <= len(player.slots) else None
        _slot(canvas, slot_box, number, slot)


def _slot(canvas: Canvas, box: Box, number: int, slot: ScoreSlot | None) -> None:
    cy = box.y + box.h // 2
    if slot is None:
        canvas.draw.rounded_rectangle(box.corners, radius=10, outline=palette.PANEL_EDGE, width=2)
        canvas.text((box.center[0], cy), str(number), TEXT, fill=EMPTY_SLOT, anchor="mm")
        return
    canvas.draw.rounded_rectangle(box.corners, radius=10, fill=palette.PANEL_SUNK)
    size = 38
    canvas.die(box.x + 5, cy - size // 2, size, slot.die.value, STYLES[slot.die.colour])
    total = slot.total
    colour = palette.STAR if slot.star else palette.TEXT if total > 0 else palette.WARNING
    number_x = box.x + 5 + size + (box.w - 5 - size) // 2
    canvas.text((number_x, cy + 2), str(total), TEXT + 2, fill=colour, anchor="mm")
    if slot.star:
        # A matched slot: a star on the slot's corner as well as the gold number.
        canvas.paste_centred(shapes.star(24), box.right - 6, box.y + 3)


def _karma(canvas: Canvas, box: Box, view: TomatoState, player: PlayerState) -> None:
    """The karma heart with its value, and the karma bits as three dots."""
    cy = box.y + box.h // 2
    heart = 58
    cx = box.x + heart // 2
    canvas.paste_centred(shapes.heart(heart), cx, cy)
    canvas.text((cx, cy - 2), str(player.karma), TEXT, anchor="mm")
    if karma.bits_in_play(view):
        size = 18
        x = box.x + heart + 10
        for bit in range(3):
            icon = (
                shapes.dot(size, palette.HEART, palette.HEART_EDGE)
                if bit < player.karma_bits
                else shapes.ring(size, palette.PANEL_EDGE)
            )
            canvas.paste(icon, x, cy - size // 2)
            x += size + 6


# -- legend ----------------------------------------------------------------------------------

Mark = Callable[[Canvas, int, int], None]
"""Draws a legend mark with its left edge at x, centred on y."""


def _die_mark(colour: Colour) -> tuple[int, Mark]:
    return LETTER_DIE, lambda c, x, cy: c.die(x, cy - LETTER_DIE // 2, LETTER_DIE, 0, STYLES[colour])


def _seed_mark(canvas: Canvas, x: int, cy: int) -> None:
    canvas.draw.rounded_rectangle((x, cy - 17, x + 33, cy + 16), radius=8, outline=palette.LEAF, width=3)
    canvas.paste_centred(shapes.sprout(22), x + 17, cy)


def _star_mark(canvas: Canvas, x: int, cy: int) -> None:
    canvas.paste_centred(shapes.star(30), x + 15, cy)


def _heart_mark(canvas: Canvas, x: int, cy: int) -> None:
    canvas.paste_centred(shapes.heart(34), x + 17, cy)


def _bits_mark(canvas: Canvas, x: int, cy: int) -> None:
    for bit in range(3):
        icon = (
            shapes.dot(16, palette.HEART, palette.HEART_EDGE)
            if bit < 2
            else shapes.ring(16, palette.PANEL_EDGE)
        )
        canvas.paste(icon, x + bit * 20, cy - 8)


def _slot_mark(canvas: Canvas, x: int, cy: int) -> None:
    canvas.draw.rounded_rectangle(
        (x, cy - 18, x + 35, cy + 17), radius=8, outline=palette.PANEL_EDGE, width=2
    )
    canvas.text((x + 18, cy), "6", TEXT_MIN, fill=EMPTY_SLOT, anchor="mm")


def _value_mark(canvas: Canvas, x: int, cy: int) -> None:
    canvas.text((x, cy), "= 4", TEXT, fill=palette.ACTIVE, anchor="lm")


def _legend_entries(view: TomatoState, w: Words) -> list[tuple[int, Mark, str]]:
    """(mark width, mark, words) for each mark the board uses."""
    entries = [(*_die_mark(Colour.RED), w.gettext("red")), (*_die_mark(Colour.BLACK), w.gettext("black: -1"))]
    if view.options.golden_hybrid:
        entries.append((*_die_mark(Colour.GOLD), w.gettext("gold: +1")))
    entries += [
        (34, _seed_mark, w.gettext("seed (first die)")),
        (round(width("= 4", font(TEXT))), _value_mark, w.gettext("vine's value")),
        (36, _slot_mark, w.gettext("score slots 1-6: seed, points")),
        (34, _heart_mark, w.gettext("karma")),
    ]
    if view.options.dicey_rules:
        entries.append((30, _star_mark, w.gettext("slot matched")))
    if karma.bits_in_play(view):
        entries.append((56, _bits_mark, w.gettext("karma bits: 3 make 1 karma")))
    return entries


def _legend_places(entries: list[tuple[int, Mark, str]], room: int) -> list[tuple[int, int]]:
    """Where each entry starts (x from the left edge, line number), wrapping at `room`."""
    face = font(TEXT_MIN, False)
    places = []
    x = line = 0
    for mark_w, _, words in entries:
        entry_w = mark_w + 8 + round(width(words, face))
        if x and x + entry_w > room:
            x, line = 0, line + 1
        places.append((x, line))
        x += entry_w + 22
    return places


def _legend_height(entries: list[tuple[int, Mark, str]], room: int) -> int:
    lines = 1 + max(line for _, line in _legend_places(entries, room))
    return lines * LEGEND_LINE


def _legend(canvas: Canvas, box: Box, entries: list[tuple[int, Mark, str]]) -> None:
    """The marks explained, for someone new to the game."""
    for (mark_w, mark, words), (x, line) in zip(entries, _legend_places(entries, box.w), strict=True):
        cy = box.y + line * LEGEND_LINE + LEGEND_LINE // 2
        mark(canvas, box.x + x, cy)
        canvas.text(
            (box.x + x + mark_w + 8, cy), words, TEXT_MIN, fill=palette.TEXT_DIM, bold=False, anchor="lm"
        )


def turn_key(state: TomatoState) -> tuple[int, int]:
    """What changes when a new turn starts (the replay draws one frame per turn): the player and
    their turn count, so a solo game gets a frame per turn too."""
    return state.active, state.players[state.active].turns
