"""Run the real `bot.py` as a child process against the fake, with bounded waits."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# Settings the child must not inherit from the developer's shell.
_SCRUBBED = ("DISCORD_TOKEN", "MEEPLE_DB", "MEEPLE_LOG_LEVEL", "MEEPLE_DEV_GUILD", "MEEPLE_BOT_DELAY")


def child_env(**settings: str) -> dict[str, str]:
    """The parent's environment without Meeple settings, plus `settings`."""
    env = {k: v for k, v in os.environ.items() if k not in _SCRUBBED and not k.startswith("MEEPLE_")}
    env["PYTHONUNBUFFERED"] = "1"
    env.update(settings)
    return env


class BotProcess:
    """`python bot.py` in `cwd`, its output (stdout and stderr together) in a log file."""

    def __init__(self, env: dict[str, str], cwd: Path, log_path: Path) -> None:
        self.env = env
        self.cwd = cwd
        self.log_path = log_path
        self.proc: asyncio.subprocess.Process | None = None

    async def start(self) -> None:
        """Start the child."""
        with self.log_path.open("ab") as log:
            log.write(b"\n--- start ---\n")
            self.proc = await asyncio.create_subprocess_exec(
                sys.executable,
                str(ROOT / "bot.py"),
                cwd=self.cwd,
                env=self.env,
                stdin=asyncio.subprocess.DEVNULL,
                stdout=log,
                stderr=asyncio.subprocess.STDOUT,
            )

    def output(self) -> str:
        """Everything the child printed so far."""
        return self.log_path.read_text(encoding="utf-8", errors="replace") if self.log_path.exists() else ""

    async def wait_output(self, text: str, timeout: float = 15.0, *, after: int = 0) -> None:
        """Wait until `text` appears in the output past offset `after`, or fail if the child exits."""
        deadline = time.monotonic() + timeout
        while text not in self.output()[after:]:
            if self.proc is not None and self.proc.returncode is not None:
                raise AssertionError(
                    f"bot.py exited with {self.proc.returncode} before {text!r}:\n{self.output()}"
                )
            if time.monotonic() > deadline:
                raise TimeoutError(f"no {text!r} from bot.py within {timeout} s:\n{self.output()}")
            await asyncio.sleep(0.05)

    async def wait_exit(self, timeout: float = 15.0) -> int:
        """Wait for the child to exit on its own; return its status."""
        assert self.proc is not None
        try:
            return await asyncio.wait_for(self.proc.wait(), timeout)
        except TimeoutError:
            await self.kill()
            raise AssertionError(f"bot.py did not exit within {timeout} s:\n{self.output()}") from None

    async def terminate(self, timeout: float = 15.0, sig: int = signal.SIGTERM) -> int:
        """Send SIGTERM (or `sig`) and wait for the child to exit; return its status."""
        assert self.proc is not None
        if self.proc.returncode is None:
            self.proc.send_signal(sig)
        return await self.wait_exit(timeout)

    async def kill(self) -> None:
        """Kill the child if it still runs (used on failure)."""
        if self.proc is not None and self.proc.returncode is None:
            self.proc.kill()
            await self.proc.wait()
