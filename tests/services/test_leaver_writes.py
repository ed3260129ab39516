"""A player who leaves and comes back, through the services (RULES.md section 11)."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from scorekeeper import core
from scorekeeper.extensions import db
from scorekeeper.models import Change, Hand, Round
from scorekeeper.services import games as game_service
from tests.helpers import load_game


def _round(out: str | None, **pips: int) -> core.RoundEntry:
    hands = {name: core.HandEntry(pips=value) for name, value in pips.items()}
    return core.RoundEntry(hands, out, blocked=out is None)


def _history(game_id: int) -> list[tuple[str, int | None, str | None, str | None]]:
    query = select(Change).where(Change.game_id == game_id).order_by(Change.id)
    return [(c.action, c.round_number, c.player, c.new_value) for c in db.session.scalars(query)]


def _away_hands(game_id: int) -> list[tuple[int, int, int]]:
    query = (
        select(Round.number, Hand.seat, Hand.score)
        .join(Hand, Hand.round_id == Round.id)
        .where(Round.game_id == game_id, Hand.away)
        .order_by(Round.number, Hand.seat)
    )
    return [tuple(row) for row in db.session.execute(query)]


def test_example_11_1_through_the_services(app):
    with app.app_context():
        game = game_service.create_game(["A", "B", "C"], core.GameRules(rounds=3))
        game_service.record_round(game, _round("A", B=20, C=15))
        assert game_service.leave(game, "C", device="d1") == 1
        snapshot = game_service.snapshot_of(load_game(game.id))
        assert snapshot.setup.left_after == (("C", 1),)
        assert {line.name: line.left_after for line in snapshot.state.standings} == {
            "A": None,
            "B": None,
            "C": 1,
        }
        game_service.record_round(load_game(game.id), _round("A", B=12))
        game_service.record_round(load_game(game.id), _round("B", A=30))
        game = load_game(game.id)
        assert game.finished_at is not None
        assert [(p.name, p.total, p.place, p.zero_rounds) for p in game.players] == [
            ("A", 30, 1, 2),
            ("B", 32, 2, 1),
            ("C", 57, 3, 0),
        ]
        assert _away_hands(game.id) == [(2, 2, 12), (3, 2, 30)]
        history = _history(game.id)
        assert ("left", 1, "C", None) in history
        assert ("recorded", 2, "C", "12 (away)") in history


def test_an_edit_scores_the_leavers_hand_again_and_says_so(app):
    with app.app_context():
        game = game_service.create_game(["A", "B", "C"], core.GameRules())
        game_service.record_round(game, _round("A", B=20, C=15))
        game_service.leave(game, "C")
        game_service.record_round(load_game(game.id), _round("A", B=12))
        # The edit form does not ask for C: what it might send for C is not read.
        outcome = game_service.edit_round(load_game(game.id), 2, _round("B", A=40, C=3))
        assert outcome.saved
        assert _away_hands(game.id) == [(2, 2, 40)]
        assert ("edited", 2, "C", "40 (away)") in _history(game.id)
        # Round 1, played by C, is still checked with C's hand.
        outcome = game_service.edit_round(load_game(game.id), 1, _round("A", B=20))
        assert [p.code for p in outcome.check.errors] == ["pips_missing"]


def test_coming_back_plays_the_next_round_and_keeps_the_missed_one(app):
    with app.app_context():
        game = game_service.create_game(["A", "B", "C"], core.GameRules())
        game_service.record_round(game, _round("A", B=20, C=15))
        game_service.leave(game, "C")
        game_service.record_round(load_game(game.id), _round("A", B=12))
        assert game_service.come_back(load_game(game.id), "C", device="d1") == 3
        outcome = game_service.record_round(load_game(game.id), _round("A", B=1))
        assert [p.code for p in outcome.check.errors] == ["pips_missing"]
        game_service.record_round(load_game(game.id), _round("A", B=1, C=2))
        snapshot = game_service.snapshot_of(load_game(game.id))
        assert [r.hand("C").away for r in snapshot.results] == [False, True, False]
        assert snapshot.setup.left_after == ()
        assert ("came back", 3, "C", None) in _history(game.id)


def test_a_leave_stays_after_its_round_when_that_round_is_undone_and_entered_again(app):
    """RULES.md section 11: A, B and C play two rounds, C leaves, round 2 is deleted. C still
    "left after round 2"; round 2 entered again asks for C's hand and scores it (not the
    round's highest); from round 3 C is away."""
    with app.app_context():
        game = game_service.create_game(["A", "B", "C"], core.GameRules(rounds=4))
        game_service.record_round(game, _round("A", B=20, C=15))
        game_service.record_round(load_game(game.id), _round("A", B=2, C=5))
        game_service.leave(load_game(game.id), "C")
        game_service.undo_last_round(load_game(game.id))
        snapshot = game_service.snapshot_of(load_game(game.id))
        assert {line.name: line.left_after for line in snapshot.state.standings}["C"] == 2
        outcome = game_service.record_round(load_game(game.id), _round("A", B=12))
        assert [p.code for p in outcome.check.errors] == ["pips_missing"]
        game_service.record_round(load_game(game.id), _round("A", B=12, C=3))
        snapshot = game_service.snapshot_of(load_game(game.id))
        assert snapshot.result(2).hand("C").score == 3
        assert not snapshot.result(2).hand("C").away
        game_service.record_round(load_game(game.id), _round("B", A=30))
        snapshot = game_service.snapshot_of(load_game(game.id))
        assert snapshot.result(3).hand("C").away
        assert snapshot.result(3).hand("C").score == 30
        assert [(line.name, line.total) for line in snapshot.state.standings] == [
            ("A", 30),
            ("B", 32),
            ("C", 48),
        ]


def test_undoing_every_round_after_a_leave_keeps_the_leave(app):
    with app.app_context():
        game = game_service.create_game(["A", "B", "C"], core.GameRules())
        game_service.record_round(game, _round("A", B=20, C=15))
        game_service.leave(load_game(game.id), "C")
        game_service.undo_last_round(load_game(game.id))
        assert [p.left_after for p in load_game(game.id).players] == [None, None, 1]
        # Round 1 again is C's to play (C left after it).
        outcome = game_service.record_round(load_game(game.id), _round("A", B=20))
        assert [p.code for p in outcome.check.errors] == ["pips_missing"]


@pytest.mark.parametrize(
    ("action", "code"),
    [("leave", "leave_finished"), ("come_back", "back_finished")],
)
def test_nobody_leaves_or_comes_back_once_the_game_is_over(app, action, code):
    with app.app_context():
        game = game_service.create_game(["A", "B", "C"], core.GameRules(rounds=1))
        game_service.record_round(game, _round("A", B=20, C=15))
        with pytest.raises(core.RuleError) as error:
            getattr(game_service, action)(load_game(game.id), "C")
        assert error.value.problems[0].code == code


def test_a_draw_game_leaver_is_ranked_last_and_cannot_come_back(app):
    with app.app_context():
        rules = core.GameRules(game_type=core.GameType.DRAW)
        game = game_service.create_game(["A", "B", "C"], rules)
        game_service.record_round(game, _round("A", B=20, C=10))  # A 30
        game_service.leave(load_game(game.id), "A")
        game_service.record_round(load_game(game.id), _round("B", C=4))  # B 4
        with pytest.raises(core.RuleError) as error:
            game_service.come_back(load_game(game.id), "A")
        assert error.value.problems[0].code == "back_draw"
        game_service.end_game(load_game(game.id))
        game = load_game(game.id)
        assert [(p.name, p.total, p.place) for p in game.players] == [
            ("A", 30, 3),
            ("B", 4, 1),
            ("C", 0, 2),
        ]


def test_a_late_arrivals_average_leaves_out_a_leavers_missed_round(app):
    """A leaver's missed round copies the round's highest: counting it in a late arrival's
    average would weigh that score twice."""
    with app.app_context():
        game = game_service.create_game(["A", "B", "C"], core.GameRules())
        game_service.record_round(game, _round("A", B=20, C=15))
        game_service.leave(load_game(game.id), "C")
        game_service.record_round(load_game(game.id), _round("A", B=12))
        game_service.join_late(load_game(game.id), "D", core.LateRule.AVERAGE)
        snapshot = game_service.snapshot_of(load_game(game.id))
        # Round 1: (0 + 20 + 15) / 3 = 11.67 -> 12; round 2: (0 + 12) / 2 = 6, not 8.
        assert [r.score("D") for r in snapshot.results] == [12, 6]
        assert [r.hand("C").away for r in snapshot.results] == [False, True]
