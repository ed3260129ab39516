"""services.players on the hand-worked league (see helpers.make_league for every game)."""

from __future__ import annotations

from datetime import datetime

import pytest

from scorekeeper.extensions import db
from scorekeeper.models import Player
from scorekeeper.services import players as player_service
from scorekeeper.services import roster as roster_service

from .helpers import club_of, entry, play


def names(league) -> dict[int, str]:
    return {league.ana: "Ana", league.ben: "Ben", league.cy: "Cy", league.dee: "Dee"}


def test_ana_record(app, league):
    with app.app_context():
        record = player_service.player_record(club_of(league.club), league.ana, names(league))
    # Mexican Train games counted: g1, g2, g3, g4 (g5 is a draw game, g6 unfinished, g7 empty).
    assert record.games == 4
    # Wins: g1 (alone), g2 (shared with Ben), g4 (alone); g3 she was 3rd.
    assert (record.wins, record.shared_wins) == (3, 1)
    assert record.win_rate == pytest.approx(3 / 4)
    # Totals 7 + 4 + 27 + 0 = 38 over 2 + 2 + 2 + 1 = 7 rounds: 5.43 a round.
    assert (record.total, record.rounds) == (38, 7)
    assert record.average == pytest.approx(38 / 7)
    # Zero rounds: one in g1, g2 and g4.
    assert record.zero_rounds == 3
    # Draw games apart: g5, which she won.
    assert (record.draw_games, record.draw_wins) == (1, 1)
    # Best and worst among games played to the end (g4's 0 was ended after one round).
    assert record.best is not None and record.worst is not None
    assert (record.best.game_id, record.best.total, record.best.shared) == (
        league.games["g2"],
        4,
        True,
    )
    assert (record.worst.game_id, record.worst.total, record.worst.place) == (
        league.games["g3"],
        27,
        3,
    )
    # Last games, newest first, both kinds; the guest keeps his seat's name.
    assert [line.game_id for line in record.last] == [
        league.games[g] for g in ("g5", "g4", "g3", "g2", "g1")
    ]
    assert record.last[2].players == ["Ana", "Cy", "Gus"]
    assert record.last[0].is_draw and record.last[0].total == 12


def test_record_of_someone_with_no_games(app, league):
    with app.app_context():
        club = club_of(league.club)
        (nobody,) = [e.id for e in [roster_service.add_roster_player(club, "Nobody")]]
        record = player_service.player_record(club, nobody, {})
    assert (record.games, record.wins, record.best, record.last) == (0, 0, None, [])
    assert record.win_rate is None and record.average is None


def test_renamed_roster_player_shows_by_current_name(app, league):
    with app.app_context():
        club = club_of(league.club)
        record = player_service.player_record(
            club, league.cy, {**names(league), league.ana: "Anna"}
        )
    # Cy played g1 and g3 (and the unfinished g6); the names come from the map given.
    assert [line.players for line in record.last] == [["Anna", "Cy", "Gus"], ["Anna", "Ben", "Cy"]]
    # Cy: g1 10 (3rd), g3 8 (2nd): no win; 18 over 4 rounds.
    assert (record.games, record.wins, record.total, record.rounds) == (2, 0, 18, 4)


def test_monthly_averages(app, league):
    with app.app_context():
        points = player_service.monthly_averages(club_of(league.club), league.ana)
    # Jan: g1 7 + g2 4 = 11 over 4 rounds (2.75). Feb: g3 27 over 2 (13.5); running 38/6.
    # Mar: g4 0 over 1 (0.0); running 38/7. (g5, the draw game, is not in the chart.)
    assert [(p.year, p.month, p.games, p.total, p.rounds) for p in points] == [
        (2025, 1, 2, 11, 4),
        (2025, 2, 1, 27, 2),
        (2025, 3, 1, 0, 1),
    ]
    assert [p.average for p in points] == pytest.approx([2.75, 13.5, 0.0])
    assert [p.running_average for p in points] == pytest.approx([2.75, 38 / 6, 38 / 7])


def test_head_to_head_ana_ben(app, league):
    with app.app_context():
        h2h = player_service.head_to_head(club_of(league.club), league.ana, league.ben)
    # Together in Mexican Train: g1 (Ana 1st, Ben 2nd), g2 (both 1st), g4 (Ana 1st, Ben 2nd).
    assert (h2h.games, h2h.a_ahead, h2h.b_ahead, h2h.ties) == (3, 2, 0, 1)
    # Ana 7 + 4 + 0 = 11 (3.67 a game); Ben 10 + 4 + 9 = 23 (7.67).
    assert (h2h.total_a, h2h.total_b) == (11, 23)
    assert h2h.average_a == pytest.approx(11 / 3)
    assert h2h.draw_games == 1  # g5
    assert [m.game_id for m in h2h.meetings] == [league.games[g] for g in ("g4", "g2", "g1")]
    assert (h2h.meetings[0].place_a, h2h.meetings[0].place_b) == (1, 2)


def test_head_to_head_is_symmetric(app, league):
    with app.app_context():
        club = club_of(league.club)
        ana_cy = player_service.head_to_head(club, league.ana, league.cy)
        cy_ana = player_service.head_to_head(club, league.cy, league.ana)
        never = player_service.head_to_head(club, league.cy, league.dee)
    # g1: Ana 1st, Cy 3rd; g3: Cy 2nd, Ana 3rd.
    assert (ana_cy.games, ana_cy.a_ahead, ana_cy.b_ahead, ana_cy.ties) == (2, 1, 1, 0)
    assert (cy_ana.a_ahead, cy_ana.b_ahead, cy_ana.total_a, cy_ana.total_b) == (1, 1, 18, 34)
    assert (never.games, never.meetings, never.average_a) == (0, [], None)


def test_matrix(app, league):
    with app.app_context():
        club = club_of(league.club)
        matrix = player_service.head_to_head_matrix(club, player_service.roster_entries(club))
    assert [e.display_name for e in matrix.entries] == ["Ana", "Ben", "Cy", "Dee"]
    a, b, c, d = league.ana, league.ben, league.cy, league.dee
    # Row ahead-behind against column, Mexican Train only (g2's shared 1st counts for neither).
    assert matrix.cells == {
        (a, b): (2, 0),  # g1, g4
        (b, a): (0, 2),
        (a, c): (1, 1),  # g1 / g3
        (c, a): (1, 1),
        (a, d): (1, 0),  # g2
        (d, a): (0, 1),
        (b, c): (1, 0),  # g1, on zero rounds
        (c, b): (0, 1),
        (b, d): (1, 0),  # g2
        (d, b): (0, 1),
    }
    assert matrix.cell(c, d) is None


def test_matrix_leaves_out_archived_and_merged(app, league):
    with app.app_context():
        club = club_of(league.club)
        entries = player_service.roster_entries(club)
        roster_service.archive_roster_player(entries[league.dee])
        matrix = player_service.head_to_head_matrix(club, player_service.roster_entries(club))
    assert [e.display_name for e in matrix.entries] == ["Ana", "Ben", "Cy"]


def test_merge_moves_the_record(app, league):
    annie = play_as_annie(app, league)
    with app.app_context():
        club = club_of(league.club)
        entries = player_service.roster_entries(club)
        roster_service.merge_roster_players(entries[league.ana], entries[annie])
        record = player_service.player_record(club, league.ana, names(league))
    # Annie's game (Annie 3 vs Dee 5, both one round... see play_as_annie) is Ana's now.
    assert record.games == 5
    assert record.wins == 4


def play_as_annie(app, league) -> int:
    """Dee and 'Annie' (the same person as Ana, entered twice): Annie 0+3, Dee 5+0 -> Annie wins."""
    from clubs.helpers import add_roster

    (annie,) = add_roster(app, league.club, "Annie")
    play(
        app,
        league.club,
        {"Annie": annie, "Dee": league.dee},
        [entry({"Annie": 0, "Dee": 5}, "Annie"), entry({"Annie": 3, "Dee": 0}, "Dee")],
        finished_at=datetime(2025, 4, 3, 21, 0),
    )
    return annie


def test_unfinished_and_empty_games_are_not_counted(app, league):
    with app.app_context():
        seats = db.session.execute(
            db.select(Player.place, Player.rounds_played).where(
                Player.game_id.in_([league.games["g6"], league.games["g7"]])
            )
        ).all()
    # g6 has no final figures yet; g7 has them, with 0 rounds (the service leaves it out).
    assert {tuple(s) for s in seats} == {(None, None), (1, 0)}
