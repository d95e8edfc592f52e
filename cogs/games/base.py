"""What a game's mapping module tells the generic turn UI: labels, grouping, emoji, help text."""

from __future__ import annotations

import enum
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from engine.core import Action, Event, Outcome, Prompt, Scalar
from engine.words import ENGLISH, Words


class Tone(enum.Enum):
    """How prominent a choice is (mapped to a button style)."""

    NORMAL = "normal"
    MAIN = "main"
    """The usual next step (blurple)."""
    GOOD = "good"
    """Scores or finishes something (green)."""
    RISKY = "risky"
    """Spends or destroys something (red)."""


@dataclass(frozen=True, slots=True)
class Choice:
    """How one option of a prompt appears.

    Options sharing a `group` are shown together in a second step ("choose a die, then
    where it goes"); a group with a single option is one button that plays it at once.
    """

    group: str
    """A stable key; options with the same key form one group."""
    group_label: str
    """The first-step label of the group, e.g. "Red 5"."""
    label: str
    """The second-step label of this option, e.g. "Ann's tomato 2 (new seed)"."""
    emoji: str | None = None
    tone: Tone = Tone.NORMAL
    alone_label: str | None = None
    """The label when the group holds only this option; defaults to "group: label"."""
    menu: str | None = None
    """With `GameUI.menu_budget`: groups naming the same menu fold into one select of the
    first step (its placeholder), e.g. every karma action behind "Spend karma"."""

    @property
    def single_label(self) -> str:
        """The label of a one-option group's button."""
        if self.alone_label is not None:
            return self.alone_label
        if self.label == self.group_label:
            return self.label
        return f"{self.group_label}: {self.label}"


class GameUI(ABC):
    """A game's presentation on Discord: everything game-specific the platform needs."""

    game_id: ClassVar[str]
    """The engine's game id (engine.games)."""
    title: ClassVar[str]
    """The game's name as players know it."""
    emoji: ClassVar[str]
    """One emoji for the game (thread names, lobby)."""
    rules_text: ClassVar[str]
    """A concise rules summary for `/rules` (Discord markdown, under 4000 characters)."""
    breakdown_labels: ClassVar[tuple[tuple[str, str], ...]] = ()
    """Outcome.breakdown keys in the order to show, with their labels."""
    breakdown_hidden: ClassVar[frozenset[str]] = frozenset()
    """Outcome.breakdown keys left out of the final scores (a total the score already says)."""
    optional_choices: ClassVar[str | None] = None
    """What the game's optional decisions (Prompt.optional) are, in words; None if it has none."""
    menu_budget: ClassVar[int | None] = None
    """At most this many components to read on a screen of one player's turn, or None.

    When set, the first step folds `Choice.menu` groups into selects and shows each `direct`
    group's options as buttons (one click each), as one select per group (one click), or as
    one button per group opening a second step, whichever fits the budget first; equal
    labels are shown once, and a second step pages to stay within the budget.
    """

    @abstractmethod
    def choice(
        self, view: Any, prompt: Prompt, action: Action, names: Sequence[str], *, words: Words = ENGLISH
    ) -> Choice:
        """How `action` (one of `prompt.options`) appears to the player deciding it.

        Labels are plain text, in `words` (the table's language): `names` are the players'
        names as typed, on one line.
        """

    @abstractmethod
    def question(self, view: Any, prompt: Prompt, names: Sequence[str], *, words: Words = ENGLISH) -> str:
        """One line saying what the player to move is asked now (markdown: `names` come escaped)."""

    def direct(self, group: Choice) -> bool:
        """Whether a group's options may each get a first-step button (one click instead of two)
        when every such option fits on the first page; False by default."""
        return False

    def group_question(self, view: Any, prompt: Prompt, group: Choice, *, words: Words = ENGLISH) -> str:
        """One line for the second step, once the player picked `group`."""
        return words.gettext("{choice}: choose one.", choice=group.group_label)

    def select_placeholder(self, group: Choice, *, words: Words = ENGLISH) -> str:
        """The placeholder of a select holding one group's options (see `menu_budget`)."""
        return words.gettext("{choice}…", choice=group.group_label)

    def starts_turn(self, event: Event) -> bool:
        """Whether this event begins a new turn (a new board message), even for the same seat."""
        return False

    def board_key(self, view: Any) -> object:
        """What the thread's board image must show anew when it changes (compared with ==).

        Within a turn, an edit keeps the image while this stays equal: what changed meanwhile
        (a roll, a choice being made) shows in the caption and the buttons. The whole
        spectators' view by default.
        """
        return view

    def render_options(self, view: Any, seat: int, prompt: Prompt | None) -> Mapping[str, Any]:
        """Extra keywords for the game's renderer when the board is drawn for `seat`.

        `view` is what that seat sees and `prompt` its open decision, if any; none by default.
        """
        return {}

    def private_text(self, view: Any, seat: int, names: Sequence[str], *, words: Words = ENGLISH) -> str:
        """What only `seat` may know, in words, for the "My hand" answer (markdown: `names` come escaped)."""
        return ""

    def option_summary(self, options: Mapping[str, Scalar], *, words: Words = ENGLISH) -> str:
        """The table options in a few words for the lobby message."""
        return ", ".join(f"{key}={value}" for key, value in sorted(options.items()))

    def final_reveal(self, view: Any, names: Sequence[str], *, words: Words = ENGLISH) -> str:
        """What stayed hidden during the game, told under the final scores; empty for none.

        `view` is the spectators' view of the finished game (nothing is hidden any more);
        `names` come escaped for markdown.
        """
        return ""

    def result_line(self, outcome: Outcome, view: Any, *, words: Words = ENGLISH) -> str:
        """An extra line under the final scores (solo results, for example) of the finished game's
        spectators' `view`; empty for none."""
        return outcome.summary
