"""Snapshots: a game's rounds and standings are read once per version, only ever from what was
committed, and a version is only remembered with what was committed under it."""

from flask import Flask

from scorekeeper import core
from scorekeeper.extensions import db
from scorekeeper.models import Hand
from scorekeeper.services import games as game_service

PLAYERS = ["Ana", "Ben", "Cy", "Dee"]


def play(game_id: int, out: str = "Ana", **pips: int) -> None:
    game = game_service.game_row(game_id)
    hands = {name: core.HandEntry(pips=value) for name, value in pips.items()}
    outcome = game_service.record_round(game, core.RoundEntry(hands, out=out), confirm=True)
    assert outcome.saved, outcome.check.errors
    db.session.remove()


def totals(game_id: int) -> dict[str, int]:
    """The standings' totals as a fresh request sees them (its own session, the row alone)."""
    db.session.remove()
    game = game_service.game_row(game_id)
    return {line.name: line.total for line in game_service.snapshot_of(game).state.standings}


def new_game() -> int:
    game_id = game_service.create_game(PLAYERS, core.GameRules()).id
    db.session.remove()
    return game_id


def kept(app: Flask) -> int:
    """How many snapshots the app keeps."""
    return len(app.extensions["scorekeeper_snapshots"])


def test_every_change_to_a_game_shows_in_its_next_snapshot(app):
    with app.app_context():
        game_id = new_game()
        assert totals(game_id) == dict.fromkeys(PLAYERS, 0)
        play(game_id, Ben=5, Cy=7, Dee=9)
        assert totals(game_id) == {"Ana": 0, "Ben": 5, "Cy": 7, "Dee": 9}
        assert totals(game_id) == {"Ana": 0, "Ben": 5, "Cy": 7, "Dee": 9}  # kept: same answer
        game = game_service.game_row(game_id)
        corrected = core.RoundEntry({name: core.HandEntry(pips=1) for name in PLAYERS[1:]}, "Ana")
        assert game_service.edit_round(game, 1, corrected, confirm=True).saved
        assert totals(game_id) == {"Ana": 0, "Ben": 1, "Cy": 1, "Dee": 1}
        play(game_id, out="Ben", Ana=10, Cy=0, Dee=3)
        assert totals(game_id) == {"Ana": 10, "Ben": 1, "Cy": 1, "Dee": 4}
        game_service.undo_last_round(game_service.game_row(game_id))
        assert totals(game_id) == {"Ana": 0, "Ben": 1, "Cy": 1, "Dee": 1}
        game_service.end_game(game_service.game_row(game_id))
        db.session.remove()
        assert game_service.snapshot_of(game_service.game_row(game_id)).state.finished


def test_a_snapshot_never_shows_what_is_not_committed(app):
    """A write that is later rolled back is never read, so never remembered."""
    with app.app_context():
        game_id = new_game()
        play(game_id, Ben=5, Cy=7, Dee=9)
        game = game_service.game_row(game_id)
        for hand in db.session.query(Hand).all():  # this session changes every score...
            hand.score = 99
        db.session.flush()  # ...and the game moves to a version nobody has committed
        assert game_service.snapshot_of(game).state.standings[0].total == 0  # committed: Ana 0
        db.session.rollback()
        db.session.remove()
        play(game_id, out="Ben", Ana=1, Cy=1, Dee=1)  # takes the version number rolled back
        assert totals(game_id) == {"Ana": 1, "Ben": 5, "Cy": 8, "Dee": 10}


def test_a_reader_of_an_older_version_gets_one_committed_version(app):
    with app.app_context():
        game_id = new_game()
        game = game_service.game_row(game_id)  # this reader saw version 1...
        with app.app_context():  # ...another phone saves round 1 meanwhile (its own session)
            play(game_id, Ben=5, Cy=7, Dee=9)
        # Version 1 as it was (kept while the other phone read it before saving): consistent
        # with the row this reader holds.
        assert game_service.snapshot_of(game).results == ()
        app.extensions["scorekeeper_snapshots"].clear()
        read = game_service.snapshot_of(game)  # version 1 is not kept: the committed one is read
        assert read.version == game.version + 1 and len(read.results) == 1
        assert kept(app) == 1  # filed under the version it is, not the one asked for
        assert totals(game_id) == {"Ana": 0, "Ben": 5, "Cy": 7, "Dee": 9}
        assert kept(app) == 1  # and found there by the next reader


def test_an_unchanged_game_is_read_once(app, statements):
    with app.app_context():
        game_id = new_game()
        play(game_id, Ben=5, Cy=7, Dee=9)
        game = game_service.game_row(game_id)
        before = statements.count
        game_service.snapshot_of(game)
        first = statements.count - before
        before = statements.count
        game_service.snapshot_of(game)
        assert first >= 3 and statements.count == before
