"""Diced Tomatoes turn menus: what a player reads and clicks, over whole games through the menu builder.

Run by hand: .venv/bin/python bench/bench_tomatoes_menu.py [--games 24] [--players 2 3 4]

Every seat is a person who plays what the normal bot would, through the components that
`cogs.platform.layout` builds for the board (`main_rows`, then `group_rows` when a group must
be opened, "More" when the option is on another page). A click is one interaction: a button,
a choice in a select, a group opened, a page turned. As the table service does, a step that
leaves the player who just moved a single option is played for them (no click).

Figures:
- components to read per screen: the buttons of a screen plus, for a select, its options when
  the wanted choice is in it (else the select is one component: its placeholder); max and mean
  over the screens on the way to placing a die, and over the screens of every decision (karma
  actions, rolls, end of turn too);
- per placement: the same summed over the screens one placement takes;
- the longest label (buttons and select options) shown on any screen;
- clicks per turn (mean), and per placement.

A choice that the menu shows once for several equal options (two identical dice, two empty
tokens of one player) is clicked where it is shown, and that option is played.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cogs.games import tomatoes
from cogs.platform import layout
from cogs.platform.ids import ActRef, GroupRef, MainRef
from engine.core import Prompt
from engine.tomatoes import RULES, TomatoState
from tests.cogs.screens import Item, reads, screen_items

TABLE = 1
NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"]
UI: Any = tomatoes.UI
"""The menu mapping measured (--group-by builds another, where the code has that choice)."""


@dataclass
class Tally:
    """What the menus asked of the players."""

    place_screens: list[int] = field(default_factory=list)
    all_screens: list[int] = field(default_factory=list)
    per_placement: list[int] = field(default_factory=list)
    placement_clicks: list[int] = field(default_factory=list)
    clicks: int = 0
    by_kind: Counter[str] = field(default_factory=Counter)
    turns: int = 0
    longest: str = ""
    long_labels: int = 0
    labels: int = 0


def note_labels(tally: Tally, screen: list[Item], limit: int) -> None:
    """Keep the longest label seen and count those over `limit` characters."""
    for item in screen:
        tally.labels += 1
        if len(item.label) > limit:
            tally.long_labels += 1
        if len(item.label) > len(tally.longest):
            tally.longest = item.label


def same_choice(view: TomatoState, prompt: Prompt, index: int) -> set[int]:
    """Options the menu may show as one: the same label as option `index`."""
    labels = [UI.choice(view, prompt, action, NAMES).single_label for action in prompt.options]
    return {i for i, label in enumerate(labels) if label == labels[index]}


def click_through(
    state: TomatoState, prompt: Prompt, index: int, tally: Tally, limit: int
) -> tuple[int, int]:
    """Reach option `index` through the menus; return (the option clicked, clicks), noting what was read."""
    view = RULES.view(state, None)
    names = NAMES[: len(state.players)]
    undo = [prompt.seat] if RULES.can_undo(state, prompt.seat) else []
    wanted = same_choice(view, prompt, index)
    groups = layout.groups_of(UI, view, prompt, names)
    group = next(g for g in groups if any(i in wanted for i, _ in g.members))
    rows = layout.main_rows(TABLE, state.version, UI, view, [prompt], names, undo)
    read = 0
    screens: list[int] = []
    in_group = False
    for clicks in range(1, 21):
        screen = screen_items(rows, TABLE)
        note_labels(tally, screen, limit)
        hit = next((it for it in screen if isinstance(it.ref, ActRef) and it.ref.index == index), None)
        if hit is None:
            hit = next((it for it in screen if isinstance(it.ref, ActRef) and it.ref.index in wanted), None)
        more = next((it for it in screen if it.label == "More"), None)
        opens = (it for it in screen if isinstance(it.ref, GroupRef) and it.ref.group == group.number)
        # In the group already, its pages turn with "More"; on the first step the group opens.
        step = hit or (more if in_group else next(opens, None)) or more
        assert step is not None, f"no way to option {index}"
        counted = reads(screen, step)
        read += counted
        screens.append(counted)
        tally.all_screens.append(counted)
        if hit is not None:
            if prompt.options[hit.ref.index].kind == "place":
                tally.place_screens += screens
                tally.per_placement.append(read)
                tally.placement_clicks.append(clicks)
            return hit.ref.index, clicks
        ref = step.ref
        in_group = isinstance(ref, GroupRef)
        if isinstance(ref, GroupRef):
            rows = layout.group_rows(TABLE, state.version, groups[ref.group], ref.page)
        elif isinstance(ref, MainRef):
            rows = layout.main_rows(TABLE, state.version, UI, view, [prompt], names, undo, ref.page)
        else:
            raise AssertionError(f"unexpected step {step}")
    raise AssertionError(f"option {index} not reachable")


def play(players: int, seed: int, tally: Tally, limit: int) -> None:
    """One game, every seat clicking what the normal bot plays."""
    state = RULES.setup(players, {}, seed)
    mover: int | None = None
    while RULES.outcome(state) is None:
        (prompt,) = RULES.prompts(state)
        action = RULES.bot_action(state, prompt, "normal")
        if prompt.seat == mover and len(prompt.options) == 1:
            index, clicks = 0, 0  # the service plays a forced step of the player who just moved
        else:
            index, clicks = click_through(state, prompt, prompt.options.index(action), tally, limit)
        tally.clicks += clicks
        tally.by_kind[prompt.options[index].kind] += clicks
        step = RULES.apply(state, prompt.seat, prompt.options[index])
        tally.turns += sum(1 for e in step.events if e.kind == "turn")
        mover, state = prompt.seat, step.state


def main() -> int:
    """Play the games and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=24, help="games in all, spread over the player counts")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    parser.add_argument("--limit", type=int, default=40, help="labels longer than this are counted")
    parser.add_argument("--group-by", choices=("die", "target"), help="the menu's grouping (new code only)")
    args = parser.parse_args()
    global UI
    if args.group_by:
        UI = tomatoes.TomatoesUI(args.group_by)  # type: ignore[call-arg]
    tally = Tally()
    for game in range(args.games):
        play(args.players[game % len(args.players)], game, tally, args.limit)
    place, every = tally.place_screens, tally.all_screens
    print(f"{args.games} games, players {args.players}, default options, normal-bot choices")
    print(
        f"components to read per screen to place a die: max {max(place)}, mean {statistics.mean(place):.2f}"
    )
    print(
        f"components to read per screen (all decisions): max {max(every)}, mean {statistics.mean(every):.2f}"
    )
    per = tally.per_placement
    print(f"components read per placement (screens summed): max {max(per)}, mean {statistics.mean(per):.2f}")
    print(f"longest label: {len(tally.longest)} chars ({tally.longest!r})")
    print(f"labels over {args.limit} chars: {tally.long_labels} of {tally.labels} shown")
    print(f"clicks per placement: mean {statistics.mean(tally.placement_clicks):.2f}")
    turns = tally.turns
    kinds = ", ".join(f"{kind} {count / turns:.2f}" for kind, count in tally.by_kind.most_common())
    print(f"clicks per turn by what they played: {kinds}")
    print(f"clicks per turn: mean {tally.clicks / turns:.2f} ({tally.clicks} clicks, {turns} turns)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
