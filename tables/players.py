"""Player settings: time zone, quiet hours, notice, standing answers; and when a player may be pinged."""

from __future__ import annotations

import datetime as dt
import enum
import zoneinfo
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import TypeVar

from engine.words import ENGLISH, LANGUAGES, N_, Words
from tables.store import Store

UTC = "UTC"


class Notify(enum.StrEnum):
    """How a player is told it is their move."""

    THREAD = "thread"
    """A mention in the game's thread (the default)."""
    DM = "dm"
    """A direct message with a link to the board."""


class StandingAnswer(enum.StrEnum):
    """A player's answer given in advance to optional decisions (Buttons' gold die of the others' rolls)."""

    ASK = "ask"
    """Always ask (the default): the button waits until the table's window closes."""
    DECLINE = "decline"
    """Always decline, at once."""
    BOT = "bot"
    """A bot chooses for the player, at once."""


STANDING_LABELS: dict[StandingAnswer, str] = {
    StandingAnswer.ASK: N_("Always ask me"),
    StandingAnswer.DECLINE: N_("Always decline"),
    StandingAnswer.BOT: N_("Let a bot choose for me"),
}


@dataclass(frozen=True, slots=True)
class PlayerSettings:
    """One player's settings; quiet hours are minutes after local midnight, [start, end)."""

    user_id: int
    time_zone: str = UTC
    quiet_start: int | None = None
    quiet_end: int | None = None
    notify: Notify = Notify.THREAD
    standing: StandingAnswer = StandingAnswer.ASK
    """The default standing answer for optional decisions (a table's seat may override it)."""
    dm_failed: bool = False
    """Direct messages to this player failed once (they were told, once, that the thread is used)."""
    language: str | None = None
    """The language of their private answers, if they chose one (else their Discord client's)."""

    @property
    def has_quiet_hours(self) -> bool:
        """Whether quiet hours are set (and not empty)."""
        start, end = self.quiet_start, self.quiet_end
        return start is not None and end is not None and start != end


@lru_cache(maxsize=512)
def zone(name: str) -> zoneinfo.ZoneInfo:
    """The IANA time zone (ZoneInfoNotFoundError or ValueError for an unknown name)."""
    return zoneinfo.ZoneInfo(name)


def is_time_zone(name: str) -> bool:
    """Whether `name` is an IANA time zone this machine knows."""
    try:
        zone(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return False
    return True


@lru_cache(maxsize=1)
def time_zones() -> tuple[str, ...]:
    """Every IANA time zone name known here, sorted."""
    return tuple(sorted(zoneinfo.available_timezones()))


def parse_clock(text: str) -> int | None:
    """Minutes after midnight for "22:00", "7:30" or "7"; None if it is not a time of day."""
    hours, sep, minutes = text.strip().partition(":")
    if not hours.isdigit() or len(hours) > 2 or (sep and (not minutes.isdigit() or len(minutes) != 2)):
        return None
    h, m = int(hours), int(minutes) if sep else 0
    if h > 23 or m > 59:
        return None
    return h * 60 + m


def clock_text(minutes: int) -> str:
    """ "22:00" for 1320."""
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


def quiet_until(settings: PlayerSettings | None, now: float) -> float | None:
    """When the player's quiet hours around `now` end (unix seconds), or None if `now` is not in them.

    Quiet hours may run across midnight (22:00-07:00); they follow the player's local clock,
    daylight saving time included.
    """
    if settings is None or not settings.has_quiet_hours:
        return None
    assert settings.quiet_start is not None and settings.quiet_end is not None
    tz = zone(settings.time_zone)
    local = dt.datetime.fromtimestamp(now, tz)
    minute = local.hour * 60 + local.minute
    start, end = settings.quiet_start, settings.quiet_end
    inside = start <= minute < end if start < end else minute >= start or minute < end
    if not inside:
        return None
    day = local.date()
    if start > end and minute >= start:
        day += dt.timedelta(days=1)
    naive = dt.datetime.combine(day, dt.time(end // 60, end % 60))
    ends = naive.replace(tzinfo=tz).timestamp()
    # A wall time skipped by a daylight-saving jump maps a little off: never end before now.
    return max(ends, now + 1.0)


def describe(settings: PlayerSettings, w: Words = ENGLISH, language: str | None = None) -> str:
    """The settings in a few lines, for /settings, in `w`'s words; `language`: the name of the
    language they chose, if they chose one."""
    if settings.has_quiet_hours:
        assert settings.quiet_start is not None and settings.quiet_end is not None
        quiet = w.gettext(
            "{start} to {end}", start=clock_text(settings.quiet_start), end=clock_text(settings.quiet_end)
        )
    else:
        quiet = w.gettext("none")
    dm = settings.notify is Notify.DM
    told = w.gettext("a direct message with a link") if dm else w.gettext("a mention in the game's thread")
    spoken = language if language is not None else w.gettext("your Discord app's")
    return "\n".join(
        (
            w.gettext("**Time zone:** {zone}", zone=settings.time_zone),
            w.gettext(
                "**Quiet hours:** {quiet} (no pings or reminders then; they wait until the end)", quiet=quiet
            ),
            w.gettext("**Your move is told by:** {told}", told=told),
            w.gettext(
                "**Optional choices (the gold die):** {answer}",
                answer=w.gettext(STANDING_LABELS[settings.standing]).lower(),
            ),
            w.gettext("**Language of my answers to you:** {language}", language=spoken),
        )
    )


class Players:
    """Every player's settings and per-table standing answers, cached in memory, stored in SQLite.

    Reads are synchronous once `load` ran (the table service asks while it plans clocks);
    writes go to the database first, then to the cache.
    """

    def __init__(self, store: Store) -> None:
        self.store = store
        self._settings: dict[int, PlayerSettings] = {}
        self._answers: dict[tuple[int, int], StandingAnswer] = {}
        self._loaded = False

    async def load(self) -> None:
        """Read every player's settings and standing answers (once)."""
        if self._loaded:
            return
        async with self.store.reading() as db:
            async with db.execute(
                "SELECT user_id, time_zone, quiet_start, quiet_end, notify, standing, dm_failed, language "
                "FROM players"
            ) as cur:
                rows = list(await cur.fetchall())
            async with db.execute("SELECT table_id, user_id, answer FROM seat_answers") as cur:
                answers = list(await cur.fetchall())
        for row in rows:
            settings = PlayerSettings(
                user_id=int(row[0]),
                time_zone=str(row[1]) if is_time_zone(str(row[1])) else UTC,
                quiet_start=row[2],
                quiet_end=row[3],
                notify=_enum(Notify, row[4], Notify.THREAD),
                standing=_enum(StandingAnswer, row[5], StandingAnswer.ASK),
                dm_failed=bool(row[6]),
                language=row[7] if row[7] in LANGUAGES else None,
            )
            self._settings[settings.user_id] = settings
        for table_id, user_id, answer in answers:
            self._answers[(int(table_id), int(user_id))] = _enum(StandingAnswer, answer, StandingAnswer.ASK)
        self._loaded = True

    def get(self, user_id: int) -> PlayerSettings:
        """A player's settings (the defaults if they never set any)."""
        return self._settings.get(user_id) or PlayerSettings(user_id)

    async def save(self, settings: PlayerSettings) -> PlayerSettings:
        """Store a player's settings."""
        await self.load()
        async with (
            self.store.transaction() as db,
            db.execute(
                "INSERT OR REPLACE INTO players (user_id, time_zone, quiet_start, quiet_end, notify, "
                "standing, dm_failed, language) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    settings.user_id,
                    settings.time_zone,
                    settings.quiet_start,
                    settings.quiet_end,
                    settings.notify.value,
                    settings.standing.value,
                    int(settings.dm_failed),
                    settings.language,
                ),
            ),
        ):
            pass
        self._settings[settings.user_id] = settings
        return settings

    async def update(self, user_id: int, **changes: object) -> PlayerSettings:
        """Change some of a player's settings."""
        await self.load()
        return await self.save(replace(self.get(user_id), **changes))  # type: ignore[arg-type]

    def quiet_until(self, user_id: int | None, now: float) -> float | None:
        """When the player's quiet hours around `now` end, or None: they may be pinged now."""
        if user_id is None:
            return None
        return quiet_until(self._settings.get(user_id), now)

    def may_ping(self, user_id: int, now: float) -> bool:
        """Whether a ping or a reminder may reach this player now (outside their quiet hours)."""
        return self.quiet_until(user_id, now) is None

    def standing_answer(self, table_id: int, user_id: int | None) -> StandingAnswer:
        """A player's standing answer at a table (their seat's, else their default)."""
        if user_id is None:
            return StandingAnswer.ASK
        seat = self._answers.get((table_id, user_id))
        return seat if seat is not None else self.get(user_id).standing

    def seat_answer(self, table_id: int, user_id: int) -> StandingAnswer | None:
        """The standing answer set for this table only, if any."""
        return self._answers.get((table_id, user_id))

    async def set_seat_answer(self, table_id: int, user_id: int, answer: StandingAnswer) -> None:
        """Set a player's standing answer for one table."""
        await self.load()
        async with (
            self.store.transaction() as db,
            db.execute(
                "INSERT OR REPLACE INTO seat_answers (table_id, user_id, answer) VALUES (?, ?, ?)",
                (table_id, user_id, answer.value),
            ),
        ):
            pass
        self._answers[(table_id, user_id)] = answer


_E = TypeVar("_E", bound=enum.StrEnum)


def _enum(kind: type[_E], value: object, default: _E) -> _E:
    try:
        return kind(str(value))
    except ValueError:
        return default
