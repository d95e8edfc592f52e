"""Regenerate every golden playthrough: `.venv/bin/python -m tests.golden`."""

from tests.golden.playthrough import FOLDER, regenerate

if __name__ == "__main__":
    for stale in FOLDER.glob("*.txt"):
        stale.unlink()
    for path in regenerate():
        print(path.relative_to(FOLDER.parents[2]))
