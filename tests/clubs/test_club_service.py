"""services.clubs: clubs, roles, invites, the roster, club games and moving quick games in."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select

from scorekeeper import core
from scorekeeper.extensions import db
from scorekeeper.models import Club, Game, Invite, Player, RosterPlayer, User
from scorekeeper.services import clubs as club_service
from scorekeeper.services import games as game_service
from scorekeeper.services.clubs import ClubError

from .helpers import add_member, add_roster, make_club, make_user


@pytest.fixture
def ctx(app):
    with app.app_context():
        yield


@pytest.fixture
def people(app):
    return {name: make_user(app, name) for name in ("Olive", "Sam", "Vera", "Otto")}


@pytest.fixture
def club_id(app, people):
    club = make_club(app, people["Olive"])
    add_member(app, club, people["Sam"], "scorer")
    add_member(app, club, people["Vera"], "viewer")
    return club


def club(club_id) -> Club:
    return db.session.get(Club, club_id)


def user(user_id) -> User:
    return db.session.get(User, user_id)


def codes(error: pytest.ExceptionInfo) -> list[str]:
    return [problem.code for problem in error.value.problems]


def roles(club_id) -> dict[str, str]:
    return {m.user.name: m.role for m in club_service.members_of(club(club_id))}


# Clubs and roles -------------------------------------------------------------------------------


def test_the_creator_is_the_owner(app, people, ctx):
    made = club_service.create_club(user(people["Otto"]), "  Domino   Club ")
    assert made.name == "Domino Club"
    assert club_service.role_in(user(people["Otto"]), made.id) == "owner"
    assert club_service.clubs_of(user(people["Otto"])) == [(made, "owner")]


@pytest.mark.parametrize("name", ["", "   ", "x" * 81])
def test_a_club_needs_a_name_of_at_most_80_characters(app, people, ctx, name):
    with pytest.raises(ClubError) as error:
        club_service.create_club(user(people["Otto"]), name)
    assert codes(error)[0] in {"club_name_empty", "club_name_long"}


def test_members_are_listed_owner_first(app, club_id, ctx):
    assert list(roles(club_id).items()) == [
        ("Olive", "owner"),
        ("Sam", "scorer"),
        ("Vera", "viewer"),
    ]


def test_default_rules_are_checked_by_the_core_and_saved(app, club_id, ctx):
    rules = core.GameRules(set_size=9, rounds=20)
    with pytest.raises(ClubError) as error:
        club_service.update_club(club(club_id), name="X", rules=rules, public=True)
    assert codes(error) == ["rounds"]
    assert club(club_id).public is False
    rules = core.GameRules(
        set_size=15,
        blank_scoring=core.BlankScoring.BLANK_25,
        rounds=5,
        order=core.Order.ASCENDING,
        house_rules=core.HouseRules(10, True, True),
    )
    club_service.update_club(club(club_id), name="X", rules=rules, public=True)
    assert club_service.default_rules(club(club_id)) == rules
    assert club(club_id).public


def test_change_role_gives_viewer_or_scorer_never_owner(app, club_id, people, ctx):
    club_service.change_role(club(club_id), people["Vera"], "scorer")
    assert roles(club_id)["Vera"] == "scorer"
    with pytest.raises(ClubError):
        club_service.change_role(club(club_id), people["Vera"], "owner")
    with pytest.raises(ClubError) as error:
        club_service.change_role(club(club_id), people["Olive"], "viewer")
    assert codes(error) == ["owner_role"]
    with pytest.raises(ClubError) as error:
        club_service.change_role(club(club_id), people["Otto"], "viewer")
    assert codes(error) == ["not_member"]


def test_transfer_keeps_exactly_one_owner(app, club_id, people, ctx):
    club_service.transfer_ownership(club(club_id), user(people["Olive"]), people["Vera"])
    assert roles(club_id) == {"Vera": "owner", "Olive": "scorer", "Sam": "scorer"}
    with pytest.raises(ClubError) as error:
        club_service.transfer_ownership(club(club_id), user(people["Olive"]), people["Sam"])
    assert codes(error) == ["not_owner"]
    with pytest.raises(ClubError) as error:
        club_service.transfer_ownership(club(club_id), user(people["Vera"]), people["Otto"])
    assert codes(error) == ["not_member"]


def test_the_owner_cannot_leave_or_be_removed(app, club_id, people, ctx):
    with pytest.raises(ClubError) as error:
        club_service.leave_club(club(club_id), user(people["Olive"]))
    assert codes(error) == ["owner_leaves"]
    with pytest.raises(ClubError):
        club_service.remove_member(club(club_id), people["Olive"])
    club_service.leave_club(club(club_id), user(people["Sam"]))
    club_service.remove_member(club(club_id), people["Vera"])
    assert roles(club_id) == {"Olive": "owner"}


# Invites ---------------------------------------------------------------------------------------


def test_an_invite_joins_and_never_lowers_a_role(app, club_id, people, ctx):
    owner = user(people["Olive"])
    scorer_invite = club_service.create_invite(club(club_id), owner, "scorer", 1)
    assert club_service.accept_invite(scorer_invite, user(people["Otto"]))[1] == "joined"
    assert club_service.accept_invite(scorer_invite, user(people["Vera"]))[1] == "promoted"
    viewer_invite = club_service.create_invite(club(club_id), owner)
    assert club_service.accept_invite(viewer_invite, user(people["Sam"]))[1] == "already"
    assert club_service.accept_invite(viewer_invite, owner)[1] == "already"
    assert roles(club_id) == {"Olive": "owner", "Otto": "scorer", "Sam": "scorer", "Vera": "scorer"}
    assert viewer_invite.expires_at - viewer_invite.created_at == timedelta(days=7)


def test_revoked_and_expired_invites_stop_working(app, club_id, people, ctx):
    owner = user(people["Olive"])
    revoked = club_service.create_invite(club(club_id), owner)
    expired = club_service.create_invite(club(club_id), owner, days=30)
    fresh = club_service.create_invite(club(club_id), owner, "scorer")
    club_service.revoke_invite(revoked)
    expired.expires_at = expired.created_at - timedelta(seconds=1)
    db.session.commit()
    assert [club_service.invite_status(i) for i in (revoked, expired, fresh)] == [
        "revoked",
        "expired",
        "open",
    ]
    assert club_service.open_invites(club(club_id)) == [fresh]
    with pytest.raises(ClubError):
        club_service.accept_invite(expired, user(people["Otto"]))
    assert club_service.role_in(user(people["Otto"]), club_id) is None


@pytest.mark.parametrize(("role", "days"), [("owner", 7), ("viewer", 3)])
def test_invites_give_viewer_or_scorer_for_1_7_or_30_days(app, club_id, people, ctx, role, days):
    with pytest.raises(ClubError):
        club_service.create_invite(club(club_id), user(people["Olive"]), role, days)
    assert db.session.execute(select(Invite)).first() is None


# Roster ----------------------------------------------------------------------------------------


def test_roster_names_are_unique_among_active_entries_in_any_case(app, club_id, ctx):
    ana = club_service.add_roster_player(club(club_id), "  Ana ")
    with pytest.raises(ClubError) as error:
        club_service.add_roster_player(club(club_id), "ANA")
    assert codes(error) == ["roster_name_taken"]
    club_service.archive_roster_player(ana)
    second = club_service.add_roster_player(club(club_id), "ana")
    with pytest.raises(ClubError) as error:
        club_service.unarchive_roster_player(ana)
    assert codes(error) == ["roster_name_taken"]
    assert [e.display_name for e in club_service.active_roster(club(club_id))] == ["ana"]
    club_service.update_roster_player(second, "Ana B", None)
    club_service.unarchive_roster_player(ana)
    assert [e.display_name for e in club_service.active_roster(club(club_id))] == ["Ana", "Ana B"]


@pytest.mark.parametrize("name", ["", "  ", "x" * 41])
def test_roster_names_are_1_to_40_characters(app, club_id, ctx, name):
    with pytest.raises(ClubError):
        club_service.add_roster_player(club(club_id), name)


def test_only_a_members_account_links_and_only_to_one_entry(app, club_id, people, ctx):
    sam = club_service.add_roster_player(club(club_id), "Sam", people["Sam"])
    assert sam.user_id == people["Sam"]
    with pytest.raises(ClubError) as error:
        club_service.add_roster_player(club(club_id), "Sammy", people["Sam"])
    assert codes(error) == ["link_taken"]
    with pytest.raises(ClubError) as error:
        club_service.add_roster_player(club(club_id), "Otto", people["Otto"])
    assert codes(error) == ["link_not_member"]
    club_service.update_roster_player(sam, "Samuel", people["Sam"])
    assert (sam.display_name, sam.user_id) == ("Samuel", people["Sam"])


def test_a_rename_shows_in_every_game_of_the_club(app, club_id, ctx):
    (ana,) = add_roster(app, club_id, "Ana")
    game = club_service.create_club_game(club(club_id), ["ana", "Guest"], core.GameRules())
    game_service.end_game(game_service.load_game(game.id))
    club_service.update_roster_player(db.session.get(RosterPlayer, ana), "Anna", None)
    (line,) = club_service.games_of_club(club(club_id))
    assert line.players == ["Anna", "Guest"]
    assert [p.name for p in db.session.get(Game, game.id).players] == ["Ana", "Guest"]


def test_merge_moves_every_game_and_archives_the_second(app, club_id, ctx):
    ana, anna, ann = (
        db.session.get(RosterPlayer, i) for i in add_roster(app, club_id, "Ana", "Anna", "Ann")
    )
    first = club_service.create_club_game(club(club_id), ["Ana", "Bo"], core.GameRules())
    second = club_service.create_club_game(club(club_id), ["Anna", "Bo"], core.GameRules())
    club_service.merge_roster_players(anna, ann)
    assert club_service.merge_roster_players(ana, anna) == 1
    seats = db.session.execute(
        select(Player.game_id, Player.roster_player_id).where(Player.name.like("An%"))
    ).all()
    assert sorted(seats) == [(first.id, ana.id), (second.id, ana.id)]
    assert (anna.archived, anna.merged_into_id, ann.merged_into_id) == (True, ana.id, ana.id)
    assert [e.display_name for e in club_service.roster_of(club(club_id))] == ["Ana"]
    with pytest.raises(ClubError) as error:
        club_service.merge_roster_players(ana, anna)
    assert codes(error) == ["merge_merged"]


def test_two_entries_that_played_together_cannot_be_merged(app, club_id, ctx):
    ana, bo = (db.session.get(RosterPlayer, i) for i in add_roster(app, club_id, "Ana", "Bo"))
    club_service.create_club_game(club(club_id), ["Ana", "Bo"], core.GameRules())
    with pytest.raises(ClubError) as error:
        club_service.merge_roster_players(ana, bo)
    assert codes(error) == ["merge_same_game"]
    assert str(error.value) == (
        "Ana and Bo played in the same game, so they are two different people: "
        "they cannot be merged."
    )
    assert not bo.archived
    with pytest.raises(ClubError):
        club_service.merge_roster_players(ana, ana)


# Club games ------------------------------------------------------------------------------------


def test_a_club_game_seats_roster_players_and_guests(app, club_id, ctx):
    ana, gus = add_roster(app, club_id, "Ana", "Gus")
    club_service.archive_roster_player(db.session.get(RosterPlayer, gus))
    game = club_service.create_club_game(
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
    old = club_service.create_club_game(club(club_id), ["Ana", "Bo"], core.GameRules(rounds=1))
    old = game_service.load_game(old.id)
    entry = core.RoundEntry({"Ana": core.HandEntry(0), "Bo": core.HandEntry(9)}, out="Ana")
    game_service.record_round(old, entry)
    new = club_service.create_club_game(club(club_id), ["Cy", "Di"], core.GameRules())
    lines = club_service.games_of_club(club(club_id))
    assert [line.game.id for line in lines] == [new.id, old.id]
    assert (lines[0].finished, lines[0].winners, lines[0].rounds_played) == (False, [], 0)
    assert (lines[1].finished, lines[1].winners) == (True, ["Ana"])


def test_moving_a_quick_game_matches_the_roster_and_adds_the_rest(app, club_id, people, ctx):
    ana, gus = add_roster(app, club_id, "Ana", "Gus")
    club_service.archive_roster_player(db.session.get(RosterPlayer, gus))
    quick = game_service.create_game(["ana", "gus", "Zoe"], core.GameRules(), device="d" * 24)
    version = quick.version
    moved = club_service.move_game_to_club(quick, club(club_id))
    assert (moved.matched, moved.added) == (["ana", "gus"], ["Zoe"])
    zoe = db.session.execute(
        select(RosterPlayer.id).where(RosterPlayer.display_name == "Zoe")
    ).scalar_one()
    assert [p.roster_player_id for p in quick.players] == [ana, gus, zoe]
    assert (quick.club_id, quick.version) == (club_id, version + 1)
    with pytest.raises(ClubError):
        club_service.move_game_to_club(quick, club(club_id))


def test_clubs_to_move_into_are_those_where_one_scores(app, club_id, people, ctx):
    make_club(app, people["Vera"], "Vera's")
    assert [c.name for c in club_service.clubs_to_move_into(user(people["Vera"]))] == ["Vera's"]
    assert [c.id for c in club_service.clubs_to_move_into(user(people["Sam"]))] == [club_id]


def test_a_link_stays_when_its_member_leaves(app, club_id, people, ctx):
    sam = club_service.add_roster_player(club(club_id), "Sam", people["Sam"])
    club_service.leave_club(club(club_id), user(people["Sam"]))
    club_service.update_roster_player(sam, "Sam B", people["Sam"])
    assert (sam.display_name, club_service.linked_account(sam).name) == ("Sam B", "Sam")
    with pytest.raises(ClubError) as error:
        club_service.update_roster_player(sam, "Sam B", people["Otto"])
    assert codes(error) == ["link_not_member"]
