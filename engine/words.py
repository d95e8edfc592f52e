"""Words every game's text shares: the message catalogs of each language.

The one place user-facing text decides between "1 turn" and "2 turns"; tests/test_plurals.py
fails on any message template that builds a plural by hand.
"""

from __future__ import annotations

import gettext
import io
from collections.abc import Mapping, Sequence
from functools import cache
from pathlib import Path

from babel.lists import format_list
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

# --- Languages -------------------------------------------------------------------------------

LANGUAGES: tuple[str, ...] = ("en", "ru", "pl", "ko")
"""The languages Meeple speaks, as gettext catalog names; English is the source text."""

DOMAIN = "meeple"
LOCALES = Path(__file__).resolve().parent.parent / "locales"
"""The catalogs: locales/meeple.pot and locales/<language>/LC_MESSAGES/meeple.po."""


def N_(message: str) -> str:
    """Mark a message for extraction where it is defined as data; it is translated where shown."""
    return message


class Words:
    """One language's messages: gettext's calls, each filling the message's {fields} afterwards.

    Every user-facing text goes through one of these methods with a literal English message,
    so `pybabel extract` finds it; a count always goes through `ngettext` (Russian and Polish
    have three plural forms, Korean one).
    """

    def __init__(self, language: str, catalog: gettext.NullTranslations) -> None:
        self.language = language
        self._catalog = catalog

    def gettext(self, message: str, /, **fields: object) -> str:
        """The message in this language, its {fields} filled."""
        return _filled(self._catalog.gettext(message), fields)

    def ngettext(self, singular: str, plural: str, count: int, /, **fields: object) -> str:
        """The form of the message for `count` things; {count} and the other fields filled."""
        return _filled(self._catalog.ngettext(singular, plural, count), {"count": count, **fields})

    def pgettext(self, context: str, message: str, /, **fields: object) -> str:
        """The message as meant in `context` (the same English word said twice with two senses)."""
        return _filled(self._catalog.pgettext(context, message), fields)

    def npgettext(self, context: str, singular: str, plural: str, count: int, /, **fields: object) -> str:
        """ngettext within a context."""
        return _filled(self._catalog.npgettext(context, singular, plural, count), {"count": count, **fields})

    def join(self, items: Sequence[str]) -> str:
        """A list in this language's words: "Ann, Bob and Cy", "Ann, Bob и Cy"."""
        return format_list(list(items), locale=babel_locale(self.language))


def _filled(template: str, fields: Mapping[str, object]) -> str:
    """`template` with its {fields} replaced; a message without fields is returned as written."""
    return template.format_map(fields) if fields else template


def language_of(locale: str | None) -> str:
    """The Meeple language for a Discord locale ("ru", "pl", "ko", "en-US", "en-GB"...); English otherwise."""
    if not locale:
        return "en"
    base = str(locale).split("-")[0].split("_")[0].lower()
    return base if base in LANGUAGES else "en"


def babel_locale(language: str) -> str:
    """The Babel locale name of a Meeple language (for lists, dates and durations)."""
    return language if language in LANGUAGES else "en"


@cache
def words(language: str | None = "en") -> Words:
    """The Words of a language (or of a Discord locale); English when there is no catalog for it."""
    name = language_of(language)
    if name == "en":
        return Words("en", gettext.NullTranslations())
    return Words(name, _catalog(name))


def _catalog(language: str) -> gettext.NullTranslations:
    """Compile a language's .po in memory, so a catalog is never older than its source."""
    path = LOCALES / language / "LC_MESSAGES" / f"{DOMAIN}.po"
    if not path.exists():
        return gettext.NullTranslations()
    with path.open("rb") as source:
        catalog = read_po(source, locale=language, domain=DOMAIN)
    buffer = io.BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)
    buffer.seek(0)
    return gettext.GNUTranslations(buffer)


ENGLISH = words("en")
"""The source language, for code with no reader to ask (logs, tests, the engine's defaults)."""
