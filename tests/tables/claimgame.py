"""A toy game where one seat's move changes another's open decision: the vote, but a number
another seat has picked this round is no longer offered (1-4, so some always remain)."""

from __future__ import annotations

from engine.core import Action, Prompt
from tests.tables.votegame import VoteRules, VoteState


class ClaimRules(VoteRules):
    """Rules of the toy claim: simultaneous picks of 1-4, each number claimed by one seat at most."""

    id = "claim"
    name = "Claim"

    def prompts(self, state: VoteState) -> tuple[Prompt, ...]:
        """Every seat yet to pick, offered the numbers nobody has picked this round."""
        if state.round >= state.rounds:
            return ()
        taken = {pick for pick in state.picks if pick}
        options = tuple(Action.of("pick", n=n) for n in (1, 2, 3, 4) if n not in taken)
        return tuple(
            Prompt(seat, "pick", options, default=options[0])
            for seat, pick in enumerate(state.picks)
            if pick == 0
        )


RULES = ClaimRules()
