"""Troyes card, event, character and board numbers, loaded once from the JSON files in data/."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from engine.codec import from_json
from engine.troyes.kinds import Colour

_DIR = Path(__file__).with_name("data")


@dataclass(frozen=True, slots=True)
class Figures:
    """Deniers, influence and VP: what one activation of a card costs, or gives (rules §7.2)."""

    deniers: int = 0
    influence: int = 0
    vp: int = 0

    def __bool__(self) -> bool:
        return bool(self.deniers or self.influence or self.vp)


@dataclass(frozen=True, slots=True)
class ActivityCard:
    """One of the 27 activity cards: colour, level, hire cost, divisor, tradesman space VP."""

    id: str
    colour: Colour
    level: int
    name: str
    delayed: bool
    cost: int
    divisor: int
    space_vp: tuple[int, ...]
    effect: str
    price: Figures
    """What one activation costs (paid only by whoever can; nothing for most cards)."""
    gain: Figures
    """What one activation gives; for a card that counts something (the Miller's citizens, the
    Glassblower's pairs of cubes, the Captain's events, the Tax Collector's citizens), per thing
    counted; the Procession's and the Joust's to whoever the card rewards."""
    text: str
    estimated: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class EventCard:
    """One event card (or the permanent Marauding space): black dice, effect and combat numbers."""

    id: str
    colour: Colour
    name: str
    black_dice: int
    effect: str
    text: str
    combat: Colour
    divisor: int
    banners: int
    vp: tuple[int, int]
    calls: Colour | None
    permanent: bool
    estimated: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Character:
    """A character card: what it counts and the thresholds for 1 / 3 / 6 VP."""

    id: str
    name: str
    metric: str
    thresholds: tuple[int, ...]
    two_player_offset: int
    vp: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Building:
    """A building: its dice colour, wage, and which row each die value enters."""

    name: str
    colour: Colour
    wage: int
    rows: tuple[tuple[int, ...], ...]
    row_of_value: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class PlayerCount:
    """Setup figures for one player count."""

    rounds: int
    citizens: int
    characters: int
    neutral_first: bool


@dataclass(frozen=True, slots=True)
class Board:
    """Buildings, cathedral and constants of the board."""

    buildings: tuple[Building, ...]
    neutral_setup_2p: tuple[tuple[int, int], ...]
    cathedral_columns: int
    cathedral_levels: int
    cathedral_influence: tuple[int, ...]
    constants: dict[str, int]
    by_players: dict[int, PlayerCount]

    def const(self, name: str) -> int:
        """A named constant of the rules (start deniers, costs, penalties...)."""
        return self.constants[name]


def _load(name: str) -> Any:
    return json.loads((_DIR / name).read_text(encoding="utf-8"))


@cache
def activities() -> dict[str, ActivityCard]:
    """The 27 activity cards by id."""
    return {raw["id"]: from_json(ActivityCard, raw) for raw in _load("activities.json")}


def by_effect(effect: str) -> ActivityCard | None:
    """The activity card of an effect (each of the 27 has its own), or None."""
    return _by_effect().get(effect)


@cache
def _by_effect() -> dict[str, ActivityCard]:
    return {card.effect: card for card in activities().values()}


@cache
def events() -> dict[str, EventCard]:
    """The 16 event cards and Marauding (id E00) by id."""
    return {raw["id"]: from_json(EventCard, raw) for raw in _load("events.json")}


@cache
def characters() -> dict[str, Character]:
    """The 6 characters by id."""
    return {raw["id"]: from_json(Character, raw) for raw in _load("characters.json")}


@cache
def board() -> Board:
    """The board geometry and the constants."""
    raw = _load("board.json")
    cath = raw["cathedral"]
    return Board(
        buildings=tuple(
            Building(
                name=b["name"],
                colour=Colour(b["colour"]),
                wage=b["wage"],
                rows=tuple(tuple(r) for r in b["rows"]),
                row_of_value=tuple(b["row_of_value"]),
            )
            for b in raw["buildings"]
        ),
        neutral_setup_2p=tuple((s[0], s[1]) for s in raw["neutral_setup_2p"]["spaces"]),
        cathedral_columns=cath["columns"],
        cathedral_levels=cath["levels"],
        cathedral_influence=tuple(cath["influence"]),
        constants={**raw["constants"], "vp_per_cube": cath["vp_per_cube"]}
        | {"missing_level_vp": cath["missing_level_vp"]},
        by_players={
            int(k): PlayerCount(v["rounds"], v["citizens"], v["characters"], v["neutral_first"])
            for k, v in raw["by_players"].items()
        },
    )


MARAUDING = "E00"
