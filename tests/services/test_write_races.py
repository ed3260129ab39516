"""A round undone by another server between a write's snapshot and its own reads is a lost race.

On PostgreSQL (READ COMMITTED) a write reads the game's snapshot, then its round rows in its own
transaction, which sees what another server committed in between. Here the other server is a
second connection that undoes the round after the snapshot was taken.
"""

from __future__ import annotations

import pytest
from sqlalchemy import text

from scorekeeper import core
from scorekeeper.extensions import db
from scorekeeper.services import games as game_service
from tests.helpers import load_game

RULES = core.GameRules(rounds=5)
PLAYERS = ["Ana", "Ben", "Cy"]


def entry(ben: int, cy: int) -> core.RoundEntry:
    hands = {"Ana": core.HandEntry(0), "Ben": core.HandEntry(ben), "Cy": core.HandEntry(cy)}
    return core.RoundEntry(hands, out="Ana")


def undo_elsewhere(game_id: int, number: int) -> None:
    """Another server's undo of round `number`, committed on a connection of its own."""
    with db.engine.begin() as connection:
        connection.execute(
            text("DELETE FROM hands WHERE round_id IN (SELECT id FROM rounds WHERE game_id = :g"
                 " AND number = :n)"), {"g": game_id, "n": number}
        )  # fmt: skip
        connection.execute(
            text("DELETE FROM rounds WHERE game_id = :g AND number = :n"),
            {"g": game_id, "n": number},
        )
        connection.execute(
            text("UPDATE games SET version = version + 1 WHERE id = :g"), {"g": game_id}
        )


@pytest.mark.parametrize("write", ["edit", "undo"])
def test_a_round_undone_meanwhile_makes_the_write_stale_not_an_error(app, write):
    with app.app_context():
        game = game_service.create_game(PLAYERS, RULES)
        game_id = game.id
        for ben, cy in ((10, 20), (30, 40)):
            assert game_service.record_round(load_game(game_id), entry(ben, cy)).saved
        game = load_game(game_id)
        game_service.snapshot_of(game)  # this server's snapshot: two rounds
        undo_elsewhere(game_id, 2)
        with pytest.raises(game_service.StaleGame):
            if write == "edit":
                game_service.edit_round(game, 2, entry(5, 6))
            else:
                game_service.undo_last_round(game)
        db.session.remove()
        left = game_service.snapshot_of(load_game(game_id))
        assert [r.scores for r in left.results] == [{"Ana": 0, "Ben": 10, "Cy": 20}]
