"""custom_ids: every reference survives the round trip; anything else parses to None, never raises."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from cogs.platform import ids

nat = st.integers(min_value=0, max_value=10**15)
refs = st.one_of(
    st.builds(ids.LobbyRef, nat, st.sampled_from(list(ids.LobbyOp))),
    st.builds(ids.ActRef, nat, nat, st.integers(0, 5), st.integers(0, 999)),
    st.builds(ids.GroupRef, nat, nat, st.integers(0, 5), st.integers(0, 99), st.integers(0, 99)),
    st.builds(ids.MainRef, nat, nat, st.integers(0, 99)),
    st.builds(ids.UndoRef, nat, nat, st.integers(0, 5)),
    st.builds(ids.PickRef, nat, nat, st.integers(0, 3)),
    st.builds(ids.MineRef, nat),
    st.builds(ids.LogRef, nat, nat),
    st.builds(ids.VoteRef, nat, st.integers(0, 5), nat),
)


@given(refs)
def test_round_trip(ref: ids.Ref) -> None:
    custom_id = ref.custom_id()
    assert len(custom_id) <= ids.MAX_CUSTOM_ID
    assert ids.parse(custom_id) == ref
    if isinstance(ref, ids.ActRef | ids.GroupRef):
        assert (
            ids.parse_value(ref.table, ref.version, ref.value())
            == ids.ActRef(ref.table, ref.version, ref.seat, ref.index)
            if isinstance(ref, ids.ActRef)
            else ids.GroupRef(ref.table, ref.version, ref.seat, ref.group)
        )


@given(st.text(max_size=120))
def test_anything_else_is_none_or_a_valid_reference(text: str) -> None:
    for candidate in (text, ids.PREFIX + text):
        parsed = ids.parse(candidate)
        assert parsed is None or parsed.custom_id() == candidate
    assert ids.parse_value(1, 1, text) is None or ids.parse_value(1, 1, text).value() == text  # type: ignore[union-attr]


def test_malformed_examples() -> None:
    for bad in (
        "",
        "mp:",
        "mp:act:1:2:3",
        "mp:act:1:2:3:4:5",
        "mp:act:-1:2:3:4",
        "mp:act:+1:2:3:4",
        "mp:act:1 :2:3:4",
        "mp:lobby:1:dance",
        "mp:lobby:x:join",
        "other:act:1:2:3:4",
        "mp:act:١:2:3:4",
        "mp:act:01:2:3:4",
        "mp:grp:1:2:3:4:" + "9" * 99,
        "mp:log:1",
        "mp:log:1:2:3",
        "mp:vote:1:2",
        "mp:vote:1:x:3",
    ):
        assert ids.parse(bad) is None, bad
    for bad in ("", "a", "a1", "a1.", "x1.2", "a1.2.3", "g-1.2"):
        assert ids.parse_value(1, 1, bad) is None, bad


@given(st.from_regex(r"[a-z][a-z0-9_]{0,31}", fullmatch=True), nat)
def test_leaderboard_pages_round_trip(game: str, page: int) -> None:
    ref = ids.LeaderboardRef(game, page)
    assert len(ref.custom_id()) <= ids.MAX_CUSTOM_ID
    assert ids.parse_leaderboard(ref.custom_id()) == ref
    assert ids.parse(ref.custom_id()) is None, "not a table's component"


@given(st.text(max_size=120))
def test_anything_else_is_no_leaderboard_page(text: str) -> None:
    for candidate in (text, "mp:top:" + text):
        parsed = ids.parse_leaderboard(candidate)
        assert parsed is None or parsed.custom_id() == candidate


def test_malformed_leaderboard_pages() -> None:
    for bad in (
        "mp:top:tomatoes",
        "mp:top:tomatoes:01",
        "mp:top:tomatoes:-1",
        "mp:top:tomatoes:1:2",
        "mp:top:Tomatoes:1",
        "mp:top::1",
        "mp:top:to-matoes:1",
        "mp:top:tomatoes:١",
        "mp:act:tomatoes:1",
    ):
        assert ids.parse_leaderboard(bad) is None, bad


def test_every_kind_of_reference_has_one_component_class() -> None:
    """A click goes one way: each kind of reference has its own persistent component class, whose
    template matches its custom_ids and no other kind's."""
    from cogs.platform import views

    kinds = [*ids.TABLE_REFS, ids.LeaderboardRef]
    assert sorted(c.REF.__name__ for c in views.COMPONENTS) == sorted(k.__name__ for k in kinds)


@given(st.one_of(refs, st.builds(ids.LeaderboardRef, st.sampled_from(["tomatoes", "troyes", "a_b2"]), nat)))
def test_each_custom_id_has_exactly_one_component_class_which_reads_its_reference(ref: Any) -> None:
    import discord

    from cogs.platform import views

    custom_id = ref.custom_id()
    matching = [c for c in views.COMPONENTS if c.__discord_ui_compiled_template__.fullmatch(custom_id)]
    assert len(matching) == 1 and matching[0].REF is type(ref)
    assert matching[0](discord.ui.Button(custom_id=custom_id)).ref == ref
