"""Troyes on Discord: each engine step is one row of choices labelled with what it costs and gives.

The labels read the prompt's kind, its options and its context, and fall back to plain words
for anything they do not know, so a new prompt kind of the engine still shows (plainly).
Labels are built from the public view only: a board message is seen by everyone.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from cogs.games._troyes_words import (
    BLACK_EMOJI,
    BUILDING_EMOJI,
    COLOUR_EMOJI,
    CUBE_WORDS,
    EVENT_EMOJI,
    LABEL_ROOM,
    METRIC_WORDS,
    bought_citizen,
    building_name,
    card_label,
    colour_word,
    cube_label,
    die_outcome,
    die_words,
    effect_of,
    event_label,
    find_die,
    group_result,
    owner_word,
    paid_so_far,
    spend_words,
    stated,
    sum_strength,
    target_emoji,
    target_name,
)
from cogs.games.base import Choice, GameUI, Tone
from engine.core import Action, ArgValue, Event, Outcome, Prompt, Scalar
from engine.troyes import groups, scoring
from engine.troyes.data import activities, board, characters
from engine.troyes.kinds import Colour, StepKind
from engine.troyes.state import Die, EventSlot, TroyesState
from engine.troyes.text import activation_yield, asked_yield
from engine.words import ENGLISH, Words, count, signed

TURN_STARTERS = frozenset({"round", "actions"})
"""Events after which the board is a new message: a new round, and the action phase."""

RULES_TEXT = "\n".join(
    (
        "**Troyes** (2-4 players; 4, 5 or 6 rounds): build the city of Troyes with"
        " dice: your citizens in the **Palace** (red), **Bishopric** (white) and **City Hall**"
        " (yellow) each bring one die of that colour every round.",
        "",
        "**A round**: new activity cards are revealed (rounds 1-3), everyone gets 10 deniers and"
        " pays wages for their citizens, all dice are rolled into their owners' districts, events"
        " arrive, and **black dice** attack.",
        "**Black dice**: from the start player, each player in turn must beat the highest black"
        " die with the total of their own dice (red dice count double), or lose 2 VP; after the"
        " highest you may beat others. Each black die beaten gives 1 influence.",
        "",
        "**Your action** (in turn, until everyone passed or no die is left): use a group of 1-3"
        " dice of one colour; your own dice are free, another player's die costs 2 deniers"
        " per die in the group, paid to its owner.",
        " • **Activity card** of the dice's colour: total ÷ divisor = activations. Your first use"
        " hires a tradesman (pay the card's cost, place a citizen on it).",
        " • **Event**: total ÷ divisor = cubes on its banners; most cubes win it (VP, Henry I).",
        " • **Cathedral**: white dice, one cube per die in the column of its value (VP, influence).",
        " • **Building**: one die places a citizen in the row of its value, pushing the row;"
        " the last one is expelled and lies there until the round ends.",
        " • **Agriculture**: yellow dice, total ÷ 2 = deniers.",
        "Influence, one kind before each action or black die: 1 re-rolls one of your dice (again"
        " and again), 4 turns up to 3 of them over (1↔6), 2 buys a citizen. **Pass** for 2 deniers"
        " (+1 each time you are passed over).",
        "",
        "**Secrets**: your victory points and your character stay hidden; press **My hand**."
        " At the end every character scores for everyone (citizens on buildings, cathedral"
        " cubes, deniers, influence, tradesmen or events won: 1/3/6 VP).",
        "**End**: after the last round: VP + tradesmen spaces + events with your cube + characters,"
        " -2 VP per cathedral level without your cube.",
        "",
        "The printed card numbers (costs, divisors, spaces, banners) are not public: Meeple uses"
        " estimates, listed in `engine/troyes/DATA.md` (values in `engine/troyes/data/`).",
        "`/play troyes` opens a table; `tiebreak` breaks ties by deniers, then influence.",
    )
)


# -- the mapping -------------------------------------------------------------------------


def _alone(key: str, label: str, emoji: str | None = None, tone: Tone = Tone.NORMAL) -> Choice:
    """An option that is its own group: one click plays it."""
    return Choice(key, label, label, emoji, tone)


def _context(prompt: Prompt) -> dict[str, ArgValue]:
    return dict(prompt.context)


def _chosen(view: TroyesState, prompt: Prompt) -> list[Die]:
    ids = _context(prompt).get("chosen", ())
    found = [find_die(view, i) for i in (ids if isinstance(ids, tuple) else (ids,))]
    return [d for d in found if d is not None]


class TroyesUI(GameUI):
    """How Troyes' prompts appear as buttons and selects."""

    game_id = "troyes"
    title = "Troyes"
    emoji = "🏰"
    rules_text = RULES_TEXT
    breakdown_labels = (
        ("VP tokens", "VP"),
        ("Tradesmen spaces", "tradesmen"),
        ("Uncountered events with a cube", "events"),
        ("Cathedral levels missing", "cathedral"),
    )
    breakdown_hidden = frozenset({"Total"})

    def choice(
        self, view: Any, prompt: Prompt, action: Action, names: Sequence[str], *, words: Words = ENGLISH
    ) -> Choice:
        # Troyes' labels and questions are not in the catalog yet: English whatever `words` says.
        """Every option is one click; its label says what it costs and what it gives."""
        kind, seat = action.kind, prompt.seat
        if kind == "back":
            return _alone("back", "Back", "⬅️")
        if kind == "pass":
            money = board().const("pass_deniers")
            return _alone("pass", f"Pass ({signed(money, 'denier', 'deniers')})", "⏭️", Tone.MAIN)
        if kind == "reroll":
            return _alone("reroll", f"Re-roll a die ({board().const('reroll_cost')} influence)", "🔄")
        if kind == "flip":
            return _alone("flip", f"Turn up to 3 dice over ({board().const('flip_cost')} influence)", "🔃")
        if kind == "citizen":
            pay = spend_words(prompt, action) or f"{board().const('citizen_cost')} influence"
            return _alone("citizen", f"New citizen ({pay})", "🧍")
        if kind == "target":
            hire = stated(prompt, action, "hire") if "hire" in _context(prompt) else None
            return self._target(view, seat, str(action["t"]), hire)
        if kind == "place":
            b, s = int(action["building"]), int(action["space"])
            return _alone(f"place:{b}:{s}", f"{building_name(b)}, space {s + 1}", BUILDING_EMOJI[b])
        if kind == "die":
            return self._die(view, prompt, action, names)
        if kind == "done":
            return self._done(view, prompt, names)
        if kind == "modifier":
            card = str(action["card"])
            if not card:
                return _alone("modifier:", "No cube", "▫️")
            spec = activities()[card]
            what = CUBE_WORDS.get(spec.effect, spec.text.rstrip("."))
            return _alone(f"modifier:{card}", f"Use a {spec.name} cube ({what})", "🧊")
        if kind == "source":
            return self._source(view, prompt, str(action["s"]), names)
        if kind == "activations":
            return self._activations(view, prompt, int(action["n"]))
        if kind == "event":
            index = int(action["index"])
            if prompt.kind in ("cube_on_event", "event_cube"):
                label = f"Cube on {cube_label(view, index)}"
            else:
                label = event_label(view, index)
            return _alone(f"event:{index}", label, EVENT_EMOJI)
        if kind == "concede":
            loss = -board().const("black_failure_vp")
            return _alone("concede", f"Do not counter (lose {loss} VP)", BLACK_EMOJI, Tone.RISKY)
        if kind == "black":
            return _alone(f"black:{action['value']}", f"Counter a black {action['value']} too", BLACK_EMOJI)
        if kind == "stop":
            label = "Stop countering" if prompt.kind.startswith("counter") else "Stop"
            return _alone("stop", label, "⏹️", Tone.MAIN)
        args = ", ".join(f"{k} {v}" for k, v in action.args)
        label = f"{kind.replace('_', ' ').capitalize()} {args}".strip()
        return _alone(f"other:{kind}:{args}", label)

    def _target(self, view: TroyesState, seat: int, target: str, hire: int | None = None) -> Choice:
        kind, index = groups.target_kind(target)
        emoji = target_emoji(view, target)
        if kind == "card":
            label = card_label(view, index, seat, hire)
        elif kind == "event":
            label = f"Fight {event_label(view, index)}" if index >= 0 else "Fight an event"
        elif kind == "cathedral":
            label = "Build in the cathedral (white dice)"
        elif kind == "building":
            colour = colour_word(board().buildings[index].colour)
            label = f"Citizen in the {building_name(index)} ({colour} die{bought_citizen(view, seat)})"
        elif kind == "agriculture":
            label = f"Agriculture: yellow, divide by {board().const('agriculture_divisor')} for deniers"
        else:
            label = target_name(view, target).capitalize()
        return _alone(f"target:{target}", label, emoji)

    def _die(self, view: TroyesState, prompt: Prompt, action: Action, names: Sequence[str]) -> Choice:
        seat = prompt.seat
        die = find_die(view, action["id"])
        if die is None:
            return _alone(f"die:{action['id']}", f"Die {action['id']}")
        emoji = COLOUR_EMOJI.get(die.colour.value)
        whose = owner_word(die.owner, seat, names)
        if prompt.kind == "reroll":
            pay = spend_words(prompt, action)
            return _alone(
                f"die:{die.id}", f"Re-roll your {die_words(die)}" + (f" ({pay})" if pay else ""), emoji
            )
        if prompt.kind == "flip":
            return _alone(f"die:{die.id}", f"Turn over your {die_words(die)} (→ {7 - die.value})", emoji)
        label = f"{whose} {die_words(die)}"
        if prompt.kind == "counter":
            if die.colour is Colour.RED:
                label += f" (counts {2 * die.value})"
            return _alone(f"die:{die.id}", label, emoji)
        chosen = _chosen(view, prompt)
        modifier = str(_context(prompt).get("modifier", "") or "")
        # The engine's price of the whole group once this die joins it (one per option).
        group = stated(prompt, action, "prices")
        if group != paid_so_far(prompt):
            label += f" (the group costs {count(group, 'denier', 'deniers')})"
        elif die.owner != seat:
            label += " (free: Tithe)" if effect_of(modifier) == "tithe" else ""
        target = str(_context(prompt).get("target", ""))
        if target:
            label += die_outcome(view, seat, target, modifier, [*chosen, die], names)
        return _alone(f"die:{die.id}", label, emoji)

    def _done(self, view: TroyesState, prompt: Prompt, names: Sequence[str]) -> Choice:
        context = _context(prompt)
        if prompt.kind == "flip":
            pay = spend_words(prompt, Action("done")) or f"{board().const('flip_cost')} influence"
            return _alone("done", f"Turn them over ({pay})", "🔃", Tone.MAIN)
        target = str(context.get("target", ""))
        if target:
            result = group_result(
                view,
                prompt.seat,
                target,
                str(context.get("modifier", "") or ""),
                _chosen(view, prompt),
                names,
            )
            pay = spend_words(prompt, Action("done"))
            label = f"Done: {result}" + (f"; {pay}" if pay else "")
            if len(label) > LABEL_ROOM:
                # The price must show: the yield's details give way ("2 activations" stays).
                label = f"Done: {result.split(':')[0]}" + (f"; {pay}" if pay else "")
            return _alone("done", label, "✅", Tone.GOOD)
        return _alone("done", "Done", "✅", Tone.GOOD)

    def _source(self, view: TroyesState, prompt: Prompt, source: str, names: Sequence[str]) -> Choice:
        pay = spend_words(prompt, Action.of("source", s=source))
        tail = f" ({pay})" if pay else ""
        parts = source.split(":")
        if source == "supply":
            return _alone("source:supply", f"From your supply{tail}", "🧍", Tone.MAIN)
        if source == "new":
            return _alone("source:new", f"Buy one{tail}", "🧍")
        if parts[0] == "b" and len(parts) == 3:
            label = f"Move your citizen from the {building_name(int(parts[1]))}, space {int(parts[2]) + 1}"
        elif parts[0] == "c" and len(parts) == 2:
            label = f"Move your tradesman from {target_name(view, f'card:{parts[1]}')}"
        elif parts[0] == "l" and len(parts) == 2:
            label = f"Your citizen lying on the {building_name(int(parts[1]))}"
        else:
            label = f"Citizen from {source}"
        return _alone(f"source:{source}", label + tail, "🧍")

    def _activations(self, view: TroyesState, prompt: Prompt, times: int) -> Choice:
        context = _context(prompt)
        target = str(context.get("target", ""))
        kind, index = groups.target_kind(target)
        card = context.get("card")
        if isinstance(card, str) and card in activities():
            # The engine's words for what this many activations give (the card's data).
            label = f"{times}×: {asked_yield(card, times)}"
        elif kind == "card" and 0 <= index < len(view.cards) and view.cards[index].id in activities():
            label = f"{times}×: {activation_yield(view, prompt.seat, index, times)}"
        else:
            label = f"{times}×"
        pay = spend_words(prompt, Action.of("activations", n=times))
        if pay:
            label += f"; in all: {pay}"
        return _alone(f"activations:{times}", label, None, Tone.GOOD if times > 1 else Tone.NORMAL)

    def question(self, view: Any, prompt: Prompt, names: Sequence[str], *, words: Words = ENGLISH) -> str:
        """What the player to move is asked, with the facts the choice depends on."""
        seat = prompt.seat
        who = f"**{names[seat]}**"
        context = _context(prompt)
        target = str(context.get("target", ""))
        chosen = _chosen(view, prompt)
        picked = ", ".join(die_words(d) for d in chosen)
        kind = prompt.kind
        if kind == "setup_place":
            return f"{who}: place one of your citizens on a free space of a building."
        if kind == "turn":
            player = view.players[seat]
            money = count(player.deniers, "denier", "deniers")
            return (
                f"{who}: your action (round {view.round}). You have {money},"
                f" {player.influence} influence, {count(player.supply, 'citizen', 'citizens')} in supply."
            )
        if kind == "counter":
            black = context.get("black", "?")
            have = f" Chosen: {picked} (strength {sum_strength(chosen)})." if chosen else ""
            return f"{who}: counter the black {black} with your own dice (red counts double).{have}"
        if kind == "counter_more":
            return f"{who}: you may counter another black die."
        if kind == "dice":
            place = target_name(view, target)
            modifier = str(context.get("modifier", "") or "")
            cube = f" with a {activities()[modifier].name} cube" if modifier in activities() else ""
            if chosen:
                result = group_result(view, seat, target, modifier, chosen, names)
                paid = paid_so_far(prompt)
                return (
                    f"{who}: dice for {place}{cube}. Chosen: {picked} ({result});"
                    f" the dice cost {count(paid, 'denier', 'deniers')} so far. Add a die or finish."
                )
            money = view.players[seat].deniers
            price = count(board().const("die_price"), "denier", "deniers")
            return (
                f"{who}: choose dice for {place}{cube} (yours are free; another's die costs"
                f" {price} per die in the group; you have {money})."
            )
        if kind == "modifier":
            return f"{who}: use one of your cubes on {target_name(view, target)}?"
        if kind == "citizen_from":
            return f"{who}: where does the citizen for {target_name(view, target)} come from?"
        if kind == "activations":
            return f"{who}: how many activations of {target_name(view, target)}?"
        if kind == "fight_which":
            return f"{who}: which event do you fight?"
        if kind in ("cube_on_event", "event_cube"):
            left = context.get("left", 1)
            return f"{who}: put a cube on an event ({left} to place)."
        if kind == "reroll":
            return f"{who}: which of your dice do you re-roll ({board().const('reroll_cost')} influence)?"
        if kind == "flip":
            have = f" Chosen: {picked}." if chosen else ""
            return f"{who}: choose up to 3 of your dice to turn over.{have}"
        return f"{who}: your move."

    def board_key(self, view: Any) -> object:
        """The spectators' view; while a player puts cubes on events one at a time, without those
        cubes and the influence each brings.

        Every cube is in the caption, and the buttons say each event's free banners, so the image
        drawn when the cubes began stays until the run ends or an event is countered (issue 33).
        """
        step = view.stack[-1] if view.stack else None
        if step is None or step.kind is not StepKind.EVENT_CUBE:
            return view
        held: TroyesState = view.copy()
        held.version, held.undo_seat, held.undo_depth = 0, None, 0
        held.queue = [EventSlot(id=slot.id) for slot in view.queue]
        held.stack[-1] = replace(step, count=0)
        if 0 <= step.seat < len(held.players):
            held.players[step.seat].influence = 0
        return ("cubes on events", held)

    def starts_turn(self, event: Event) -> bool:
        """A new round and the start of the actions get a new board message."""
        return event.kind in TURN_STARTERS

    def private_text(self, view: Any, seat: int, names: Sequence[str]) -> str:
        """The seat's victory points and character cards, which nobody else sees."""
        player = view.players[seat]
        lines = [f"🏆 Your victory points: **{player.vp}**"]
        for card_id in player.characters:
            card = characters().get(card_id)
            if card is None:
                continue
            offset = card.two_player_offset if view.seats == 2 else 0
            steps = "/".join(str(t + offset) for t in card.thresholds)
            vp = "/".join(str(v) for v in card.vp)
            now = scoring.metric(view, seat, card.metric)
            lines.append(
                f"🎭 Your character: **{card.name}**: at the end everyone scores {vp} VP for"
                f" {steps} {METRIC_WORDS.get(card.metric, card.metric.replace('_', ' '))}"
                f" (you: {now} now, {scoring.character_vp(view, seat, card)} VP)."
            )
        cubes = ", ".join(
            f"{activities()[c].name} ×{n}" for c, n in sorted(player.cubes.items()) if c in activities()
        )
        if cubes:
            lines.append(f"🧊 Your cubes: {cubes}")
        return "\n".join(lines)

    def option_summary(self, options: Mapping[str, Scalar], *, words: Words = ENGLISH) -> str:
        """The tie rule in play."""
        if options.get("tiebreak"):
            return "Ties are broken by deniers, then influence"
        return "Tied players share the victory"

    def final_reveal(self, view: Any, names: Sequence[str]) -> str:
        """Each player's character cards, secret until now."""
        parts = []
        for seat, player in enumerate(view.players):
            held = [characters()[c].name for c in player.characters if c in characters()]
            if held:
                name = names[seat] if seat < len(names) else f"Player {seat + 1}"
                parts.append(f"**{name}**: {', '.join(held)}")
        return "🎭 Characters: " + " · ".join(parts) if parts else ""

    def result_line(self, outcome: Outcome) -> str:
        """Nothing more: the scores name the winners (the engine's summary says "Player N")."""
        return ""


UI = TroyesUI()
