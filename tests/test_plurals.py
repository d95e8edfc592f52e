"""Every number in user-facing text agrees with its noun through the catalog's plural forms.

Two scans. The catalog's: every message extracted from the source and the command tree
(scripts/catalogs) with a count, a {count} field or a placeholder followed by a plural noun
("{n} turns"), must be an ngettext message, whose plural forms the catalog gives per language
(Russian and Polish have three). The source's: every message template of the packages users
see text from (cogs/, tables/, renderers/, and each game's text modules) fails on a plural made
by hand: a count placeholder followed by a plural noun (f"{n} turns"), `"s" if ...`, `+ "s"`
or "(s)".
"""

from __future__ import annotations

import ast
import itertools
import re
import string
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
OPERATOR_ONLY = frozenset({ROOT / "tables/copy.py"})
"""Modules whose text only the operator reads, in English, on a terminal (`python -m tables.copy`)."""
SCANNED = sorted(
    {
        *ROOT.glob("cogs/**/*.py"),
        *ROOT.glob("tables/**/*.py"),
        *ROOT.glob("renderers/**/*.py"),
        *ROOT.glob("engine/*/text.py"),
    }
    - OPERATOR_ONLY
)

NOT_COUNTS = frozenset(
    [
        "is",
        "was",
        "has",
        "does",
        "needs",
        "wins",
        "this",
        "yours",
        "adds",
        "activates",
        "becomes",
        "begins",
        "builds",
        "busts",
        "clears",
        "counters",
        "earns",
        "ends",
        "farms",
        "gains",
        "gets",
        "harvests",
        "holds",
        "lets",
        "opts",
        "passes",
        "pays",
        "places",
        "puts",
        "receives",
        "rolls",
        "seeds",
        "spends",
        "takes",
        "uses",
        "bonus",
        "collects",
        "moments",
        "counts",
        "runs",
        "plus",
    ]
)
"""Words ending in s that follow a placeholder but are no counted noun (verbs after a name)."""

ADJECTIVES = frozenset(
    ["more", "rated", "earlier", "other", "free", "plain", "new", "extra", "black", "white", "gold"]
)
"""Words that may stand between a count and its noun ("{n} rated games")."""
PARENTHESISED = re.compile(r"[A-Za-z]\(s\)")


def counted_noun(text: str) -> str | None:
    """The plural noun a placeholder followed by `text` counts ("{n} turns", "{n} more players"), if any."""
    words = re.findall(r"[A-Za-z]+", text.split(",")[0])[:2] if text.startswith(" ") else []
    if words and words[0].endswith("s") and words[0].lower() not in NOT_COUNTS:
        return words[0]
    if len(words) == 2 and words[0] in ADJECTIVES and words[1].endswith("s") and words[1] not in NOT_COUNTS:
        return f"{words[0]} {words[1]}"
    return None


def hand_made_plurals(source: str) -> list[tuple[int, str]]:
    """(line, what) for each plural built by hand in `source`."""
    found: list[tuple[int, str]] = []
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            for before, after in itertools.pairwise(node.values):
                if isinstance(before, ast.FormattedValue) and isinstance(after, ast.Constant):
                    noun = counted_noun(str(after.value))
                    if noun is not None:
                        found.append((node.lineno, f"{{...}} {noun}"))
                    elif re.match(r"(e?s)\b", str(after.value)):
                        found.append((node.lineno, "{word}s"))
        elif isinstance(node, ast.IfExp):
            for branch in (node.body, node.orelse):
                if isinstance(branch, ast.Constant) and branch.value in ("s", "es"):
                    found.append((node.lineno, f'"{branch.value}" if ...'))
        elif (
            isinstance(node, ast.BinOp)
            and isinstance(node.op, ast.Add)
            and isinstance(node.right, ast.Constant)
            and node.right.value in ("s", "es")
        ):
            found.append((node.lineno, '+ "s"'))
        if (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and PARENTHESISED.search(node.value)
        ):
            found.append((node.lineno, "(s)"))
    return found


def counts_without_plural_forms(messages: list[tuple[str | tuple[str, ...], str | None]]) -> list[str]:
    """The singular (not ngettext) messages that say a count: a {count} field, or a placeholder
    followed by a plural noun ("{n} turns", "{n} rated games")."""
    found = []
    for message, _context in messages:
        if isinstance(message, tuple):
            continue
        parsed = list(string.Formatter().parse(message))
        if any(name == "count" for _, name, _, _ in parsed):
            found.append(message)
            continue
        for (_, name, _, _), (after, _, _, _) in itertools.pairwise(parsed):
            if name is not None and counted_noun(after) is not None:
                found.append(message)
                break
    return found


def test_every_message_with_a_count_has_plural_forms() -> None:
    sys.path.insert(0, str(ROOT / "scripts"))
    import catalogs

    messages = [(message.id, message.context) for message in catalogs.template() if message.id]
    assert counts_without_plural_forms(messages) == [], "say a count with w.ngettext (plural forms)"


@pytest.mark.parametrize(
    ("message", "counted"),
    [
        ("{count} turns", True),
        ("after {games} rated games", True),
        ("{name} wins", False),
        (("{count} turn", "{count} turns"), False),
        ("Table #{table}", False),
    ],
)
def test_the_catalog_scan_finds_a_count_said_without_plural_forms(
    message: str | tuple[str, ...], counted: bool
) -> None:
    assert bool(counts_without_plural_forms([(message, None)])) is counted


def test_no_message_template_makes_a_plural_by_hand() -> None:
    problems = [
        f"{path.relative_to(ROOT)}:{line}: {what}"
        for path in SCANNED
        for line, what in hand_made_plurals(path.read_text())
    ]
    assert problems == [], "say a count with w.ngettext:\n" + "\n".join(problems)


@pytest.mark.parametrize(
    "source",
    [
        'f"{n} turns"',
        'f"after {rating.games} rated games"',
        "f\"{n} game{'s' if n != 1 else ''}\"",
        '"player" + ("s" if need > 1 else "")',
        'word + "s"',
        'f"{count} {word}s"',
        '"… 3 earlier event(s)"',
    ],
)
def test_the_scan_finds_each_kind_of_hand_made_plural(source: str) -> None:
    assert hand_made_plurals(source)


@pytest.mark.parametrize("source", ['f"{name} wins"', "f\"{count(n, 'turn', 'turns')}\"", 'f"{n} dice"'])
def test_the_scan_lets_verbs_and_helpers_through(source: str) -> None:
    assert not hand_made_plurals(source)
