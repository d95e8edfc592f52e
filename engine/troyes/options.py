"""The table options of Troyes."""

from __future__ import annotations

from engine.core import OptionSpec

OPTION_SPECS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "tiebreak",
        "Tie-break",
        False,
        help="tied players are ranked by deniers, then influence, not sharing the win",
        short="tiebreak",
    ),
)
"""The options a host may set, in the order `/play troyes` offers them."""
