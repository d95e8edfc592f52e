"""The Buttons board, for phones: the move, the roll, then two players' boards side by side per row.

Every number and letter is at least TEXT_MIN pixels, which keeps digits and capitals 8 px tall
when a phone shows the board 400 px wide (issue 12): colour-blind players read a cell's colour
from its letter (R, Y, G, B, or the initials of the board's language) and find it by its row and
column numbers.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping, Sequence
from functools import lru_cache

from PIL import Image

from engine.buttons import RULES
from engine.buttons.faces import SIZE, Colour
from engine.buttons.state import LINE, TARGET, ButtonsState, Cell, Phase, PlayerBoard, Status
from engine.words import ENGLISH, N_, Words
from engine.words import words as words_in
from renderers import palette, shapes
from renderers.dice import DieStyle, PipShape
from renderers.initials import initial
from renderers.kit import Canvas
from renderers.layout import Box
from renderers.text import clean_name, fit, font, game_over_line, smallest_legible, width, wrap

WIDTH = 720
PAD = 12
GAP = 12
TEXT_MIN = smallest_legible(WIDTH)
"""The smallest font size on the board (digits 15 px tall, 8.3 px at 400 px wide)."""
TEXT = 24
NAME = 26
STATUS = 30
CELL = 50
LABEL_W = 22
"""The band of row and column numbers left of and above the grid."""
DIE = 52
LETTER_DIE = 40
"""A blank die whose letter is TEXT_MIN tall (dice.letter_size)."""
ROLL_H = 10 + 28 + 8 + 56 + 8 + 34 + 10
NAME_H = 34
INFO_LINE = 36
NOTE_LINE = 44

FILLS: dict[Colour, palette.RGB] = {
    Colour.RED: palette.BUTTON_RED,
    Colour.YELLOW: palette.BUTTON_YELLOW,
    Colour.GREEN: palette.BUTTON_GREEN,
    Colour.BLUE: palette.BUTTON_BLUE,
}

# The white die names the row and the black dice the column; the gold black die (the one
# the other players share) has gold star pips and a gold rim, so it reads without colour.
WHITE = DieStyle("white", palette.WHITE_DIE, palette.PIP_DARK, (150, 150, 160), 0.05, PipShape.ROUND)
GOLD = DieStyle("gold", palette.DIE_BLACK, palette.DIE_GOLD, palette.DIE_GOLD, 0.09, PipShape.STAR)
PLAIN = DieStyle("black", palette.DIE_BLACK, palette.PIP_LIGHT, palette.DIE_EDGE_LIGHT, 0.05, PipShape.ROUND)

COLOUR_NAMES = {
    Colour.RED: N_("Red"),
    Colour.YELLOW: N_("Yellow"),
    Colour.GREEN: N_("Green"),
    Colour.BLUE: N_("Blue"),
}
"""A colour's name as a board shows it."""

_STATUS = {
    Status.IN: (N_("IN"), palette.GOOD),
    Status.OPTED_OUT: (N_("OPTED OUT"), palette.BUTTON_BLUE),
    Status.BUSTED: (N_("BUSTED"), palette.WARNING),
}


def _whose_turn(name: str, doing: str, w: Words) -> str:
    """ "Ann's turn: place a button" ("Jess' turn" for a name ending in s)."""
    if name.endswith("s"):
        return w.gettext("{name}' turn: {doing}", name=name, doing=doing)
    return w.gettext("{name}'s turn: {doing}", name=name, doing=doing)


def render(
    view: ButtonsState,
    viewer: int | None,
    names: Sequence[str],
    legal_cells: Collection[Cell] | None = None,
    *,
    language: str = "en",
) -> Image.Image:
    """The table as `viewer` (None: a spectator) sees it.

    Each player still to answer the open roll has the cells it lets them use outlined;
    `legal_cells`, when given, replaces the viewer's own (the caller may compute them from
    the prompts). Its words are in `language`.
    """
    return draw(view, viewer, names, legal_cells, w=words_in(language)).image


def draw(
    view: ButtonsState,
    viewer: int | None,
    names: Sequence[str],
    legal_cells: Collection[Cell] | None = None,
    *,
    w: Words = ENGLISH,
) -> Canvas:
    """The board drawn on a canvas, which also records the text sizes used (the phone check)."""
    seats = view.seats
    shown = [clean_name(names[seat] if seat < len(names) else "", seat) for seat in range(seats)]
    targets: dict[int, Collection[Cell]] = {seat: view.candidate_cells(seat) for seat in range(seats)}
    if viewer is not None and legal_cells is not None:
        targets[viewer] = legal_cells
    status = _status_lines(view, viewer, shown, w)
    header_h = 28 + len(status) * (STATUS + 10)
    column_w = (WIDTH - 2 * PAD - GAP) // 2
    notes = [_notes(view, board, w) for board in view.boards]
    note_lines = max(len(_note_rows(seat_notes, column_w - 20, w)) for seat_notes in notes)
    panel_h = _panel_height(note_lines)
    rows = (seats + 1) // 2
    height = PAD + header_h + GAP + ROLL_H + GAP + rows * (panel_h + GAP) - GAP + PAD
    canvas = Canvas(WIDTH, height, words=w)
    area = canvas.box.inset(PAD)
    header, rest = area.take_top(header_h, GAP)
    roll_box, rest = rest.take_top(ROLL_H, GAP)
    _header(canvas, header, view, status, w)
    _roll(canvas, roll_box, view, shown, w)
    panels = [box for band in rest.rows(rows, GAP) for box in band.columns(2, GAP)]
    for seat in range(seats):
        _player(canvas, panels[seat], view, seat, shown[seat], seat == viewer, targets, notes[seat], w)
    return canvas


# -- header ----------------------------------------------------------------------------------


def _status_lines(view: ButtonsState, viewer: int | None, names: list[str], w: Words) -> list[str]:
    """Whose turn and what they do (or the result), wrapped to at most two lines."""
    if view.phase is Phase.OVER:
        text = _result_line(view, names, w)
    elif view.phase is Phase.STARS:
        text = w.gettext("End of the round: choose which buttons become stars")
    else:
        doing = w.gettext("roll or opt out") if view.phase is Phase.TURN else w.gettext("place a button")
        if view.active == viewer:
            text = w.gettext("Your turn: {doing}", doing=doing)
        else:
            text = _whose_turn(fit(names[view.active], font(STATUS), 400), doing, w)
    return wrap(text, font(STATUS), WIDTH - 2 * PAD - 44)


def _header(canvas: Canvas, box: Box, view: ButtonsState, status: list[str], w: Words) -> None:
    # With 3 players one bonus colour is out of play for the whole game.
    removed = None if view.removed is None else w.gettext(COLOUR_NAMES[view.removed])
    tag = (
        None if removed is None else (w.gettext("Out of play: {colour}", colour=removed), palette.PANEL_EDGE)
    )
    title = w.gettext("BUTTONS · ROUND {round}", round=view.round)
    canvas.header(box, title, status, over=view.phase is Phase.OVER, tag=tag, sizes=(TEXT_MIN, STATUS))


def _result_line(view: ButtonsState, names: list[str], w: Words) -> str:
    outcome = RULES.outcome(view)
    assert outcome is not None
    winners = [names[seat] for seat, place in enumerate(outcome.ranks) if place == 1]
    return game_over_line(winners, max(outcome.scores), words=w)


# -- the roll --------------------------------------------------------------------------------


def roll_title(view: ButtonsState, names: Sequence[str], w: Words = ENGLISH) -> str:
    """The caption over the dice: whose roll is open, or, between rolls, whose the last one was,
    whether it busted, and how many dice the next roll has."""
    roll = view.roll
    if roll is None:
        return w.gettext("Dice")
    if view.phase is Phase.PLACE:
        name = names[view.active]
        return (
            w.gettext("{name}' roll", name=name)
            if name.endswith("s")
            else w.gettext("{name}'s roll", name=name)
        )
    name, dice = names[roll.seat], 2 + view.pool
    apostrophe_s = not name.endswith("s")  # "Bob's", but "Jess'"
    if roll.bust:
        if apostrophe_s:
            return w.ngettext(
                "Last roll: {name}'s, busted · next roll {count} die",
                "Last roll: {name}'s, busted · next roll {count} dice",
                dice,
                name=name,
            )
        return w.ngettext(
            "Last roll: {name}', busted · next roll {count} die",
            "Last roll: {name}', busted · next roll {count} dice",
            dice,
            name=name,
        )
    if apostrophe_s:
        return w.ngettext(
            "Last roll: {name}'s · next roll {count} die",
            "Last roll: {name}'s · next roll {count} dice",
            dice,
            name=name,
        )
    return w.ngettext(
        "Last roll: {name}' · next roll {count} die",
        "Last roll: {name}' · next roll {count} dice",
        dice,
        name=name,
    )


def _roll(canvas: Canvas, box: Box, view: ButtonsState, names: list[str], w: Words) -> None:
    """The dice of the latest roll: the white die (row), the gold die and the plain dice (columns)."""
    canvas.panel(box, fill=palette.PANEL_SUNK)
    inner = box.inset(14, 10)
    caption, rest = inner.take_top(28, 8)
    dice_box, rest = rest.take_top(56, 8)
    foot = rest
    title = roll_title(view, [fit(name, font(TEXT_MIN), 220) for name in names], w)
    canvas.text((caption.x, caption.y), title, TEXT_MIN, fill=palette.TEXT_DIM, max_width=caption.w)
    roll = view.roll
    cy = dice_box.y + dice_box.h // 2
    if roll is None:
        x = dice_box.x
        for style in (WHITE, GOLD, *([PLAIN] * view.pool)):
            canvas.die(x, cy - DIE // 2, DIE, 0, style)
            x += DIE + 8
        canvas.text(
            (x + 8, cy), w.gettext("not rolled yet"), TEXT, fill=palette.TEXT_DIM, anchor="lm", bold=False
        )
        return
    # The roll stays on show after it is resolved, when the active seat has moved on.
    live = view.phase is Phase.PLACE
    x = dice_box.x
    canvas.die(x, cy - DIE // 2, DIE, roll.white, WHITE)
    x += DIE + 8
    x += round(canvas.text((x, cy), w.gettext("row {row}", row=roll.white), TEXT, anchor="lm")) + 22
    canvas.die(x, cy - DIE // 2, DIE, roll.gold, GOLD)
    x += DIE + 8
    used = canvas.text(
        (x, cy - 2), w.gettext("col {column}", column=roll.gold), TEXT, fill=palette.DIE_GOLD, anchor="ls"
    )
    used = max(
        used,
        canvas.text(
            (x, cy + 2), w.gettext("for all"), TEXT_MIN, fill=palette.DIE_GOLD, anchor="lt", bold=False
        ),
    )
    x += round(used) + 22
    for value in roll.plain:
        canvas.die(x, cy - DIE // 2, DIE, value, PLAIN)
        x += DIE + 8
    columns = sorted(set(roll.columns()))
    label = w.ngettext(
        "col {columns}", "cols {columns}", len(columns), columns=", ".join(str(c) for c in columns)
    )
    foot_cy = foot.y + foot.h // 2
    key_right = foot.right
    if live:
        # The legend of the outlined cells.
        can_place = w.gettext("can place now")
        key_w = 30 + 10 + round(width(can_place, font(TEXT_MIN, False)))
        key = Box(foot.right - key_w, foot_cy - 15, 30, 30)
        canvas.draw.rectangle(key.corners, fill=palette.PANEL_EDGE)
        _target_frame(canvas, key, 6)
        canvas.text((key.right + 10, foot_cy), can_place, TEXT_MIN, anchor="lm", bold=False)
        key_right = key.x - 16
        # The name gives way to the columns: they are what the line is for.
        room = min(260, key_right - foot.x - round(width(f": {label}", font(TEXT))))
        label = w.gettext("{name}: {columns}", name=fit(names[view.active], font(TEXT), room), columns=label)
    canvas.text((foot.x, foot_cy), label, TEXT, anchor="lm", max_width=key_right - foot.x)


def _target_frame(canvas: Canvas, cell: Box, thickness: int = 7) -> None:
    """Mark a cell the open roll lets a player use: a white frame inside a dark one."""
    canvas.draw.rectangle(cell.corners, outline=palette.BUTTON_EDGE, width=thickness)
    canvas.draw.rectangle(cell.inset(2).corners, outline=palette.TARGET, width=thickness // 2)


# -- a player's panel ------------------------------------------------------------------------


def _panel_height(note_lines: int) -> int:
    grid = LABEL_W + SIZE * CELL
    return 10 + NAME_H + 6 + grid + 8 + 3 * INFO_LINE + 2 * INFO_LINE + note_lines * NOTE_LINE + 10


def _player(
    canvas: Canvas,
    box: Box,
    view: ButtonsState,
    seat: int,
    name: str,
    is_viewer: bool,
    targets: Mapping[int, Collection[Cell]],
    notes: list[Note],
    w: Words = ENGLISH,
) -> None:
    board = view.boards[seat]
    active = seat == view.active and view.phase in (Phase.TURN, Phase.PLACE)
    if active:
        canvas.panel(box, fill=palette.ACTIVE_PANEL, edge=palette.ACTIVE, thickness=5)
    else:
        canvas.panel(box)
    inner = box.inset(10)
    top, rest = inner.take_top(NAME_H, 6)
    _name_row(canvas, top, name, is_viewer, active, w)
    grid_box, rest = rest.take_top(LABEL_W + SIZE * CELL, 8)
    _grid(canvas, grid_box, board, targets.get(seat, ()))
    _info(canvas, rest, view, board, notes, w)


def _name_row(canvas: Canvas, box: Box, name: str, is_viewer: bool, active: bool, w: Words = ENGLISH) -> None:
    cy = box.y + box.h // 2
    x = box.x
    if active:
        canvas.paste(shapes.arrow(24), x, cy - 12)
        x += 30
    right = box.right
    if is_viewer:
        you = w.gettext("YOU")
        pill_w = canvas.pill_width(you, TEXT_MIN)
        canvas.pill(right - pill_w, cy - 15, you, TEXT_MIN, palette.ACTIVE if active else palette.TEXT_DIM)
        right -= pill_w + 8
    colour = palette.ACTIVE if active else palette.TEXT
    canvas.text((x, cy), name, NAME, fill=colour, anchor="lm", max_width=right - x - 4)


def _grid(canvas: Canvas, box: Box, board: PlayerBoard, targets: Collection[Cell]) -> None:
    """The 6x6 board: rows are the white die, columns the black dice; a letter in every cell."""
    left = box.x + LABEL_W
    top = box.y + LABEL_W
    for i in range(1, SIZE + 1):
        cx = left + (i - 1) * CELL + CELL // 2
        canvas.text((cx, box.y + LABEL_W // 2), str(i), TEXT_MIN, fill=palette.TEXT_DIM, anchor="mm")
        cy = top + (i - 1) * CELL + CELL // 2
        canvas.text((box.x + LABEL_W // 2 - 2, cy), str(i), TEXT_MIN, fill=palette.TEXT_DIM, anchor="mm")
    stars = set(board.stars)
    buttons = set(board.buttons)
    for row in range(1, SIZE + 1):
        for col in range(1, SIZE + 1):
            x = left + (col - 1) * CELL
            y = top + (row - 1) * CELL
            canvas.draw.rectangle(
                (x + 1, y + 1, x + CELL - 2, y + CELL - 2), fill=FILLS[board.colour((row, col))]
            )
            if (row, col) in targets:
                _target_frame(canvas, Box(x + 1, y + 1, CELL - 2, CELL - 2))
    for first, last in _lines(stars):
        # A line of 5 (or 6) stars: a gold frame round it, so the winning line is easy to find.
        x0 = left + (first[1] - 1) * CELL
        y0 = top + (first[0] - 1) * CELL
        x1 = left + last[1] * CELL - 1
        y1 = top + last[0] * CELL - 1
        canvas.draw.rounded_rectangle(
            (x0 - 3, y0 - 3, x1 + 3, y1 + 3), radius=8, outline=palette.BUTTON_EDGE, width=6
        )
        canvas.draw.rounded_rectangle(
            (x0 - 1, y0 - 1, x1 + 1, y1 + 1), radius=6, outline=palette.STAR, width=3
        )
    for row in range(1, SIZE + 1):
        for col in range(1, SIZE + 1):
            cell = (row, col)
            _mark(
                canvas,
                left + (col - 1) * CELL,
                top + (row - 1) * CELL,
                board.colour(cell),
                cell in stars,
                cell in buttons,
                cell in targets,
            )


def _mark(canvas: Canvas, x: int, y: int, colour: Colour, star: bool, button: bool, target: bool) -> None:
    """A cell's letter, large and centred on an empty cell; top left beside a piece or in a target frame."""
    ink = palette.ink_on(FILLS[colour])
    letter = initial(colour.value, canvas.words)
    if not (star or button or target):
        canvas.text((x + CELL // 2, y + CELL // 2), letter, TEXT, fill=ink, anchor="mm")
        return
    inset = 9 if target else 6
    canvas.text((x + inset, y + inset - 3), letter, TEXT_MIN, fill=ink)
    piece = piece_size(letter)
    # The piece sits low and right, clear of the letter.
    centre = (x + CELL - 1 - piece // 2 - 3, y + CELL - 1 - piece // 2 - 3)
    if star:
        canvas.paste_centred(shapes.dot(piece + 4, palette.BUTTON_EDGE), *centre)
        canvas.paste_centred(shapes.star(piece), centre[0], centre[1] - 1)
    elif button:
        canvas.paste_centred(shapes.button(piece), *centre)


PIECE = CELL - 20
"""A button or star on a cell, beside an English capital."""
PIECE_MIN = 22


def _reach(letter: str, piece: int) -> float:
    """How far the ink of a cell's small `letter` reaches into a piece `piece` pixels wide (its star's
    dark disc is 4 wider), from the corner of the letter's ink box nearest the piece."""
    _, _, right, bottom = font(TEXT_MIN).getbbox(letter)
    centre = CELL - 1 - piece // 2 - 3
    return (piece + 4) / 2 - math.dist((6 + right, 3 + bottom), (centre, centre))


@lru_cache(maxsize=64)
def piece_size(letter: str) -> int:
    """How wide a piece is drawn beside `letter`: PIECE, or smaller where the letter (a Korean
    syllable, two letters, a wide Ж) would reach further into it than an English capital does."""
    allowed = max(_reach(initial(colour.value), PIECE) for colour in Colour)
    piece = PIECE
    while piece > PIECE_MIN and _reach(letter, piece) > allowed:
        piece -= 2
    return piece


def _lines(stars: Collection[Cell]) -> list[tuple[Cell, Cell]]:
    """The first and last cells of every row or column run of at least LINE stars."""
    found: list[tuple[Cell, Cell]] = []
    for across in (True, False):
        for fixed in range(1, SIZE + 1):
            run: list[Cell] = []
            for moving in range(1, SIZE + 2):
                cell = (fixed, moving) if across else (moving, fixed)
                if moving <= SIZE and cell in stars:
                    run.append(cell)
                    continue
                if len(run) >= LINE:
                    found.append((run[0], run[-1]))
                run = []
    return found


# -- under the grid: stars, status, bonus colours, this round's buttons, notes ----------------

Note = tuple[str, str]
"""(kind, text): a note under a player's counts; kinds: dice, line, choose, earned."""


def _notes(view: ButtonsState, board: PlayerBoard, w: Words = ENGLISH) -> list[Note]:
    """Dice taken, a line of stars, stars to place and stars earned last round, as they apply."""
    notes: list[Note] = []
    if board.dice_aside:
        notes.append(("dice", f"×{board.dice_aside}"))
    if board.has_line():
        notes.append(("line", w.gettext("LINE OF {line}! +100", line=LINE)))
    if board.stars_due:
        notes.append(("choose", w.ngettext("Choose {count} star", "Choose {count} stars", board.stars_due)))
    elif board.earned and view.phase is not Phase.PLACE and view.round > 1 and not board.buttons:
        earned = board.earned
        if earned < 0:
            said = w.ngettext("−{count} star last round", "−{count} stars last round", -earned)
        else:
            said = w.ngettext("+{count} star last round", "+{count} stars last round", earned)
        notes.append(("earned", said))
    return notes


def _note_width(note: Note, w: Words = ENGLISH) -> int:
    kind, text = note
    if kind == "dice":
        return (
            round(width(w.gettext("Dice taken"), font(TEXT_MIN, False)))
            + 8
            + LETTER_DIE
            + 4
            + round(width(text, font(TEXT)))
        )
    if kind == "earned":
        return round(width(text, font(TEXT_MIN)))
    return Canvas.pill_width(text, TEXT_MIN)


def _fitted(note: Note, room: int) -> Note:
    """The note cut to `room` (a language's words may be longer than the English the panel was made for)."""
    kind, text = note
    if kind == "earned":
        return kind, fit(text, font(TEXT_MIN), room)
    if kind in ("line", "choose"):
        return kind, fit(text, font(TEXT_MIN), room - Canvas.pill_width("", TEXT_MIN))
    return note


def _note_rows(notes: list[Note], room: int, w: Words = ENGLISH) -> list[list[Note]]:
    """The notes laid out left to right in rows, wrapping at `room`."""
    rows: list[list[Note]] = []
    used = 0
    for note in notes:
        need = _note_width(note, w)
        if not rows or (rows[-1] and used + 14 + need > room):
            rows.append([])
            used = 0
        rows[-1].append(note)
        used += need + (14 if used else 0)
    return rows


def _info(
    canvas: Canvas, box: Box, view: ButtonsState, board: PlayerBoard, notes: list[Note], w: Words = ENGLISH
) -> None:
    """Stars and status, bonus colours, this round's buttons by colour, then the notes."""
    cy = box.y + INFO_LINE // 2
    canvas.paste_centred(shapes.star(32), box.x + 16, cy)
    used = canvas.text((box.x + 38, cy), str(len(board.stars)), NAME + 4, anchor="lm")
    pill_x = box.right
    if view.phase is not Phase.OVER:
        status, fill = _STATUS[board.status]
        text = w.gettext(status)
        pill_x -= canvas.pill_width(text, TEXT_MIN)
        canvas.pill(pill_x, cy - 15, text, TEXT_MIN, fill)
    # "/ 12 stars", or "/ 12" when a long status ("OPTED OUT") leaves no room for the word.
    total = w.ngettext("/ {count} star", "/ {count} stars", TARGET)
    x = box.x + 44 + round(used)
    if x + width(total, font(TEXT_MIN, False)) + 8 > pill_x:
        total = f"/ {TARGET}"
    canvas.text((x, cy + 2), total, TEXT_MIN, fill=palette.TEXT_DIM, anchor="lm", bold=False)
    cy += INFO_LINE
    x = (
        box.x
        + round(
            canvas.text(
                (box.x, cy), w.gettext("Bonus"), TEXT_MIN, fill=palette.TEXT_DIM, bold=False, anchor="lm"
            )
        )
        + 10
    )
    said = [w.gettext(COLOUR_NAMES[colour]) for colour in board.bonus]
    if x + sum(canvas.pill_width(name, TEXT_MIN) + 6 for name in said) - 6 > box.right:
        # Two long colour names ("Czerwony", "Niebieski") run out of the panel: their initials, as
        # the cells show them, fit.
        said = [initial(colour.value, w) for colour in board.bonus]
    for colour, name in zip(board.bonus, said, strict=True):
        x = canvas.pill(x, cy - 15, name, TEXT_MIN, FILLS[colour]).right + 6
    cy += INFO_LINE
    canvas.text(
        (box.x, cy), w.gettext("Buttons this round"), TEXT_MIN, fill=palette.TEXT_DIM, bold=False, anchor="lm"
    )
    cy += INFO_LINE
    counts = board.colour_counts()
    half = box.w // 2
    for index, colour in enumerate(Colour):
        x = box.x + (index % 2) * half
        line_cy = cy + (index // 2) * INFO_LINE
        _count(canvas, x, line_cy, colour, counts[colour], colour in board.bonus)
    y = cy + INFO_LINE + INFO_LINE // 2 + 4
    for row in _note_rows([_fitted(note, box.w) for note in notes], box.w, w):
        x = box.x
        for note in row:
            _note(canvas, x, y + NOTE_LINE // 2, note, w)
            x += _note_width(note, w) + 14
        y += NOTE_LINE


def _count(canvas: Canvas, x: int, cy: int, colour: Colour, count: int, bonus: bool) -> None:
    """A colour's swatch with its letter and this round's buttons on it, and the star they will earn."""
    fill = FILLS[colour]
    swatch = Box(x, cy - 16, 32, 32)
    canvas.draw.rounded_rectangle(swatch.corners, radius=6, fill=fill)
    letter = initial(colour.value, canvas.words)
    canvas.text(swatch.center, letter, TEXT_MIN, fill=palette.ink_on(fill), anchor="mm")
    x += 38
    x += round(canvas.text((x, cy), f"×{count}", TEXT, anchor="lm")) + 8
    if count >= 3:
        # Three of a colour earn a star at the end of the round (two for a bonus colour).
        canvas.paste_centred(shapes.star(24), x + 12, cy)
        canvas.text((x + 26, cy), f"+{2 if bonus else 1}", TEXT_MIN, fill=palette.STAR, anchor="lm")


def _note(canvas: Canvas, x: int, cy: int, note: Note, w: Words = ENGLISH) -> None:
    kind, text = note
    if kind == "dice":
        x += (
            round(
                canvas.text(
                    (x, cy), w.gettext("Dice taken"), TEXT_MIN, fill=palette.TEXT_DIM, bold=False, anchor="lm"
                )
            )
            + 8
        )
        canvas.die(x, cy - LETTER_DIE // 2, LETTER_DIE, 0, PLAIN)
        canvas.text((x + LETTER_DIE + 4, cy), text, TEXT, anchor="lm")
    elif kind == "earned":
        canvas.text((x, cy), text, TEXT_MIN, fill=palette.GOOD, anchor="lm")
    else:
        fill = palette.STAR if kind == "line" else palette.ACTIVE
        canvas.pill(x, cy - 15, text, TEXT_MIN, fill)


def turn_key(state: ButtonsState) -> tuple[int, int]:
    """What changes when a new turn starts (the replay draws one frame per turn): the round and the
    seat whose turn it is, so the answers to one roll, given at once by several seats, stay one turn."""
    return state.round, state.active
