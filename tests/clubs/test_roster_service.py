"""services.roster: the roster: names, linked accounts, archive, merge."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from scorekeeper import core
from scorekeeper.extensions import db
from scorekeeper.models import Game, Player, RosterPlayer
from scorekeeper.services import club_games as club_game_service
from scorekeeper.services import clubs as club_service
from scorekeeper.services import games as game_service
from scorekeeper.services import roster as roster_service
from scorekeeper.services.clubs import ClubError
from tests.helpers import load_game

from .helpers import add_roster, club, codes, user


def test_roster_names_are_unique_among_active_entries_in_any_case(app, club_id, ctx):
    ana = roster_service.add_roster_player(club(club_id), "  Ana ")
    with pytest.raises(ClubError) as error:
        roster_service.add_roster_player(club(club_id), "ANA")
    assert codes(error) == ["roster_name_taken"]
    roster_service.archive_roster_player(ana)
    second = roster_service.add_roster_player(club(club_id), "ana")
    with pytest.raises(ClubError) as error:
        roster_service.unarchive_roster_player(ana)
    assert codes(error) == ["roster_name_taken"]
    assert [e.display_name for e in roster_service.active_roster(club(club_id))] == ["ana"]
    roster_service.update_roster_player(second, "Ana B", None)
    roster_service.unarchive_roster_player(ana)
    assert [e.display_name for e in roster_service.active_roster(club(club_id))] == ["Ana", "Ana B"]


@pytest.mark.parametrize("name", ["", "  ", "x" * 41])
def test_roster_names_are_1_to_40_characters(app, club_id, ctx, name):
    with pytest.raises(ClubError):
        roster_service.add_roster_player(club(club_id), name)


def test_only_a_members_account_links_and_only_to_one_entry(app, club_id, people, ctx):
    sam = roster_service.add_roster_player(club(club_id), "Sam", people["Sam"])
    assert sam.user_id == people["Sam"]
    with pytest.raises(ClubError) as error:
        roster_service.add_roster_player(club(club_id), "Sammy", people["Sam"])
    assert codes(error) == ["link_taken"]
    with pytest.raises(ClubError) as error:
        roster_service.add_roster_player(club(club_id), "Otto", people["Otto"])
    assert codes(error) == ["link_not_member"]
    roster_service.update_roster_player(sam, "Samuel", people["Sam"])
    assert (sam.display_name, sam.user_id) == ("Samuel", people["Sam"])


def test_a_rename_shows_in_every_game_of_the_club(app, club_id, ctx):
    (ana,) = add_roster(app, club_id, "Ana")
    game = club_game_service.create_club_game(club(club_id), ["ana", "Guest"], core.GameRules())
    game_service.end_game(load_game(game.id))
    roster_service.update_roster_player(db.session.get(RosterPlayer, ana), "Anna", None)
    (line,) = club_game_service.games_of_club(club(club_id))
    assert line.players == ["Anna", "Guest"]
    assert [p.name for p in db.session.get(Game, game.id).players] == ["Ana", "Guest"]


def test_merge_moves_every_game_and_archives_the_second(app, club_id, ctx):
    ana, anna, ann = (
        db.session.get(RosterPlayer, i) for i in add_roster(app, club_id, "Ana", "Anna", "Ann")
    )
    first = club_game_service.create_club_game(club(club_id), ["Ana", "Bo"], core.GameRules())
    second = club_game_service.create_club_game(club(club_id), ["Anna", "Bo"], core.GameRules())
    roster_service.merge_roster_players(anna, ann)
    assert roster_service.merge_roster_players(ana, anna) == 1
    seats = db.session.execute(
        select(Player.game_id, Player.roster_player_id).where(Player.name.like("An%"))
    ).all()
    assert sorted(seats) == [(first.id, ana.id), (second.id, ana.id)]
    assert (anna.archived, anna.merged_into_id, ann.merged_into_id) == (True, ana.id, ana.id)
    assert [e.display_name for e in roster_service.roster_of(club(club_id))] == ["Ana"]
    with pytest.raises(ClubError) as error:
        roster_service.merge_roster_players(ana, anna)
    assert codes(error) == ["merge_merged"]


def test_two_entries_that_played_together_cannot_be_merged(app, club_id, ctx):
    ana, bo = (db.session.get(RosterPlayer, i) for i in add_roster(app, club_id, "Ana", "Bo"))
    club_game_service.create_club_game(club(club_id), ["Ana", "Bo"], core.GameRules())
    with pytest.raises(ClubError) as error:
        roster_service.merge_roster_players(ana, bo)
    assert codes(error) == ["merge_same_game"]
    assert str(error.value) == (
        "Ana and Bo played in the same game, so they are two different people: "
        "they cannot be merged."
    )
    assert not bo.archived
    with pytest.raises(ClubError):
        roster_service.merge_roster_players(ana, ana)


def test_a_link_stays_when_its_member_leaves(app, club_id, people, ctx):
    sam = roster_service.add_roster_player(club(club_id), "Sam", people["Sam"])
    club_service.leave_club(club(club_id), user(people["Sam"]))
    roster_service.update_roster_player(sam, "Sam B", people["Sam"])
    assert (sam.display_name, roster_service.linked_account(sam).name) == ("Sam B", "Sam")
    with pytest.raises(ClubError) as error:
        roster_service.update_roster_player(sam, "Sam B", people["Otto"])
    assert codes(error) == ["link_not_member"]
