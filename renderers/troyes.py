"""The Troyes board, portrait for phones: the move, the players and their dice, then the city.

Every number and letter is at least TEXT_MIN pixels, which keeps digits and capitals 8 px tall
when a phone shows the board 400 px wide (issue 12). Owners are told apart by a number in their
token (1-4, N for the neutral player) as well as its colour; dice colours by a letter (R, W, Y),
the initials of the board's language in another language.
Victory points and characters show only to their own seat, and to everyone on the final board.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image

from engine.troyes import RULES
from engine.troyes.data import activities, board, characters, events
from engine.troyes.kinds import NEUTRAL, Colour, Phase
from engine.troyes.state import Die, TroyesState
from engine.troyes.text import colour_word
from engine.words import ENGLISH, N_, Words
from engine.words import words as words_in
from renderers import palette, shapes
from renderers import troyes_city as city
from renderers.kit import Canvas
from renderers.layout import Box
from renderers.palette import RGB
from renderers.text import clean_name, fit, font, pack
from renderers.text import width as text_width
from renderers.troyes_marks import (
    DIE,
    DIE_STYLES,
    GAP,
    NAME,
    STATUS,
    TEXT_MIN,
    TOKEN,
    letter,
    owner_mark,
    token,
)

WIDTH = 960
PAD = 14
TEXT_LEVELS = 3
"""Coverage levels of the board's text edges: none, half, full. Text is most of a board's bytes;
with these a board is three quarters of the bytes of fully antialiased text, and looks the same
at a phone's size (issue 33). Two levels (no antialiasing) save a tenth more but show jagged."""

PALETTE_MIXES = 30
"""The fixed palette (scripts/learn_palettes.py) holds the board's fills and the half-way mixes of
the 30 commonest pairs meeting at an edge: edges of shapes snap to three steps as text does."""

_PHASE_WORDS = {
    Phase.PLACEMENT: N_("SETUP"),
    Phase.COUNTER: N_("BLACK DICE"),
    Phase.ACTIONS: N_("ACTIONS"),
    Phase.OVER: N_("FINAL BOARD"),
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


def render(
    view: TroyesState, viewer: int | None, names: Sequence[str], *, language: str = "en"
) -> Image.Image:
    """The table as `viewer` (None: a spectator) sees it, with the players' display names, in `language`."""
    return draw(view, viewer, names, w=words_in(language)).image


def draw(view: TroyesState, viewer: int | None, names: Sequence[str], *, w: Words = ENGLISH) -> Canvas:
    """The board drawn on a canvas, which also records the text sizes used (the phone check)."""
    seen = _seen(view, viewer, names)
    mover = _to_move(view)
    status = _status_lines(view, viewer, seen, mover, w)
    chosen_lines = _chosen_lines(view, mover, seen, w)
    heights = (
        HEADER_H + STATUS_H * (len(status) - 1) + CHOSEN_H * len(chosen_lines),
        _players_height(view, seen, viewer, w),
        city.BUILDING_H,
        city.middle_height(view, WIDTH - 2 * PAD, w),
        city.cards_height(view),
    )
    height = PAD + sum(heights) + GAP * (len(heights) - 1) + PAD
    canvas = Canvas(WIDTH, height, text_levels=TEXT_LEVELS, words=w)
    rest = canvas.box.inset(PAD)
    header, rest = rest.take_top(heights[0], GAP)
    players, rest = rest.take_top(heights[1], GAP)
    buildings, rest = rest.take_top(heights[2], GAP)
    middle, rest = rest.take_top(heights[3], GAP)
    _header(canvas, header, view, status, chosen_lines, w)
    _players(canvas, players, view, viewer, seen, mover, w)
    for index, box in enumerate(buildings.columns(3, GAP)):
        city.building(canvas, box, view, index, w)
    city.cathedral(canvas, Box(middle.x, middle.y, city.CATHEDRAL_W, city.CATHEDRAL_H), view, w)
    city.event_queue(canvas, middle, view, w)
    city.cards(canvas, rest, view, w)
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


def _whose(name: str, dice: str, w: Words) -> str:
    """ "Bo's red 5 (bought)" ("Jess' red 5 (bought)")."""
    if name.endswith("s"):
        return w.gettext("{name}' {dice} (bought)", name=name, dice=dice)
    return w.gettext("{name}'s {dice} (bought)", name=name, dice=dice)


# -- header ----------------------------------------------------------------------------------

HEADER_H = 92
STATUS_H = 50
CHOSEN_H = 42


def _header(
    canvas: Canvas,
    box: Box,
    view: TroyesState,
    status: list[str],
    chosen_lines: list[str],
    w: Words = ENGLISH,
) -> None:
    canvas.text((box.x, box.y), _title(view, box.w, w), TEXT_MIN, fill=palette.TEXT_DIM, max_width=box.w)
    y = box.y + 42
    if view.phase is Phase.OVER:
        canvas.text((box.x, y), status[0], STATUS, fill=palette.ACTIVE, max_width=box.w)
        return
    if status:
        canvas.paste(shapes.arrow(34), box.x, y + 3)
    for line in status:
        canvas.text((box.x + 44, y), line, STATUS, max_width=box.w - 44)
        y += STATUS_H
    for line in chosen_lines:
        canvas.text((box.x + 44, y + 4), line, TEXT_MIN, fill=palette.ACTIVE, max_width=box.w - 44)
        y += CHOSEN_H


def _status_lines(
    view: TroyesState, viewer: int | None, seen: list[Seen], mover: int | None, w: Words = ENGLISH
) -> list[str]:
    """'Ana: dice for the Palace', or 'Ana:' and what she decides on two lines when one is too short."""
    if view.phase is Phase.OVER:
        return [_result_line(seen, w)]
    if mover is None:
        return []
    who = w.gettext("Your move") if mover == viewer else fit(seen[mover].name, font(STATUS), 320)
    doing = _doing(view, w)
    line = w.gettext("{who}: {doing}", who=who, doing=doing)
    if font(STATUS).getlength(line) <= WIDTH - 2 * PAD - 44:
        return [line]
    return [w.gettext("{who}:", who=who), doing]


def _title(view: TroyesState, room: int, w: Words = ENGLISH) -> str:
    """'TROYES · ROUND 2 OF 6 · ACTIONS · 14 OF 18 DICE LEFT', without 'TROYES' when that is too long."""
    if view.round:
        when = w.gettext("ROUND {round} OF {rounds}", round=view.round, rounds=view.rounds)
    else:
        when = w.ngettext("{count} ROUND", "{count} ROUNDS", view.rounds)
    parts = [when, w.gettext(_PHASE_WORDS[view.phase])]
    if _dice_out(view):
        parts.append(
            w.ngettext(
                "{left} OF {count} DIE LEFT", "{left} OF {count} DICE LEFT", view.rolled, left=len(view.dice)
            )
        )
    # Shorter where a language's words are long: without the game's name, then without the phase
    # (the status line below says what is being done); the last is cut if even that is too long.
    candidates = [[w.gettext("TROYES"), *parts], parts, [parts[0], *parts[2:]]]
    lines = [" · ".join(candidate) for candidate in candidates]
    return next((line for line in lines if font(TEXT_MIN).getlength(line) <= room), lines[-1])


def _chosen_lines(view: TroyesState, mover: int | None, seen: list[Seen], w: Words = ENGLISH) -> list[str]:
    """'with red 5, Bo's white 3 (bought)': the dice picked so far, on as many lines as they need."""
    chosen = _chosen_dice(view)
    if mover is None or view.phase is Phase.OVER or not chosen:
        return []
    words = [_die_words(view, die, mover, seen, w) for die in view.dice if die.id in chosen]
    if not words:
        return []
    parts = [f"{word}," for word in words[:-1]] + [words[-1]]
    parts[0] = w.gettext("with {dice}", dice=parts[0])
    return pack(parts, " ", font(TEXT_MIN), WIDTH - 2 * PAD - 44)


def _die_words(view: TroyesState, die: Die, mover: int, seen: list[Seen], w: Words = ENGLISH) -> str:
    """'red 5' for the mover's own die, "Bo's red 5 (bought)" for another district's."""
    words = w.gettext("{colour} {value}", colour=colour_word(die.colour.value, words=w), value=die.value)
    if die.owner == mover:
        return words
    if die.owner == NEUTRAL:
        return w.gettext("the neutral {dice} (bought)", dice=words)
    return _whose(fit(seen[die.owner].name, font(TEXT_MIN), 280), words, w)


def _result_line(seen: list[Seen], w: Words = ENGLISH) -> str:
    """'Ana wins with 31 VP' or 'Ana and Bo tie with 31 VP', names cut so the score stays in view."""
    winners = [s for s in seen if s.winner]
    best = max(s.vp or 0 for s in seen)
    each = 520 // max(1, len(winners))
    names = [fit(s.name, font(STATUS), each) for s in winners]
    if len(names) == 1:
        return w.ngettext("{name} wins with {count} VP", "{name} wins with {count} VP", best, name=names[0])
    return w.ngettext("{names} tie with {count} VP", "{names} tie with {count} VP", best, names=w.join(names))


_DOING = {
    "reroll": N_("re-roll a die"),
    "flip": N_("turn dice over"),
    "event_target": N_("choose an event"),
    "modifier": N_("use a cube on {target}?"),
    "dice": N_("dice for {target}"),
    "source": N_("a citizen for {target}"),
    "activations": N_("activations of {target}"),
    "archer": N_("the Archer's roll"),
    "event_cube": N_("place a cube on an event"),
    "continue": N_("go on with {target}?"),
    "end_turn": N_("end of the turn"),
}
"""What a step of the stack asks, by its kind."""


def _doing(view: TroyesState, w: Words = ENGLISH) -> str:
    """What the player to move is deciding, in a few words."""
    if view.phase is Phase.PLACEMENT:
        return w.gettext("place a starting citizen")
    if not view.stack:
        return w.gettext("take an action or pass")
    step = view.stack[-1]
    kind = step.kind.value
    if kind == "counter":
        if view.black:
            return w.gettext("counter the black {value}", value=view.black[0])
        return w.gettext("counter the black dice")
    if kind not in _DOING:
        return w.gettext("decide")
    return w.gettext(_DOING[kind], target=_target_words(view, step.target, w))


def _target_words(view: TroyesState, target: str, w: Words = ENGLISH) -> str:
    """An action's target as a reader names it: a card, a building, an event."""
    kind, _, index = target.partition(":")
    try:
        if kind == "card":
            return w.gettext(activities()[view.cards[int(index)].id].name)
        if kind == "building":
            return w.gettext("the {building}", building=w.gettext(board().buildings[int(index)].name))
        if kind == "event" and index:
            return w.gettext(events()[view.queue[int(index)].id].name)
    except (KeyError, IndexError, ValueError):
        pass
    known = {"cathedral": N_("the cathedral"), "agriculture": N_("agriculture"), "event": N_("an event")}
    return w.gettext(known.get(kind, N_("it")))


# -- players and their districts -------------------------------------------------------------

ROW_PAD = 10
LINE_H = 48
STAT_HEADS = (N_("Deniers"), N_("Influence"), N_("Supply"), N_("VP"))
STAT_GAP = 18
GUTTER = 34
"""Room left of each row for the arrow marking the player to move."""


STAT_MAX = 150
"""The widest a figure's column gets ("Influence" is 146 px): a longer head is cut, not the names."""


def _stat_widths(w: Words = ENGLISH) -> list[int]:
    """Each figure's column as wide as its head in the board's language (58 to STAT_MAX px)."""
    face = font(TEXT_MIN)
    return [min(max(round(face.getlength(w.gettext(head))), 58), STAT_MAX) for head in STAT_HEADS]


LINE_W = WIDTH - 2 * PAD - GUTTER - 16
"""The width of a player row's lines, right of the gutter."""


def _row_height(view: TroyesState, seat: int, shown: Seen, is_viewer: bool, w: Words = ENGLISH) -> int:
    extra = (1 if shown.characters else 0) + (1 if _tags_below(view, seat, shown, is_viewer, w) else 0)
    extra += max(0, len(_score_lines(view, seat, shown, is_viewer, w)) - 1)
    return 2 * ROW_PAD + 2 * LINE_H + 6 + extra * LINE_H


def _tags_width(view: TroyesState, seat: int, shown: Seen, is_viewer: bool, w: Words = ENGLISH) -> int:
    """How wide the row's tags are drawn, with their gaps."""
    return sum(Canvas.pill_width(text, TEXT_MIN) + 8 for text, _ in _tags(view, seat, is_viewer, shown, w))


def _tags_below(view: TroyesState, seat: int, shown: Seen, is_viewer: bool, w: Words = ENGLISH) -> bool:
    """Whether the tags need a line of their own, so that a big district keeps full-size dice."""
    tags = _tags_width(view, seat, shown, is_viewer, w)
    return not shown.score and tags + 12 + _district_width(view, seat, w=w) > LINE_W


def _score_lines(view: TroyesState, seat: int, shown: Seen, is_viewer: bool, w: Words = ENGLISH) -> list[str]:
    """The final score on as many lines as it needs beside the tags (none before the end)."""
    if not shown.score:
        return []
    room = LINE_W - _tags_width(view, seat, shown, is_viewer, w) - 12
    return pack(_score_parts(shown, w), " · ", font(TEXT_MIN), room)


_SCORE_WORDS = {
    "VP tokens": N_("tokens {vp}"),
    "Uncountered events with a cube": N_("events {vp}"),
    "Tradesmen spaces": N_("tradesmen {vp}"),
    "Cathedral levels missing": N_("cathedral {vp}"),
}
"""A final score line's short part ({vp} is a signed figure, "−2"), by engine.troyes.scoring's line."""


def _score_parts(shown: Seen, w: Words = ENGLISH) -> list[str]:
    """The final score in short parts; every dealt character scores for every player."""
    named = {card.name for card in characters().values()}
    parts = [
        w.gettext(_SCORE_WORDS[line], vp=_signed(vp))
        for line, vp in shown.score
        if line not in named and vp and line in _SCORE_WORDS
    ]
    by_characters = sum(vp for line, vp in shown.score if line in named)
    parts.append(w.gettext("characters {vp}", vp=_signed(by_characters)))
    return parts


def _signed(value: int) -> str:
    return f"−{-value}" if value < 0 else str(value)


def _players_height(view: TroyesState, seen: list[Seen], viewer: int | None, w: Words = ENGLISH) -> int:
    rows = sum(_row_height(view, seat, shown, seat == viewer, w) for seat, shown in enumerate(seen))
    neutral = GAP + 2 * ROW_PAD + LINE_H if _dice_out(view) else 0
    return 36 + rows + GAP * (len(seen) - 1) + neutral


def _dice_out(view: TroyesState) -> bool:
    """Whether the city square is in play (the phases with dice)."""
    return view.phase in (Phase.COUNTER, Phase.ACTIONS)


def _stat_columns(box: Box, w: Words = ENGLISH) -> list[Box]:
    """The right-aligned columns of the resource figures inside a row box."""
    columns: list[Box] = []
    right = box.right - 16
    for width in reversed(_stat_widths(w)):
        columns.insert(0, Box(right - width, box.y, width, box.h))
        right -= width + STAT_GAP
    return columns


def _players(
    canvas: Canvas,
    box: Box,
    view: TroyesState,
    viewer: int | None,
    seen: list[Seen],
    mover: int | None,
    w: Words = ENGLISH,
) -> None:
    head, rest = box.take_top(36)
    columns = _stat_columns(head, w)
    for column, title in zip(columns, STAT_HEADS, strict=True):
        canvas.text(
            (column.right, column.y),
            w.gettext(title),
            TEXT_MIN,
            fill=palette.TEXT_DIM,
            anchor="ra",
            max_width=column.w + 1,  # the column is the head's width rounded
        )
    left = head.x + GUTTER
    room = columns[0].x - 14 - left
    title = w.gettext("Players and their dice") if _dice_out(view) else ""
    if not title or font(TEXT_MIN).getlength(title) > room:
        title = w.gettext("Players")
    canvas.text((left, head.y), title, TEXT_MIN, fill=palette.TEXT_DIM, max_width=room)
    chosen = _chosen_dice(view)
    for seat, shown in enumerate(seen):
        row, rest = rest.take_top(_row_height(view, seat, shown, seat == viewer, w), GAP)
        _player_row(canvas, row, view, seat, shown, seat == viewer, seat == mover, chosen, w)
    if _dice_out(view):
        _neutral_row(canvas, rest, view, chosen, w)


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
    w: Words = ENGLISH,
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
    owner_mark(canvas, x + TOKEN // 2, mid, seat)
    columns = _stat_columns(box, w)
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
    below = _tags_below(view, seat, shown, is_viewer, w)
    right = line.right
    for text, fill in reversed(_tags(view, seat, is_viewer, shown, w)):
        width = canvas.pill_width(text, TEXT_MIN)
        canvas.pill(right - width, line.y + 3 + (LINE_H if below else 0), text, TEXT_MIN, fill)
        right -= width + 8
    if below:
        right = line.right
    score = _score_lines(view, seat, shown, is_viewer, w)
    if score:
        for index, words in enumerate(score):
            canvas.text(
                (line.x, line.y + line.h // 2 + index * LINE_H),
                words,
                TEXT_MIN,
                anchor="lm",
                max_width=right - 12 - line.x,
            )
    else:
        _district(canvas, Box(line.x, line.y, right - 12 - line.x, line.h), view, seat, chosen, w)
    if shown.characters:
        names = ", ".join(_character_name(c, w) for c in shown.characters)
        said = w.ngettext("Character: {names}", "Characters: {names}", len(shown.characters), names=names)
        canvas.text(
            (x, line.bottom + LINE_H // 2 + (LINE_H if below else 0) + max(0, len(score) - 1) * LINE_H),
            said,
            TEXT_MIN,
            fill=palette.TEXT_DIM,
            anchor="lm",
            max_width=box.right - 16 - x,
        )


def _character_name(card_id: str, w: Words = ENGLISH) -> str:
    card = characters().get(card_id)
    return "?" if card is None else w.gettext(card.name)


def _tags(
    view: TroyesState, seat: int, is_viewer: bool, shown: Seen, w: Words = ENGLISH
) -> list[tuple[str, RGB]]:
    tags: list[tuple[str, RGB]] = []
    if shown.winner:
        tags.append((w.gettext("WINNER"), palette.STAR))
    if view.phase is not Phase.OVER:
        player = view.players[seat]
        if player.passed:
            tags.append((w.gettext("PASSED +{deniers}", deniers=player.pass_money), palette.TEXT_DIM))
        if seat == view.start and view.round:
            tags.append((w.gettext("START"), palette.PANEL_EDGE))
    if is_viewer:
        tags.append((w.gettext("YOU"), palette.GOOD))
    return tags


def _neutral_row(canvas: Canvas, box: Box, view: TroyesState, chosen: set[int], w: Words = ENGLISH) -> None:
    canvas.panel(box)
    x = box.x + GUTTER
    mid = box.y + box.h // 2
    canvas.paste_centred(token(TOKEN, NEUTRAL), x + TOKEN // 2, mid)
    owner_mark(canvas, x + TOKEN // 2, mid, NEUTRAL)
    used = canvas.text((x + TOKEN + 12, mid), w.gettext("Neutral"), NAME, fill=palette.TEXT_DIM, anchor="lm")
    left = x + TOKEN + 12 + round(used) + 24
    _district(canvas, Box(left, mid - LINE_H // 2, box.right - 16 - left, LINE_H), view, NEUTRAL, chosen, w)


_DIE_GAP = 8
_GROUP_GAP = 14


def _groups(view: TroyesState, owner: int) -> list[tuple[Colour, list[Die]]]:
    """An owner's dice by colour (red, white, yellow), highest first; colours without dice left out."""
    groups = [
        (colour, sorted((d for d in view.dice if d.owner == owner and d.colour is colour), key=_value_first))
        for colour in (Colour.RED, Colour.WHITE, Colour.YELLOW)
    ]
    return [(colour, dice) for colour, dice in groups if dice]


def _letter_width(colour: Colour, w: Words) -> int:
    return round(text_width(letter(colour, w), font(TEXT_MIN))) + 10


def _district_width(view: TroyesState, owner: int, size: int = DIE, *, w: Words = ENGLISH) -> int:
    """How wide an owner's dice are drawn at `size`."""
    return sum(
        _letter_width(colour, w) + len(dice) * (size + _DIE_GAP) + _GROUP_GAP
        for colour, dice in _groups(view, owner)
    )


def _district(
    canvas: Canvas, box: Box, view: TroyesState, owner: int, chosen: set[int], w: Words = ENGLISH
) -> None:
    """An owner's dice on the city square, by colour (R, W, Y letters), highest first.

    A player owns at most 12 citizens, so a district has at most 12 dice: they fit a row's line
    at full size (the tags move below when they would not).
    """
    groups = _groups(view, owner)
    if not groups:
        words = w.gettext("no dice") if _dice_out(view) else ""
        if view.phase is Phase.PLACEMENT and owner != NEUTRAL:
            left = view.placement_order.count(owner)
            words = (
                w.ngettext("{count} starting citizen to place", "{count} starting citizens to place", left)
                if left
                else w.gettext("all placed")
            )
        canvas.text(
            (box.x, box.y + box.h // 2), words, TEXT_MIN, fill=palette.TEXT_DIM, anchor="lm", max_width=box.w
        )
        return
    x = box.x
    cy = box.y + box.h // 2
    for colour, dice in groups:
        canvas.text((x, cy), letter(colour, w), TEXT_MIN, fill=palette.TEXT_DIM, anchor="lm")
        x += _letter_width(colour, w)
        for die in dice:
            if x + DIE > box.right:
                canvas.text((x, cy), "…", TEXT_MIN, anchor="lm")
                return
            _die(canvas, x, cy - DIE // 2, DIE, die, die.id in chosen)
            x += DIE + _DIE_GAP
        x += _GROUP_GAP


def _value_first(die: Die) -> tuple[int, int]:
    return (-die.value, die.id)


def _die(canvas: Canvas, x: int, y: int, size: int, die: Die, chosen: bool) -> None:
    if chosen:
        # Picked for the decision under way: an amber frame, so it reads without colour too.
        canvas.draw.rounded_rectangle(
            (x - 5, y - 5, x + size + 4, y + size + 4), radius=10, outline=palette.ACTIVE, width=4
        )
    canvas.numbered_die(x, y, size, die.value, DIE_STYLES[die.colour])
