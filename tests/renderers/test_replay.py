"""Replays: one frame per turn drawn from the record, a GIF that decodes, no secret before the end."""

from __future__ import annotations

import io
from functools import cache
from itertools import groupby

import pytest
from PIL import Image, ImageChops

from engine.core import UNDO, Move, Record, advance
from engine.games import GAMES, get_rules
from engine.play import run_game
from engine.tomatoes.events import Ev
from engine.troyes.kinds import HIDDEN
from renderers import render
from renderers.image_file import game_palette
from renderers.replay import Turn, animation, turn_file, turns

NAMES = ("Ana", "Bartholomew", "Chloé", "Dmitri", "Eun-ji", "Farah")


@cache
def game(name: str, seats: int, seed: int) -> Record:
    """A bot game played to its end."""
    return run_game(get_rules(name), seats, seed).record


def decoded_frames(data: bytes) -> list[Image.Image]:
    image = Image.open(io.BytesIO(data))
    assert image.format == "GIF"
    frames = []
    for index in range(image.n_frames):
        image.seek(index)
        frames.append(image.convert("RGB"))
    return frames


def spectator_board(name: str, turn: Turn) -> Image.Image:
    """What the frame of `turn` must show: the spectator's board on the game's palette."""
    board = render(name, turn.view, None, NAMES)
    palette = game_palette(name)
    assert palette is not None
    return board.convert("RGB").quantize(palette=palette, dither=Image.Dither.NONE).convert("RGB")


def test_troyes_has_a_frame_each_time_the_player_to_move_changes() -> None:
    record = game("troyes", 4, 3)
    runs = len([seat for seat, _ in groupby(move.seat for move in record.moves)])
    found = turns(record)
    assert len(found) == runs + 1  # each run of one seat's moves, then the final board
    assert [t.final for t in found] == [False] * runs + [True]
    assert found[0].seats == (record.moves[0].seat,) and found[-1].seats == ()


def test_tomatoes_has_a_frame_per_turn_even_solo() -> None:
    for seats in (1, 6):
        played = run_game(get_rules("tomatoes"), seats, 5)
        started = 1 + sum(1 for _, event in played.events if event.kind == Ev.TURN)  # the opening too
        assert len(turns(played.record)) == started + 1


def test_moves_taken_back_are_not_replayed() -> None:
    rules = get_rules("tomatoes")
    record = game("tomatoes", 2, 4)
    history = [rules.setup(2, record.options, record.seed)]
    moves: list[Move] = []
    for move in record.moves:
        history, _ = advance(rules, history, move.seat, move.action)
        moves.append(move)
        if rules.can_undo(history[-1], move.seat):
            history, _ = advance(rules, history, move.seat, UNDO)
            moves += [Move(move.seat, UNDO), move]
            history, _ = advance(rules, history, move.seat, move.action)
    with_undos = Record(record.game, record.seats, record.options, record.seed, tuple(moves))
    assert len(moves) > len(record.moves)
    # Versions count the undos, but the boards are those of the game as it was finally played.
    assert [t.version for t in turns(with_undos)] != [t.version for t in turns(record)]
    plain = [(t.seats, render("tomatoes", t.view, None, NAMES).tobytes()) for t in turns(record)]
    again = [(t.seats, render("tomatoes", t.view, None, NAMES).tobytes()) for t in turns(with_undos)]
    assert plain == again


@pytest.mark.parametrize(
    ("name", "seats"), [(entry.id, entry.seats) for entry in GAMES.values() if entry.renderer]
)
def test_the_animation_decodes_with_one_frame_per_turn_showing_its_board(name: str, seats: int) -> None:
    record = game(name, seats, 3)
    found = turns(record)
    built = animation(record, NAMES[:seats])
    frames = decoded_frames(built.data)
    assert built.frames == len(frames) == len(found)
    assert len(built.data) < 8_000_000
    assert all(frame.size == built.size for frame in frames)
    for index in (0, len(found) // 2, len(found) - 1):
        board = spectator_board(name, found[index])
        shown = frames[index].crop((0, 0, *board.size))
        assert ImageChops.difference(shown, board).getbbox() is None, f"frame {index} is not its turn's board"


def test_troyes_secrets_appear_only_on_the_final_frame() -> None:
    rules = get_rules("troyes")
    record = game("troyes", 4, 3)
    found = turns(record)
    states = {}
    history = [rules.setup(4, record.options, record.seed)]
    for move in record.moves:
        history, _ = advance(rules, history, move.seat, move.action)
        states[history[-1].version] = history[-1]
    secrets_existed = False
    for turn in found[:-1]:
        for player in turn.view.players:
            assert player.vp == 0 and all(card == HIDDEN for card in player.characters)
        real = states.get(turn.version)
        secrets_existed |= real is not None and any(p.vp for p in real.players)
    assert secrets_existed
    last = found[-1]
    assert all(card != HIDDEN for p in last.view.players for card in p.characters)
    assert any(p.vp for p in last.view.players)
    # The final frame is the board the game reveals: it differs from the turn before it.
    frames = decoded_frames(animation(record, NAMES[:4]).data)
    assert ImageChops.difference(frames[-1], frames[-2]).getbbox() is not None


def test_a_turn_as_an_image_for_stepping_through() -> None:
    record = game("tomatoes", 3, 2)
    found = turns(record)
    data = turn_file("tomatoes", found[1], NAMES[:3])
    assert data[:4] == b"RIFF" and data[8:12] == b"WEBP"
    assert Image.open(io.BytesIO(data)).size == render("tomatoes", found[1].view, None, NAMES).size
