"""Run a bench on an older commit side by side: a temporary git worktree of that commit.

The scripts import it as a sibling module (`from refs import checkout`).
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
HERE = Path(__file__).resolve().parent


@contextmanager
def checkout(ref: str) -> Iterator[Path]:
    """A detached worktree of `ref` for the duration of the block, removed afterwards."""
    with tempfile.TemporaryDirectory(prefix="bench-ref-") as tmp:
        tree = Path(tmp) / "tree"
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "add", "--detach", "--quiet", str(tree), ref],
            check=True,
            capture_output=True,
        )
        try:
            yield tree
        finally:
            subprocess.run(
                ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)],
                check=False,
                capture_output=True,
            )


def without_ref(argv: list[str]) -> list[str]:
    """The command line with its `--ref REF` pair left out (what runs on the other tree too)."""
    return [a for i, a in enumerate(argv) if a != "--ref" and (i == 0 or argv[i - 1] != "--ref")]


def measure_on(ref: str, module: str, argv: list[str]) -> Any:
    """`module.measure_args(argv)` (a bench's coroutine) run on `ref`'s code in a fresh process: its JSON."""
    with checkout(ref) as tree:
        code = (
            f"import sys, json, asyncio; sys.path[:0] = [{str(tree)!r}, {str(HERE)!r}]; "
            "import tables; assert tables.__file__.startswith(sys.path[0]), tables.__file__; "
            f"import {module} as b; print(json.dumps(asyncio.run(b.measure_args(sys.argv[1:]))))"
        )
        done = subprocess.run(
            [sys.executable, "-c", code, *argv], check=True, capture_output=True, text=True, cwd=tree
        )
    return json.loads(done.stdout.splitlines()[-1])


def engine_measure_on(ref: str, module: str, call: str) -> Any:
    """`module.<call>` (a call on engine code only, e.g. "measure(20)") run on `ref`'s engine: its JSON.

    Only engine/ is taken from `ref` (git archive), so benches that need nothing else skip a worktree.
    """
    with tempfile.TemporaryDirectory(prefix="bench-engine-") as tmp:
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", ref, "engine"], check=True, capture_output=True
        )
        subprocess.run(["tar", "-x", "-C", tmp], input=archive.stdout, check=True)
        code = (
            f"import sys, json; sys.path[:0] = [{tmp!r}, {str(HERE)!r}]; "
            f"import {module} as b; print(json.dumps(b.{call}))"
        )
        done = subprocess.run(
            [sys.executable, "-c", code], check=True, capture_output=True, text=True, cwd=tmp
        )
    return json.loads(done.stdout.splitlines()[-1])
