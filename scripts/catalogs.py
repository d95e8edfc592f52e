"""Refresh the message catalogs: locales/meeple.pot from the source and the command tree, then each .po.

The template holds what `pybabel extract -F babel.cfg -k N_` finds in the source (every
`w.gettext(...)`, `w.ngettext(...)` and `N_(...)`) and every string of the slash command tree
(names under their own context, descriptions, options and choices; `CatalogTranslator` looks
them up as written). Each language's .po is then updated from it as `pybabel update` does:
new messages come in untranslated, messages gone from the source leave.

Run it with `scripts/catalogs`; tests/test_catalogs.py fails when the committed files are stale.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
import tempfile
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po, write_po
from discord import app_commands

from engine.words import DOMAIN, LANGUAGES, LOCALES

ROOT = Path(__file__).resolve().parent.parent
TEMPLATE = LOCALES / f"{DOMAIN}.pot"
KEYWORDS = {**DEFAULT_KEYWORDS, "N_": None}
"""gettext's usual names, and N_ (a message kept as data): `-k N_`."""
PROJECT = "Meeple"


def po_path(language: str) -> Path:
    """A language's catalog: locales/<language>/LC_MESSAGES/meeple.po."""
    return LOCALES / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def source_messages() -> Iterator[tuple[str, int, str | tuple[str, ...], str | None]]:
    """(file, line, message, context) of every marked message of the source, as babel.cfg maps it."""
    with (ROOT / "babel.cfg").open(encoding="utf-8") as config:
        method_map, options_map = parse_mapping_cfg(config)
    for filename, lineno, message, _comments, context in extract_from_dir(
        str(ROOT), method_map, options_map, keywords=KEYWORDS
    ):
        yield filename, lineno, message, context


@contextlib.asynccontextmanager
async def offline_tree() -> AsyncIterator[app_commands.CommandTree[Any]]:
    """The bot's slash command tree, its cogs loaded on a database in memory, never connected."""
    import bot as botmod
    from cogs.platform.drawing import DrawingPool
    from settings import Settings
    from tables.store import Store

    DrawingPool.workers = 0  # no worker processes: nothing is drawn
    with tempfile.TemporaryDirectory() as folder:
        store = await Store.open(":memory:")
        client = botmod.MeepleBot(Settings(token="catalogs", db_path=Path(folder) / "meeple.db"), store=store)
        try:
            await client.load_cogs()
            yield client.tree
        finally:
            await client.close()
            await store.close()


async def command_messages() -> list[tuple[str | None, str]]:
    """(context, message) of every string of the slash command tree."""
    from cogs.platform.translator import catalog_messages

    async with offline_tree() as tree:
        return await catalog_messages(tree)


def template() -> Catalog:
    """The template every language's catalog is updated from."""
    catalog = Catalog(project=PROJECT, fuzzy=False)
    for filename, lineno, message, context in source_messages():
        catalog.add(message, locations=[(filename, lineno)], context=context)
    for context, message in asyncio.run(command_messages()):
        location = ("slash-command-tree", None)
        existing = catalog.get(message, context)
        if existing is not None:
            existing.locations.append(location)
        else:
            catalog.add(message, locations=[location], context=context)
    return catalog


def updated(language: str, pot: Catalog) -> Catalog:
    """A language's catalog brought in line with the template (translations kept, stale ones dropped)."""
    with po_path(language).open("rb") as source:
        catalog = read_po(source, locale=language, domain=DOMAIN)
    catalog.update(pot, no_fuzzy_matching=True)
    catalog.obsolete.clear()
    return catalog


def write(path: Path, catalog: Catalog) -> None:
    """Write a catalog as pybabel does, sorted by message and without line numbers, so a diff shows
    only what changed."""
    with path.open("wb") as out:
        write_po(out, catalog, sort_output=True, include_lineno=False, width=100)


def main() -> int:
    """Write locales/meeple.pot and update every language's .po from it."""
    pot = template()
    write(TEMPLATE, pot)
    print(f"{TEMPLATE.relative_to(ROOT)}: {len(pot)} messages")
    for language in LANGUAGES:
        if language == "en":
            continue
        catalog = updated(language, pot)
        write(po_path(language), catalog)
        done = sum(1 for message in catalog if message.id and message.string and all(message.string))
        print(f"{po_path(language).relative_to(ROOT)}: {done} of {len(pot)} translated")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
