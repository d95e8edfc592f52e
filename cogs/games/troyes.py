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
from engine.core import Action, ArgValue, Event, Outcome, Prompt, Scalar, player_name
from engine.troyes import groups, scoring
from engine.troyes.data import activities, board, characters
from engine.troyes.kinds import Colour, StepKind
from engine.troyes.state import Die, EventSlot, TroyesState
from engine.troyes.text import activation_yield, an, asked_yield, deniers_change
from engine.words import ENGLISH, N_, Words

TURN_STARTERS = frozenset({"round", "actions"})
"""Events after which the board is a new message: a new round, and the action phase."""

RULES_TEXT = N_(
    "**Troyes** (2-4 players; 4, 5 or 6 rounds): build the city of Troyes with"
    " dice: your citizens in the **Palace** (red), **Bishopric** (white) and **City Hall**"
    " (yellow) each bring one die of that colour every round.\n"
    "\n"
    "**A round**: new activity cards are revealed (rounds 1-3), everyone gets 10 deniers and"
    " pays wages for their citizens, all dice are rolled into their owners' districts, events"
    " arrive, and **black dice** attack.\n"
    "**Black dice**: from the start player, each player in turn must beat the highest black"
    " die with the total of their own dice (red dice count double), or lose 2 VP; after the"
    " highest you may beat others. Each black die beaten gives 1 influence.\n"
    "\n"
    "**Your action** (in turn, until everyone passed or no die is left): use a group of 1-3"
    " dice of one colour; your own dice are free, another player's die costs 2 deniers"
    " per die in the group, paid to its owner.\n"
    " • **Activity card** of the dice's colour: total ÷ divisor = activations. Your first use"
    " hires a tradesman (pay the card's cost, place a citizen on it).\n"
    " • **Event**: total ÷ divisor = cubes on its banners; most cubes win it (VP, Henry I).\n"
    " • **Cathedral**: white dice, one cube per die in the column of its value (VP, influence).\n"
    " • **Building**: one die places a citizen in the row of its value, pushing the row;"
    " the last one is expelled and lies there until the round ends.\n"
    " • **Agriculture**: yellow dice, total ÷ 2 = deniers.\n"
    "Influence, one kind before each action or black die: 1 re-rolls one of your dice (again"
    " and again), 4 turns up to 3 of them over (1↔6), 2 buys a citizen. **Pass** for 2 deniers"
    " (+1 each time you are passed over).\n"
    "\n"
    "**Secrets**: your victory points and your character stay hidden; press **My hand**."
    " At the end every character scores for everyone (citizens on buildings, cathedral"
    " cubes, deniers, influence, tradesmen or events won: 1/3/6 VP).\n"
    "**End**: after the last round: VP + tradesmen spaces + events with your cube + characters,"
    " -2 VP per cathedral level without your cube.\n"
    "\n"
    "The printed card numbers (costs, divisors, spaces, banners) are not public: Meeple uses"
    " estimates, listed in `engine/troyes/DATA.md` (values in `engine/troyes/data/`).\n"
    "`/play troyes` opens a table; `tiebreak` breaks ties by deniers, then influence."
)


# -- the mapping -------------------------------------------------------------------------


def _alone(key: str, label: str, emoji: str | None = None, tone: Tone = Tone.NORMAL) -> Choice:
    """An option that is its own group: one click plays it."""
    return Choice(key, label, label, emoji, tone)


def _context(prompt: Prompt) -> dict[str, ArgValue]:
    return dict(prompt.context)


def _done_label(result: str, pay: str, w: Words) -> str:
    """ "Done: 2 activations: +4 deniers; pay 2 deniers"."""
    if pay:
        return w.gettext("Done: {result}; {pay}", result=result, pay=pay)
    return w.gettext("Done: {result}", result=result)


def _chosen(view: TroyesState, prompt: Prompt) -> list[Die]:
    ids = _context(prompt).get("chosen", ())
    found = [find_die(view, i) for i in (ids if isinstance(ids, tuple) else (ids,))]
    return [d for d in found if d is not None]


class TroyesUI(GameUI):
    """How Troyes' prompts appear as buttons and selects."""

    game_id = "troyes"
    title = N_("Troyes")
    emoji = "🏰"
    rules_text = RULES_TEXT
    breakdown_labels = (
        ("VP tokens", N_("VP")),
        ("Tradesmen spaces", N_("tradesmen")),
        ("Uncountered events with a cube", N_("events")),
        ("Cathedral levels missing", N_("cathedral")),
    )
    breakdown_hidden = frozenset({"Total"})

    def choice(
        self, view: Any, prompt: Prompt, action: Action, names: Sequence[str], *, words: Words = ENGLISH
    ) -> Choice:
        """Every option is one click; its label says what it costs and what it gives."""
        w = words
        kind, seat = action.kind, prompt.seat
        if kind == "back":
            return _alone("back", w.gettext("Back"), "⬅️")
        if kind == "pass":
            money = deniers_change(board().const("pass_deniers"), words=w)
            return _alone("pass", w.gettext("Pass ({money})", money=money), "⏭️", Tone.MAIN)
        if kind == "reroll":
            cost = board().const("reroll_cost")
            label = w.ngettext("Re-roll a die ({count} influence)", "Re-roll a die ({count} influence)", cost)
            return _alone("reroll", label, "🔄")
        if kind == "flip":
            cost = board().const("flip_cost")
            label = w.ngettext(
                "Turn up to 3 dice over ({count} influence)",
                "Turn up to 3 dice over ({count} influence)",
                cost,
            )
            return _alone("flip", label, "🔃")
        if kind == "citizen":
            cost = board().const("citizen_cost")
            pay = spend_words(prompt, action, w) or w.ngettext("{count} influence", "{count} influence", cost)
            return _alone("citizen", w.gettext("New citizen ({pay})", pay=pay), "🧍")
        if kind == "target":
            hire = stated(prompt, action, "hire") if "hire" in _context(prompt) else None
            return self._target(view, seat, str(action["t"]), hire, w)
        if kind == "place":
            b, s = int(action["building"]), int(action["space"])
            label = w.gettext("{building}, space {space}", building=building_name(b, w), space=s + 1)
            return _alone(f"place:{b}:{s}", label, BUILDING_EMOJI[b])
        if kind == "die":
            return self._die(view, prompt, action, names, w)
        if kind == "done":
            return self._done(view, prompt, names, w)
        if kind == "modifier":
            card = str(action["card"])
            if not card:
                return _alone("modifier:", w.gettext("No cube"), "▫️")
            spec = activities()[card]
            what = (
                w.gettext(CUBE_WORDS[spec.effect])
                if spec.effect in CUBE_WORDS
                else w.gettext(spec.text).rstrip(".")
            )
            name = w.gettext(spec.name)
            if an(spec.name):
                label = w.gettext("Use an {card} cube ({what})", card=name, what=what)
            else:
                label = w.gettext("Use a {card} cube ({what})", card=name, what=what)
            return _alone(f"modifier:{card}", label, "🧊")
        if kind == "source":
            return self._source(view, prompt, str(action["s"]), names, w)
        if kind == "activations":
            return self._activations(view, prompt, int(action["n"]), w)
        if kind == "event":
            index = int(action["index"])
            if prompt.kind in ("cube_on_event", "event_cube"):
                label = w.gettext("Cube on {event}", event=cube_label(view, index, w))
            else:
                label = event_label(view, index, w)
            return _alone(f"event:{index}", label, EVENT_EMOJI)
        if kind == "concede":
            loss = -board().const("black_failure_vp")
            label = w.ngettext("Do not counter (lose {count} VP)", "Do not counter (lose {count} VP)", loss)
            return _alone("concede", label, BLACK_EMOJI, Tone.RISKY)
        if kind == "black":
            label = w.gettext("Counter a black {value} too", value=action["value"])
            return _alone(f"black:{action['value']}", label, BLACK_EMOJI)
        if kind == "stop":
            label = w.gettext("Stop countering") if prompt.kind.startswith("counter") else w.gettext("Stop")
            return _alone("stop", label, "⏹️", Tone.MAIN)
        args = ", ".join(f"{k} {v}" for k, v in action.args)
        label = f"{kind.replace('_', ' ').capitalize()} {args}".strip()
        return _alone(f"other:{kind}:{args}", label)

    def _target(
        self, view: TroyesState, seat: int, target: str, hire: int | None = None, w: Words = ENGLISH
    ) -> Choice:
        kind, index = groups.target_kind(target)
        emoji = target_emoji(view, target)
        if kind == "card":
            label = card_label(view, index, seat, hire, w)
        elif kind == "event":
            if index >= 0:
                label = w.gettext("Fight {event}", event=event_label(view, index, w))
            else:
                label = w.gettext("Fight an event")
        elif kind == "cathedral":
            label = w.gettext("Build in the cathedral (white dice)")
        elif kind == "building":
            label = w.gettext(
                "Citizen in the {building} ({colour} die{bought})",
                building=building_name(index, w),
                colour=colour_word(board().buildings[index].colour, w),
                bought=bought_citizen(view, seat, w),
            )
        elif kind == "agriculture":
            label = w.gettext(
                "Agriculture: yellow, divide by {divisor} for deniers",
                divisor=board().const("agriculture_divisor"),
            )
        else:
            label = target_name(view, target, w).capitalize()
        return _alone(f"target:{target}", label, emoji)

    def _die(
        self, view: TroyesState, prompt: Prompt, action: Action, names: Sequence[str], w: Words = ENGLISH
    ) -> Choice:
        seat = prompt.seat
        die = find_die(view, action["id"])
        if die is None:
            return _alone(f"die:{action['id']}", w.gettext("Die {number}", number=action["id"]))
        emoji = COLOUR_EMOJI.get(die.colour.value)
        whose = owner_word(die.owner, seat, names, words=w)
        said = die_words(die, w)
        if prompt.kind == "reroll":
            pay = spend_words(prompt, action, w)
            if pay:
                return _alone(
                    f"die:{die.id}", w.gettext("Re-roll your {die} ({pay})", die=said, pay=pay), emoji
                )
            return _alone(f"die:{die.id}", w.gettext("Re-roll your {die}", die=said), emoji)
        if prompt.kind == "flip":
            label = w.gettext("Turn over your {die} (→ {value})", die=said, value=7 - die.value)
            return _alone(f"die:{die.id}", label, emoji)
        label = w.gettext("{whose} {die}", whose=whose, die=said)
        if prompt.kind == "counter":
            if die.colour is Colour.RED:
                label = w.gettext(
                    "{whose} {die} (counts {strength})", whose=whose, die=said, strength=2 * die.value
                )
            return _alone(f"die:{die.id}", label, emoji)
        chosen = _chosen(view, prompt)
        modifier = str(_context(prompt).get("modifier", "") or "")
        # The engine's price of the whole group once this die joins it (one per option).
        group = stated(prompt, action, "prices")
        if group != paid_so_far(prompt):
            label = w.ngettext(
                "{whose} {die} (the group costs {count} denier)",
                "{whose} {die} (the group costs {count} deniers)",
                group,
                whose=whose,
                die=said,
            )
        elif die.owner != seat and effect_of(modifier) == "tithe":
            label = w.gettext("{whose} {die} (free: Tithe)", whose=whose, die=said)
        target = str(_context(prompt).get("target", ""))
        if target:
            label += die_outcome(view, seat, target, modifier, [*chosen, die], names, w)
        return _alone(f"die:{die.id}", label, emoji)

    def _done(self, view: TroyesState, prompt: Prompt, names: Sequence[str], w: Words = ENGLISH) -> Choice:
        context = _context(prompt)
        if prompt.kind == "flip":
            cost = board().const("flip_cost")
            pay = spend_words(prompt, Action("done"), w) or w.ngettext(
                "{count} influence", "{count} influence", cost
            )
            return _alone("done", w.gettext("Turn them over ({pay})", pay=pay), "🔃", Tone.MAIN)
        target = str(context.get("target", ""))
        if target:
            result = group_result(
                view,
                prompt.seat,
                target,
                str(context.get("modifier", "") or ""),
                _chosen(view, prompt),
                names,
                w,
            )
            pay = spend_words(prompt, Action("done"), w)
            label = _done_label(result, pay, w)
            if len(label) > LABEL_ROOM:
                # The price must show: the yield's details give way ("2 activations" stays).
                label = _done_label(result.split(":")[0], pay, w)
            return _alone("done", label, "✅", Tone.GOOD)
        return _alone("done", w.gettext("Done"), "✅", Tone.GOOD)

    def _source(
        self, view: TroyesState, prompt: Prompt, source: str, names: Sequence[str], w: Words = ENGLISH
    ) -> Choice:
        pay = spend_words(prompt, Action.of("source", s=source), w)
        tail = f" ({pay})" if pay else ""
        parts = source.split(":")
        if source == "supply":
            return _alone("source:supply", w.gettext("From your supply") + tail, "🧍", Tone.MAIN)
        if source == "new":
            return _alone("source:new", w.gettext("Buy one") + tail, "🧍")
        if parts[0] == "b" and len(parts) == 3:
            label = w.gettext(
                "Move your citizen from the {building}, space {space}",
                building=building_name(int(parts[1]), w),
                space=int(parts[2]) + 1,
            )
        elif parts[0] == "c" and len(parts) == 2:
            label = w.gettext(
                "Move your tradesman from {card}", card=target_name(view, f"card:{parts[1]}", w)
            )
        elif parts[0] == "l" and len(parts) == 2:
            label = w.gettext(
                "Your citizen lying on the {building}", building=building_name(int(parts[1]), w)
            )
        else:
            label = w.gettext("Citizen from {source}", source=source)
        return _alone(f"source:{source}", label + tail, "🧍")

    def _activations(self, view: TroyesState, prompt: Prompt, times: int, w: Words = ENGLISH) -> Choice:
        context = _context(prompt)
        target = str(context.get("target", ""))
        kind, index = groups.target_kind(target)
        card = context.get("card")
        if isinstance(card, str) and card in activities():
            # The engine's words for what this many activations give (the card's data).
            label = f"{times}×: {asked_yield(card, times, words=w)}"
        elif kind == "card" and 0 <= index < len(view.cards) and view.cards[index].id in activities():
            label = f"{times}×: {activation_yield(view, prompt.seat, index, times, words=w)}"
        else:
            label = f"{times}×"
        pay = spend_words(prompt, Action.of("activations", n=times), w)
        if pay:
            label = w.gettext("{label}; in all: {pay}", label=label, pay=pay)
        return _alone(f"activations:{times}", label, None, Tone.GOOD if times > 1 else Tone.NORMAL)

    def question(self, view: Any, prompt: Prompt, names: Sequence[str], *, words: Words = ENGLISH) -> str:
        """What the player to move is asked, with the facts the choice depends on."""
        w = words
        seat = prompt.seat
        who = f"**{names[seat]}**"
        context = _context(prompt)
        target = str(context.get("target", ""))
        chosen = _chosen(view, prompt)
        picked = ", ".join(die_words(d, w) for d in chosen)
        kind = prompt.kind
        if kind == "setup_place":
            return w.gettext("{who}: place one of your citizens on a free space of a building.", who=who)
        if kind == "turn":
            player = view.players[seat]
            money = w.ngettext("{count} denier", "{count} deniers", player.deniers)
            return w.ngettext(
                "{who}: your action (round {round}). You have {money}, {influence} influence,"
                " {count} citizen in supply.",
                "{who}: your action (round {round}). You have {money}, {influence} influence,"
                " {count} citizens in supply.",
                player.supply,
                who=who,
                round=view.round,
                money=money,
                influence=player.influence,
            )
        if kind == "counter":
            black = context.get("black", "?")
            if chosen:
                return w.gettext(
                    "{who}: counter the black {black} with your own dice (red counts double)."
                    " Chosen: {dice} (strength {strength}).",
                    who=who,
                    black=black,
                    dice=picked,
                    strength=sum_strength(chosen),
                )
            return w.gettext(
                "{who}: counter the black {black} with your own dice (red counts double).",
                who=who,
                black=black,
            )
        if kind == "counter_more":
            return w.gettext("{who}: you may counter another black die.", who=who)
        if kind == "dice":
            return self._dice_question(view, prompt, names, w)
        if kind == "modifier":
            return w.gettext(
                "{who}: use one of your cubes on {target}?", who=who, target=target_name(view, target, w)
            )
        if kind == "citizen_from":
            return w.gettext(
                "{who}: where does the citizen for {target} come from?",
                who=who,
                target=target_name(view, target, w),
            )
        if kind == "activations":
            return w.gettext(
                "{who}: how many activations of {target}?", who=who, target=target_name(view, target, w)
            )
        if kind == "fight_which":
            return w.gettext("{who}: which event do you fight?", who=who)
        if kind in ("cube_on_event", "event_cube"):
            return w.gettext(
                "{who}: put a cube on an event ({left} to place).", who=who, left=context.get("left", 1)
            )
        if kind == "reroll":
            return w.ngettext(
                "{who}: which of your dice do you re-roll ({count} influence)?",
                "{who}: which of your dice do you re-roll ({count} influence)?",
                board().const("reroll_cost"),
                who=who,
            )
        if kind == "flip":
            if chosen:
                return w.gettext(
                    "{who}: choose up to 3 of your dice to turn over. Chosen: {dice}.", who=who, dice=picked
                )
            return w.gettext("{who}: choose up to 3 of your dice to turn over.", who=who)
        return w.gettext("{who}: your move.", who=who)

    def _dice_question(self, view: Any, prompt: Prompt, names: Sequence[str], w: Words) -> str:
        """The dice of a group: what they give and cost so far, or how to choose them."""
        seat = prompt.seat
        who = f"**{names[seat]}**"
        context = _context(prompt)
        target = str(context.get("target", ""))
        chosen = _chosen(view, prompt)
        place = target_name(view, target, w)
        modifier = str(context.get("modifier", "") or "")
        if modifier in activities():
            name = activities()[modifier].name
            if an(name):
                place = w.gettext("{target} with an {card} cube", target=place, card=w.gettext(name))
            else:
                place = w.gettext("{target} with a {card} cube", target=place, card=w.gettext(name))
        if chosen:
            return w.ngettext(
                "{who}: dice for {target}. Chosen: {dice} ({result}); the dice cost {count} denier so far."
                " Add a die or finish.",
                "{who}: dice for {target}. Chosen: {dice} ({result}); the dice cost {count} deniers so far."
                " Add a die or finish.",
                paid_so_far(prompt),
                who=who,
                target=place,
                dice=", ".join(die_words(d, w) for d in chosen),
                result=group_result(view, seat, target, modifier, chosen, names, w),
            )
        return w.ngettext(
            "{who}: choose dice for {target} (yours are free; another's die costs {count} denier per die"
            " in the group; you have {money}).",
            "{who}: choose dice for {target} (yours are free; another's die costs {count} deniers per die"
            " in the group; you have {money}).",
            board().const("die_price"),
            who=who,
            target=place,
            money=view.players[seat].deniers,
        )

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

    def private_text(self, view: Any, seat: int, names: Sequence[str], *, words: Words = ENGLISH) -> str:
        """The seat's victory points and character cards, which nobody else sees."""
        w = words
        player = view.players[seat]
        lines = [w.gettext("🏆 Your victory points: **{vp}**", vp=player.vp)]
        for card_id in player.characters:
            card = characters().get(card_id)
            if card is None:
                continue
            offset = card.two_player_offset if view.seats == 2 else 0
            lines.append(
                w.gettext(
                    "🎭 Your character: **{card}**: at the end everyone scores {vp} VP for {steps} {metric}"
                    " (you: {now} now, {mine} VP).",
                    card=w.gettext(card.name),
                    vp="/".join(str(v) for v in card.vp),
                    steps="/".join(str(t + offset) for t in card.thresholds),
                    metric=w.gettext(METRIC_WORDS.get(card.metric, card.metric.replace("_", " "))),
                    now=scoring.metric(view, seat, card.metric),
                    mine=scoring.character_vp(view, seat, card),
                )
            )
        cubes = ", ".join(
            f"{w.gettext(activities()[c].name)} ×{n}"
            for c, n in sorted(player.cubes.items())
            if c in activities()
        )
        if cubes:
            lines.append(w.gettext("🧊 Your cubes: {cubes}", cubes=cubes))
        return "\n".join(lines)

    def option_summary(self, options: Mapping[str, Scalar], *, words: Words = ENGLISH) -> str:
        """The tie rule in play."""
        if options.get("tiebreak"):
            return words.gettext("Ties are broken by deniers, then influence")
        return words.gettext("Tied players share the victory")

    def final_reveal(self, view: Any, names: Sequence[str], *, words: Words = ENGLISH) -> str:
        """Each player's character cards, secret until now."""
        parts = []
        for seat, player in enumerate(view.players):
            held = [words.gettext(characters()[c].name) for c in player.characters if c in characters()]
            if held:
                name = player_name(seat, names, words=words)
                parts.append(f"**{name}**: {', '.join(held)}")
        return words.gettext("🎭 Characters: {characters}", characters=" · ".join(parts)) if parts else ""

    def result_line(self, outcome: Outcome, view: Any, *, words: Words = ENGLISH) -> str:
        """Nothing more: the scores name the winners (the engine's summary says "Player N")."""
        return ""


UI = TroyesUI()
