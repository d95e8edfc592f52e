"""The names of Troyes' cards, events, characters and buildings, marked for extraction.

They live in data/*.json, which pybabel does not read; shown through `w.gettext(name)`.
Written once from the data; tests/engine/troyes/test_names.py fails when the data names one
that is not listed here (add it to its group).
"""

from __future__ import annotations

from engine.words import N_

NAMES: tuple[str, ...] = (
    # Activity cards (data/activities.json)
    N_("Artisan"),
    N_("Merchant"),
    N_("Miller"),
    N_("Innkeeper"),
    N_("Blacksmith"),
    N_("Militiaman"),
    N_("Journeyman"),
    N_("Goldsmith"),
    N_("Sculptor"),
    N_("Tithe"),
    N_("Monk"),
    N_("Priest"),
    N_("Apprenticeship"),
    N_("Confession"),
    N_("Templar"),
    N_("Pilgrimage"),
    N_("Procession"),
    N_("Glassblower"),
    N_("Archer"),
    N_("Chivalry"),
    N_("Diplomat"),
    N_("Hunting"),
    N_("Mercenary"),
    N_("Tax Collector"),
    N_("Captain"),
    N_("Joust"),
    N_("Troubadour"),
    # Event cards (data/events.json)
    N_("Marauding"),
    N_("Drought"),
    N_("Support"),
    N_("Civil War"),
    N_("Wayfarers"),
    N_("Theological Conflict"),
    N_("Heresy"),
    N_("Traveling Builders"),
    N_("Interrupted Work"),
    N_("Brigands"),
    N_("Skirmishes"),
    N_("War"),
    N_("Normans Attack"),
    N_("Conflict of Succession"),
    # Characters (data/characters.json)
    N_("Chrétien de Troyes"),
    N_("Urbain IV"),
    N_("Thibaut II"),
    N_("Hugues de Payns"),
    N_("Le Florentin"),
    N_("Henry I"),
    # Buildings (data/board.json)
    N_("Palace"),
    N_("Bishopric"),
    N_("City Hall"),
)
"""Every name the data gives, once each."""
