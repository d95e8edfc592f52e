"""The table options of Troyes."""

from __future__ import annotations

from engine.core import OptionSpec
from engine.words import N_

OPTION_SPECS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "tiebreak",
        N_("Tie-break"),
        False,
        help=N_("tied players are ranked by deniers, then influence, not sharing the win"),
        short="tiebreak",
    ),
)
"""The options a host may set, in the order `/play troyes` offers them."""
