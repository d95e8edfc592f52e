"""Replays: the boards of a game turn by turn, from its record, as still frames or one animated GIF.

A turn starts each time the player to move changes (the game's renderer may refine that with
`turn_key(state)`: Diced Tomatoes counts each turn of a solo player, Buttons keeps the answers
to one roll together), and the game's end is the last turn. Moves taken back are left out:
the replay shows the game as it was played to the end. Every frame is the spectator's view,
so hidden information (Troyes' victory points and characters) appears only on the final
board, where the game itself reveals it.

GIF rather than WebP (`bench/bench_replay.py --webp`, the same 98 frames of a 4-player Troyes
game): GIF on the game's fixed 256-colour palette (the one its boards use, so the colours
are the same) is 2.6 MB, encoded within a 3 s build; animated WebP is 8.5 MB lossless at
method 0, 4.4 MB lossy, or 1.2 MB lossless at method 4 but 8 s to encode alone, which with
the drawing passes the 10 s goal. Discord plays a GIF inline everywhere.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image

import renderers
from engine.core import UNDO, Record, Rules, advance
from engine.games import get_rules
from renderers import image_file, palette
from renderers.text import has_colour_emoji

FRAME_MS = 1200
"""How long each turn stays on screen."""
LAST_FRAME_MS = 6000
"""The final board stays longer before the animation starts again."""


@dataclass(frozen=True, slots=True)
class Turn:
    """The board at the start of one turn, as a spectator sees it."""

    number: int
    """1 for the first turn; the final board is the last number."""
    version: int
    """The state's version (how many actions the game had accepted)."""
    seats: tuple[int, ...]
    """The seats to move at the start of the turn (empty on the final board)."""
    view: Any
    """The spectator's view of the state, ready for `renderers.render`."""
    final: bool
    """Whether this is the board after the game ended (or stopped)."""


@dataclass(frozen=True, slots=True)
class Animation:
    """An animated replay: the image file and what it holds."""

    data: bytes
    frames: int
    size: tuple[int, int]
    format: str = "GIF"
    filename: str = "replay.gif"


def turns(record: Record) -> list[Turn]:
    """The board at the start of every turn of `record`, the final board last."""
    rules = get_rules(record.game)
    states = _played_line(rules, record)
    key = _turn_key(rules)
    found: list[Turn] = []
    previous: Hashable = object()
    for state in states:
        current = key(state)
        if current != previous:
            seats = tuple(sorted({p.seat for p in rules.prompts(state)}))
            found.append(Turn(len(found) + 1, state.version, seats, rules.view(state, None), False))
            previous = current
    last = found[-1]
    found[-1] = Turn(last.number, last.version, last.seats, last.view, final=True)
    return found


def _played_line(rules: Rules[Any], record: Record) -> list[Any]:
    """Every state of the game after each move that was not taken back, setup first."""
    history = [rules.setup(record.seats, record.options, record.seed)]
    line = [history[0]]
    for move in record.moves:
        history, _ = advance(rules, history, move.seat, move.action)
        if move.action == UNDO:
            line.pop()
        else:
            line.append(history[-1])
    return line


def _turn_key(rules: Rules[Any]) -> Callable[[Any], Hashable]:
    """The game's `turn_key` (from its renderer) or the seats to move, with the end as its own turn."""
    own: Callable[[Any], Hashable] | None = getattr(renderers.module(rules.id), "turn_key", None)

    def key(state: Any) -> Hashable:
        over = rules.outcome(state) is not None or not rules.prompts(state)
        if over:
            return "over"
        if own is not None:
            return own(state)
        return tuple(sorted({p.seat for p in rules.prompts(state)}))

    return key


def frame(game: str, turn: Turn, names: Sequence[str], language: str = "en") -> Image.Image:
    """One turn's board as a Pillow image (spectator's view), its words in `language`."""
    return renderers.render(game, turn.view, None, names, language=language)


def turn_file(game: str, turn: Turn, names: Sequence[str], language: str = "en") -> bytes:
    """One turn's board as an image file's bytes, for stepping through a game turn by turn. Blocking."""
    image = frame(game, turn, names, language)
    return renderers.encode(game, image, emoji=has_colour_emoji(names))


def animation(record: Record, names: Sequence[str], language: str = "en") -> Animation:
    """The whole game as an animated GIF, one frame per turn. Blocking: call it in a worker thread."""
    return animation_of(record.game, turns(record), names, language)


def animation_of(game: str, played: Sequence[Turn], names: Sequence[str], language: str = "en") -> Animation:
    """The animated GIF of turns already replayed (`turns`). Blocking: call it in a worker."""
    frames = frames_of(game, played, names, language)
    durations = [FRAME_MS] * (len(frames) - 1) + [LAST_FRAME_MS]
    buffer = io.BytesIO()
    frames[0].save(buffer, format="GIF", save_all=True, append_images=frames[1:], duration=durations, loop=0)
    return Animation(buffer.getvalue(), len(frames), frames[0].size)


def frames_of(
    game: str, played: Sequence[Turn], names: Sequence[str], language: str = "en"
) -> list[Image.Image]:
    """Every turn's board on the game's palette, all padded to the size of the largest."""
    fixed = image_file.game_palette(game)
    indexed = [_indexed(frame(game, turn, names, language), fixed) for turn in played]
    width = max(image.width for image in indexed)
    height = max(image.height for image in indexed)
    # An animation has one canvas size: boards that grow (more lines, more cards) set it, the
    # rest are padded with the table's background.
    return [_padded(image, width, height) for image in indexed]


def _indexed(image: Image.Image, fixed: Image.Image | None) -> Image.Image:
    """The board on the game's fixed palette (or an adaptive one for a game without it)."""
    rgb = image.convert("RGB") if image.mode != "RGB" else image
    if fixed is not None:
        return rgb.quantize(palette=fixed, dither=Image.Dither.NONE)
    return rgb.quantize(colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)


def _padded(image: Image.Image, width: int, height: int) -> Image.Image:
    """`image` at the top left of a `width` x `height` canvas filled with the background colour."""
    if image.size == (width, height):
        return image
    background = Image.new("RGB", (1, 1), palette.BACKGROUND).quantize(
        palette=image, dither=Image.Dither.NONE
    )
    canvas = Image.new("P", (width, height), background.getpixel((0, 0)))
    canvas.putpalette(image.getpalette() or [])
    canvas.paste(image, (0, 0))
    return canvas
