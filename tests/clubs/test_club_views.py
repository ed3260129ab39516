"""Club pages through the test client: what an owner, a scorer and a viewer see and change."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from sqlalchemy import func, select

from scorekeeper import core
from scorekeeper.extensions import db
from scorekeeper.models import Club, Game, Invite, RosterPlayer
from scorekeeper.services import clubs as club_service
from scorekeeper.services import games as game_service
from tests.helpers import load_game

from .helpers import (
    add_roster,
    as_,
    assert_sign_in_redirect,
    make_club_game,
    make_user,
    messages_on,
    role_of,
    sign_in,
)


def follow(client, response) -> str:
    """The page a redirect leads to (flashed messages included)."""
    assert response.status_code == 302, response.get_data(as_text=True)[:2000]
    return client.get(response.headers["Location"]).get_data(as_text=True)


def count(app, column) -> int:
    with app.app_context():
        return db.session.execute(select(func.count(column))).scalar_one()


def club_row(app, club_id) -> Club:
    with app.app_context():
        club = db.session.get(Club, club_id)
        db.session.expunge(club)
        return club


# My clubs, a new club --------------------------------------------------------------------------


def test_my_clubs_lists_each_club_with_my_role(app, client, world):
    page = as_(client, app, world, "scorer").get("/clubs").get_data(as_text=True)
    assert "Thursday Trains" in page and "You are a scorer" in page
    assert "Other Club" not in page
    assert f'href="/clubs/{world.club}"' in page


def test_the_clubs_link_shows_when_signed_in(app, client, world):
    assert 'href="/clubs"' not in client.get("/").get_data(as_text=True)
    assert 'href="/clubs"' in as_(client, app, world, "viewer").get("/").get_data(as_text=True)


def test_signed_out_my_clubs_sends_to_sign_in(app, client):
    assert_sign_in_redirect(app, client.get("/clubs"), "/clubs")


def test_a_new_club_makes_its_creator_owner(app, client):
    user = make_user(app, "Nia")
    sign_in(client, app, user)
    response = client.post("/clubs/new", data={"name": " Sunday  Spinners "})
    with app.app_context():
        club_id = db.session.execute(select(Club.id)).scalar_one()
    assert response.headers["Location"] == f"/clubs/{club_id}"
    assert "Sunday Spinners is ready. Invite your players next." in messages_on(
        follow(client, response)
    )
    assert role_of(app, club_id, user) == "owner"


def test_a_club_without_a_name_is_refused_next_to_the_field(app, client, world):
    response = as_(client, app, world, "owner").post("/clubs/new", data={"name": "   "})
    assert response.status_code == 422
    assert "Give the club a name." in messages_on(response.get_data(as_text=True))
    assert count(app, Club.id) == 2


# The club page ---------------------------------------------------------------------------------


def test_the_club_page_shows_games_roster_and_members(app, client, world):
    ana, _ben = add_roster(app, world.club, "Ana", "Ben")
    first = make_club_game(app, world.club, ["Ana", "Cy"])
    with app.app_context():
        game = load_game(first)
        game.rounds = 1
        entry = core.RoundEntry({"Ana": core.HandEntry(0), "Cy": core.HandEntry(7)}, out="Ana")
        game_service.record_round(game, entry)
        db.session.get(RosterPlayer, ana).display_name = "Anabel"
        db.session.commit()
    second = make_club_game(app, world.club, ["Ben", "Di"])
    page = as_(client, app, world, "viewer").get(f"/clubs/{world.club}").get_data(as_text=True)
    assert page.index(f"/games/{second}") < page.index(f"/games/{first}")
    assert "Winner: Anabel" in page  # the roster's current name
    assert "In play" in page and "0 rounds played" in page
    assert "Olive Owner" in page and "Owner" in page and "Vera Viewer" in page
    assert "Anabel" in page and "Ben" in page
    assert "New club game" not in page  # viewers watch
    assert "New club game" in as_(client, app, world, "scorer").get(
        f"/clubs/{world.club}"
    ).get_data(as_text=True)


def test_the_owner_must_transfer_before_leaving(app, client, world):
    response = as_(client, app, world, "owner").post(f"/clubs/{world.club}/leave")
    assert response.headers["Location"] == f"/clubs/{world.club}"
    assert (
        "You are the owner: transfer ownership to another member before you leave the club."
        in messages_on(follow(client, response))
    )
    assert role_of(app, world.club, world.owner) == "owner"


def test_a_member_leaves(app, client, world):
    response = as_(client, app, world, "viewer").post(f"/clubs/{world.club}/leave")
    assert response.headers["Location"] == "/clubs"
    assert "You left Thursday Trains." in messages_on(follow(client, response))
    assert role_of(app, world.club, world.viewer) is None


# Settings --------------------------------------------------------------------------------------

SETTINGS = {
    "name": "Thursday Trains",
    "set_size": "15",
    "blank_scoring": "blank_25",
    "rounds": "",
    "order": "ascending",
    "open_train_points": "25",
    "strategic_error": "y",
}


def test_settings_save_the_default_rules_and_the_public_page(app, client, world):
    client = as_(client, app, world, "owner")
    assert 'value="Thursday Trains"' in client.get(f"/clubs/{world.club}/settings").get_data(
        as_text=True
    )
    response = client.post(f"/clubs/{world.club}/settings", data={**SETTINGS, "public": "y"})
    assert response.headers["Location"] == f"/clubs/{world.club}"
    page = follow(client, response)
    assert "Settings saved." in messages_on(page)
    club = club_row(app, world.club)
    assert (club.set_size, club.blank_scoring, club.order) == (15, "blank_25", "ascending")
    assert (club.open_train_points, club.strategic_error, club.adjustments) == (25, True, False)
    assert club.public and f"/c/{club.public_token}" in page


@pytest.mark.parametrize(
    ("rounds", "message"),
    [
        ("lots", "Enter a whole number, or leave it empty."),
        ("17", "From 0-0 the game can have 1 to 16 rounds."),
    ],
)
def test_settings_refuse_rounds_the_set_cannot_play(app, client, world, rounds, message):
    client = as_(client, app, world, "owner")
    response = client.post(f"/clubs/{world.club}/settings", data={**SETTINGS, "rounds": rounds})
    assert response.status_code == 422
    assert message in messages_on(response.get_data(as_text=True))
    assert club_row(app, world.club).set_size == 12


# Members ---------------------------------------------------------------------------------------


def test_the_owner_changes_a_role_and_removes_a_member(app, client, world):
    client = as_(client, app, world, "owner")
    back = f"/clubs/{world.club}/members"
    response = client.post(f"{back}/{world.viewer}/role", data={"role": "scorer"})
    assert response.headers["Location"] == back
    assert "Vera Viewer is now a scorer." in messages_on(follow(client, response))
    response = client.post(f"{back}/{world.scorer}/remove")
    assert "Sam Scorer is no longer a member." in messages_on(follow(client, response))
    assert role_of(app, world.club, world.viewer) == "scorer"
    assert role_of(app, world.club, world.scorer) is None


def test_the_owners_role_changes_only_by_transfer(app, client, world):
    client = as_(client, app, world, "owner")
    back = f"/clubs/{world.club}/members"
    response = client.post(f"{back}/{world.owner}/role", data={"role": "viewer"})
    assert "The owner stays the owner until ownership is transferred to another member." in (
        messages_on(follow(client, response))
    )
    response = client.post(f"{back}/{world.owner}/remove")
    assert "The owner cannot be removed from the club." in messages_on(follow(client, response))
    assert client.post(f"{back}/{world.outsider}/role", data={"role": "viewer"}).status_code == 404
    assert role_of(app, world.club, world.owner) == "owner"


def test_transfer_makes_another_member_owner(app, client, world):
    client = as_(client, app, world, "owner")
    response = client.post(f"/clubs/{world.club}/transfer", data={"user_id": str(world.viewer)})
    assert response.headers["Location"] == f"/clubs/{world.club}"
    assert "Vera Viewer is now the owner; you are a scorer." in messages_on(
        follow(client, response)
    )
    assert role_of(app, world.club, world.viewer) == "owner"
    assert role_of(app, world.club, world.owner) == "scorer"


def test_transfer_to_someone_outside_the_club_is_refused(app, client, world):
    client = as_(client, app, world, "owner")
    response = client.post(f"/clubs/{world.club}/transfer", data={"user_id": str(world.outsider)})
    assert response.status_code == 400
    assert "Not a valid choice." in messages_on(response.get_data(as_text=True))
    assert role_of(app, world.club, world.owner) == "owner"


# Invites ---------------------------------------------------------------------------------------


def make_invite(client, app, world, role="scorer", days="7") -> Invite:
    response = as_(client, app, world, "owner").post(
        f"/clubs/{world.club}/invites", data={"role": role, "days": days}
    )
    with app.app_context():
        invite = db.session.execute(select(Invite).order_by(Invite.id.desc())).scalars().first()
        db.session.expunge(invite)
    assert response.headers["Location"] == f"/clubs/{world.club}/invites#invite-{invite.id}"
    return invite


def test_the_owner_makes_lists_and_revokes_invite_links(app, client, world):
    invite = make_invite(client, app, world, "scorer", "30")
    page = client.get(f"/clubs/{world.club}/invites").get_data(as_text=True)
    assert "Invite link made: send it to whoever should join as scorer." in messages_on(page)
    assert f"http://localhost/invite/{invite.token}" in page and "Joins as scorer" in page
    assert invite.expires_at - invite.created_at == timedelta(days=30)
    response = client.post(f"/clubs/{world.club}/invites/{invite.id}/revoke")
    page = follow(client, response)
    assert "The invite link no longer works." in messages_on(page)
    assert invite.token not in page
    assert client.post(f"/clubs/{world.club}/invites/999/revoke").status_code == 404


def test_an_invite_shows_the_club_and_role_then_joins_with_one_post(app, client, world):
    invite = make_invite(client, app, world, "scorer")
    newcomer = app.test_client()
    nia = make_user(app, "Nia")
    sign_in(newcomer, app, nia)
    page = newcomer.get(f"/invite/{invite.token}").get_data(as_text=True)
    assert "Join Thursday Trains" in page and "You are invited as a scorer" in page
    response = newcomer.post(f"/invite/{invite.token}")
    assert response.headers["Location"] == f"/clubs/{world.club}"
    assert "Welcome to Thursday Trains! You joined as scorer." in messages_on(
        follow(newcomer, response)
    )
    assert role_of(app, world.club, nia) == "scorer"


def test_a_signed_out_visitor_signs_in_before_joining(app, client, world):
    invite = make_invite(client, app, world)
    visitor = app.test_client()
    assert_sign_in_redirect(app, visitor.get(f"/invite/{invite.token}"), f"/invite/{invite.token}")
    assert_sign_in_redirect(app, visitor.post(f"/invite/{invite.token}"), f"/invite/{invite.token}")


@pytest.mark.parametrize(
    ("state", "status", "message"),
    [
        ("unknown", 404, "There is no invite with this link: check that it was copied whole."),
        ("expired", 410, "It has expired."),
        ("revoked", 410, "The club revoked it."),
    ],
)
def test_a_dead_invite_link_says_why(app, client, world, state, status, message):
    invite = make_invite(client, app, world)
    with app.app_context():
        row = db.session.get(Invite, invite.id)
        if state == "expired":
            row.expires_at = row.created_at - timedelta(minutes=1)
        elif state == "revoked":
            club_service.revoke_invite(row)
        db.session.commit()
    token = "nope" if state == "unknown" else invite.token
    joiner = app.test_client()
    sign_in(joiner, app, world.outsider)
    for response in (joiner.get(f"/invite/{token}"), joiner.post(f"/invite/{token}")):
        assert response.status_code == status
        assert message in response.get_data(as_text=True)
    assert role_of(app, world.club, world.outsider) is None


# The public page -------------------------------------------------------------------------------


def test_the_public_page_lists_games_with_their_share_links(app, client, world):
    game_id = make_club_game(app, world.club, ["Ana", "Bo"])
    with app.app_context():
        club = db.session.get(Club, world.club)
        token, view_token = club.public_token, db.session.get(Game, game_id).view_token
    assert client.get(f"/c/{token}").status_code == 404
    assert client.get(f"/s/{view_token}").status_code == 404
    with app.app_context():
        db.session.get(Club, world.club).public = True
        db.session.commit()
    page = client.get(f"/c/{token}").get_data(as_text=True)
    assert "Thursday Trains" in page and f'href="/s/{view_token}"' in page
    assert f"/games/{game_id}" not in page
    assert client.get(f"/s/{view_token}").status_code == 200
    assert client.get("/c/not-a-token").status_code == 404


# Roster ----------------------------------------------------------------------------------------


def test_scorers_add_players_to_the_roster(app, client, world):
    client = as_(client, app, world, "scorer")
    response = client.post(
        f"/clubs/{world.club}/roster", data={"display_name": " Ana ", "user_id": str(world.viewer)}
    )
    assert response.headers["Location"] == f"/clubs/{world.club}/roster"
    page = follow(client, response)
    assert "Ana is on the roster." in messages_on(page)
    assert "account: Vera Viewer" in page
    response = client.post(f"/clubs/{world.club}/roster", data={"display_name": "ANA"})
    assert response.status_code == 422
    assert "Ana is already on the roster: choose another name." in messages_on(
        response.get_data(as_text=True)
    )
    response = client.post(f"/clubs/{world.club}/roster", data={"display_name": "x" * 41})
    assert response.status_code == 422
    assert "A name can be at most 40 characters." in messages_on(response.get_data(as_text=True))
    assert count(app, RosterPlayer.id) == 1


def test_viewers_see_the_roster_without_its_buttons(app, client, world):
    add_roster(app, world.club, "Ana")
    page = (
        as_(client, app, world, "viewer").get(f"/clubs/{world.club}/roster").get_data(as_text=True)
    )
    assert "Ana" in page
    assert "Add a player" not in page and "Archive" not in page


def test_a_rename_keeps_the_players_games(app, client, world):
    (ana,) = add_roster(app, world.club, "Ana")
    game_id = make_club_game(app, world.club, ["Ana", "Bo"])
    client = as_(client, app, world, "scorer")
    assert 'value="Ana"' in client.get(f"/clubs/{world.club}/roster/{ana}").get_data(as_text=True)
    response = client.post(f"/clubs/{world.club}/roster/{ana}", data={"display_name": "Anna"})
    assert response.headers["Location"] == f"/clubs/{world.club}/roster"
    assert "Ana is now Anna, in every game." in messages_on(follow(client, response))
    assert "Anna, Bo" in client.get(f"/clubs/{world.club}").get_data(as_text=True)
    with app.app_context():
        assert db.session.get(Game, game_id).players[0].roster_player_id == ana


def test_archived_players_are_not_offered_for_new_games(app, client, world):
    ana, _ben = add_roster(app, world.club, "Ana", "Ben")
    client = as_(client, app, world, "scorer")
    response = client.post(f"/clubs/{world.club}/roster/{ana}/archive")
    assert "Ana is archived: their games stay." in messages_on(follow(client, response))
    page = client.get(f"/clubs/{world.club}/games/new").get_data(as_text=True)
    assert '<option value="Ben">' in page and '<option value="Ana">' not in page
    add_roster(app, world.club, "ana")
    response = client.post(f"/clubs/{world.club}/roster/{ana}/unarchive")
    assert "ana is already on the roster: choose another name." in messages_on(
        follow(client, response)
    )
    with app.app_context():
        assert db.session.get(RosterPlayer, ana).archived


def test_merging_two_entries_moves_the_games(app, client, world):
    ana, anna = add_roster(app, world.club, "Ana", "Anna")
    game_id = make_club_game(app, world.club, ["Anna", "Bo"])
    client = as_(client, app, world, "scorer")
    response = client.post(
        f"/clubs/{world.club}/roster/merge", data={"keep": str(ana), "drop": str(anna)}
    )
    assert response.headers["Location"] == f"/clubs/{world.club}/roster"
    assert "Anna merged into Ana (1 seats moved)." in messages_on(follow(client, response))
    with app.app_context():
        assert db.session.get(Game, game_id).players[0].roster_player_id == ana
        assert db.session.get(RosterPlayer, anna).merged_into_id == ana
    assert client.post(f"/clubs/{world.club}/roster/{anna}/unarchive").status_code == 404


def test_two_players_of_one_game_are_not_merged(app, client, world):
    ana, bo = add_roster(app, world.club, "Ana", "Bo")
    make_club_game(app, world.club, ["Ana", "Bo"])
    client = as_(client, app, world, "owner")
    response = client.post(
        f"/clubs/{world.club}/roster/merge", data={"keep": str(ana), "drop": str(bo)}
    )
    assert response.status_code == 422
    assert (
        "Ana and Bo played in the same game, so they are two different people: "
        "they cannot be merged." in messages_on(response.get_data(as_text=True))
    )
    response = client.post(f"/clubs/{world.club}/roster/merge", data={"keep": str(ana)})
    assert response.status_code == 400
    assert "Choose a player." in messages_on(response.get_data(as_text=True))
    with app.app_context():
        assert db.session.get(RosterPlayer, bo).merged_into_id is None


# Club games ------------------------------------------------------------------------------------


def test_club_game_setup_prefills_the_club_rules_and_offers_the_roster(app, client, world):
    add_roster(app, world.club, "Ana", "Ben")
    with app.app_context():
        club = db.session.get(Club, world.club)
        club.set_size, club.strategic_error, club.rounds = 9, True, 4
        db.session.commit()
    page = as_(client, app, world, "scorer").get(f"/clubs/{world.club}/games/new")
    page = page.get_data(as_text=True)
    inputs = re.findall(r"<input[^>]*(?:rounds|strategic)[^>]*>", page)
    assert '<option selected value="9">' in page
    assert any('name="rounds"' in tag and 'value="4"' in tag for tag in inputs)
    assert any('name="strategic_error"' in tag and "checked" in tag for tag in inputs)
    assert 'list="roster-names"' in page and '<option value="Ana">' in page
    assert 'data-keep-set="true"' in page


def test_a_club_game_seats_roster_players_and_guests(app, client, world):
    ana, _ben = add_roster(app, world.club, "Ana", "Ben")
    client = as_(client, app, world, "scorer")
    response = client.post(
        f"/clubs/{world.club}/games/new",
        data={
            "players-0": "ana",
            "players-1": "Guest Gil",
            "game_type": "mexican_train",
            "set_size": "9",
            "order": "descending",
            "blank_scoring": "face",
            "open_train_points": "0",
        },
    )
    with app.app_context():
        game = db.session.execute(select(Game)).scalar_one()
        seats = [(p.name, p.roster_player_id) for p in game.players]
        assert (game.club_id, game.set_size) == (world.club, 9)
    assert response.headers["Location"] == f"/games/{game.id}"
    assert seats == [("Ana", ana), ("Guest Gil", None)]
    assert "Game on! Round 1 is ready." in messages_on(follow(client, response))


def test_a_club_game_entered_after_the_fact_takes_the_day_it_was_played(app, client, world):
    add_roster(app, world.club, "Ana", "Ben")
    client = as_(client, app, world, "scorer")
    form = {
        "players-0": "Ana",
        "players-1": "Ben",
        "game_type": "mexican_train",
        "set_size": "12",
        "order": "descending",
        "blank_scoring": "face",
        "open_train_points": "0",
    }
    assert 'name="played_on"' in client.get(f"/clubs/{world.club}/games/new").text
    future = client.post(f"/clubs/{world.club}/games/new", data={**form, "played_on": "2999-01-01"})
    assert future.status_code == 400
    assert "A game cannot be played in the future: check the date." in future.text
    assert 'value="2999-01-01"' in future.text  # what was typed is kept
    response = client.post(
        f"/clubs/{world.club}/games/new", data={**form, "played_on": "2025-01-10"}
    )
    assert response.status_code == 302
    with app.app_context():
        game = db.session.execute(select(Game)).scalar_one()
        assert (game.played_on.isoformat(), game.played_at) == ("2025-01-10", None)
    listing = client.get(f"/clubs/{world.club}").text
    assert "1/10/25" in listing


def test_club_game_setup_errors_show_next_to_the_field(app, client, world):
    client = as_(client, app, world, "scorer")
    response = client.post(
        f"/clubs/{world.club}/games/new", data={"players-0": "Ana", "game_type": "mexican_train"}
    )
    assert response.status_code == 422
    assert "This game needs 2 to 14 players (you have 1)." in messages_on(
        response.get_data(as_text=True)
    )
    response = client.post(
        f"/clubs/{world.club}/games/new", data={"players-0": "Ana", "add_player": "Add"}
    )
    assert response.get_data(as_text=True).count('name="players-') == 5
    assert count(app, Game.id) == 0


# Moving a quick game into a club ---------------------------------------------------------------


def start_quick_game(client, players=("Ana", "Zoe")) -> int:
    data = {f"players-{i}": name for i, name in enumerate(players)}
    response = client.post("/games/new", data={**data, "game_type": "mexican_train"})
    return int(response.headers["Location"].rsplit("/", 1)[1])


def test_a_quick_game_moves_into_a_club(app, client, world):
    (ana,) = add_roster(app, world.club, "Ana")
    client = as_(client, app, world, "scorer")
    game_id = start_quick_game(client)
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert f'action="/games/{game_id}/move"' in page and "Thursday Trains" in page
    response = client.post(f"/games/{game_id}/move", data={"club_id": str(world.club)})
    assert response.headers["Location"] == f"/games/{game_id}"
    shown = messages_on(follow(client, response))
    assert "The game now belongs to Thursday Trains." in shown
    assert "Added to the roster: Zoe (no roster player had these names)." in shown
    with app.app_context():
        game = db.session.get(Game, game_id)
        assert game.club_id == world.club
        assert game.players[0].roster_player_id == ana
    response = client.post(f"/games/{game_id}/move", data={"club_id": str(world.club)})
    assert "This game already belongs to a club." in messages_on(follow(client, response))


def test_the_move_form_is_only_for_scorers_of_a_club(app, client, world):
    client = as_(client, app, world, "viewer")
    game_id = start_quick_game(client)
    assert "/move" not in client.get(f"/games/{game_id}").get_data(as_text=True)
    anonymous = app.test_client()
    game_id = start_quick_game(anonymous)
    assert "/move" not in anonymous.get(f"/games/{game_id}").get_data(as_text=True)


def test_only_the_device_that_scores_a_quick_game_moves_it(app, client, world):
    game_id = start_quick_game(app.test_client())
    client = as_(client, app, world, "scorer")
    response = client.post(f"/games/{game_id}/move", data={"club_id": str(world.club)})
    assert response.status_code == 404
    with app.app_context():
        view_token = db.session.get(Game, game_id).view_token
    client.get(f"/s/{view_token}")
    client.get("/")  # a watcher's device: view rights only
    with app.app_context():
        game_service.remember(
            client.get_cookie("sk_device").value, game_service.game_row(game_id), can_edit=False
        )
    response = client.post(f"/games/{game_id}/move", data={"club_id": str(world.club)})
    assert response.status_code == 403
    with app.app_context():
        assert db.session.get(Game, game_id).club_id is None
