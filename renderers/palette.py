"""The colours every board uses: a dark slate table that also reads on light clients."""

from __future__ import annotations

RGB = tuple[int, int, int]

# The table: a mid-dark slate, so the image is neither a black hole on a light client
# nor a glare on a dark one; panels are one step lighter for grouping.
BACKGROUND: RGB = (34, 38, 46)
PANEL: RGB = (48, 53, 64)
PANEL_EDGE: RGB = (70, 77, 92)
PANEL_SUNK: RGB = (38, 42, 51)
ACTIVE: RGB = (255, 196, 46)
"""Amber: the player to move (a frame and a tag, never colour alone)."""
ACTIVE_PANEL: RGB = (66, 60, 44)

TEXT: RGB = (240, 242, 246)
TEXT_DIM: RGB = (164, 171, 186)
TEXT_DARK: RGB = (24, 26, 32)

STAR: RGB = (255, 206, 58)
STAR_EDGE: RGB = (150, 104, 0)
HEART: RGB = (236, 84, 122)
HEART_EDGE: RGB = (140, 30, 64)
LEAF: RGB = (92, 190, 96)
LEAF_DARK: RGB = (38, 110, 52)
TOMATO: RGB = (226, 60, 48)
TOMATO_DIM: RGB = (96, 62, 62)
WARNING: RGB = (255, 120, 90)
GOOD: RGB = (110, 214, 140)

# Dice of Diced Tomatoes. Red and black are the pair protanopes confuse, so the dice also
# differ by pip shape and outline (see renderers/dice.py).
DIE_RED: RGB = (214, 40, 52)
DIE_BLACK: RGB = (22, 22, 26)
DIE_GOLD: RGB = (246, 190, 30)
PIP_LIGHT: RGB = (250, 250, 250)
PIP_DARK: RGB = (30, 24, 10)
DIE_EDGE_LIGHT: RGB = (225, 228, 236)
DIE_EDGE_GOLD: RGB = (120, 80, 0)

# The four Buttons colours, from the Okabe-Ito set that stays distinct under the common
# colour-vision deficiencies; the board prints the colour's letter in every cell as well.
BUTTON_RED: RGB = (213, 94, 0)
BUTTON_YELLOW: RGB = (240, 228, 66)
BUTTON_GREEN: RGB = (0, 158, 115)
BUTTON_BLUE: RGB = (86, 150, 230)
BUTTON_FACE: RGB = (248, 244, 232)
BUTTON_EDGE: RGB = (40, 36, 44)
TARGET: RGB = (255, 255, 255)
"""The outline of a cell the open roll lets a player use."""
WHITE_DIE: RGB = (246, 246, 240)


def mix(a: RGB, b: RGB, t: float) -> RGB:
    """The colour a fraction `t` of the way from `a` to `b`."""
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


def ink_on(fill: RGB) -> RGB:
    """Dark or light text, whichever reads better on `fill` (WCAG relative luminance)."""

    def channel(c: int) -> float:
        s = c / 255
        return s / 12.92 if s <= 0.03928 else ((s + 0.055) / 1.055) ** 2.4

    luminance = 0.2126 * channel(fill[0]) + 0.7152 * channel(fill[1]) + 0.0722 * channel(fill[2])
    return TEXT_DARK if luminance > 0.22 else TEXT
