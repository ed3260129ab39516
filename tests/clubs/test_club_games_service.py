"""services.club_games: club games, their list, and moving quick games in."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from scorekeeper import core
from scorekeeper.extensions import db
from scorekeeper.models import RosterPlayer
from scorekeeper.services import club_games as club_game_service
from scorekeeper.services import games as game_service
from scorekeeper.services import roster as roster_service
from scorekeeper.services.clubs import ClubError
from tests.helpers import load_game

from .helpers import add_roster, club


def test_a_club_game_seats_roster_players_and_guests(app, club_id, ctx):
    ana, gus = add_roster(app, club_id, "Ana", "Gus")
    roster_service.archive_roster_player(db.session.get(RosterPlayer, gus))
    game = club_game_service.create_club_game(
        club(club_id), ["ANA", "Gus", "Cy"], core.GameRules(set_size=9)
    )
    assert game.club_id == club_id
    assert [(p.name, p.roster_player_id) for p in game.players] == [
        ("Ana", ana),
        ("Gus", None),
        ("Cy", None),
    ]


def test_club_games_list_newest_first_with_status_and_winner(app, club_id, ctx):
    add_roster(app, club_id, "Ana")
    old = club_game_service.create_club_game(club(club_id), ["Ana", "Bo"], core.GameRules(rounds=1))
    old = load_game(old.id)
    entry = core.RoundEntry({"Ana": core.HandEntry(0), "Bo": core.HandEntry(9)}, out="Ana")
    game_service.record_round(old, entry)
    new = club_game_service.create_club_game(club(club_id), ["Cy", "Di"], core.GameRules())
    lines = club_game_service.games_of_club(club(club_id))
    assert [line.game.id for line in lines] == [new.id, old.id]
    assert (lines[0].finished, lines[0].winners, lines[0].rounds_played) == (False, [], 0)
    assert (lines[1].finished, lines[1].winners) == (True, ["Ana"])


def test_moving_a_quick_game_matches_the_roster_and_adds_the_rest(app, club_id, people, ctx):
    ana, gus = add_roster(app, club_id, "Ana", "Gus")
    roster_service.archive_roster_player(db.session.get(RosterPlayer, gus))
    quick = game_service.create_game(["ana", "gus", "Zoe"], core.GameRules(), device="d" * 24)
    version = quick.version
    moved = club_game_service.move_game_to_club(quick, club(club_id))
    assert (moved.matched, moved.added) == (["ana", "gus"], ["Zoe"])
    zoe = db.session.execute(
        select(RosterPlayer.id).where(RosterPlayer.display_name == "Zoe")
    ).scalar_one()
    assert [p.roster_player_id for p in quick.players] == [ana, gus, zoe]
    assert (quick.club_id, quick.version) == (club_id, version + 1)
    with pytest.raises(ClubError):
        club_game_service.move_game_to_club(quick, club(club_id))
