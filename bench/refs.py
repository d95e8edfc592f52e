"""Run a bench on an older commit side by side: a temporary git worktree of that commit.

The scripts import it as a sibling module (`from refs import checkout`).
"""

from __future__ import annotations

import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


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
