"""Troyes through Discord: whole games from /play troyes to the final scores, across a restart,
with the clicks counted, and no secret (VP, characters) in anything public before the end."""

from __future__ import annotations

import io
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from PIL import Image

import renderers
from cogs.games import get_ui
from cogs.games._troyes_words import find_die
from cogs.games.troyes import RULES_TEXT
from cogs.platform import board as board_module
from cogs.platform import ids
from cogs.platform.layout import main_entries
from engine.core import Action, Prompt
from engine.games import get_rules
from engine.rng import Rng
from engine.troyes.data import characters
from engine.troyes.kinds import HIDDEN, Phase
from tables.models import TableStatus
from tests.cogs.conftest import Harness
from tests.cogs.helpers import buttons, table_of
from tests.cogs.test_limits import check_prompt
from tests.cogs.test_lobby import private_answer, slash_answer
from tests.cogs.troyes_play import Clicks, open_troyes, play_counted

NAMES = ["Ann", "Bob", "Carol", "Dee"]
MOVES_BEFORE_RESTART = 40
"""Prompts the humans answer before the test looks for a half-chosen action to restart in."""


# -- layout over random games, without Discord -------------------------------------------


def random_prompts(players: int, seed: int) -> Iterator[tuple[Any, Prompt, int]]:
    """(public view, prompt, version) of every decision of a game with mixed greedy and random bots."""
    rules = get_rules("troyes")
    state = rules.setup(players, {"tiebreak": False}, seed=seed)
    rng = Rng.from_seed(seed)
    while prompts := rules.prompts(state):
        prompt = prompts[0]
        yield rules.view(state, None), prompt, state.version
        policy = "random" if rng.below(3) == 0 else "greedy"
        state = rules.apply(state, prompt.seat, rules.bot_action(state, prompt, policy)).state
    assert rules.outcome(state) is not None


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_troyes_prompt_fits_discord_and_takes_one_click(players: int) -> None:
    ui = get_ui("troyes")
    names = ["Bartholomew the Magnificent", "张伟🍅", "x" * 32, "Émile"][:players]
    checked = 0
    for view, prompt, version in random_prompts(players, seed=40 + players):
        check_prompt(view, (prompt,), version + 10**6, names, "troyes")
        entries = main_entries(1, version, ui, view, (prompt,), NAMES)
        # Each option is its own entry of the first step: one click answers the prompt.
        assert all(isinstance(e.ref, ids.ActRef) for e in entries)
        assert len(entries) == len(prompt.options)
        labels = [e.label for e in entries]
        assert len(set(labels)) == len(labels), f"two options read the same: {labels}"
        assert all(len(label) <= 80 for label in labels), "labels fit without a cut"
        if prompt.kind == "dice":
            # The label prints the engine's price of the group once the die joins it, nothing else.
            context = dict(prompt.context)
            for action, price, label in zip(prompt.options, context["prices"], labels, strict=True):
                die = find_die(view, action["id"]) if action.kind == "die" else None
                if die is not None and price != context["paid"]:
                    assert f"(the group costs {price} deniers)" in label, label
                elif die is not None:
                    assert "costs" not in label, label
        question = ui.question(view, prompt, NAMES)
        assert "your move" not in question, f"{prompt.kind} has its own question"
        checked += 1
    assert checked > 100


def test_labels_say_what_a_choice_costs_and_gives() -> None:
    ui = get_ui("troyes")
    seen: dict[str, set[str]] = {}
    for players in (2, 3):
        for view, prompt, _ in random_prompts(players, seed=7 + players):
            for action in prompt.options:
                label = ui.choice(view, prompt, action, NAMES).single_label
                seen.setdefault(f"{prompt.kind}/{action.kind}", set()).add(label)
    assert "Pass (+2 deniers)" in seen["turn/pass"]
    assert "Re-roll a die (1 influence)" in seen["turn/reroll"]
    card = re.compile(
        r"^[A-Z][\w ]+: (red|white|yellow|any colour), divide by \d, (hire \d deniers|your tradesman)$"
    )
    assert any(card.match(label) for label in seen["turn/target"]), seen["turn/target"]
    assert any("(the group costs 8 deniers)" in label for label in seen["dice/die"])
    assert any("'s " in label and "(the group costs 2 deniers)" in label for label in seen["dice/die"])
    assert any(label.startswith("Done: ") and "activation" in label for label in seen["dice/done"])
    assert any(label.startswith("Done: ") and "; pay " in label for label in seen["dice/done"])
    assert any("(counts " in label for label in seen["counter/die"]), "red dice count double"
    assert not any("?" in label or "None" in label for labels in seen.values() for label in labels)


def test_the_merchant_reads_as_printed() -> None:
    rules = get_rules("troyes")
    state = rules.setup(2, {"tiebreak": False}, seed=5)
    slot = next(i for i, c in enumerate(state.cards) if c.colour.value == "yellow" and c.level == 1)
    state.cards[slot].id, state.cards[slot].revealed = "Y1b", True
    prompt = Prompt(0, "turn", (Action.of("target", t=f"card:{slot}"),))
    choice = get_ui("troyes").choice(rules.view(state, None), prompt, prompt.options[0], NAMES)
    assert choice.single_label == "Merchant: yellow, divide by 3, hire 2 deniers"
    state.cards[slot].spaces[0] = 0
    choice = get_ui("troyes").choice(rules.view(state, None), prompt, prompt.options[0], NAMES)
    assert choice.single_label == "Merchant: yellow, divide by 3, your tradesman"


def test_rules_summary_is_short_and_says_where_the_estimates_are() -> None:
    assert len(RULES_TEXT) < 4000
    assert "engine/troyes/DATA.md" in RULES_TEXT and "estimate" in RULES_TEXT


# -- whole games through simcord ----------------------------------------------------------


def has_troyes_board() -> bool:
    """Whether the renderer draws Troyes (boards go out as text only until it does)."""
    return renderers.has_renderer("troyes")


async def test_two_humans_and_a_bot_play_troyes_from_play_to_final_scores_across_a_restart(
    drawn_world: Harness,
) -> None:
    world = drawn_world
    table = await open_troyes(world, tiebreak=True)
    assert table.options == {"tiebreak": True}
    assert [s.is_bot for s in table.seats] == [False, False, True]
    clicks = Clicks()
    assert await play_counted(world, clicks, moves=MOVES_BEFORE_RESTART) == MOVES_BEFORE_RESTART
    # Stop in the middle of an action: a human has chosen dice and is asked for more.
    for _ in range(300):
        before = await table_of(world)
        prompt = before.prompts[0] if before.prompts else None
        if prompt is not None and prompt.kind == "dice" and dict(prompt.context).get("chosen"):
            break
        assert await play_counted(world, clicks, moves=1) == 1
    assert prompt is not None and prompt.kind == "dice" and not before.is_bot(prompt.seat)
    assert before.status is TableStatus.PLAYING
    board_before = world.board()

    await world.restart()
    after = await table_of(world)
    assert after.version == before.version and after.state == before.state
    assert world.board().id == board_before.id, "the old board's buttons work on after the restart"
    played = await play_counted(world, clicks, moves=100_000)
    assert played > 0

    final = await table_of(world)
    assert final.status is TableStatus.FINISHED and final.outcome is not None
    message = world.board()
    assert message.id == final.board_message_id
    content = message.content
    assert "final scores" in content and "Total" not in content
    for seat in final.seats:
        assert seat.name in content
    for player in final.state.players:
        for card in player.characters:
            assert characters()[card].name in content, "the final message reveals every character"
    assert f"{max(final.outcome.scores)} points" in content
    assert [m for m in world.thread().history() if m.components] == []
    assert any("won with" in m.content for m in world.channel.history()), "the lobby tells the result"
    boards = [m for m in world.thread().history() if m.author.id == world.bot.user.id and m.attachments]
    if has_troyes_board():
        posted = [m for m in world.thread().history() if m.author.id == world.bot.user.id]
        assert boards and len(boards) == len([m for m in posted if "table #" in m.content])
    for board in boards:
        with Image.open(io.BytesIO(await board.attachments[0].read())) as image:
            image.load()
            assert image.width >= 600
    assert world.env.errors == []
    assert clicks.actions["black dice"] > 0, "the humans countered black dice through the turn UI"
    actions = sum(clicks.actions.values())
    assert sum(clicks.per_type.values()) == sum(clicks.per_seat.values()) >= actions > 40
    print("\n== Troyes clicks through Discord (2 humans + greedy bot) ==\n" + clicks.report())


# -- hidden information ----------------------------------------------------------------


@dataclass
class Spy:
    """Every caption the presenter composed and every public board it drew, with the secrets then."""

    captions: list[tuple[str, bool]] = field(default_factory=list)
    public_boards: list[tuple[list[int], list[list[str]], bool]] = field(default_factory=list)
    private_boards: list[int] = field(default_factory=list)


async def test_no_public_message_board_or_spectator_answer_tells_vp_or_characters(
    drawn_world: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    world = drawn_world
    spy = Spy()
    real_compose = board_module.compose
    real_job = board_module.board_job

    def board_job(table: Any, seat: int | None = None) -> Any:
        # What the renderer is given (a drawing worker draws the job): public boards get the public view.
        job = real_job(table, seat)
        if job is None:
            return job
        view, viewer = job.view, job.viewer
        if viewer is None:
            vp = [p.vp for p in view.players]
            spy.public_boards.append(
                (vp, [list(p.characters) for p in view.players], view.phase is Phase.OVER)
            )
        else:
            spy.private_boards.append(viewer)
        return job

    def compose(table: Any, *args: Any, **kwargs: Any) -> Any:
        board = real_compose(table, *args, **kwargs)
        spy.captions.append((board.content, table.state.phase is Phase.OVER))
        return board

    monkeypatch.setattr(board_module, "compose", compose)
    monkeypatch.setattr(board_module, "board_job", board_job)
    table = await open_troyes(world)
    dealt = {characters()[c].name for p in table.state.players for c in p.characters}
    assert len(dealt) == len(table.seats), "one secret character each at three players"

    clicks = Clicks()
    await play_counted(world, clicks, moves=60)
    now = await table_of(world)
    assert now.status is TableStatus.PLAYING and any(p.vp for p in now.state.players), "VP were earned"
    board = world.board()
    # Spectator answers: a click on "My hand", a move, and /game show.
    refused = await world.watcher.click(board, label="My hand")
    spectator = [private_answer(refused)]
    first = next(label for label in buttons(board) if label != "My hand")
    spectator.append(private_answer(await world.watcher.click(board, label=first)))
    spectator.append(slash_answer(await world.watcher.slash(world.thread(), "game show")))
    # A player's own "My hand": their VP and character, and nobody else's.
    for user in (world.alice, world.bob):
        seat = now.seat_of(user.id)
        answer = await user.click(world.board(), label="My hand")
        mine = private_answer(answer)
        assert spy.private_boards[-1] == seat, "My hand is drawn from the clicker's seat"
        if has_troyes_board():
            image = answer.followups[0].attachments[0]
            with Image.open(io.BytesIO(await image.read())) as picture:
                picture.load()
        player = now.state.players[seat]
        assert f"Your victory points: **{player.vp}**" in mine
        own = {characters()[c].name for c in player.characters}
        assert all(name in mine for name in own)
        assert not any(name in mine for name in dealt - own)
    await play_counted(world, clicks, moves=100_000)
    final = await table_of(world)
    assert final.status is TableStatus.FINISHED

    log = await world.bot.tables.log(final.id)
    private_lines = {
        final.rules.describe(e.event, [s.name for s in final.seats]) for e in log if not e.event.visible(None)
    }
    assert private_lines, "the game had private events (VP gains)"
    public = [text for text, over in spy.captions if not over]
    public += [m.content for m in world.thread().history() if "final scores" not in m.content]
    public += [m.content for m in world.channel.history()]
    public += spectator
    assert len(public) > 50
    for text in public:
        assert "victory points" not in text.lower()
        assert not any(name in text for name in dealt), text
        assert not any(line in text for line in private_lines), text
    drawn = [entry for entry in spy.public_boards if not entry[2]]
    assert len(drawn) > 20
    for vp, held, _ in drawn:
        assert vp == [0] * len(vp), "public boards are drawn without anyone's VP"
        assert all(card == HIDDEN for cards in held for card in cards), "nor their characters"
    ended = [entry for entry in spy.public_boards if entry[2]]
    assert ended and any(ended[-1][0]), "the final board is drawn with everyone's VP"
    assert all(card != HIDDEN for cards in ended[-1][1] for card in cards), "and every character"


async def test_rules_and_lobby_through_discord(world: Harness) -> None:
    result = await world.watcher.slash(world.channel, "rules troyes")
    embed = result.response.embeds[0]
    assert result.ephemeral and embed.title == "🏰 Troyes"
    assert embed.description == RULES_TEXT and len(RULES_TEXT) <= 4000
    opened = await world.alice.slash(world.channel, "play troyes")
    assert "is open" in slash_answer(opened)
    lobby = world.channel.last_message
    assert lobby is not None and "Tied players share the victory" in lobby.content
    table = await table_of(world)
    assert table.options == {"tiebreak": False}


async def test_a_turn_clock_plays_the_default_of_a_troyes_prompt(world: Harness) -> None:
    table = await open_troyes(world)
    prompt = table.prompts[0]
    assert prompt.default is not None, f"{prompt.kind} has a default for the turn clock"
    await world.bot.tables.run_due(time.time() + 25 * 3600)
    await world.idle()
    now = await table_of(world)
    assert now.version > table.version
    assert any("Time ran out for" in m.content for m in world.thread().history())


def test_a_group_s_price_shows_on_its_dice_its_done_and_the_question() -> None:
    """Issue 32: each die states the group's price once it joins, done what the click pays, and
    the question the price so far; the cog prints the engine's figures."""
    from engine.troyes import RULES
    from tests.engine.troyes.helpers import DONE, W, Y, add_dice, die, table, target

    ui = get_ui("troyes")
    state = table(3)
    add_dice(state, 2, W, 1)
    (one,) = add_dice(state, 1, Y, 1)
    (three,) = add_dice(state, 2, Y, 3)
    for action in (target("agriculture"), die(one)):
        state = RULES.apply(state, 0, action).state
    (prompt,) = RULES.prompts(state)
    view = RULES.view(state, None)
    assert ui.choice(view, prompt, die(three), NAMES).single_label == (
        "Carol's yellow 3 (the group costs 8 deniers) → +2 deniers"
    )
    assert "the dice cost 2 deniers so far" in ui.question(view, prompt, NAMES)
    state = RULES.apply(state, 0, die(three)).state
    (prompt,) = RULES.prompts(state)
    label = ui.choice(RULES.view(state, None), prompt, DONE, NAMES).single_label
    assert label == "Done: +2 deniers; pay 8 deniers"


def test_a_card_s_figures_are_the_engine_s_data_the_cog_and_the_engine_read_alike(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 35: a card's price and gain live once, in the data; the engine plays them and the cog's
    words (what a group yields, how many activations to take) come from them."""
    from dataclasses import replace

    from cogs.games._troyes_words import group_result
    from engine.troyes import RULES
    from engine.troyes.data import Figures, activities
    from tests.engine.troyes.helpers import Y, add_dice, die, play, spare, table, target, with_tradesman

    merchant, artisan = activities()["Y1b"], activities()["Y1a"]
    monkeypatch.setitem(activities(), "Y1b", replace(merchant, gain=Figures(deniers=5)))
    monkeypatch.setitem(activities(), "Y1a", replace(artisan, gain=Figures(deniers=7)))
    state = table(2, ("Y1b",))
    with_tradesman(state, 0, 0)
    spare(state)
    (six,) = add_dice(state, 0, Y, 6)
    dice = [d for d in state.dice if d.id == six]
    said = group_result(RULES.view(state, None), 0, "card:0", "", dice, NAMES)
    assert said == "2 activations: +10 deniers"
    before = state.players[0].deniers
    after = RULES.apply(state, 0, target("card:0")).state
    assert after.players[0].deniers == before + 10, "the engine plays the same figures"

    state = table(2, ("Y1a",))  # Artisan: each activation costs 1 influence, so their number is asked
    with_tradesman(state, 0, 0)
    spare(state)
    _, second = add_dice(state, 0, Y, 4, 4)
    state = play(state, 0, target("card:0"), die(second))
    (prompt,) = RULES.prompts(state)
    assert prompt.kind == "activations"
    label = get_ui("troyes").choice(RULES.view(state, None), prompt, Action.of("activations", n=2), NAMES)
    assert label.single_label.startswith("2×: pay 2 influence, gain 14 deniers")


def _cube_runs(seed: int) -> Iterator[list[Any]]:
    """Runs of states in which one player puts cubes on events one at a time, with the states
    just before and just after each run, from a seeded 3-player bot game."""
    from engine.troyes.kinds import StepKind
    from renderers.playout import states

    def placing(state: Any) -> bool:
        return bool(state.stack) and state.stack[-1].kind is StepKind.EVENT_CUBE

    every = list(states(get_rules("troyes"), 3, seed))
    start = None
    for index, state in enumerate(every):
        if placing(state) and start is None:
            start = index
        elif not placing(state) and start is not None:
            yield every[start - 1 : index + 1]
            start = None


def test_a_run_of_cubes_on_events_keeps_the_board_image_until_it_ends() -> None:
    # Issue 33: each cube is in the caption and the buttons say each event's free banners, so
    # the image drawn as the run begins stays; what the run did is drawn when it ends.
    ui = get_ui("troyes")
    rules = get_rules("troyes")
    runs = [run for run in _cube_runs(7300) if len(run) >= 4]  # a seed with runs of 2 and 3 cubes
    assert runs
    kept = 0
    for before, *during, after in runs:
        keys = [ui.board_key(rules.view(state, None)) for state in (before, *during, after)]
        assert keys[0] != keys[1] and keys[-1] != keys[-2]
        steps = zip(during[:-1], during[1:], keys[1:-2], keys[2:-1], strict=True)
        for previous, state, earlier, key in steps:
            if [e.id for e in state.queue] == [e.id for e in previous.queue]:
                assert key == earlier  # one more cube, one more influence: the same image
                kept += 1
            else:
                assert key != earlier  # an event was countered and left the queue: drawn again
    assert kept
