"""The table options of Diced Tomatoes: the three BGA variants and the older rule versions."""

from __future__ import annotations

from engine.core import OptionSpec, Scalar
from engine.tomatoes.state import TableOptions
from engine.words import N_

OPTION_SPECS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "golden_hybrid",
        N_("Sunny Golden Hybrid"),
        True,
        help=N_("one gold die per player; each adds 1 to the vine it is on"),
        short="golden",
    ),
    OptionSpec(
        "dicey_rules",
        N_("Dicey Tomato Rules"),
        True,
        help=N_("a harvest matching its slot is topped up and earns a golden star"),
        short="dicey",
    ),
    OptionSpec(
        "karma_overload",
        N_("Karma Overload"),
        True,
        help=N_("completing a vine earns its value in karma, plus karma bits"),
        short="karma_overload",
    ),
    OptionSpec(
        "pick_colours",
        N_("Pick dice colours"),
        False,
        help=N_("the player to roll picks the colours of the dice taken"),
        short="pick_colours",
    ),
    OptionSpec(
        "match_total",
        N_("Slot match total"),
        7,
        (7, 6),
        help=N_("What a matched slot is worth in total: 7 (latest rules) or 6 (older rules)."),
    ),
    OptionSpec(
        "karma_bits",
        N_("Karma bits"),
        True,
        help=N_("With Karma Overload: a bit per die placed on opponents' vines, 3 bits make 1 karma."),
    ),
    OptionSpec(
        "bits_for_passing",
        N_("Karma bits for passed dice"),
        True,
        help=N_("A karma bit also for each die passed to the next player (rules of October 2021 on)."),
    ),
    OptionSpec(
        "turn_karma_cap",
        N_("Karma cap during your turn"),
        12,
        (12, 6),
        help=N_("Karma may reach 12 during your own turn, cut to 6 at its end (6: the older rules)."),
    ),
    OptionSpec(
        "unfinished_vines",
        N_("Unfinished vines"),
        "red_dice",
        ("red_dice", "three_dice_vines"),
        help=N_("End scoring: 1 point per 3 red dice on your vines, or 1 per vine of 3 dice (older)."),
    ),
    OptionSpec(
        "first_to_six_bonus",
        N_("First to six tomatoes"),
        2,
        (2, 3),
        help=N_("Points for harvesting a 6th tomato first (the printed game gave 3)."),
    ),
    OptionSpec(
        "clean_target",
        N_("Clean the vine targets"),
        "any",
        ("any", "own"),
        help=N_("Whether the 3-karma clean may target any player's vine or only your own."),
    ),
    OptionSpec(
        "negative_harvest",
        N_("Harvests worth 0 or less"),
        "allow",
        ("allow", "floor_zero"),
        help=N_("A harvest worth 0 or less scores its value, or 0."),
    ),
    OptionSpec(
        "end_step_karma",
        N_("Karma at the end of the turn"),
        True,
        help=N_("Karma earned for passed dice may be spent before the turn ends (off: tables begun before)."),
    ),
)


def table_options(resolved: dict[str, Scalar]) -> TableOptions:
    """Build the state's TableOptions from resolved (validated, defaulted) option values."""

    def flag(key: str) -> bool:
        return bool(resolved[key])

    def number(key: str) -> int:
        value = resolved[key]
        assert isinstance(value, int)
        return value

    return TableOptions(
        golden_hybrid=flag("golden_hybrid"),
        dicey_rules=flag("dicey_rules"),
        karma_overload=flag("karma_overload"),
        pick_colours=flag("pick_colours"),
        match_total=number("match_total"),
        karma_bits=flag("karma_bits"),
        bits_for_passing=flag("bits_for_passing"),
        turn_karma_cap=number("turn_karma_cap"),
        unfinished_vines=str(resolved["unfinished_vines"]),
        first_to_six_bonus=number("first_to_six_bonus"),
        clean_target=str(resolved["clean_target"]),
        negative_harvest=str(resolved["negative_harvest"]),
        end_step_karma=flag("end_step_karma"),
    )
