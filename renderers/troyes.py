"""The Troyes board, portrait for phones: players and their dice, buildings, cathedral, events, cards.

Every number and letter is at least TEXT_MIN pixels, which keeps digits and capitals 8 px tall
when a phone shows the board 400 px wide (issue 12). Owners are told apart by a number in their
token (1-4, N for the neutral player) as well as its colour; dice colours by a letter (R, W, Y).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image

from engine.troyes import RULES
from engine.troyes.data import activities, board, characters, events
from engine.troyes.kinds import NEUTRAL, Colour, Phase
from engine.troyes.state import CardSlot, Die, EventSlot, TroyesState
from renderers import palette, shapes
from renderers.dice import DieStyle, PipShape
from renderers.kit import Canvas
from renderers.layout import Box
from renderers.palette import RGB
from renderers.text import clean_name, fit, font
from renderers.troyes_marks import (
    SEAT_FILLS,
    black_die,
    cube,
    hourglass,
    lying_citizen,
    mark,
    seat_fill,
    token,
)

WIDTH = 960
PAD = 14
GAP = 12
TEXT_MIN = 28
"""The smallest font size on the board (digits 20 px tall, 8.3 px at 400 px wide)."""
TEXT = 30
NAME = 32
STATUS = 36
DIE = 46
TOKEN = 42

COLOUR_FILLS: dict[Colour, RGB] = {
    Colour.RED: palette.DIE_RED,
    Colour.WHITE: palette.WHITE_DIE,
    Colour.YELLOW: (238, 194, 36),
}
LETTERS = {Colour.RED: "R", Colour.WHITE: "W", Colour.YELLOW: "Y"}
DIE_STYLES: dict[Colour, DieStyle] = {
    Colour.RED: DieStyle("red", palette.DIE_RED, palette.PIP_LIGHT, (120, 20, 28), 0.05, PipShape.ROUND, "R"),
    Colour.WHITE: DieStyle(
        "white", palette.WHITE_DIE, palette.PIP_DARK, (150, 150, 160), 0.05, PipShape.ROUND, "W"
    ),
    Colour.YELLOW: DieStyle(
        "yellow", COLOUR_FILLS[Colour.YELLOW], palette.PIP_DARK, (140, 100, 0), 0.05, PipShape.ROUND, "Y"
    ),
}
BLACK_DIE = DieStyle(
    "black", palette.DIE_BLACK, palette.PIP_LIGHT, palette.DIE_EDGE_LIGHT, 0.08, PipShape.ROUND, "B"
)
ROMAN = ("I", "II", "III")
PNG_LEVEL = 3
"""zlib level: half the time of level 6 on this tall board, for PNGs about 25% larger (~90 kB)."""

_PHASE_WORDS = {
    Phase.PLACEMENT: "SETUP",
    Phase.COUNTER: "BLACK DICE",
    Phase.ACTIONS: "ACTIONS",
    Phase.OVER: "FINAL BOARD",
}


@dataclass(frozen=True, slots=True)
class Seen:
    """What the board shows about one seat: name, and the secrets the viewer may see."""

    name: str
    vp: int | None
    characters: tuple[str, ...]
    winner: bool
    score: tuple[tuple[str, int], ...] = ()
    """The final score line by line (game over only), without the total."""


def render(view: TroyesState, viewer: int | None, names: Sequence[str]) -> Image.Image:
    """The table as `viewer` (None: a spectator) sees it, with the players' display names."""
    return draw(view, viewer, names).image


def draw(view: TroyesState, viewer: int | None, names: Sequence[str]) -> Canvas:
    """The board drawn on a canvas, which also records the text sizes used (the phone check)."""
    seen = _seen(view, viewer, names)
    inner = WIDTH - 2 * PAD
    heights = (
        HEADER_H + (CHOSEN_H if _chosen_dice(view) else 0),
        _players_height(view, seen),
        BUILDING_H,
        _middle_height(view),
        _cards_height(view),
    )
    canvas = Canvas(WIDTH, PAD + sum(heights) + GAP * (len(heights) - 1) + PAD)
    rest = canvas.box.inset(PAD)
    header, rest = rest.take_top(heights[0], GAP)
    players, rest = rest.take_top(heights[1], GAP)
    buildings, rest = rest.take_top(heights[2], GAP)
    middle, rest = rest.take_top(heights[3], GAP)
    mover = _to_move(view)
    _header(canvas, header, view, viewer, seen, mover)
    _players(canvas, players, view, viewer, seen, mover)
    for index, box in enumerate(buildings.columns(3, GAP)):
        _building(canvas, box, view, index)
    _cathedral(canvas, Box(middle.x, middle.y, CATHEDRAL_W, CATHEDRAL_H), view)
    _events(canvas, middle, view)
    _cards(canvas, rest, view)
    assert rest.w == inner
    return canvas


# -- who sees what ---------------------------------------------------------------------------


def _seen(view: TroyesState, viewer: int | None, names: Sequence[str]) -> list[Seen]:
    """Names, and VP and characters only where the rules let this viewer see them."""
    over = view.phase is Phase.OVER
    outcome = RULES.outcome(view) if over else None
    seen = []
    for seat, player in enumerate(view.players):
        name = clean_name(names[seat] if seat < len(names) else "", seat)
        if outcome is not None:
            lines = outcome.breakdown[seat] if seat < len(outcome.breakdown) else {}
            score = tuple((line, vp) for line, vp in lines.items() if line != "Total")
            won = outcome.ranks[seat] == 1
            seen.append(Seen(name, outcome.scores[seat], tuple(player.characters), won, score))
        elif seat == viewer:
            seen.append(Seen(name, player.vp, tuple(player.characters), False))
        else:
            seen.append(Seen(name, None, (), False))
    return seen


def _to_move(view: TroyesState) -> int | None:
    """The seat the game waits for."""
    if view.phase is Phase.OVER:
        return None
    if view.phase is Phase.PLACEMENT:
        return view.placement_order[0] if view.placement_order else None
    if view.stack:
        return view.stack[-1].seat
    return view.turn


def _possessive(name: str) -> str:
    return f"{name}'" if name.endswith("s") else f"{name}'s"


# -- header ----------------------------------------------------------------------------------

HEADER_H = 92
CHOSEN_H = 42


def _header(
    canvas: Canvas, box: Box, view: TroyesState, viewer: int | None, seen: list[Seen], mover: int | None
) -> None:
    when = f"ROUND {view.round} OF {view.rounds}" if view.round else f"{view.rounds} ROUNDS"
    line = f"TROYES · {when} · {_PHASE_WORDS[view.phase]}"
    if _dice_out(view):
        line += f" · {len(view.dice)} OF {view.rolled} DICE LEFT"
    canvas.text((box.x, box.y), line, TEXT_MIN, fill=palette.TEXT_DIM, max_width=box.w)
    y = box.y + 42
    if view.phase is Phase.OVER:
        canvas.text((box.x, y), _result_line(seen), STATUS, fill=palette.ACTIVE, max_width=box.w)
        return
    if mover is None:
        return
    canvas.paste(shapes.arrow(34), box.x, y + 3)
    who = "Your move" if mover == viewer else fit(seen[mover].name, font(STATUS), 320)
    canvas.text((box.x + 44, y), f"{who}: {_doing(view)}", STATUS, max_width=box.w - 44)
    chosen = _chosen_dice(view)
    if chosen:
        words = ", ".join(_die_words(view, die, mover, seen) for die in view.dice if die.id in chosen)
        canvas.text(
            (box.x + 44, y + 54), f"with {words}", TEXT_MIN, fill=palette.ACTIVE, max_width=box.w - 44
        )


def _die_words(view: TroyesState, die: Die, mover: int, seen: list[Seen]) -> str:
    """'red 5' for the mover's own die, "Bo's red 5 (bought)" for another district's."""
    words = f"{die.colour.value} {die.value}"
    if die.owner == mover:
        return words
    owner = (
        "the neutral" if die.owner == NEUTRAL else _possessive(fit(seen[die.owner].name, font(TEXT_MIN), 280))
    )
    return f"{owner} {words} (bought)"


def _result_line(seen: list[Seen]) -> str:
    """'Ana wins with 31 VP' or 'Ana and Bo tie with 31 VP', names cut so the score stays in view."""
    winners = [s for s in seen if s.winner]
    best = max(s.vp or 0 for s in seen)
    each = 520 // max(1, len(winners))
    names = [fit(s.name, font(STATUS), each) for s in winners]
    if len(names) == 1:
        return f"{names[0]} wins with {best} VP"
    return f"{', '.join(names[:-1])} and {names[-1]} tie with {best} VP"


def _doing(view: TroyesState) -> str:
    """What the player to move is deciding, in a few words."""
    if view.phase is Phase.PLACEMENT:
        return "place a starting citizen"
    if not view.stack:
        return "take an action or pass"
    step = view.stack[-1]
    target = _target_words(view, step.target)
    kind = step.kind.value
    if kind == "counter":
        return f"counter the black {view.black[0]}" if view.black else "counter the black dice"
    words = {
        "reroll": "re-roll a die",
        "flip": "turn dice over",
        "event_target": "choose an event",
        "modifier": f"use a cube on {target}?",
        "dice": f"dice for {target}",
        "source": f"a citizen for {target}",
        "activations": f"activations of {target}",
        "archer": "the Archer's roll",
        "event_cube": "place a cube on an event",
        "continue": f"go on with {target}?",
        "end_turn": "end of the turn",
    }
    return words.get(kind, "decide")


def _target_words(view: TroyesState, target: str) -> str:
    """An action's target as a reader names it: a card, a building, an event."""
    kind, _, index = target.partition(":")
    try:
        if kind == "card":
            return activities()[view.cards[int(index)].id].name
        if kind == "building":
            return f"the {board().buildings[int(index)].name}"
        if kind == "event" and index:
            return events()[view.queue[int(index)].id].name
    except (KeyError, IndexError, ValueError):
        pass
    return {"cathedral": "the cathedral", "agriculture": "agriculture", "event": "an event"}.get(kind, "it")


# -- players and their districts -------------------------------------------------------------

ROW_PAD = 10
LINE_H = 48
STAT_HEADS = ("Deniers", "Influence", "Supply", "VP")
STAT_GAP = 18
GUTTER = 34
"""Room left of each row for the arrow marking the player to move."""


def _stat_widths() -> list[int]:
    face = font(TEXT_MIN)
    return [max(round(face.getlength(head)), 58) for head in STAT_HEADS]


def _row_height(shown: Seen) -> int:
    return 2 * ROW_PAD + 2 * LINE_H + 6 + (LINE_H if shown.characters else 0)


_SCORE_WORDS = {
    "VP tokens": "tokens",
    "Uncountered events with a cube": "events",
    "Tradesmen spaces": "tradesmen",
    "Cathedral levels missing": "cathedral",
}


def _score_words(shown: Seen) -> str:
    """The final score in one short line; every dealt character scores for every player."""
    named = {card.name for card in characters().values()}
    parts = [
        f"{_SCORE_WORDS.get(line, line)} {_signed(vp)}"
        for line, vp in shown.score
        if line not in named and vp
    ]
    by_characters = sum(vp for line, vp in shown.score if line in named)
    parts.append(f"characters {_signed(by_characters)}")
    return " · ".join(parts)


def _signed(value: int) -> str:
    return f"−{-value}" if value < 0 else str(value)


def _players_height(view: TroyesState, seen: list[Seen]) -> int:
    rows = sum(_row_height(s) for s in seen)
    neutral = GAP + 2 * ROW_PAD + LINE_H if _dice_out(view) else 0
    return 36 + rows + GAP * (len(seen) - 1) + neutral


def _dice_out(view: TroyesState) -> bool:
    """Whether the city square is in play (the phases with dice)."""
    return view.phase in (Phase.COUNTER, Phase.ACTIONS)


def _stat_columns(box: Box) -> list[Box]:
    """The right-aligned columns of the resource figures inside a row box."""
    columns: list[Box] = []
    right = box.right - 16
    for w in reversed(_stat_widths()):
        columns.insert(0, Box(right - w, box.y, w, box.h))
        right -= w + STAT_GAP
    return columns


def _players(
    canvas: Canvas, box: Box, view: TroyesState, viewer: int | None, seen: list[Seen], mover: int | None
) -> None:
    head, rest = box.take_top(36)
    for column, title in zip(_stat_columns(head), STAT_HEADS, strict=True):
        canvas.text((column.right, column.y), title, TEXT_MIN, fill=palette.TEXT_DIM, anchor="ra")
    title = "Players and their dice" if _dice_out(view) else "Players"
    canvas.text((head.x + GUTTER, head.y), title, TEXT_MIN, fill=palette.TEXT_DIM)
    chosen = _chosen_dice(view)
    for seat, shown in enumerate(seen):
        row, rest = rest.take_top(_row_height(shown), GAP)
        _player_row(canvas, row, view, seat, shown, seat == viewer, seat == mover, chosen)
    if _dice_out(view):
        _neutral_row(canvas, rest, view, chosen)


def _chosen_dice(view: TroyesState) -> set[int]:
    """The dice picked so far for the decision under way (outlined on the board)."""
    return {die for step in view.stack for die in step.dice}


def _player_row(
    canvas: Canvas,
    box: Box,
    view: TroyesState,
    seat: int,
    shown: Seen,
    is_viewer: bool,
    to_move: bool,
    chosen: set[int],
) -> None:
    if to_move:
        canvas.panel(box, fill=palette.ACTIVE_PANEL, edge=palette.ACTIVE, thickness=4)
        canvas.paste(shapes.arrow(26), box.x + 6, box.y + ROW_PAD + LINE_H // 2 - 13)
    else:
        canvas.panel(box)
    player = view.players[seat]
    x = box.x + GUTTER
    mid = box.y + ROW_PAD + LINE_H // 2
    canvas.paste_centred(token(TOKEN, seat), x + TOKEN // 2, mid)
    _mark(canvas, x + TOKEN // 2, mid, seat)
    columns = _stat_columns(box)
    name_x = x + TOKEN + 12
    colour = palette.ACTIVE if to_move else palette.TEXT
    canvas.text(
        (name_x, mid), shown.name, NAME, fill=colour, anchor="lm", max_width=columns[0].x - name_x - 14
    )
    vp = "?" if shown.vp is None else str(shown.vp)
    figures = (str(player.deniers), str(player.influence), str(player.supply), vp)
    for column, figure in zip(columns, figures, strict=True):
        dim = shown.vp is None and figure == "?"
        fill = palette.TEXT_DIM if dim else palette.STAR if column is columns[-1] else palette.TEXT
        canvas.text((column.right, mid), figure, NAME, fill=fill, anchor="rm")
    line = Box(x, box.y + ROW_PAD + LINE_H + 6, box.right - 16 - x, LINE_H)
    tags = _tags(view, seat, is_viewer, shown)
    right = line.right
    for text, fill in reversed(tags):
        w = canvas.pill_width(text, TEXT_MIN)
        canvas.pill(right - w, line.y + 3, text, TEXT_MIN, fill)
        right -= w + 8
    if shown.score:
        made = _score_words(shown)
        canvas.text(
            (line.x, line.y + line.h // 2), made, TEXT_MIN, anchor="lm", max_width=right - 12 - line.x
        )
    else:
        _district(canvas, Box(line.x, line.y, right - 12 - line.x, line.h), view, seat, chosen)
    if shown.characters:
        names = ", ".join(_character_name(c) for c in shown.characters)
        label = "Character" if len(shown.characters) == 1 else "Characters"
        canvas.text(
            (x, line.bottom + LINE_H // 2),
            f"{label}: {names}",
            TEXT_MIN,
            fill=palette.TEXT_DIM,
            anchor="lm",
            max_width=box.right - 16 - x,
        )


def _character_name(card_id: str) -> str:
    card = characters().get(card_id)
    return "?" if card is None else card.name


def _tags(view: TroyesState, seat: int, is_viewer: bool, shown: Seen) -> list[tuple[str, RGB]]:
    tags: list[tuple[str, RGB]] = []
    if shown.winner:
        tags.append(("WINNER", palette.STAR))
    if view.phase is not Phase.OVER:
        player = view.players[seat]
        if player.passed:
            tags.append((f"PASSED +{player.pass_money}", palette.TEXT_DIM))
        if seat == view.start and view.round:
            tags.append(("START", palette.PANEL_EDGE))
    if is_viewer:
        tags.append(("YOU", palette.GOOD))
    return tags


def _neutral_row(canvas: Canvas, box: Box, view: TroyesState, chosen: set[int]) -> None:
    canvas.panel(box)
    x = box.x + GUTTER
    mid = box.y + box.h // 2
    canvas.paste_centred(token(TOKEN, NEUTRAL), x + TOKEN // 2, mid)
    _mark(canvas, x + TOKEN // 2, mid, NEUTRAL)
    used = canvas.text((x + TOKEN + 12, mid), "Neutral", NAME, fill=palette.TEXT_DIM, anchor="lm")
    left = x + TOKEN + 12 + round(used) + 24
    _district(canvas, Box(left, mid - LINE_H // 2, box.right - 16 - left, LINE_H), view, NEUTRAL, chosen)


def _district(canvas: Canvas, box: Box, view: TroyesState, owner: int, chosen: set[int]) -> None:
    """An owner's dice on the city square, by colour (R, W, Y letters), highest first."""
    groups = [
        (colour, sorted((d for d in view.dice if d.owner == owner and d.colour is colour), key=_value_first))
        for colour in (Colour.RED, Colour.WHITE, Colour.YELLOW)
    ]
    groups = [(colour, dice) for colour, dice in groups if dice]
    if not groups:
        words = "no dice" if _dice_out(view) else ""
        if view.phase is Phase.PLACEMENT and owner != NEUTRAL:
            left = view.placement_order.count(owner)
            words = f"{left} starting citizen{'s' if left != 1 else ''} to place" if left else "all placed"
        canvas.text((box.x, box.y + box.h // 2), words, TEXT_MIN, fill=palette.TEXT_DIM, anchor="lm")
        return
    count = sum(len(dice) for _, dice in groups)
    letter_w = round(max(font(TEXT_MIN).getlength(LETTERS[colour]) for colour, _ in groups)) + 10
    size = DIE
    gap = 8
    while size > 40 and count * (size + gap) + len(groups) * (letter_w + 14) > box.w:
        size -= 2
    x = box.x
    cy = box.y + box.h // 2
    for colour, dice in groups:
        canvas.text((x, cy), LETTERS[colour], TEXT_MIN, fill=palette.TEXT_DIM, anchor="lm")
        x += letter_w
        for die in dice:
            if x + size > box.right:
                canvas.text((x, cy), "…", TEXT_MIN, anchor="lm")
                return
            _die(canvas, x, cy - size // 2, size, die, die.id in chosen)
            x += size + gap
        x += 14


def _value_first(die: Die) -> tuple[int, int]:
    return (-die.value, die.id)


def _die(canvas: Canvas, x: int, y: int, size: int, die: Die, chosen: bool) -> None:
    if chosen:
        # Picked for the decision under way: an amber frame, so it reads without colour too.
        canvas.draw.rounded_rectangle(
            (x - 5, y - 5, x + size + 4, y + size + 4), radius=10, outline=palette.ACTIVE, width=4
        )
    canvas.numbered_die(x, y, size, die.value, DIE_STYLES[die.colour])


def _mark(canvas: Canvas, cx: int, cy: int, owner: int) -> None:
    """The owner's number (N for neutral) on a token or cube centred on (cx, cy)."""
    canvas.text((cx, cy), mark(owner), TEXT_MIN, fill=palette.ink_on(seat_fill(owner)), anchor="mm")


# -- buildings -------------------------------------------------------------------------------

BUILDING_H = 300
SPACE = 50


def _building(canvas: Canvas, box: Box, view: TroyesState, index: int) -> None:
    """A building: its spaces row by row (entry on the left), die values, and the expelled citizens."""
    spec = board().buildings[index]
    canvas.panel(box)
    inner = box.inset(12, 10)
    chip = canvas.pill(inner.x, inner.y, LETTERS[spec.colour], TEXT_MIN, COLOUR_FILLS[spec.colour])
    canvas.text((chip.right + 8, chip.y + chip.h // 2), spec.name, TEXT, anchor="lm")
    canvas.text(
        (inner.right, inner.bottom - 22), f"wage {spec.wage}", TEXT_MIN, fill=palette.TEXT_DIM, anchor="rm"
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
    spaces_now = view.buildings[index]
    for line in lines:
        x = inner.x
        cy = y + SPACE // 2
        for row in line:
            label = _values_label(values[row])
            used = canvas.text((x, cy), label, TEXT_MIN, fill=palette.TEXT_DIM, anchor="lm")
            x += round(used) + 8
            for space in spec.rows[row]:
                owner = spaces_now[space]
                if owner is None:
                    canvas.paste_centred(shapes.ring(SPACE - 6, palette.PANEL_EDGE), x + SPACE // 2, cy)
                else:
                    canvas.paste_centred(token(SPACE - 6, owner), x + SPACE // 2, cy)
                    _mark(canvas, x + SPACE // 2, cy, owner)
                x += SPACE + 6
            x += 22
        y += SPACE + 10
    lying = view.lying[index] if index < len(view.lying) else []
    if lying:
        cy = inner.bottom - 22
        used = canvas.text((inner.x, cy), "Out", TEXT_MIN, fill=palette.WARNING, anchor="lm")
        x = inner.x + round(used) + 10
        for owner in lying:
            if x + 56 > inner.right - 110:
                canvas.text((x, cy), "…", TEXT_MIN, anchor="lm")
                break
            canvas.paste_centred(lying_citizen(56, 36, owner), x + 28, cy)
            _mark(canvas, x + 28, cy, owner)
            x += 62


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


def _middle_height(view: TroyesState) -> int:
    """The cathedral with the event queue beside it and, when long, below it."""
    below = max(0, len(view.queue) - BESIDE)
    return CATHEDRAL_H + ((below + 1) // 2) * (EVENT_H + EVENT_GAP)


def _cathedral(canvas: Canvas, box: Box, view: TroyesState) -> None:
    """Six columns (die values) of three levels, bottom up; each cube shows its owner's number."""
    canvas.panel(box)
    inner = box.inset(14, 16)
    canvas.text((inner.x, inner.y), "Cathedral", TEXT, anchor="la")
    canvas.text((inner.right, inner.y + 2), "+1 VP a cube", TEXT_MIN, fill=palette.TEXT_DIM, anchor="ra")
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
                _mark(canvas, cx, cy, cubes[level])
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
    canvas.text((inner.x, base + 18), "die", TEXT_MIN, fill=palette.TEXT_DIM, anchor="lm")
    canvas.text((inner.x, base + 54), "inf", TEXT_MIN, fill=palette.TEXT_DIM, anchor="lm")


# -- events ----------------------------------------------------------------------------------


def _event_boxes(box: Box, count: int) -> list[Box]:
    """Where each event of the queue goes: beside the cathedral first, then two to a row below it."""
    right = Box(box.x + CATHEDRAL_W + GAP, box.y, box.w - CATHEDRAL_W - GAP, EVENT_H)
    boxes: list[Box] = []
    for index in range(count):
        if index < BESIDE:
            boxes.append(Box(right.x, box.y + EVENTS_TOP + index * (EVENT_H + EVENT_GAP), right.w, EVENT_H))
            continue
        row, column = divmod(index - BESIDE, 2)
        y = box.y + CATHEDRAL_H + EVENT_GAP + row * (EVENT_H + EVENT_GAP)
        half = (box.w - GAP) // 2
        boxes.append(Box(box.x + column * (half + GAP), y, half, EVENT_H))
    return boxes


def _events(canvas: Canvas, box: Box, view: TroyesState) -> None:
    """The event queue in order (it applies left to right): colour, banners with cubes, black dice."""
    left = box.x + CATHEDRAL_W + GAP
    cy = box.y + EVENTS_TOP // 2 - 4
    canvas.text((left + 4, cy), "Events", TEXT, anchor="lm")
    if view.black:
        size = DIE
        x = box.right - len(view.black) * (size + 6)
        canvas.text((x - 8, cy), "black dice", TEXT_MIN, fill=palette.TEXT_DIM, anchor="rm")
        for value in view.black:
            canvas.numbered_die(x, cy - size // 2, size, value, BLACK_DIE)
            x += size + 6
    for slot, slot_box in zip(view.queue, _event_boxes(box, len(view.queue)), strict=True):
        _event(canvas, slot_box, slot)


def _event(canvas: Canvas, box: Box, slot: EventSlot) -> None:
    card = events()[slot.id]
    canvas.panel(box, radius=10)
    stripe = Box(box.x, box.y, 40, box.h)
    _stripe(canvas, stripe, card.combat, "")
    inner = Box(stripe.right + 10, box.y + 8, box.right - stripe.right - 20, box.h - 16)
    icons = card.black_dice
    icon_w = icons * 34
    canvas.text(
        (inner.x, inner.y + 18),
        card.name,
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
    for banner in range(card.banners):
        if banner < len(slot.cubes):
            canvas.paste_centred(cube(40, slot.cubes[banner]), x + 20, cy)
            _mark(canvas, x + 20, cy, slot.cubes[banner])
        else:
            canvas.draw.rounded_rectangle(
                (x, cy - 20, x + 39, cy + 19), radius=6, outline=palette.PANEL_EDGE, width=2
            )
        x += 46
    first, second = card.vp
    canvas.text((inner.right, cy), f"{first}/{second} VP", TEXT_MIN, fill=palette.TEXT_DIM, anchor="rm")


def _stripe(canvas: Canvas, box: Box, colour: Colour, level: str) -> None:
    """A card's left edge in its dice colour, with the colour's letter (and the level) on it."""
    fill = COLOUR_FILLS[colour]
    canvas.draw.rounded_rectangle(box.corners, radius=10, fill=fill)
    canvas.draw.rectangle((box.right - 10, box.y, box.right - 1, box.bottom - 1), fill=fill)
    ink = palette.ink_on(fill)
    if level:
        canvas.text((box.x + box.w // 2, box.y + 26), LETTERS[colour], TEXT_MIN, fill=ink, anchor="mm")
        canvas.text((box.x + box.w // 2, box.y + 62), level, TEXT_MIN, fill=ink, anchor="mm")
    else:
        canvas.text(
            (box.x + box.w // 2, box.y + box.h // 2), LETTERS[colour], TEXT_MIN, fill=ink, anchor="mm"
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


def _cards_height(view: TroyesState) -> int:
    shown, hidden = _card_rows(view)
    height = 40 + sum(_card_row_height(view, row) + GAP for row in shown)
    return height + (HIDDEN_H if hidden else 0)


def _cards(canvas: Canvas, box: Box, view: TroyesState) -> None:
    shown, hidden = _card_rows(view)
    canvas.text((box.x + 4, box.y + 18), "Activity cards", TEXT, anchor="lm")
    y = box.y + 40
    for row in shown:
        h = _card_row_height(view, row)
        for slot, cell in zip(row, Box(box.x, y, box.w, h).columns(3, GAP), strict=False):
            _card(canvas, cell, view, slot)
        y += h + GAP
    if hidden:
        levels = ", ".join(ROMAN[level - 1] for level in hidden)
        text = f"Face down until their round: level{'s' if len(hidden) > 1 else ''} {levels}"
        canvas.text(
            (box.x + 4, y + HIDDEN_H // 2),
            text,
            TEXT_MIN,
            fill=palette.TEXT_DIM,
            anchor="lm",
            max_width=box.w - 8,
        )


def _card(canvas: Canvas, box: Box, view: TroyesState, slot: CardSlot) -> None:
    """An activity card: name, hire cost, divisor, tradesmen in order with their VP, cubes."""
    card = activities()[slot.id]
    canvas.panel(box, radius=10)
    stripe = Box(box.x, box.y, 44, box.h)
    _stripe(canvas, stripe, card.colour, ROMAN[card.level - 1])
    inner = Box(stripe.right + 8, box.y + 8, box.right - stripe.right - 16, box.h - 16)
    canvas.text((inner.x, inner.y + 16), card.name, TEXT_MIN, anchor="lm", max_width=inner.w)
    cy = inner.y + 56
    used = canvas.text((inner.x, cy), f"hire {card.cost}", TEXT_MIN, fill=palette.TEXT_DIM, anchor="lm")
    canvas.text((inner.x + round(used) + 18, cy), f"÷{card.divisor}", TEXT_MIN, anchor="lm")
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
            _mark(canvas, x + TOKEN // 2, cy, owner)
        used = canvas.text((x + TOKEN + 4, cy), str(vp), TEXT_MIN, fill=palette.STAR, anchor="lm")
        x += TOKEN + 4 + round(used) + 12
    for owner in slot.extra:
        if x + TOKEN > inner.right:
            canvas.text((x, cy), "…", TEXT_MIN, anchor="lm")
            break
        canvas.paste_centred(token(TOKEN, owner), x + TOKEN // 2, cy)
        _mark(canvas, x + TOKEN // 2, cy, owner)
        x += TOKEN + 6
    owners = _cube_owners(view, slot)
    if owners:
        cy += CUBE_LINE
        x = inner.x
        for owner, count in owners:
            canvas.paste_centred(cube(38, owner), x + 19, cy)
            _mark(canvas, x + 19, cy, owner)
            used = canvas.text((x + 44, cy), f"×{count}", TEXT_MIN, anchor="lm")
            x += 44 + round(used) + 14


__all__ = ["SEAT_FILLS", "draw", "render"]
