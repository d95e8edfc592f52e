"""Board images: `render_png(game_id, view, viewer, names)` draws a game's view as PNG bytes."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from importlib import import_module
from types import ModuleType
from typing import Any

from PIL import Image

from renderers import png

Renderer = Callable[..., Image.Image]

_MODULES = {"tomatoes": "renderers.tomatoes", "buttons": "renderers.buttons", "troyes": "renderers.troyes"}
"""Game id -> the module whose `render(view, viewer, names)` draws it (imported on first use)."""


class NoRenderer(LookupError):
    """The game has no board image (its boards go out as text only)."""


def has_renderer(game_id: str) -> bool:
    """Whether `game_id` has a board image."""
    return game_id in _MODULES


def _module(game_id: str) -> ModuleType:
    try:
        return import_module(_MODULES[game_id])
    except KeyError:
        raise NoRenderer(f"no board image for the game {game_id!r}") from None


def renderer(game_id: str) -> Renderer:
    """The function drawing `game_id`'s view as an image."""
    draw: Renderer = _module(game_id).render
    return draw


def encode(game_id: str, image: Image.Image) -> bytes:
    """A board of `game_id` as PNG bytes, at the zlib level its renderer asks for (`PNG_LEVEL`)."""
    level: int = getattr(_module(game_id), "PNG_LEVEL", png.LEVEL)
    return png.encode(image, level=level)


def render(game_id: str, view: Any, viewer: int | None, names: Sequence[str], **kw: Any) -> Image.Image:
    """`view` of `game_id` as `viewer` (None: a spectator) sees it, as a Pillow image."""
    return renderer(game_id)(view, viewer, names, **kw)


def render_png(game_id: str, view: Any, viewer: int | None, names: Sequence[str], **kw: Any) -> bytes:
    """`view` of `game_id` drawn for `viewer` as PNG bytes; raises NoRenderer for a game without one.

    Extra keywords go to the game's renderer (Buttons takes `legal_cells`). Blocking: call it
    in a worker thread.
    """
    return encode(game_id, render(game_id, view, viewer, names, **kw))
