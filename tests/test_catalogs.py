"""The message catalogs: the template is not stale against the source and the command tree, every
language's catalog holds exactly its messages, translations keep their {fields}, and none is empty.

`scripts/catalogs` refreshes the files; the last test fails until the translators' pass fills them.
"""

from __future__ import annotations

import string
import sys
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import read_po

from engine.words import DOMAIN, LANGUAGES

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

import catalogs  # noqa: E402 (scripts/catalogs.py, the tool that writes the files checked here)

TRANSLATED = [language for language in LANGUAGES if language != "en"]

Key = tuple[str | None, str]
"""A message as a catalog keys it: (context, singular)."""


def _read(path: Path, locale: str | None = None) -> Catalog:
    with path.open("rb") as source:
        return read_po(source, locale=locale, domain=DOMAIN)


def _keys(catalog: Catalog) -> set[Key]:
    return {(message.context, _singular(message)) for message in catalog if message.id}


def _singular(message: Message) -> str:
    return message.id[0] if isinstance(message.id, tuple) else str(message.id)


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


@pytest.fixture(scope="module")
def template() -> Catalog:
    """The template as the source and the command tree make it now (in memory)."""
    return catalogs.template()


def test_the_committed_template_is_not_stale(template: Catalog) -> None:
    committed = _keys(_read(catalogs.TEMPLATE))
    fresh = _keys(template)
    assert sorted(fresh - committed, key=str) == [], "new messages: run scripts/catalogs"
    assert sorted(committed - fresh, key=str) == [], "messages gone from the source: run scripts/catalogs"


def test_the_template_finds_messages_of_each_kind(template: Catalog) -> None:
    keys = _keys(template)
    assert (None, "This table was cancelled.") in keys, "a w.gettext call"
    assert (None, "{count} day") in keys, "a w.ngettext call"
    assert (None, "Always ask me") in keys, "an N_ mark"
    assert (None, "That game table no longer exists.") in keys, "a refusal's message"
    assert (catalogs_name_context(), "settings") in keys, "a command's name"
    assert (None, "Your time zone, e.g. Europe/Paris (quiet hours follow it)") in keys, (
        "an option's description"
    )


def catalogs_name_context() -> str:
    from cogs.platform.translator import NAME_CONTEXT

    return NAME_CONTEXT


@pytest.mark.parametrize("language", TRANSLATED)
def test_each_catalog_has_every_message_and_no_stale_one(language: str) -> None:
    expected = _keys(_read(catalogs.TEMPLATE))
    catalog = _read(catalogs.po_path(language), language)
    have = _keys(catalog)
    assert sorted(expected - have, key=str) == [], f"{language}: missing messages: run scripts/catalogs"
    assert sorted(have - expected, key=str) == [], f"{language}: stale messages: run scripts/catalogs"
    for message in catalog:
        if message.pluralizable:
            assert len(message.string) == catalog.num_plurals, f"{language}: {message.id!r} plural forms"


def field_mismatches(catalog: Catalog) -> list[str]:
    """Each translation whose {fields} differ from its message's."""
    wrong = []
    for message in catalog:
        if not message.id:
            continue
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        sources = message.id if isinstance(message.id, tuple) else (message.id,)
        needed = set().union(*(_fields(source) for source in sources))
        for form in filter(None, forms):
            fields = _fields(form)
            # A plural form may leave the count out ("every day"), never another field, nor add one.
            if fields - needed or (needed - {"count"}) - fields:
                wrong.append(f"{_singular(message)!r} -> {form!r}")
    return wrong


@pytest.mark.parametrize("language", TRANSLATED)
def test_translations_keep_the_fields_of_their_message(language: str) -> None:
    assert field_mismatches(_read(catalogs.po_path(language), language)) == []


def test_the_field_check_finds_a_lost_renamed_or_added_field() -> None:
    catalog = Catalog(locale="ru")
    catalog.add("{name} wins", "{name} побеждает")
    catalog.add("Table #{table}", "Стол")
    catalog.add("{player} left", "{name} ушёл")
    catalog.add("Done", "Готово {x}")
    catalog.add(("{count} day", "{count} days"), ("каждый день", "{count} дня", "{count} дней"))
    catalog.add(("{who}: {count} day", "{who}: {count} days"), ("{count} день", "", ""))
    assert field_mismatches(catalog) == [
        "'Table #{table}' -> 'Стол'",
        "'{player} left' -> '{name} ушёл'",
        "'Done' -> 'Готово {x}'",
        "'{who}: {count} day' -> '{count} день'",
    ]


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_message_is_translated(language: str) -> None:
    """Fails until the translators' pass (the lead fills the catalogs before this lands)."""
    missing = [
        _singular(message)
        for message in _read(catalogs.po_path(language), language)
        if message.id and not all(message.string if isinstance(message.string, tuple) else (message.string,))
    ]
    assert missing == [], f"{language}: {len(missing)} messages without a translation, e.g. {missing[:5]}"
