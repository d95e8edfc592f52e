"""Lay a turn's options out as Discord components, within Discord's limits.

Pure: produces specs (no discord import), so the limits can be checked on every prompt of
random games; `cogs.platform.views` turns the specs into discord.ui items.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from cogs.games.base import Choice, GameUI, Tone
from cogs.platform.ids import ActRef, GroupRef, MainRef, MineRef, PickRef, UndoRef
from engine.core import Prompt
from engine.words import ENGLISH, Words

MAX_ROWS = 5
"""Discord: at most 5 action rows per message."""
MAX_BUTTONS_PER_ROW = 5
"""Discord: at most 5 buttons per row (a select fills a whole row)."""
MAX_SELECT_OPTIONS = 25
"""Discord: at most 25 options per select menu."""
MAX_BUTTON_LABEL = 80
"""Discord: button labels are at most 80 characters."""
MAX_OPTION_TEXT = 100
"""Discord: select option labels, values and descriptions are at most 100 characters."""
MAX_PLACEHOLDER = 150
"""Discord: a select's placeholder is at most 150 characters."""
BUTTON_PAGE = (MAX_ROWS - 1) * MAX_BUTTONS_PER_ROW
"""Choices shown as buttons when they fit above the control row."""
SELECT_PAGE = (MAX_ROWS - 1) * MAX_SELECT_OPTIONS
"""Choices per page when they are shown as selects (4 selects above the control row)."""


@dataclass(frozen=True, slots=True)
class ButtonSpec:
    """One button."""

    custom_id: str
    label: str
    tone: Tone = Tone.NORMAL
    emoji: str | None = None


@dataclass(frozen=True, slots=True)
class OptionItem:
    """One option of a select menu."""

    label: str
    value: str
    emoji: str | None = None


@dataclass(frozen=True, slots=True)
class SelectSpec:
    """One select menu (it fills a whole row)."""

    custom_id: str
    placeholder: str
    options: tuple[OptionItem, ...]


Row = tuple[ButtonSpec, ...] | SelectSpec


@dataclass(slots=True)
class Group:
    """Options of one seat that share a group key, in prompt order."""

    seat: int
    number: int
    head: Choice
    members: list[tuple[int, Choice]] = field(default_factory=list)
    budget: int | None = None
    """The game's `menu_budget`: the second step then shows equal labels once, in short pages."""


@dataclass(frozen=True, slots=True)
class Entry:
    """One clickable thing of a page: plays an option or opens a group."""

    ref: ActRef | GroupRef
    label: str
    tone: Tone
    emoji: str | None


def clip(text: str, limit: int) -> str:
    """Cut `text` to `limit` characters, marking the cut with an ellipsis."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def groups_of(ui: GameUI, view: Any, prompt: Prompt, names: Sequence[str], w: Words = ENGLISH) -> list[Group]:
    """The option groups of one prompt in `w`'s words (the table's), numbered as they first appear."""
    groups: dict[str, Group] = {}
    for index, action in enumerate(prompt.options):
        choice = ui.choice(view, prompt, action, names, words=w)
        group = groups.get(choice.group)
        if group is None:
            group = groups[choice.group] = Group(prompt.seat, len(groups), choice, budget=ui.menu_budget)
        group.members.append((index, choice))
    return list(groups.values())


def main_entries(
    table: int,
    version: int,
    ui: GameUI,
    view: Any,
    prompts: Sequence[Prompt],
    names: Sequence[str],
    w: Words = ENGLISH,
) -> list[Entry]:
    """The first-step entries: one per group of every open prompt."""
    entries: list[Entry] = []
    several = len(prompts) > 1
    for prompt in prompts:
        who = f"{names[prompt.seat]} · " if several else ""
        groups = groups_of(ui, view, prompt, names, w)
        spread = _spread_groups(ui, groups)
        for group in groups:
            head = group.head
            if group.number in spread:
                shown: set[str] = set()
                for index, choice in group.members:
                    label = who + choice.single_label
                    if label not in shown:  # identical dice: one button plays either
                        shown.add(label)
                        direct = ActRef(table, version, prompt.seat, index)
                        entries.append(Entry(direct, label, choice.tone, choice.emoji))
                continue
            if len(group.members) == 1:
                index, choice = group.members[0]
                ref: ActRef | GroupRef = ActRef(table, version, prompt.seat, index)
                label = who + choice.single_label
                tone, emoji = choice.tone, choice.emoji
            else:
                ref = GroupRef(table, version, prompt.seat, group.number)
                label = f"{who}{head.group_label}…"
                tone, emoji = head.tone, head.emoji
            entries.append(Entry(ref, label, tone, emoji))
    return entries


def _spread_groups(ui: GameUI, groups: Sequence[Group]) -> set[int]:
    """The groups whose options get a first-step button each: those the game marks `direct`,
    when all of them fit on one page of buttons together with the other groups."""
    direct = [g for g in groups if len(g.members) > 1 and ui.direct(g.head)]
    if not direct:
        return set()
    labels = {choice.single_label for g in direct for _, choice in g.members}
    if len(labels) + len(groups) - len(direct) > BUTTON_PAGE:
        return set()
    return {g.number for g in direct}


def group_entries(table: int, version: int, group: Group) -> list[Entry]:
    """The second-step entries of one group: one per option."""
    return [
        Entry(ActRef(table, version, group.seat, index), choice.label, choice.tone, choice.emoji)
        for index, choice in group.members
    ]


def page_count(entries: Sequence[Entry]) -> int:
    """How many pages the entries need."""
    if len(entries) <= BUTTON_PAGE:
        return 1
    return -(-len(entries) // SELECT_PAGE)


def lay_out(
    table: int,
    version: int,
    entries: Sequence[Entry],
    *,
    page: int,
    controls: Sequence[ButtonSpec],
    page_ref: Any,
    placeholder: str,
    w: Words = ENGLISH,
) -> list[Row]:
    """Rows for one page of entries, then a control row (controls plus page arrows).

    `page_ref(n)` builds the reference of page n (a MainRef or GroupRef).
    """
    rows: list[Row] = []
    pages = page_count(entries)
    page = min(max(page, 0), pages - 1)
    if pages == 1 and len(entries) <= BUTTON_PAGE:
        buttons = [
            ButtonSpec(e.ref.custom_id(), clip(e.label, MAX_BUTTON_LABEL), e.tone, e.emoji) for e in entries
        ]
        rows.extend(
            tuple(buttons[i : i + MAX_BUTTONS_PER_ROW]) for i in range(0, len(buttons), MAX_BUTTONS_PER_ROW)
        )
    else:
        chunk = entries[page * SELECT_PAGE : (page + 1) * SELECT_PAGE]
        for slot, start in enumerate(range(0, len(chunk), MAX_SELECT_OPTIONS)):
            part = chunk[start : start + MAX_SELECT_OPTIONS]
            first = page * SELECT_PAGE + start + 1
            hint = w.gettext(
                "{placeholder} ({first}-{last} of {total})",
                placeholder=placeholder,
                first=first,
                last=first + len(part) - 1,
                total=len(entries),
            )
            options = tuple(OptionItem(clip(e.label, MAX_OPTION_TEXT), e.ref.value(), e.emoji) for e in part)
            rows.append(
                SelectSpec(PickRef(table, version, slot).custom_id(), clip(hint, MAX_PLACEHOLDER), options)
            )
    control = list(controls)
    if pages > 1:
        if page > 0:
            control.append(
                ButtonSpec(page_ref(page - 1).custom_id(), w.gettext("Previous"), Tone.NORMAL, "◀️")
            )
        if page < pages - 1:
            control.append(ButtonSpec(page_ref(page + 1).custom_id(), w.gettext("More"), Tone.NORMAL, "▶️"))
    if control:
        rows.append(tuple(control[:MAX_BUTTONS_PER_ROW]))
    return rows


def main_rows(
    table: int,
    version: int,
    ui: GameUI,
    view: Any,
    prompts: Sequence[Prompt],
    names: Sequence[str],
    undo_seats: Sequence[int],
    page: int = 0,
    private: bool = False,
    w: Words = ENGLISH,
) -> list[Row]:
    """The components of a board message, in `w`'s words (the table's): the first step of every
    open prompt, plus Undo (and "My hand" when seats hold hidden information)."""
    prompted = {p.seat for p in prompts}
    controls = [
        ButtonSpec(
            UndoRef(table, version, seat).custom_id(),
            w.gettext("Undo")
            if seat in prompted and len(prompts) == 1
            else clip(w.gettext("Undo ({player})", player=names[seat]), MAX_BUTTON_LABEL),
            Tone.RISKY,
            "↩️",
        )
        for seat in undo_seats
    ][:3]
    if private:
        controls.append(ButtonSpec(MineRef(table).custom_id(), w.gettext("My hand"), Tone.NORMAL, "🂠"))
    if ui.menu_budget is not None and len(prompts) == 1 and page == 0:
        rows = budget_rows(table, version, ui, view, prompts[0], names, controls, ui.menu_budget, w)
        if rows is not None:
            return rows
    entries = main_entries(table, version, ui, view, prompts, names, w)
    return lay_out(
        table,
        version,
        entries,
        page=page,
        controls=controls,
        page_ref=lambda n: MainRef(table, version, n),
        placeholder=w.gettext("Choose"),
        w=w,
    )


def group_rows(table: int, version: int, group: Group, page: int = 0, w: Words = ENGLISH) -> list[Row]:
    """The components of the second step: the options of one group, plus Back."""
    back = ButtonSpec(MainRef(table, version).custom_id(), w.gettext("Back"), Tone.NORMAL, "⬅️")
    if group.budget is not None:
        return _budget_group_rows(table, version, group, page, back, group.budget, w)
    return lay_out(
        table,
        version,
        group_entries(table, version, group),
        page=page,
        controls=[back],
        page_ref=lambda n: GroupRef(table, version, group.seat, group.number, n),
        placeholder=clip(group.head.group_label, 60),
        w=w,
    )


def _distinct(table: int, version: int, group: Group) -> list[Entry]:
    """A group's options as entries, each label once (equal dice or equal targets play alike)."""
    entries: dict[str, Entry] = {}
    for index, choice in group.members:
        if choice.label not in entries:
            ref = ActRef(table, version, group.seat, index)
            entries[choice.label] = Entry(ref, choice.label, choice.tone, choice.emoji)
    return list(entries.values())


def _head_entry(table: int, version: int, group: Group, distinct: int) -> Entry:
    """The first-step entry of a group: its option when it has one, else a button opening it."""
    if distinct == 1:
        index, choice = group.members[0]
        return Entry(
            ActRef(table, version, group.seat, index), choice.single_label, choice.tone, choice.emoji
        )
    ref = GroupRef(table, version, group.seat, group.number)
    return Entry(ref, f"{group.head.group_label}…", group.head.tone, group.head.emoji)


def _button(entry: Entry) -> ButtonSpec:
    return ButtonSpec(entry.ref.custom_id(), clip(entry.label, MAX_BUTTON_LABEL), entry.tone, entry.emoji)


def _select(table: int, version: int, slot: int, placeholder: str, entries: Sequence[Entry]) -> SelectSpec:
    options = tuple(OptionItem(clip(e.label, MAX_OPTION_TEXT), e.ref.value(), e.emoji) for e in entries)
    return SelectSpec(PickRef(table, version, slot).custom_id(), clip(placeholder, MAX_PLACEHOLDER), options)


def _button_rows(buttons: Sequence[ButtonSpec]) -> list[Row]:
    return [tuple(buttons[i : i + MAX_BUTTONS_PER_ROW]) for i in range(0, len(buttons), MAX_BUTTONS_PER_ROW)]


def budget_rows(
    table: int,
    version: int,
    ui: GameUI,
    view: Any,
    prompt: Prompt,
    names: Sequence[str],
    controls: Sequence[ButtonSpec],
    budget: int,
    w: Words = ENGLISH,
) -> list[Row] | None:
    """The first step of one prompt within `budget` components to read (see `GameUI.menu_budget`).

    Tried in order: every option of the `direct` groups as a button; else one select per such
    group whose options fit once opened (a choice in it plays at once: what is read is the
    selects, the buttons and the opened one's options), the others a button opening a second
    step. None when not even that fits Discord's rows.
    """
    groups = groups_of(ui, view, prompt, names, w)
    menus: dict[str, list[Group]] = {}
    direct: list[tuple[Group, list[Entry]]] = []
    plain: list[Entry] = []
    for group in groups:
        distinct = _distinct(table, version, group)
        if group.head.menu is not None:
            menus.setdefault(group.head.menu, []).append(group)
        elif ui.direct(group.head):
            direct.append((group, distinct))
        else:
            plain.append(_head_entry(table, version, group, len(distinct)))
    tail = [_button(e) for e in plain] + list(controls)
    menu_selects = []
    for name, folded in menus.items():
        entries = [_head_entry(table, version, g, len(_distinct(table, version, g))) for g in folded]
        if len(entries) > MAX_SELECT_OPTIONS:
            return None
        # Every option at once (one click each) when the opened select still fits the budget.
        flat: dict[str, Entry] = {}
        for g in folded:
            for i, choice in g.members:
                label = choice.single_label
                flat.setdefault(
                    label, Entry(ActRef(table, version, g.seat, i), label, choice.tone, choice.emoji)
                )
        menu_selects.append((name, entries, list(flat.values())))
    fixed = len(tail) + len(menu_selects)

    def finish(top: list[Row], buttons: list[ButtonSpec]) -> list[Row] | None:
        rows = top + _button_rows(buttons + tail)
        first = len(top)
        shown = sum(len(row) if isinstance(row, tuple) else 1 for row in rows) + len(menu_selects)
        for slot, (name, entries, flat) in enumerate(menu_selects, start=first):
            if shown - 1 + len(flat) <= budget:
                entries = flat
            rows.append(_select(table, version, slot, name, entries))
        return rows if len(rows) <= MAX_ROWS else None

    # 1. Every option of a direct group as a button: one click each.
    spread: dict[str, Entry] = {}
    for group, _ in direct:
        for index, choice in group.members:
            spread.setdefault(
                choice.single_label,
                Entry(
                    ActRef(table, version, group.seat, index), choice.single_label, choice.tone, choice.emoji
                ),
            )
    if len(spread) + fixed <= budget:
        rows = finish([], [_button(e) for e in spread.values()])
        if rows is not None:
            return rows
    # 2. A group of several options as a select when its options fit the budget once opened
    # (one click), else as a button opening a second step (paged within the budget there);
    # a group of one option is its button. Selects beyond Discord's rows turn into buttons,
    # the longest first.
    shown = len(direct) + fixed
    fitting = [(g, d) for g, d in direct if 1 < len(d) <= MAX_SELECT_OPTIONS and shown - 1 + len(d) <= budget]
    while True:
        chosen = {g.number for g, _ in fitting}
        top: list[Row] = [
            _select(table, version, slot, ui.select_placeholder(g.head, words=w), d)
            for slot, (g, d) in enumerate(fitting)
        ]
        buttons = [
            _button(_head_entry(table, version, g, len(d))) for g, d in direct if g.number not in chosen
        ]
        rows = finish(top, buttons)
        if rows is not None or not fitting:
            return rows
        fitting.remove(max(fitting, key=lambda pair: len(pair[1])))


def _budget_group_rows(
    table: int, version: int, group: Group, page: int, back: ButtonSpec, budget: int, w: Words = ENGLISH
) -> list[Row]:
    """A second step within `budget` components: equal labels once, pages with arrows and Back."""
    entries = _distinct(table, version, group)
    size = budget - 1 if len(entries) <= budget - 1 else max(1, budget - 3)
    pages = -(-len(entries) // size)
    page = min(max(page, 0), pages - 1)
    chunk = entries[page * size : (page + 1) * size]
    control = [back]
    if page > 0:
        ref = GroupRef(table, version, group.seat, group.number, page - 1)
        control.append(ButtonSpec(ref.custom_id(), w.gettext("Previous"), Tone.NORMAL, "◀️"))
    if page < pages - 1:
        ref = GroupRef(table, version, group.seat, group.number, page + 1)
        control.append(ButtonSpec(ref.custom_id(), w.gettext("More"), Tone.NORMAL, "▶️"))
    return _button_rows([_button(e) for e in chunk] + control)
