"""Slash commands in each user's language: discord.py's Translator over Meeple's message catalogs.

Discord shows each user the command, option and choice names and descriptions of their client's
language, from the localizations the bot sends when it syncs the tree. Every string of the tree
is looked up in the catalog as written in English (its `locale_str` message); a name under a
context of its own (names follow Discord's naming rule, so translators write them apart). A
string whose words are made at run time carries its wording in its extras: `said`, a function
of the reader's Words (so its message, with a count or a game's title, is written in the source).
"""

from __future__ import annotations

import logging
import unicodedata
from collections.abc import Callable
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

from engine.words import LANGUAGES, Words, language_of, words

log = logging.getLogger("meeple.cogs.translator")

NAME_CONTEXT = "slash command name"
"""The catalog context of command, group and option names (lower case, no spaces, at most 32)."""
NAMES = frozenset({Where.command_name, Where.group_name, Where.parameter_name})
"""Where a string is a name, which Discord checks against its naming rule."""
NAME_LIMIT = 32
DESCRIPTION_LIMIT = 100
"""Discord: a description or a choice's name is at most 100 characters."""
DEVANAGARI = range(0x0900, 0x0980)
THAI = range(0x0E00, 0x0E80)

Said = Callable[[Words], str]
"""A string of the tree worded at run time: given the reader's Words, the text."""


def said(english: str, wording: Said) -> app_commands.locale_str:
    """A tree string whose text is `wording` in each language (`english` is the default text)."""
    return app_commands.locale_str(english, said=wording)


def untranslated(text: str) -> app_commands.locale_str:
    """A tree string said the same in every language (a language's own name)."""
    return said(text, lambda _: text)


def valid_name(name: str) -> bool:
    """Whether Discord accepts `name` as a localized name: ^[-_\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$,
    lower case where the letter has a lower case."""
    if not 1 <= len(name) <= NAME_LIMIT or name != name.lower():
        return False
    return all(
        char in "-_" or unicodedata.category(char)[0] in "LN" or ord(char) in DEVANAGARI or ord(char) in THAI
        for char in name
    )


def wording(string: app_commands.locale_str, where: Where, w: Words) -> str:
    """The string in `w`'s language (the English if the catalog has no translation of it)."""
    worded = string.extras.get("said")
    if worded is not None:
        return str(worded(w))
    if where in NAMES:
        return w.pgettext(NAME_CONTEXT, string.message)
    return w.gettext(string.message)


class CatalogTranslator(app_commands.Translator):
    """Translates the command tree from the catalogs when it is synced; English is the tree itself."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        """The string in `locale`'s language, or None where Meeple has no other words for it."""
        language = language_of(locale.value)
        if language == "en" or language not in LANGUAGES:
            return None  # English is the tree's own text: Discord falls back to it
        where = context.location
        text = wording(string, where, words(language))
        if text == string.message:
            return None
        if where in NAMES:
            text = text.lower()
            if not valid_name(text):
                # A name Discord would refuse fails the whole sync: keep the English one instead.
                log.warning("%s name %r for %r breaks Discord's naming rule", language, text, string.message)
                return None
            return text
        return text[:DESCRIPTION_LIMIT]


class _Recorder(app_commands.Translator):
    """A translator that translates nothing and notes every string discord.py asks it about."""

    def __init__(self) -> None:
        super().__init__()
        self.asked: dict[tuple[Where, str], app_commands.locale_str] = {}

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        self.asked.setdefault((context.location, string.message), string)
        return None


async def tree_strings(
    tree: app_commands.CommandTree[Any],
) -> list[tuple[Where, app_commands.locale_str]]:
    """Every string of the tree discord.py has translated: names, descriptions, options and choices."""
    recorder = _Recorder()
    for command in tree.get_commands():
        await command.get_translated_payload(tree, recorder)
    return [(where, string) for (where, _), string in recorder.asked.items()]


async def catalog_messages(tree: app_commands.CommandTree[Any]) -> list[tuple[str | None, str]]:
    """(context, message) of each tree string the catalog holds as written (not worded at run time)."""
    found: dict[tuple[str | None, str], None] = {}
    for where, string in await tree_strings(tree):
        if "said" not in string.extras:
            found[(NAME_CONTEXT if where in NAMES else None, string.message)] = None
    return list(found)
