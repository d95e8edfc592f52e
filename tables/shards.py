"""Shards: which Discord servers' tables a bot process holds, and the leases that share out clock work.

A table belongs to the shard of its server, `(guild_id >> 22) % shard_count` (Discord's rule: that
shard's gateway session receives the server's events, so its clicks). A process runs the bot
seats of the tables of its own shards only, and only it mends their boards (the board keeper's
sweep, upkeep's check for deleted boards) and answers the clicks a restart cut short (a click
with no table goes by the server it came from; a direct message's, to shard 0). Turn clocks
(reminders, timeouts) need no gateway: any process can fire them, so they follow a lease per
shard kept in the store (`clock_leases`), which each process renews for its own shards; when a
process stops renewing (it died), the others take its shards' clocks once the lease runs out,
and hand them back when it returns.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

LEASE_SECONDS = 30.0
"""How long a claimed shard stays claimed without a renewal: a dead process's clocks move within it."""
RENEW_SECONDS = 10.0
"""How often a process renews its leases (and looks for shards whose lease ran out)."""


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard that receives a server's events (Discord's sharding formula)."""
    return (guild_id >> 22) % shard_count


@dataclass(frozen=True, slots=True)
class ShardSet:
    """Some shards of `count`: the ones a process holds."""

    count: int
    ids: frozenset[int]

    def __post_init__(self) -> None:
        if self.count < 1:
            raise ValueError("a shard count is at least 1")
        if not self.ids or not all(0 <= i < self.count for i in self.ids):
            raise ValueError(f"shard ids must be from 0 to {self.count - 1}")

    @classmethod
    def all_of(cls, count: int) -> ShardSet:
        """Every shard of `count`."""
        return cls(count, frozenset(range(count)))

    def holds(self, guild_id: int) -> bool:
        """Whether this server's shard is one of these."""
        return shard_of(guild_id, self.count) in self.ids

    def describe(self) -> str:
        """'0-3 of 8', '1, 5 of 8'."""
        return f"{spans(self.ids)} of {self.count}"


def spans(ids: Iterable[int]) -> str:
    """Shard ids as ranges: [0, 1, 2, 5] -> '0-2, 5'."""
    runs: list[list[int]] = []
    for i in sorted(set(ids)):
        if runs and runs[-1][1] == i - 1:
            runs[-1][1] = i
        else:
            runs.append([i, i])
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in runs)


def parse_shard_ids(text: str, count: int) -> frozenset[int]:
    """'0-3', '0,2,5' or '1-2,6' as shard ids below `count`; ValueError says what is wrong."""
    ids: set[int] = set()
    for part in text.replace(" ", "").split(","):
        if not part:
            raise ValueError("an empty item")
        low, dash, high = part.partition("-")
        if not low.isdigit() or (dash and not high.isdigit()):
            raise ValueError(f"{part!r} is not a shard number or a range like 0-3")
        first, last = int(low), int(high) if dash else int(low)
        if first > last:
            raise ValueError(f"{part!r} runs backwards")
        if last >= count:
            raise ValueError(f"shard {last} is not below the shard count {count}")
        ids.update(range(first, last + 1))
    return frozenset(ids)


@dataclass(frozen=True, slots=True)
class Lease:
    """Who fires a shard's clocks until when; `wanted_by` is the shard's own process asking it back."""

    shard: int
    holder: str
    expires_at: float
    wanted_by: str | None = None
    generation: int = 0
    """Bumped by every write: a write is made only over the row as read (compare and set)."""


def plan_leases(
    rows: Mapping[int, Lease],
    home: ShardSet,
    me: str,
    now: float,
    ttl: float = LEASE_SECONDS,
) -> list[Lease]:
    """The lease rows process `me` writes this round (its own shards, and any whose lease ran out).

    A process always takes its own shards' leases once free or run out, and asks for them back
    (`wanted_by`) while another process holds them; a process holding a shard that is not its
    own gives it up as soon as that shard's process asks, and renews it otherwise.
    """
    writes: list[Lease] = []
    for shard in range(home.count):
        row = rows.get(shard)
        mine = row is not None and row.holder == me
        lapsed = row is None or row.expires_at <= now
        generation = 0 if row is None else row.generation + 1
        if shard in home.ids:
            if mine or lapsed:
                writes.append(Lease(shard, me, now + ttl, None, generation))
            elif row is not None and row.wanted_by != me:
                writes.append(Lease(shard, row.holder, row.expires_at, me, generation))
        elif mine:
            assert row is not None
            if row.wanted_by is not None and row.wanted_by != me:
                writes.append(Lease(shard, me, now, row.wanted_by, generation))  # handed back
            else:
                writes.append(Lease(shard, me, now + ttl, None, generation))
        elif lapsed:
            # A shard nobody renews (its process died, or has not started): its clocks still fire.
            writes.append(Lease(shard, me, now + ttl, None if row is None else row.wanted_by, generation))
    return writes


def held_shards(written: Iterable[Lease], me: str, now: float) -> frozenset[int]:
    """The shards whose clocks `me` fires, from the lease rows it managed to write."""
    return frozenset(w.shard for w in written if w.holder == me and w.expires_at > now)
