"""Board images: `render_file(game_id, view, viewer, names)` draws a game's view as an image file's bytes.

A game's renderer module is the one its registration names (engine.games: `Game.renderer`,
renderers.<id> by convention); a game registered with none has no board image.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from importlib import import_module
from types import ModuleType
from typing import Any

from PIL import Image

from engine.games import GAMES
from renderers import image_file
from renderers.text import has_colour_emoji

Renderer = Callable[..., Image.Image]


class NoRenderer(LookupError):
    """The game has no board image (its boards go out as text only)."""


def has_renderer(game_id: str) -> bool:
    """Whether `game_id` has a board image."""
    game = GAMES.get(game_id)
    return game is not None and game.renderer is not None


def _module(game_id: str) -> ModuleType:
    game = GAMES.get(game_id)
    if game is None or game.renderer is None:
        raise NoRenderer(f"no board image for the game {game_id!r}")
    return import_module(game.renderer)


def module(game_id: str) -> ModuleType:
    """The renderer module of `game_id`: its `render`, and its optional `turn_key`."""
    return _module(game_id)


def renderer(game_id: str) -> Renderer:
    """The function drawing `game_id`'s view as an image."""
    draw: Renderer = _module(game_id).render
    return draw


def encode(game_id: str, image: Image.Image, *, emoji: bool = False) -> bytes:
    """A board of `game_id` as lossless WebP bytes, on the game's fixed palette (if learnt).

    A board with colour emoji (`emoji`) learns its own palette: the fixed one, learnt on boards
    without them, would turn a skin tone olive.
    """
    return image_file.encode(image, palette=None if emoji else image_file.game_palette(game_id))


def render(game_id: str, view: Any, viewer: int | None, names: Sequence[str], **kw: Any) -> Image.Image:
    """`view` of `game_id` as `viewer` (None: a spectator) sees it, as a Pillow image."""
    return renderer(game_id)(view, viewer, names, **kw)


def render_file(game_id: str, view: Any, viewer: int | None, names: Sequence[str], **kw: Any) -> bytes:
    """`view` of `game_id` drawn for `viewer` as an image file's bytes; raises NoRenderer for a game without
    one.

    Extra keywords go to the game's renderer (Buttons takes `legal_cells`). Blocking: call it
    in a worker thread.
    """
    return encode(game_id, render(game_id, view, viewer, names, **kw), emoji=has_colour_emoji(names))
