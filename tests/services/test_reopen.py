"""Ending a game by mistake and playing on: reopen_game, and an undo after an early end."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from scorekeeper import core
from scorekeeper.extensions import db
from scorekeeper.models import Change
from scorekeeper.services import games as game_service
from tests.helpers import load_game

PLAYERS = ["Ana", "Ben", "Cy"]


def _round(out: str, **pips: int) -> core.RoundEntry:
    return core.RoundEntry({name: core.HandEntry(pips=value) for name, value in pips.items()}, out)


def _actions(game_id: int) -> list[str]:
    query = select(Change.action).where(Change.game_id == game_id).order_by(Change.id)
    return list(db.session.scalars(query))


@pytest.fixture
def ended(app):
    """A three-player game ended by the table after one round, in an app context."""
    with app.app_context():
        game = game_service.create_game(PLAYERS, core.GameRules(rounds=3))
        game_service.record_round(game, _round("Ana", Ben=10, Cy=4))
        game_service.end_game(game)
        yield game.id


def test_reopening_clears_the_end_and_the_final_figures(ended):
    game = load_game(ended)
    assert game.ended_early and game.finished_at is not None
    assert [p.place for p in game.players] == [1, 3, 2]
    version = game.version
    game_service.reopen_game(game, device="phone")
    db.session.remove()
    game = load_game(ended)
    assert (game.ended_early, game.finished_at) == (False, None)
    assert [p.place for p in game.players] == [None, None, None]
    assert game.version > version
    assert _actions(ended)[-2:] == ["ended", "reopened"]
    state = game_service.state_of(game)
    assert not state.finished and state.next_round == 2
    # Play goes on: the next round is recorded and the game can be ended again.
    assert game_service.record_round(game, _round("Ben", Ana=3, Cy=8), number=2).saved


def test_a_game_its_rounds_finished_cannot_be_reopened(app):
    with app.app_context():
        game = game_service.create_game(PLAYERS, core.GameRules(rounds=1))
        game_service.record_round(game, _round("Ana", Ben=10, Cy=4))
        with pytest.raises(game_service.GameOver):
            game_service.reopen_game(game)
        assert game_service.state_of(load_game(game.id)).finished
        assert "reopened" not in _actions(game.id)


def test_reopening_a_game_in_play_changes_nothing(app):
    with app.app_context():
        game = game_service.create_game(PLAYERS, core.GameRules(rounds=3))
        version = game.version
        game_service.reopen_game(game)
        assert load_game(game.id).version == version
        assert "reopened" not in _actions(game.id)


def test_undo_after_an_early_end_plays_on(ended):
    game = load_game(ended)
    assert game_service.undo_last_round(game, number=1) == 1
    db.session.remove()
    game = load_game(ended)
    state = game_service.state_of(game)
    assert not state.finished and state.rounds_played == 0
    assert not game.ended_early and game.finished_at is None
    assert "reopened" in _actions(ended)
