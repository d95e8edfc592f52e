"""Every name in Troyes' data (cards, events, characters, buildings) is listed for the catalogs."""

from __future__ import annotations

import sys
from pathlib import Path

from engine.troyes.data import activities, board, characters, events
from engine.troyes.names import NAMES

ROOT = Path(__file__).resolve().parents[3]


def data_names() -> set[str]:
    """Every name the JSON data gives."""
    return {
        *(card.name for card in activities().values()),
        *(card.name for card in events().values()),
        *(character.name for character in characters().values()),
        *(building.name for building in board().buildings),
    }


def test_every_name_in_the_data_is_listed_for_extraction() -> None:
    missing = sorted(data_names() - set(NAMES))
    assert missing == [], f"add these names to engine/troyes/names.py (N_): {missing}"


def test_the_listed_names_are_extracted_into_the_template() -> None:
    sys.path.insert(0, str(ROOT / "scripts"))
    import catalogs

    extracted = {message for _, _, message, _ in catalogs.source_messages() if isinstance(message, str)}
    assert data_names() <= extracted
