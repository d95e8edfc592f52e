"""The Buttons board: every player's 6x6 board, buttons and stars, bonus colours, the roll."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from PIL import Image

from engine.buttons import RULES
from engine.buttons.faces import SIZE, Colour
from engine.buttons.state import LINE, TARGET, ButtonsState, Cell, Phase, PlayerBoard, Status
from renderers import palette, shapes
from renderers.dice import DieStyle, PipShape
from renderers.kit import Canvas
from renderers.layout import Box
from renderers.text import clean_name, fit, font, game_over_line

WIDTH = 1400
PAD = 20
HEADER_H = 76
ROLL_H = 112
GAP = 14
PANEL_H = 496
CELL = 62
LABEL_W = 28

FILLS: dict[Colour, palette.RGB] = {
    Colour.RED: palette.BUTTON_RED,
    Colour.YELLOW: palette.BUTTON_YELLOW,
    Colour.GREEN: palette.BUTTON_GREEN,
    Colour.BLUE: palette.BUTTON_BLUE,
}

# The white die names the row and the black dice the column; the gold black die (the one
# the other players share) has gold star pips and a gold rim, so it reads without colour.
WHITE = DieStyle("white", palette.WHITE_DIE, palette.PIP_DARK, (150, 150, 160), 0.05, PipShape.ROUND, "W")
GOLD = DieStyle("gold", palette.DIE_BLACK, palette.DIE_GOLD, palette.DIE_GOLD, 0.09, PipShape.STAR, "G")
PLAIN = DieStyle(
    "black", palette.DIE_BLACK, palette.PIP_LIGHT, palette.DIE_EDGE_LIGHT, 0.05, PipShape.ROUND, "B"
)

_STATUS = {
    Status.IN: ("IN", palette.GOOD),
    Status.OPTED_OUT: ("OPTED OUT", palette.BUTTON_BLUE),
    Status.BUSTED: ("BUSTED", palette.WARNING),
}


def _possessive(name: str) -> str:
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def render(
    view: ButtonsState,
    viewer: int | None,
    names: Sequence[str],
    legal_cells: Collection[Cell] | None = None,
) -> Image.Image:
    """The table as `viewer` (None: a spectator) sees it.

    Each player still to answer the open roll has the cells it lets them use outlined;
    `legal_cells`, when given, replaces the viewer's own (the caller may compute them from
    the prompts).
    """
    seats = view.seats
    shown = [clean_name(names[seat] if seat < len(names) else "", seat) for seat in range(seats)]
    targets: dict[int, Collection[Cell]] = {seat: view.candidate_cells(seat) for seat in range(seats)}
    if viewer is not None and legal_cells is not None:
        targets[viewer] = legal_cells
    rows = (seats + 1) // 2
    height = PAD + HEADER_H + ROLL_H + GAP + rows * (PANEL_H + GAP) - GAP + PAD
    canvas = Canvas(WIDTH, height)
    area = canvas.box.inset(PAD)
    header, rest = area.take_top(HEADER_H)
    roll_box, rest = rest.take_top(ROLL_H, GAP)
    _header(canvas, header, view, viewer, shown)
    _roll(canvas, roll_box, view, shown)
    panels = [box for band in rest.rows(rows, GAP) for box in band.columns(2, GAP)]
    for seat in range(seats):
        _player(canvas, panels[seat], view, seat, shown[seat], seat == viewer, targets)
    return canvas.image


def _header(canvas: Canvas, box: Box, view: ButtonsState, viewer: int | None, names: list[str]) -> None:
    canvas.text((box.x, box.y), f"BUTTONS · ROUND {view.round}", 22, fill=palette.TEXT_DIM)
    y = box.y + 32
    if view.phase is Phase.OVER:
        canvas.text((box.x, y), _result_line(view, names), 38, fill=palette.ACTIVE, max_width=box.w)
        return
    canvas.paste(shapes.arrow(36), box.x, y + 4)
    x = box.x + 46
    if view.phase is Phase.STARS:
        status = "End of the round: choose which buttons become stars"
    else:
        who = "Your" if view.active == viewer else _possessive(fit(names[view.active], font(38), 560))
        doing = "roll or opt out" if view.phase is Phase.TURN else "place a button"
        status = f"{who} turn: {doing}"
    canvas.text((x, y), status, 38, max_width=box.right - x)


def _result_line(view: ButtonsState, names: list[str]) -> str:
    outcome = RULES.outcome(view)
    assert outcome is not None
    winners = [names[seat] for seat, place in enumerate(outcome.ranks) if place == 1]
    return game_over_line(winners, max(outcome.scores))


def roll_title(view: ButtonsState, names: Sequence[str]) -> str:
    """The caption over the dice: whose roll is open, or, between rolls, whose the last one was,
    whether it busted, and how many dice the next roll has."""
    roll = view.roll
    if roll is None:
        return "Dice"
    if view.phase is Phase.PLACE:
        return f"{_possessive(names[view.active])} roll"
    busted = ", busted" if roll.bust else ""
    return f"Last roll: {_possessive(names[roll.seat])}{busted} · next roll {2 + view.pool} dice"


def _roll(canvas: Canvas, box: Box, view: ButtonsState, names: list[str]) -> None:
    """The dice of the latest roll: the white die (row), the gold die and the plain dice (columns)."""
    canvas.panel(box, fill=palette.PANEL_SUNK)
    inner = box.inset(18, 12)
    roll = view.roll
    size = 58
    y = inner.y + 30
    if roll is None:
        canvas.text((inner.x, inner.y), "Dice", 22, fill=palette.TEXT_DIM)
        x = inner.x
        for style in (WHITE, GOLD, *([PLAIN] * view.pool)):
            canvas.die(x, y, size, 0, style)
            x += size + 12
        canvas.text(
            (x + 8, y + size // 2), "not rolled yet", 28, fill=palette.TEXT_DIM, anchor="lm", bold=False
        )
    else:
        # The roll stays on show after it is resolved, when the active seat has moved on.
        live = view.phase is Phase.PLACE
        roller = fit(names[view.active], font(28), 260)
        title = roll_title(view, [fit(name, font(22), 300) for name in names])
        canvas.text((inner.x, inner.y), title, 22, fill=palette.TEXT_DIM, max_width=inner.w - 300)
        x = inner.x
        canvas.die(x, y, size, roll.white, WHITE)
        canvas.text((x + size + 10, y + size // 2), f"row {roll.white}", 30, anchor="lm")
        x += size + 130
        canvas.die(x, y, size, roll.gold, GOLD)
        canvas.text((x + size + 10, y + 6), f"col {roll.gold}", 26, fill=palette.DIE_GOLD)
        canvas.text(
            (x + size + 10, y + size - 2), "for all", 20, fill=palette.DIE_GOLD, anchor="ls", bold=False
        )
        x += size + 120
        for value in roll.plain:
            canvas.die(x, y, size, value, PLAIN)
            x += size + 12
        cols = ", ".join(str(c) for c in sorted(set(roll.columns())))
        label = f"col {cols}" if len(set(roll.columns())) == 1 else f"cols {cols}"
        if live:
            label = f"{roller}: {label}"
        canvas.text((x + 8, y + size // 2), label, 28, anchor="lm", max_width=inner.right - 250 - x)
    if view.removed is not None:
        label = f"Out of play: {view.removed.label}"
        chip_x = inner.right - canvas.pill_width(label, 22)
        canvas.pill(chip_x, inner.y, label, 22, palette.PANEL_EDGE)
    if view.phase is Phase.PLACE:
        # The legend of the outlined cells.
        key = Box(inner.right - 230, y + 10, 40, 40)
        canvas.draw.rectangle(key.corners, fill=palette.PANEL_EDGE)
        _target_frame(canvas, key)
        canvas.text((key.right + 10, key.y + 20), "can place now", 22, anchor="lm", bold=False)


def _target_frame(canvas: Canvas, cell: Box) -> None:
    """Mark a cell the open roll lets a player use: a white frame inside a dark one."""
    canvas.draw.rectangle(cell.corners, outline=palette.BUTTON_EDGE, width=8)
    canvas.draw.rectangle(cell.inset(2).corners, outline=palette.TARGET, width=4)


def _player(
    canvas: Canvas,
    box: Box,
    view: ButtonsState,
    seat: int,
    name: str,
    is_viewer: bool,
    targets: Mapping[int, Collection[Cell]],
) -> None:
    board = view.boards[seat]
    active = seat == view.active and view.phase in (Phase.TURN, Phase.PLACE)
    if active:
        canvas.panel(box, fill=palette.ACTIVE_PANEL, edge=palette.ACTIVE, thickness=5)
    else:
        canvas.panel(box)
    inner = box.inset(16, 12)
    top, body = inner.take_top(44, 10)
    _name_row(canvas, top, view, seat, board, name, is_viewer, active)
    grid_w = LABEL_W + SIZE * CELL
    grid_box, side = body.take_left(grid_w, 18)
    _grid(canvas, grid_box, board, targets.get(seat, ()))
    _side(canvas, side, view, seat, board)


def _name_row(
    canvas: Canvas,
    box: Box,
    view: ButtonsState,
    seat: int,
    board: PlayerBoard,
    name: str,
    is_viewer: bool,
    active: bool,
) -> None:
    x = box.x
    if active:
        canvas.paste(shapes.arrow(28), x, box.y + 6)
        x += 34
    right = box.right
    if view.phase is not Phase.OVER:
        text, fill = _STATUS[board.status]
        width = canvas.pill_width(text, 22)
        canvas.pill(right - width, box.y + 4, text, 22, fill)
        right -= width + 8
    if is_viewer:
        width = canvas.pill_width("YOU", 22)
        canvas.pill(right - width, box.y + 4, "YOU", 22, palette.ACTIVE if active else palette.TEXT_DIM)
        right -= width + 8
    colour = palette.ACTIVE if active else palette.TEXT
    canvas.text((x, box.y), name, 32, fill=colour, max_width=right - x - 8)


def _grid(canvas: Canvas, box: Box, board: PlayerBoard, targets: Collection[Cell]) -> None:
    """The 6x6 board: rows are the white die, columns the black dice; a letter in every cell."""
    left = box.x + LABEL_W
    top = box.y + LABEL_W
    for i in range(1, SIZE + 1):
        cx = left + (i - 1) * CELL + CELL // 2
        canvas.text((cx, box.y + LABEL_W // 2), str(i), 22, fill=palette.TEXT_DIM, anchor="mm")
        cy = top + (i - 1) * CELL + CELL // 2
        canvas.text((box.x + LABEL_W // 2 - 2, cy), str(i), 22, fill=palette.TEXT_DIM, anchor="mm")
    stars = set(board.stars)
    buttons = set(board.buttons)
    for row in range(1, SIZE + 1):
        for col in range(1, SIZE + 1):
            cell = (row, col)
            x = left + (col - 1) * CELL
            y = top + (row - 1) * CELL
            fill = FILLS[board.colour(cell)]
            canvas.draw.rectangle((x + 1, y + 1, x + CELL - 2, y + CELL - 2), fill=fill)
            inset = 5
            if cell in targets:
                _target_frame(canvas, Box(x + 1, y + 1, CELL - 2, CELL - 2))
                inset = 10
            canvas.text((x + inset, y + inset - 3), board.colour(cell).letter, 16, fill=palette.ink_on(fill))
            centre = (x + CELL // 2, y + CELL // 2)
            if cell in stars:
                canvas.paste_centred(shapes.dot(CELL - 18, palette.BUTTON_EDGE), centre[0] + 3, centre[1] + 3)
                canvas.paste_centred(shapes.star(CELL - 24), centre[0] + 3, centre[1] + 2)
            elif cell in buttons:
                canvas.paste_centred(shapes.button(CELL - 20), centre[0] + 3, centre[1] + 3)
    for first, last in _lines(stars):
        # A line of 5 (or 6) stars: a gold frame round it, so the winning line is easy to find.
        x0 = left + (first[1] - 1) * CELL
        y0 = top + (first[0] - 1) * CELL
        x1 = left + last[1] * CELL - 1
        y1 = top + last[0] * CELL - 1
        canvas.draw.rounded_rectangle(
            (x0 - 3, y0 - 3, x1 + 3, y1 + 3), radius=8, outline=palette.BUTTON_EDGE, width=9
        )
        canvas.draw.rounded_rectangle(
            (x0 - 1, y0 - 1, x1 + 1, y1 + 1), radius=6, outline=palette.STAR, width=5
        )


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


def _side(canvas: Canvas, box: Box, view: ButtonsState, seat: int, board: PlayerBoard) -> None:
    """Score, bonus colours, this round's buttons by colour, dice taken and stars to place."""
    y = box.y
    canvas.paste(shapes.star(40), box.x, y)
    used = canvas.text((box.x + 48, y - 2), str(len(board.stars)), 40)
    canvas.text((box.x + 56 + used, y + 34), f"/ {TARGET} stars", 22, fill=palette.TEXT_DIM, anchor="ls")
    y += 50
    if board.has_line():
        canvas.pill(box.x, y, f"LINE OF {LINE}! +100", 20, palette.STAR)
        y += 38
    canvas.text((box.x, y), "Bonus colours", 20, fill=palette.TEXT_DIM, bold=False)
    y += 26
    x = box.x
    for colour in board.bonus:
        chip = canvas.pill(x, y, colour.label, 22, FILLS[colour])
        x = chip.right + 6
    y += 44
    canvas.text((box.x, y), "Buttons this round", 20, fill=palette.TEXT_DIM, bold=False)
    y += 28
    counts = board.colour_counts()
    for colour in Colour:
        count = counts[colour]
        fill = FILLS[colour]
        swatch = Box(box.x, y, 34, 34)
        canvas.draw.rounded_rectangle(swatch.corners, radius=6, fill=fill)
        canvas.text(swatch.center, colour.letter, 20, fill=palette.ink_on(fill), anchor="mm")
        canvas.text((box.x + 44, y + 17), f"× {count}", 26, anchor="lm")
        if count >= 3:
            # Three of a colour earn a star at the end of the round (two for a bonus colour).
            worth = 2 if colour in board.bonus else 1
            canvas.paste(shapes.star(26), box.x + 110, y + 4)
            canvas.text((box.x + 140, y + 17), f"+{worth}", 24, fill=palette.STAR, anchor="lm")
        y += 40
    y += 4
    if board.dice_aside:
        used = canvas.text((box.x, y + 15), "Dice taken", 20, fill=palette.TEXT_DIM, bold=False, anchor="lm")
        x = box.x + round(used) + 10
        for _ in range(board.dice_aside):
            canvas.die(x, y, 30, 0, PLAIN)
            x += 36
        y += 40
    if board.stars_due:
        canvas.pill(
            box.x, y, f"Choose {board.stars_due} star{'s' if board.stars_due > 1 else ''}", 22, palette.ACTIVE
        )
    elif board.earned and view.phase is not Phase.PLACE and view.round > 1 and not board.buttons:
        earned = board.earned
        canvas.text(
            (box.x, y + 4), f"+{earned} star{'s' if earned > 1 else ''} last round", 20, fill=palette.GOOD
        )
