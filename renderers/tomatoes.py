"""The Diced Tomatoes board: every player's tokens and vines, score track, karma and the dice."""

from __future__ import annotations

from collections.abc import Sequence

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
from renderers import dice, palette, shapes
from renderers.kit import Canvas
from renderers.layout import Box, row_width
from renderers.text import clean_name, fit, font, game_over_line

WIDTH = 1400
PAD = 20
HEADER_H = 96
TABLE_H = 112
ROW_GAP = 10
LEGEND_H = 40
NAME_W = 260
TOKEN_W = 182
KARMA_W = 96

STYLES = {Colour.RED: dice.RED, Colour.BLACK: dice.BLACK, Colour.GOLD: dice.GOLD}

_PHASE_WORDS = {
    Phase.ROLL: "roll the dice",
    Phase.PLACE: "place dice",
    Phase.CLEAR: "clear worthless vines?",
    Phase.OVER: "",
}


def _row_height(players: int) -> int:
    return 164 if players <= 4 else 150


def _possessive(name: str) -> str:
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def render(view: TomatoState, viewer: int | None, names: Sequence[str]) -> Image.Image:
    """The table as `viewer` (None: a spectator) sees it, with the players' display names."""
    players = view.players
    shown = [clean_name(names[seat] if seat < len(names) else "", seat) for seat in range(len(players))]
    row_h = _row_height(len(players))
    height = PAD + HEADER_H + TABLE_H + ROW_GAP + len(players) * (row_h + ROW_GAP) + LEGEND_H + PAD
    canvas = Canvas(WIDTH, height)
    area = canvas.box.inset(PAD)
    header, rest = area.take_top(HEADER_H)
    table, rest = rest.take_top(TABLE_H, ROW_GAP)
    scores = _scores(view)
    _header(canvas, header, view, viewer, shown, scores)
    _table(canvas, table, view, shown)
    for seat, player in enumerate(players):
        row, rest = rest.take_top(row_h, ROW_GAP)
        _player(canvas, row, view, seat, player, shown[seat], seat == viewer, scores)
    _legend(canvas, rest, view)
    return canvas.image


def _legend(canvas: Canvas, box: Box, view: TomatoState) -> None:
    """One line that explains the marks to someone new to the game."""
    x = box.x + 4
    cy = box.y + LEGEND_H // 2
    size = 26
    entries: list[tuple[Colour | str, str]] = [(Colour.RED, "red"), (Colour.BLACK, "black: -1")]
    if view.options.golden_hybrid:
        entries.append((Colour.GOLD, "gold: +1"))
    entries += [("seed", "seed (first die)"), ("= 4", "vine's value")]
    if view.options.dicey_rules:
        entries.append(("star", "slot matched"))
    if karma.bits_in_play(view):
        entries.append(("bits", "karma bits: 3 make 1 karma"))
    for mark, words in entries:
        if isinstance(mark, Colour):
            canvas.die(x, cy - size // 2, size, 0, STYLES[mark])
            x += size + 6
        elif mark == "seed":
            canvas.draw.rounded_rectangle(
                (x, cy - size // 2, x + size - 1, cy + size // 2 - 1), radius=7, outline=palette.LEAF, width=3
            )
            canvas.paste_centred(shapes.sprout(18), x + size // 2, cy)
            x += size + 6
        elif mark == "bits":
            for bit in range(3):
                icon = (
                    shapes.dot(14, palette.HEART, palette.HEART_EDGE)
                    if bit < 2
                    else shapes.ring(14, palette.PANEL_EDGE)
                )
                canvas.paste(icon, x, cy - 7)
                x += 18
            x += 2
        elif mark == "star":
            canvas.paste_centred(shapes.star(size), x + size // 2, cy)
            x += size + 6
        else:
            x += round(canvas.text((x, cy), mark, 22, fill=palette.ACTIVE, anchor="lm")) + 6
        x += round(canvas.text((x, cy), words, 20, fill=palette.TEXT_DIM, bold=False, anchor="lm")) + 26


def _scores(view: TomatoState) -> list[int]:
    """Points so far (multiplayer) or matched slots (solo), as the result would count them."""
    if view.solo:
        return [len(scoring.matched_slots(view.players[0]))]
    return [sum(scoring.breakdown(view, seat).values()) for seat in range(len(view.players))]


def _header(
    canvas: Canvas, box: Box, view: TomatoState, viewer: int | None, names: list[str], scores: list[int]
) -> None:
    canvas.text((box.x, box.y), "DICED TOMATOES", 22, fill=palette.TEXT_DIM)
    y = box.y + 34
    over = view.ended is not GameEnd.NONE
    if over:
        status = _result_line(view, names, scores)
        colour = palette.ACTIVE
    else:
        who = "Your" if view.active == viewer else _possessive(fit(names[view.active], font(38), 560))
        status = f"{who} turn: {_PHASE_WORDS[view.phase]}"
        colour = palette.TEXT
        canvas.paste(shapes.arrow(36), box.x, y + 4)
    x = box.x if over else box.x + 46
    right = box.right
    if view.final_round and not over:
        pill_text = "FINAL ROUND"
        pill_w = canvas.pill_width(pill_text, 26)
        canvas.pill(right - pill_w, y + 2, pill_text, 26, palette.WARNING)
        right -= pill_w + 16
    canvas.text((x, y), status, 38, fill=colour, max_width=right - x)


def _result_line(view: TomatoState, names: list[str], scores: list[int]) -> str:
    if view.solo:
        won = len(view.players[0].slots) >= SLOTS_PER_TRACK
        return f"Game over: {'won' if won else 'lost'}, {scores[0]} of 6 slots matched"
    best = max(scores)
    return game_over_line([names[seat] for seat, score in enumerate(scores) if score == best], best)


def _table(canvas: Canvas, box: Box, view: TomatoState, names: list[str]) -> None:
    """The shared strip: the dice on the table (rolled, not yet placed) and the bushel."""
    canvas.panel(box, fill=palette.PANEL_SUNK)
    inner = box.inset(18, 12)
    bushel_box, left = inner.take_right(470, 20)
    # Roll area.
    if view.rolled:
        label = "Rolled dice"
    elif view.phase is Phase.ROLL and view.ended is GameEnd.NONE:
        label = "To roll"
    else:
        label = "No dice on the table"
    canvas.text((left.x, left.y), label, 22, fill=palette.TEXT_DIM)
    y = left.y + 30
    x = left.x
    if view.rolled:
        x = _dice_row(canvas, x, y, 58, view.rolled, left.right, blank=False)
    elif view.phase is Phase.ROLL and view.ended is GameEnd.NONE:
        # Before the roll: the passed dice waiting (blank faces) and how many come from the bushel.
        x = _dice_row(canvas, x, y, 58, view.players[view.active].hand, left.right - 240, blank=True)
        take = turn.dice_to_take(view)
        text = f"{'+ ' if x > left.x else ''}{take} from the bushel"
        canvas.text((x, y + 29), text, 28, fill=palette.TEXT_DIM, anchor="lm", max_width=left.right - x)
    # Bushel: a die of each colour with its count.
    canvas.text((bushel_box.x, bushel_box.y), "Bushel", 22, fill=palette.TEXT_DIM)
    x = bushel_box.x
    y = bushel_box.y + 30
    colours = [Colour.RED, Colour.BLACK] + ([Colour.GOLD] if view.options.golden_hybrid else [])
    for colour in colours:
        canvas.die(x, y + 4, 50, 0, STYLES[colour])
        count = view.bushel.get(colour, 0)
        canvas.text((x + 58, y + 29), f"×{count}", 34, anchor="lm")
        x += 158


def _player(
    canvas: Canvas,
    box: Box,
    view: TomatoState,
    seat: int,
    player: PlayerState,
    name: str,
    is_viewer: bool,
    scores: list[int],
) -> None:
    active = seat == view.active and view.ended is GameEnd.NONE
    if active:
        canvas.panel(box, fill=palette.ACTIVE_PANEL, edge=palette.ACTIVE, thickness=5)
    else:
        canvas.panel(box)
    inner = box.inset(16, 12)
    name_box, rest = inner.take_left(NAME_W - 16, 10)
    _name_column(canvas, name_box, view, seat, player, name, is_viewer, active, scores[seat])
    tokens_box, rest = rest.take_left(3 * TOKEN_W + 2 * 10, 16)
    for index, token_box in enumerate(tokens_box.columns(3, 10)):
        _token(canvas, token_box, index, player.tokens[index])
    karma_box, track_box = rest.take_right(KARMA_W, 12)
    _track(canvas, track_box, view, player)
    _karma(canvas, karma_box, view, player)


def _name_column(
    canvas: Canvas,
    box: Box,
    view: TomatoState,
    seat: int,
    player: PlayerState,
    name: str,
    is_viewer: bool,
    active: bool,
    score: int,
) -> None:
    x = box.x
    if active:
        canvas.paste(shapes.arrow(26), x, box.y + 4)
        x += 32
    canvas.text(
        (x, box.y), name, 30, fill=palette.ACTIVE if active else palette.TEXT, max_width=box.right - x
    )
    y = box.y + 42
    unit = "matched" if view.solo else ("pt" if abs(score) == 1 else "pts")
    used = canvas.text((box.x, y), str(score), 44)
    used += 8 + canvas.text((box.x + used + 8, y + 36), unit, 22, fill=palette.TEXT_DIM, anchor="ls")
    # Tags in order of importance; one that does not fit the column is left out.
    tags: list[tuple[str, palette.RGB]] = []
    if is_viewer:
        tags.append(("YOU", palette.GOOD))
    if view.first_to_six == seat:
        tags.append(("6 first", palette.STAR))
    if not view.solo:
        if seat == view.first_seat:
            tags.append(("1st", palette.PANEL_EDGE))
        elif seat == view.last_seat:
            tags.append(("last", palette.PANEL_EDGE))
    tx = box.x + round(used) + 10
    for text, fill in tags:
        if tx + canvas.pill_width(text, 18) > box.right:
            continue
        tx = canvas.pill(tx, y + 12, text, 18, fill).right + 6
    y = box.bottom - 34
    if player.hand:
        used = canvas.text((box.x, y + 16), "next roll", 20, fill=palette.TEXT_DIM, anchor="lm", bold=False)
        _dice_row(canvas, box.x + round(used) + 8, y + 1, 30, player.hand, box.right, blank=True, smallest=22)


def _dice_row(
    canvas: Canvas,
    x: int,
    y: int,
    size: int,
    row: Sequence[Die],
    right: int,
    *,
    blank: bool,
    smallest: int = 34,
) -> int:
    """Dice left to right from (x, y), smaller when many, "+N" for any that still do not fit.

    Returns the x after the row. Blank faces show the colour letter (dice not rolled yet).
    """
    middle = y + size // 2
    gap = max(4, size // 5)
    while size > smallest and x + len(row) * (size + gap) - gap > right:
        size -= 2
        gap = max(4, size // 5)
    fits = len(row)
    if x + len(row) * (size + gap) - gap > right:
        # Room for the "+N" note after the dice that fit.
        fits = max(0, (right - x - 50 + gap) // (size + gap))
    for die in row[:fits]:
        canvas.die(x, middle - size // 2, size, 0 if blank else die.value, STYLES[die.colour])
        x += size + gap
    if fits < len(row):
        x += round(canvas.text((x, middle), f"+{len(row) - fits}", 26, anchor="lm")) + gap
    return x


def _token(canvas: Canvas, box: Box, index: int, token: Token) -> None:
    """A tomato token: its number, the vine's dice (seed first, marked) and the vine's value."""
    canvas.panel(box, fill=palette.PANEL_SUNK, edge=None, radius=12)
    canvas.paste(shapes.tomato(30, ripe=not token.empty), box.x + 8, box.y + 6)
    canvas.text((box.x + 44, box.y + 8), str(index + 1), 24, fill=palette.TEXT_DIM)
    if token.empty:
        canvas.text(box.center, "empty", 24, fill=palette.TEXT_DIM, bold=False, anchor="mm")
        return
    value = token.value
    # Worth 0 or less (may be cleared) or over 6 (overripe, cleared at the end of the turn):
    # a warning colour and a "!" so it reads without colour too.
    spoiled = value <= 0 or value > 6
    canvas.text(
        (box.right - 10, box.y + 6),
        f"= {value}{'!' if spoiled else ''}",
        30,
        anchor="ra",
        fill=palette.WARNING if spoiled else palette.ACTIVE,
    )
    size = 50
    gap = 8
    x = box.x + (box.w - row_width(3, size, gap)) // 2
    y = box.bottom - size - 12
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


def _track(canvas: Canvas, box: Box, view: TomatoState, player: PlayerState) -> None:
    """The six score slots: the harvested seed, its points and a star for a matched slot."""
    canvas.text((box.x, box.y), "Harvested", 20, fill=palette.TEXT_DIM, bold=False)
    top = box.y + 28
    for number, slot_box in enumerate(box.columns(SLOTS_PER_TRACK, 6), 1):
        cell = Box(slot_box.x, top, slot_box.w, box.bottom - top)
        slot = player.slots[number - 1] if number <= len(player.slots) else None
        _slot(canvas, cell, number, slot)


def _slot(canvas: Canvas, box: Box, number: int, slot: ScoreSlot | None) -> None:
    cx = box.x + box.w // 2
    if slot is None:
        canvas.draw.rounded_rectangle(box.corners, radius=10, outline=palette.PANEL_EDGE, width=2)
        canvas.text((cx, box.y + box.h // 2), str(number), 30, fill=palette.PANEL_EDGE, anchor="mm")
        return
    canvas.draw.rounded_rectangle(box.corners, radius=10, fill=palette.PANEL_SUNK)
    size = min(box.w - 8, 44)
    canvas.die(cx - size // 2, box.y + 4, size, slot.die.value, STYLES[slot.die.colour])
    total = slot.total
    ty = box.bottom - 18
    colour = palette.STAR if slot.star else palette.TEXT if total > 0 else palette.WARNING
    canvas.text((cx, ty), str(total), 28, fill=colour, anchor="mm")
    if slot.star:
        # A matched slot: a star on the slot's corner as well as the gold number.
        canvas.paste_centred(shapes.star(26), box.right - 6, box.y + 4)


def _karma(canvas: Canvas, box: Box, view: TomatoState, player: PlayerState) -> None:
    """The karma heart with its value, and the karma bits as three dots."""
    canvas.text((box.x + box.w // 2, box.y), "Karma", 20, fill=palette.TEXT_DIM, bold=False, anchor="ma")
    cx = box.x + box.w // 2
    cy = box.y + 66
    canvas.paste_centred(shapes.heart(74), cx, cy)
    canvas.text((cx, cy - 2), str(player.karma), 32, anchor="mm")
    if karma.bits_in_play(view):
        size = 18
        x = cx - row_width(3, size, 6) // 2
        for bit in range(3):
            icon = (
                shapes.dot(size, palette.HEART, palette.HEART_EDGE)
                if bit < player.karma_bits
                else shapes.ring(size, palette.PANEL_EDGE)
            )
            canvas.paste(icon, x, box.bottom - size)
            x += size + 6
