"""services.clubs: clubs, roles, members and invites."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select

from scorekeeper import core
from scorekeeper.extensions import db
from scorekeeper.models import Invite
from scorekeeper.services import clubs as club_service
from scorekeeper.services.clubs import ClubError

from .helpers import club, codes, make_club, user


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


def test_clubs_to_move_into_are_those_where_one_scores(app, club_id, people, ctx):
    make_club(app, people["Vera"], "Vera's")
    assert [c.name for c in club_service.clubs_to_move_into(user(people["Vera"]))] == ["Vera's"]
    assert [c.id for c in club_service.clubs_to_move_into(user(people["Sam"]))] == [club_id]


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
