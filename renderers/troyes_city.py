"""The city on the Troyes board: buildings, cathedral, event queue and activity cards."""

from __future__ import annotations

from engine.troyes.data import activities, board, events
from engine.troyes.kinds import Colour
from engine.troyes.state import CardSlot, TroyesState
from engine.troyes.text import event_name
from engine.words import ENGLISH, N_, Words
from renderers import palette, shapes
from renderers.kit import Canvas
from renderers.layout import Box
from renderers.text import font
from renderers.troyes_marks import (
    BLACK_DIE,
    COLOUR_FILLS,
    DIE,
    GAP,
    ROMAN,
    TEXT,
    TEXT_MIN,
    TOKEN,
    black_die,
    cube,
    hourglass,
    letter,
    lying_citizen,
    owner_mark,
    stripe,
    stripe_width,
    token,
)

# -- buildings -------------------------------------------------------------------------------

BUILDING_H = 300
SPACE = 50


def building(canvas: Canvas, box: Box, view: TroyesState, index: int, w: Words = ENGLISH) -> None:
    """A building: its rows of numbered spaces (entry on the left), and the expelled citizens.

    Each row is a sunken track holding its spaces, each space numbered as the buttons name it
    ("Bishopric, space 4"). A die enters the row whose space numbers include its value; where the
    data ever says otherwise, the die values are written before the row.
    """
    spec = board().buildings[index]
    canvas.panel(box)
    inner = box.inset(12, 10)
    chip = canvas.pill(inner.x, inner.y, letter(spec.colour, w), TEXT_MIN, COLOUR_FILLS[spec.colour])
    name_x = chip.right + 8
    canvas.text(
        (name_x, chip.y + chip.h // 2),
        w.gettext(spec.name),
        TEXT,
        anchor="lm",
        max_width=inner.right - name_x,
    )
    values = {
        row: [v + 1 for v, r in enumerate(spec.row_of_value) if r == row] for row in range(len(spec.rows))
    }
    # Rows of one space are paired on a line (the Palace); longer rows get a line each.
    lines: list[list[int]] = []
    for row, spaces in enumerate(spec.rows):
        if lines and len(spec.rows[lines[-1][-1]]) == 1 and len(spaces) == 1 and len(lines[-1]) < 2:
            lines[-1].append(row)
        else:
            lines.append([row])
    y = inner.y + 54
    cy = inner.bottom - 22
    beside = inner.x  # where the tracks on the wage's line end: the wage stays right of them
    for line in lines:
        x = inner.x
        for row in line:
            spaces = spec.rows[row]
            if values[row] != [space + 1 for space in spaces]:
                used = canvas.text(
                    (x, y + SPACE // 2),
                    _values_label(values[row]),
                    TEXT_MIN,
                    fill=palette.TEXT_DIM,
                    anchor="lm",
                )
                x += round(used) + 8
            x = _track(canvas, x, y, spaces, view.buildings[index]) + TRACK_GAP
        if y + SPACE > cy - 15:
            beside = max(beside, x - TRACK_GAP + 8)
        y += SPACE + 10
    lying = view.lying[index] if index < len(view.lying) else []
    # The expelled citizens' line: "Out", the citizens, and the wage right-aligned. The wage keeps
    # its word (cut only past the room of "…", one citizen and another "…"); "Out" gives way to it.
    room = inner.right - beside
    if lying:
        room = min(room, inner.w - 28 - 10 - LYING_ROOM - 4)
    wage = w.gettext("wage {wage}", wage=spec.wage)
    wage_w = canvas.text(
        (inner.right, cy), wage, TEXT_MIN, fill=palette.TEXT_DIM, anchor="rm", max_width=room
    )
    if lying:
        end = inner.right - wage_w - 4
        out_room = end - inner.x - 10 - LYING_ROOM
        used = canvas.text(
            (inner.x, cy), w.gettext("Out"), TEXT_MIN, fill=palette.WARNING, anchor="lm", max_width=out_room
        )
        x = inner.x + round(used) + 10
        every = x + len(lying) * 62 - 6 <= end
        for owner in lying:
            if not every and x + 56 + 30 > end:
                canvas.text((x, cy), "…", TEXT_MIN, anchor="lm")
                break
            canvas.paste_centred(lying_citizen(56, 36, owner), x + 28, cy)
            owner_mark(canvas, x + 28, cy, owner)
            x += 62


LYING_ROOM = 56 + 6 + 28 + 2
"""Room after "Out" for one expelled citizen and the "…" that says more lie there."""


TRACK_PAD = 7
TRACK_GAP = 14
SPACE_GAP = 14


def _track(canvas: Canvas, x: int, y: int, spaces: tuple[int, ...], owners: list[int | None]) -> int:
    """A row's spaces on a sunken track from (x, y), each with its number; return the track's right."""
    digits = font(TEXT_MIN)
    cells = [(space, round(digits.getlength(str(space + 1)))) for space in spaces]
    w = 2 * TRACK_PAD + sum(n + 4 + SPACE - 6 for _, n in cells) + SPACE_GAP * (len(cells) - 1)
    canvas.panel(Box(x, y, w, SPACE), fill=palette.PANEL_SUNK, edge=None, radius=SPACE // 2)
    cy = y + SPACE // 2
    x += TRACK_PAD
    for space, n in cells:
        canvas.text((x, cy), str(space + 1), TEXT_MIN, fill=palette.TEXT_DIM, anchor="lm")
        cx = x + n + 4 + (SPACE - 6) // 2
        owner = owners[space]
        if owner is None:
            canvas.paste_centred(shapes.ring(SPACE - 6, palette.PANEL_EDGE), cx, cy)
        else:
            canvas.paste_centred(token(SPACE - 6, owner), cx, cy)
            owner_mark(canvas, cx, cy, owner)
        x += n + 4 + SPACE - 6 + SPACE_GAP
    return x - SPACE_GAP + TRACK_PAD


def _values_label(values: list[int]) -> str:
    if not values:
        return "–"
    if len(values) == 1:
        return str(values[0])
    if values == list(range(values[0], values[-1] + 1)):
        return f"{values[0]}-{values[-1]}"
    return ",".join(str(v) for v in values)


# -- cathedral -------------------------------------------------------------------------------

EVENT_H = 92
EVENT_GAP = 8
EVENTS_TOP = 48
BESIDE = 3
"""Events listed beside the cathedral; the rest run in two columns below it."""
CATHEDRAL_W = 436
CELL = 60
CATHEDRAL_H = EVENTS_TOP + BESIDE * EVENT_H + (BESIDE - 1) * EVENT_GAP


def middle_height(view: TroyesState, w: int, words: Words = ENGLISH) -> int:
    """The cathedral with the event queue beside it and, when long, below it, in a band `w` wide."""
    below = max(0, len(view.queue) - BESIDE)
    return _below_top(view, w, words) - EVENT_GAP + ((below + 1) // 2) * (EVENT_H + EVENT_GAP)


def _events_top(view: TroyesState, w: int, words: Words = ENGLISH) -> int:
    """Where the first event goes: below the heading, and below the black dice when they need a line."""
    return EVENTS_TOP + (0 if _black_beside(view, w - CATHEDRAL_W - GAP, words) else BLACK_LINE)


def _below_top(view: TroyesState, w: int, words: Words = ENGLISH) -> int:
    """Where the events past the first BESIDE start: under the cathedral or the column beside it."""
    column = _events_top(view, w, words) + BESIDE * (EVENT_H + EVENT_GAP) - EVENT_GAP
    return max(CATHEDRAL_H, column) + EVENT_GAP


BLACK_LINE = DIE + 10
"""The black dice's own line under the heading, when they do not fit beside it."""
BLACK_LABEL = N_("black dice")


def _black_beside(view: TroyesState, w: int, words: Words = ENGLISH) -> bool:
    """Whether the black dice and their label fit on the heading line beside 'Events'."""
    if not view.black:
        return True
    dice = len(view.black) * (DIE + 6) - 6
    heading, label = words.gettext("Events"), words.gettext(BLACK_LABEL)
    room = w - 4 - _width(heading, TEXT) - 24 - _width(label, TEXT_MIN) - 10
    return dice <= room


def _width(text: str, size: int) -> int:
    return round(font(size).getlength(text))


def cathedral(canvas: Canvas, box: Box, view: TroyesState, w: Words = ENGLISH) -> None:
    """Six columns (die values) of three levels, bottom up; each cube shows its owner's number."""
    canvas.panel(box)
    inner = box.inset(14, 16)
    used = canvas.text((inner.x, inner.y), w.gettext("Cathedral"), TEXT, anchor="la", max_width=inner.w)
    vp = board().const("vp_per_cube")
    room = inner.w - round(used) - 16
    # The shorter "+1 VP" where a language's "+1 VP a cube" does not fit beside the heading.
    for note in (
        w.ngettext("+{count} VP a cube", "+{count} VP a cube", vp),
        w.ngettext("+{count} VP", "+{count} VP", vp),
    ):
        if _width(note, TEXT_MIN) <= room:
            canvas.text((inner.right, inner.y + 2), note, TEXT_MIN, fill=palette.TEXT_DIM, anchor="ra")
            break
    spec = board()
    levels = spec.cathedral_levels
    left = inner.right - spec.cathedral_columns * CELL
    top = inner.y + 50
    for level in range(levels):
        cy = top + (levels - 1 - level) * CELL + CELL // 2
        canvas.text(
            (inner.x, cy),
            ROMAN[level] if level < 3 else str(level + 1),
            TEXT_MIN,
            fill=palette.TEXT_DIM,
            anchor="lm",
        )
    for column in range(spec.cathedral_columns):
        cx = left + column * CELL + CELL // 2
        cubes = view.cathedral[column]
        for level in range(levels):
            cy = top + (levels - 1 - level) * CELL + CELL // 2
            cell = Box(cx - 23, cy - 23, 46, 46)
            if level < len(cubes):
                canvas.paste_centred(cube(46, cubes[level]), cx, cy)
                owner_mark(canvas, cx, cy, cubes[level])
            else:
                canvas.draw.rounded_rectangle(cell.corners, radius=6, outline=palette.PANEL_EDGE, width=2)
        base = top + levels * CELL + 8
        canvas.text((cx, base + 18), str(column + 1), TEXT, anchor="mm")
        canvas.text(
            (cx, base + 54),
            f"+{spec.cathedral_influence[column]}",
            TEXT_MIN,
            fill=palette.TEXT_DIM,
            anchor="mm",
        )
    base = top + levels * CELL + 8
    # The heads of the columns' two lines, left of the first column: three or four letters. They may
    # reach under the first column up to its centred digit (the die) or its "+N" (the influence).
    heads = (
        (base + 18, w.pgettext("cathedral: die value, 3-4 letters", "die"), 14),
        (base + 54, w.pgettext("cathedral: influence, 3-4 letters", "inf"), 4),
    )
    for y, head, under in heads:
        canvas.text(
            (inner.x, y), head, TEXT_MIN, fill=palette.TEXT_DIM, anchor="lm", max_width=left - inner.x + under
        )


# -- events ----------------------------------------------------------------------------------


def _event_boxes(box: Box, view: TroyesState, w: Words = ENGLISH) -> list[Box]:
    """Where each event of the queue goes: beside the cathedral first, then two to a row below it."""
    right = Box(box.x + CATHEDRAL_W + GAP, box.y, box.w - CATHEDRAL_W - GAP, EVENT_H)
    top = _events_top(view, box.w, w)
    below = _below_top(view, box.w, w)
    boxes: list[Box] = []
    for index in range(len(view.queue)):
        if index < BESIDE:
            boxes.append(Box(right.x, box.y + top + index * (EVENT_H + EVENT_GAP), right.w, EVENT_H))
            continue
        row, column = divmod(index - BESIDE, 2)
        y = box.y + below + row * (EVENT_H + EVENT_GAP)
        half = (box.w - GAP) // 2
        boxes.append(Box(box.x + column * (half + GAP), y, half, EVENT_H))
    return boxes


def event_queue(canvas: Canvas, box: Box, view: TroyesState, w: Words = ENGLISH) -> None:
    """The event queue in order (it applies left to right): colour, banners with cubes, black dice.

    The black dice stand right of the 'Events' heading, or on a line of their own under it
    when there are too many to fit beside it.
    """
    left = box.x + CATHEDRAL_W + GAP
    cy = box.y + EVENTS_TOP // 2 - 4
    canvas.text((left + 4, cy), w.gettext("Events"), TEXT, anchor="lm")
    if view.black:
        step = DIE + 6
        x = box.right - len(view.black) * step + 6
        if _black_beside(view, box.right - left, w):
            dice_cy, label_right = cy, x - 10
        else:
            dice_cy, label_right = box.y + EVENTS_TOP + BLACK_LINE // 2 - 8, box.right
        canvas.text((label_right, cy), w.gettext(BLACK_LABEL), TEXT_MIN, fill=palette.TEXT_DIM, anchor="rm")
        for value in view.black:
            canvas.numbered_die(x, dice_cy - DIE // 2, DIE, value, BLACK_DIE)
            x += step
    for index, slot_box in enumerate(_event_boxes(box, view, w)):
        _event(canvas, slot_box, view, index, w)


"""The buttons' words for namesakes (cogs/games/_troyes_words.py): one catalog message each."""


def _event(canvas: Canvas, box: Box, view: TroyesState, index: int, w: Words = ENGLISH) -> None:
    slot = view.queue[index]
    card = events()[slot.id]
    canvas.panel(box, radius=10)
    edge = Box(box.x, box.y, stripe_width(card.combat, 40, w), box.h)
    stripe(canvas, edge, card.combat, "")
    inner = Box(edge.right + 10, box.y + 8, box.right - edge.right - 20, box.h - 16)
    icons = card.black_dice
    icon_w = icons * 34
    canvas.text(
        (inner.x, inner.y + 18),
        event_name(view, index, w),
        TEXT,
        anchor="lm",
        max_width=inner.w - icon_w - (12 if icons else 0),
    )
    x = inner.right - icon_w
    for _ in range(icons):
        canvas.paste(black_die(28), x + 4, inner.y + 4)
        x += 34
    cy = inner.bottom - 22
    used = canvas.text((inner.x, cy), f"÷{card.divisor}", TEXT, anchor="lm")
    x = inner.x + round(used) + 16
    vp_left = x + card.banners * 46
    for banner in range(card.banners):
        if banner < len(slot.cubes):
            canvas.paste_centred(cube(40, slot.cubes[banner]), x + 20, cy)
            owner_mark(canvas, x + 20, cy, slot.cubes[banner])
        else:
            canvas.draw.rounded_rectangle(
                (x, cy - 20, x + 39, cy + 19), radius=6, outline=palette.PANEL_EDGE, width=2
            )
        x += 46
    first, second = card.vp
    canvas.text(
        (inner.right, cy),
        w.gettext("{first}/{second} VP", first=first, second=second),
        TEXT_MIN,
        fill=palette.TEXT_DIM,
        anchor="rm",
        max_width=inner.right - vp_left - 6,
    )


# -- activity cards --------------------------------------------------------------------------

CARD_H = 148
CUBE_LINE = 50
HIDDEN_H = 44


def _card_rows(view: TroyesState) -> tuple[list[list[CardSlot]], list[int]]:
    """Revealed cards by level (red, white, yellow in each), and the levels still face down."""
    shown: list[list[CardSlot]] = []
    hidden: list[int] = []
    for level in (1, 2, 3):
        row = [slot for slot in view.cards if slot.level == level]
        if row and all(slot.revealed for slot in row):
            order = (Colour.RED, Colour.WHITE, Colour.YELLOW)
            shown.append(sorted(row, key=lambda slot: order.index(slot.colour)))
        else:
            hidden.append(level)
    return shown, hidden


def _cube_owners(view: TroyesState, slot: CardSlot) -> list[tuple[int, int]]:
    return [(seat, p.cubes.get(slot.id, 0)) for seat, p in enumerate(view.players) if p.cubes.get(slot.id, 0)]


def _card_row_height(view: TroyesState, row: list[CardSlot]) -> int:
    return CARD_H + (CUBE_LINE if any(_cube_owners(view, slot) for slot in row) else 0)


def cards_height(view: TroyesState) -> int:
    shown, hidden = _card_rows(view)
    height = 40 + sum(_card_row_height(view, row) + GAP for row in shown)
    return height + (HIDDEN_H if hidden else 0)


def cards(canvas: Canvas, box: Box, view: TroyesState, w: Words = ENGLISH) -> None:
    shown, hidden = _card_rows(view)
    canvas.text((box.x + 4, box.y + 18), w.gettext("Activity cards"), TEXT, anchor="lm")
    y = box.y + 40
    for row in shown:
        h = _card_row_height(view, row)
        for slot, cell in zip(row, Box(box.x, y, box.w, h).columns(3, GAP), strict=False):
            _card(canvas, cell, view, slot, w)
        y += h + GAP
    if hidden:
        levels = ", ".join(ROMAN[level - 1] for level in hidden)
        text = w.ngettext(
            "Face down until their round: level {levels}",
            "Face down until their round: levels {levels}",
            len(hidden),
            levels=levels,
        )
        canvas.text(
            (box.x + 4, y + HIDDEN_H // 2),
            text,
            TEXT_MIN,
            fill=palette.TEXT_DIM,
            anchor="lm",
            max_width=box.w - 8,
        )


def _card(canvas: Canvas, box: Box, view: TroyesState, slot: CardSlot, w: Words = ENGLISH) -> None:
    """An activity card: name, hire cost, divisor, tradesmen in order with their VP, cubes."""
    card = activities()[slot.id]
    canvas.panel(box, radius=10)
    edge = Box(box.x, box.y, stripe_width(card.colour, 44, w), box.h)
    stripe(canvas, edge, card.colour, ROMAN[card.level - 1])
    inner = Box(edge.right + 8, box.y + 8, box.right - edge.right - 16, box.h - 16)
    canvas.text((inner.x, inner.y + 16), w.gettext(card.name), TEXT_MIN, anchor="lm", max_width=inner.w)
    cy = inner.y + 56
    divisor = f"÷{card.divisor}"
    room = inner.w - 18 - _width(divisor, TEXT_MIN) - (34 if card.delayed else 0)
    hire = w.gettext("hire {cost}", cost=card.cost)
    used = canvas.text((inner.x, cy), hire, TEXT_MIN, fill=palette.TEXT_DIM, anchor="lm", max_width=room)
    canvas.text((inner.x + round(used) + 18, cy), divisor, TEXT_MIN, anchor="lm")
    if card.delayed:
        canvas.paste_centred(hourglass(30), inner.right - 16, cy)
    cy = inner.y + 104
    x = inner.x
    for space, owner in enumerate(slot.spaces):
        vp = card.space_vp[space] if space < len(card.space_vp) else 0
        if owner is None:
            canvas.paste_centred(shapes.ring(TOKEN - 2, palette.PANEL_EDGE), x + TOKEN // 2, cy)
        else:
            canvas.paste_centred(token(TOKEN, owner), x + TOKEN // 2, cy)
            owner_mark(canvas, x + TOKEN // 2, cy, owner)
        used = canvas.text((x + TOKEN + 4, cy), str(vp), TEXT_MIN, fill=palette.STAR, anchor="lm")
        x += TOKEN + 4 + round(used) + 12
    for owner in slot.extra:
        if x + TOKEN > inner.right:
            canvas.text((x, cy), "…", TEXT_MIN, anchor="lm")
            break
        canvas.paste_centred(token(TOKEN, owner), x + TOKEN // 2, cy)
        owner_mark(canvas, x + TOKEN // 2, cy, owner)
        x += TOKEN + 6
    owners = _cube_owners(view, slot)
    if owners:
        cy += CUBE_LINE
        x = inner.x
        for owner, count in owners:
            canvas.paste_centred(cube(38, owner), x + 19, cy)
            owner_mark(canvas, x + 19, cy, owner)
            used = canvas.text((x + 44, cy), f"×{count}", TEXT_MIN, anchor="lm")
            x += 44 + round(used) + 14
