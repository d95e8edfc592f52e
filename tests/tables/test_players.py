"""Player settings: quiet hours across midnight, time zones and daylight saving; paces in words."""

from __future__ import annotations

import datetime as dt

import pytest

from cogs.settings import matching_zones, parse_quiet
from tables import TableService
from tables.paces import Pace, describe, duration, timing_for
from tables.players import Notify, Players, PlayerSettings, StandingAnswer, parse_clock, quiet_until, zone
from tables.store import open_store
from tests.tables.conftest import HOST, started


def at(name: str, *fields: int) -> float:
    return dt.datetime(*fields, tzinfo=zone(name)).timestamp()  # type: ignore[misc]


NIGHT = PlayerSettings(1, "Europe/Paris", 22 * 60, 7 * 60)


@pytest.mark.parametrize(
    ("fields", "ends"),
    [
        ((2026, 11, 24, 21, 59), None),
        ((2026, 11, 24, 22, 0), (2026, 11, 25, 7, 0)),
        ((2026, 11, 24, 23, 30), (2026, 11, 25, 7, 0)),
        ((2026, 11, 25, 0, 10), (2026, 11, 25, 7, 0)),
        ((2026, 11, 25, 6, 59), (2026, 11, 25, 7, 0)),
        ((2026, 11, 25, 7, 0), None),
        ((2026, 11, 25, 12, 0), None),
    ],
)
def test_quiet_hours_across_midnight(fields: tuple[int, ...], ends: tuple[int, ...] | None) -> None:
    expected = None if ends is None else at("Europe/Paris", *ends)
    assert quiet_until(NIGHT, at("Europe/Paris", *fields)) == expected


def test_quiet_hours_follow_the_players_time_zone_and_daylight_saving() -> None:
    tokyo = PlayerSettings(2, "Asia/Tokyo", 22 * 60, 8 * 60)
    # 14:00 UTC is 23:00 in Tokyo (quiet) and 15:00 in Paris (not).
    noon = dt.datetime(2026, 11, 24, 14, tzinfo=dt.UTC).timestamp()
    assert quiet_until(tokyo, noon) == at("Asia/Tokyo", 2026, 11, 25, 8)
    assert quiet_until(NIGHT, noon) is None
    # Paris springs forward in the night of 27-28 March 2027: still 7:00 local, 7 hours later.
    before_spring = at("Europe/Paris", 2027, 3, 27, 23)
    assert quiet_until(NIGHT, before_spring) == at("Europe/Paris", 2027, 3, 28, 7)
    assert quiet_until(NIGHT, before_spring) == before_spring + 7 * 3600, "an hour is skipped at 2:00"


def test_daytime_quiet_hours_and_none() -> None:
    work = PlayerSettings(3, "UTC", 9 * 60, 17 * 60)
    assert quiet_until(work, at("UTC", 2026, 11, 24, 12)) == at("UTC", 2026, 11, 24, 17)
    assert quiet_until(work, at("UTC", 2026, 11, 24, 18)) is None
    assert quiet_until(PlayerSettings(4), at("UTC", 2026, 11, 24, 12)) is None
    assert quiet_until(None, 0.0) is None


def test_times_and_quiet_hours_are_read_strictly() -> None:
    assert parse_clock("22:00") == 1320 and parse_clock("7") == 420 and parse_clock("07:30") == 450
    for bad in ("24:00", "7:5", "-1", "ab", "7:60", "123"):
        assert parse_clock(bad) is None, bad
    assert parse_quiet("22:00-07:00") == (1320, 420)
    assert parse_quiet("off") == (None, None)
    assert parse_quiet("22:00") is None and parse_quiet("07:00-07:00") is None
    assert "Europe/Paris" in matching_zones("paris") and len(matching_zones("a")) <= 25


def test_each_pace_is_said_in_words() -> None:
    assert (
        duration(600) == "10 minutes" and duration(3 * 86400) == "3 days" and duration(5400) == "90 minutes"
    )
    assert "a reminder after 10 minutes, then every 30 minutes" in describe(timing_for(Pace.LIVE))
    assert "a reminder after 12 hours, then every day" in describe(timing_for(Pace.DAILY))
    assert "a bot plays for a player away for 7 days" in describe(timing_for(Pace.RELAXED))
    with pytest.raises(ValueError):
        timing_for("ludicrous")


async def test_settings_and_standing_answers_are_stored(database: str) -> None:
    store = await open_store(database)
    players = Players(store)
    await players.load()
    await players.update(7, time_zone="Asia/Tokyo", quiet_start=1320, quiet_end=480, notify=Notify.DM)
    await players.update(7, standing=StandingAnswer.DECLINE)
    await store.close()
    store = await open_store(database)
    players = Players(store)
    await players.load()
    kept = players.get(7)
    assert (kept.time_zone, kept.quiet_start, kept.quiet_end, kept.notify) == (
        "Asia/Tokyo",
        1320,
        480,
        Notify.DM,
    )
    assert players.standing_answer(5, 7) is StandingAnswer.DECLINE
    assert players.get(8) == PlayerSettings(8), "a player who set nothing has the defaults"
    await store.close()


async def test_a_seat_answer_set_again_replaces_the_stored_one(service: TableService, database: str) -> None:
    table = await started(service)
    await service.players.set_seat_answer(table.id, HOST, StandingAnswer.DECLINE)
    await service.players.set_seat_answer(table.id, HOST, StandingAnswer.ASK)
    store = await open_store(database)
    try:
        players = Players(store)
        await players.load()
        assert players.seat_answer(table.id, HOST) is StandingAnswer.ASK
    finally:
        await store.close()
