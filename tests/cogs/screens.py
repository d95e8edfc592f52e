"""What a player reads on one screen of a turn menu: its buttons and select options, and how many."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cogs.platform.ids import parse, parse_value
from cogs.platform.layout import SelectSpec


@dataclass(frozen=True)
class Item:
    """A button, or an option of a select (`select`: the select's row)."""

    ref: Any
    label: str
    select: int | None


def screen_items(rows: list[Any], table_id: int = 1) -> list[Item]:
    """Every clickable thing of a screen, with what it refers to."""
    found = []
    for slot, row in enumerate(rows):
        if isinstance(row, SelectSpec):
            pick = parse(row.custom_id)
            assert pick is not None
            found += [Item(parse_value(table_id, pick.version, o.value), o.label, slot) for o in row.options]
        else:
            found += [Item(parse(b.custom_id), b.label, None) for b in row]
    return found


def reads(screen: list[Item], used: Item) -> int:
    """Components read: buttons, closed selects as one, the options of the select clicked in."""
    buttons = sum(1 for i in screen if i.select is None)
    selects = {i.select for i in screen if i.select is not None}
    opened = sum(1 for i in screen if i.select is not None and i.select == used.select)
    return buttons + opened + len(selects - {used.select})
