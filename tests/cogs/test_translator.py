"""Slash commands in every language: what the translator gives Discord when the tree is synced."""

from __future__ import annotations

import gettext
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import discord
import pytest
from discord import app_commands

from cogs.platform import translator as translator_module
from cogs.platform.translator import NAME_CONTEXT, CatalogTranslator, valid_name
from engine.words import Words
from tests.cogs.conftest import Harness

sys.path.insert(0, str(Path(__file__).resolve().parent.parent.parent / "scripts"))

import catalogs

LANGUAGE_LOCALES = {"ru": discord.Locale.russian, "pl": discord.Locale.polish, "ko": discord.Locale.korean}


class Pseudo(gettext.NullTranslations):
    """A catalog that translates every message: names to Cyrillic capitals (the translator must
    lower them), a few to names Discord would refuse, descriptions to a longer text."""

    REFUSED = frozenset({"settings", "games"})

    def gettext(self, message: str) -> str:
        return f"Ж {message}"

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return f"Ж {singular if n == 1 else plural}"

    def pgettext(self, context: str, message: str) -> str:
        if context != NAME_CONTEXT:
            return self.gettext(message)
        return f"два слова {message}" if message in self.REFUSED else f"Ж{message.upper()}"


def payload_strings(payload: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, str]]]:
    """(kind, English, localizations) of a command's payload, options and choices, recursively."""
    yield "name", payload["name"], payload.get("name_localizations") or {}
    if ("description" in payload and payload.get("type", 1) == 1) or "options" in payload:
        yield "description", payload.get("description", ""), payload.get("description_localizations") or {}
    for option in payload.get("options", []):
        yield from payload_strings(option)
    for choice in payload.get("choices", []):
        yield "choice", choice["name"], choice.get("name_localizations") or {}


async def translated_payloads(tree: app_commands.CommandTree[Any]) -> list[dict[str, Any]]:
    translator = CatalogTranslator()
    return [await command.get_translated_payload(tree, translator) for command in tree.get_commands()]


def same_names(options: list[dict[str, Any]], where: str) -> list[str]:
    """Names two siblings share in some language (Discord refuses the whole sync then)."""
    wrong = []
    for locale in discord.Locale:
        names = [o.get("name_localizations", {}).get(locale.value, o["name"]) for o in options]
        wrong.extend(
            f"{where}: two {locale.value} names {name!r}" for name in set(names) if names.count(name) > 1
        )
    for option in options:
        wrong.extend(same_names(option.get("options", []), f"{where} {option['name']}"))
    return wrong


def check_limits(payloads: list[dict[str, Any]]) -> list[str]:
    """Every localized name and text within Discord's rules, and no two siblings named alike."""
    wrong = same_names(payloads, "/")
    for payload in payloads:
        for kind, english, localized in payload_strings(payload):
            for locale, text in localized.items():
                if kind == "name" and not valid_name(text):
                    wrong.append(f"{locale} name {text!r} of {english!r}")
                elif kind != "name" and not 1 <= len(text) <= 100:
                    wrong.append(f"{locale} {kind} {text!r} of {english!r}")
    return wrong


async def test_every_command_in_every_language_keeps_discords_rules() -> None:
    async with catalogs.offline_tree() as tree:
        payloads = await translated_payloads(tree)
    assert len(payloads) >= 5
    assert check_limits(payloads) == []


async def test_every_string_of_every_command_is_translated_and_names_follow_the_rule(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(translator_module, "words", lambda language: Words(language, Pseudo()))
    async with catalogs.offline_tree() as tree:
        payloads = await translated_payloads(tree)
    assert check_limits(payloads) == []
    untranslated = []
    for payload in payloads:
        for kind, english, localized in payload_strings(payload):
            if english in Pseudo.REFUSED and kind == "name":
                assert localized == {}, "a name Discord would refuse falls back to the English"
                continue
            if english in catalogs_language_names():
                assert localized == {}, "a language is named in its own words everywhere"
                continue
            for language, locale in LANGUAGE_LOCALES.items():
                if localized.get(locale.value) is None:
                    untranslated.append(f"{language} {kind} {english!r}")
            assert discord.Locale.american_english.value not in localized, "English is the tree's own text"
    assert untranslated == []
    play = next(p for p in payloads if p["name"] == "play")
    buttons = next(o for o in play["options"] if o["name"] == "buttons")
    assert buttons["name_localizations"]["ru"] == "жbuttons", "lower case, as Discord requires"
    described = buttons["description_localizations"]["ko"]
    assert described == "Ж Open a Ж Buttons table (2-4 players) in this channel", (
        "worded at sync, with its count"
    )


def catalogs_language_names() -> set[str]:
    from cogs.platform.text import LANGUAGE_NAMES

    return set(LANGUAGE_NAMES.values())


@pytest.mark.parametrize(
    ("name", "valid"),
    [
        ("играть", True),
        ("게임", True),
        ("zażółć_gęślą-1", True),
        ("Играть", False),
        ("two words", False),
        ("", False),
        ("a" * 33, False),
        ("नमस्ते", True),
        ("emoji🎲", False),
    ],
)
def test_discords_naming_rule(name: str, valid: bool) -> None:
    assert valid_name(name) is valid


async def test_the_bot_syncs_its_commands_through_the_translator(world: Harness) -> None:
    assert isinstance(world.bot.tree.translator, CatalogTranslator)


def test_two_siblings_named_alike_in_a_language_are_found() -> None:
    options = [
        {"name": "play", "name_localizations": {"ru": "игра"}},
        {"name": "game", "name_localizations": {"ru": "игра"}, "options": [{"name": "x"}, {"name": "x"}]},
    ]
    found = same_names(options, "/")
    assert "/: two ru names 'игра'" in found and "/ game: two en-US names 'x'" in found
    assert len(found) == 1 + len(discord.Locale), "the English name counts where there is no other"
