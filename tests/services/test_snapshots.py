"""Snapshots: a game's rounds and standings are read once per version, and a version is only
ever remembered with what was committed under it."""

from sqlalchemy import update

from scorekeeper import core
from scorekeeper.extensions import db
from scorekeeper.models import Game, Hand
from scorekeeper.services import games as game_service
from scorekeeper.services import snapshots

PLAYERS = ["Ana", "Ben", "Cy", "Dee"]


def play(game_id: int, out: str = "Ana", **pips: int) -> None:
    game = game_service.load_game(game_id)
    hands = {name: core.HandEntry(pips=value) for name, value in pips.items()}
    outcome = game_service.record_round(game, core.RoundEntry(hands, out=out), confirm=True)
    assert outcome.saved, outcome.check.errors
    db.session.remove()


def totals(game_id: int) -> dict[str, int]:
    """The standings' totals as a fresh request sees them (its own session, the row alone)."""
    db.session.remove()
    game = game_service.game_row(game_id)
    return {line.name: line.total for line in snapshots.snapshot_of(game).state.standings}


def new_game() -> int:
    game_id = game_service.create_game(PLAYERS, core.GameRules()).id
    db.session.remove()
    return game_id


def test_every_change_to_a_game_shows_in_its_next_snapshot(app):
    with app.app_context():
        game_id = new_game()
        assert totals(game_id) == dict.fromkeys(PLAYERS, 0)
        play(game_id, Ben=5, Cy=7, Dee=9)
        assert totals(game_id) == {"Ana": 0, "Ben": 5, "Cy": 7, "Dee": 9}
        assert totals(game_id) == {"Ana": 0, "Ben": 5, "Cy": 7, "Dee": 9}  # kept: same answer
        game = game_service.load_game(game_id)
        corrected = core.RoundEntry({name: core.HandEntry(pips=1) for name in PLAYERS[1:]}, "Ana")
        assert game_service.edit_round(game, 1, corrected, confirm=True).saved
        assert totals(game_id) == {"Ana": 0, "Ben": 1, "Cy": 1, "Dee": 1}
        play(game_id, out="Ben", Ana=10, Cy=0, Dee=3)
        assert totals(game_id) == {"Ana": 10, "Ben": 1, "Cy": 1, "Dee": 4}
        game_service.undo_last_round(game_service.load_game(game_id))
        assert totals(game_id) == {"Ana": 0, "Ben": 1, "Cy": 1, "Dee": 1}
        game_service.end_game(game_service.load_game(game_id))
        db.session.remove()
        assert snapshots.snapshot_of(game_service.game_row(game_id)).state.finished


def test_a_write_that_is_rolled_back_is_never_remembered(app):
    """A snapshot read inside a transaction that later rolls back must not be served for the
    version number the next real save takes."""
    with app.app_context():
        game_id = new_game()
        play(game_id, Ben=5, Cy=7, Dee=9)
        game = game_service.game_row(game_id)
        db.session.execute(update(Hand).values(score=99))
        db.session.execute(update(Game).where(Game.id == game_id).values(version=Game.version + 1))
        db.session.refresh(game)
        uncommitted = snapshots.snapshot_of(game)
        assert uncommitted.state.standings[0].total == 99  # it did read the uncommitted rows
        assert not uncommitted.kept
        db.session.rollback()
        db.session.remove()
        play(game_id, out="Ben", Ana=1, Cy=1, Dee=1)  # takes the version number rolled back
        assert totals(game_id) == {"Ana": 1, "Ben": 5, "Cy": 8, "Dee": 10}


def test_a_version_is_not_remembered_with_a_round_saved_while_it_was_read(app):
    with app.app_context():
        game_id = new_game()
        game = game_service.game_row(game_id)  # this reader sees version 1...
        with app.app_context():  # ...another phone saves round 1 meanwhile (its own session)
            play(game_id, Ben=5, Cy=7, Dee=9)
        read = snapshots.snapshot_of(game)
        assert read.version == 1 and len(read.results) == 1  # version 1's number, round 1 in it
        assert len(snapshots._cache()) == 0  # so it is not filed under version 1
        assert not read.kept  # nor is any page part rendered from it (games.views)
        assert totals(game_id) == {"Ana": 0, "Ben": 5, "Cy": 7, "Dee": 9}
        assert len(snapshots._cache()) == 1
