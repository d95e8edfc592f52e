"""The table options of Buttons."""

from __future__ import annotations

from engine.core import OptionSpec
from engine.words import N_

OPTION_SPECS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "two_dice_2p",
        N_("Two dice per exit (2 players)"),
        False,
        help=N_("opting out or busting takes two plain dice, not one"),
        short="two_dice",
    ),
)
"""The options a host may set, in the order `/play buttons` offers them."""
