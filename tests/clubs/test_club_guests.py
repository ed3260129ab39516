"""Guests linked to the roster (issue 34): club games the API made before it knew the roster seat
the roster's names as guests. The club's games list says which seats are guests, the club page
counts those a roster player's name matches, and the owner's page previews and, in one click,
links them: each game moves to a new version and counts in ratings and player pages at once."""

from __future__ import annotations

import re

from sqlalchemy import select

from scorekeeper import core
from scorekeeper.extensions import db
from scorekeeper.models import Club, Game, Player, RosterPlayer
from scorekeeper.services import club_games as club_game_service
from scorekeeper.services import games as game_service

from .helpers import add_roster, as_, flashes, make_club_game


def guest_game(app, club_id: int, names: list[str], loser: str | None = None) -> int:
    """A club game seated as the API seated it before issue 34: every name a guest. With
    `loser`, its one round is played (names[0] goes out) and the game is over."""
    with app.app_context():
        rules = core.GameRules(rounds=1)
        game = game_service.create_game(names, rules, club_id=club_id)
        if loser is not None:
            hands = {name: core.HandEntry(0 if name == names[0] else 9) for name in names}
            game_service.record_round(game, core.RoundEntry(hands, out=names[0]))
        return game.id


def seats(app, game_id: int) -> list[tuple[str, int | None]]:
    with app.app_context():
        rows = db.session.execute(
            select(Player.name, Player.roster_player_id)
            .where(Player.game_id == game_id)
            .order_by(Player.seat)
        )
        return [tuple(row) for row in rows]


def version(app, game_id: int) -> int:
    with app.app_context():
        return db.session.get(Game, game_id).version


def test_the_owner_previews_and_links_guests_to_the_roster(app, client, world):
    ana, ben = add_roster(app, world.club, "Ana", "Ben")
    played = guest_game(app, world.club, ["ana", "Ben", "Zed"], loser="Ben")
    only_guests = guest_game(app, world.club, ["Zed", "Yul"])
    before = version(app, played)
    as_(client, app, world, "owner")

    club_page = client.get(f"/clubs/{world.club}").text
    assert "Guests, in no rating: ana, Ben, Zed" in club_page
    assert "2 guest seats have the names of roster players" in club_page
    assert f'href="/clubs/{world.club}/guests"' in club_page
    assert "No finished games yet" in client.get(f"/clubs/{world.club}/players/{ana}").text
    assert "No finished games yet" in client.get(f"/clubs/{world.club}/ratings").text

    preview = client.get(f"/clubs/{world.club}/guests").text
    assert "2 seats to link" in preview
    assert "Guest “ana” becomes Ana" in preview and "Guest “Ben” becomes Ben" in preview
    assert "Zed" not in preview.split("<h1>", 1)[1]

    (shown,) = re.findall(r'name="seats" type="hidden" value="([^"]*)"', preview)
    linked = client.post(f"/clubs/{world.club}/guests", data={"seats": shown})
    assert linked.headers["Location"] == f"/clubs/{world.club}"
    assert flashes(client) == [
        "Linked 2 guest seats to the roster: their games now count in the ratings."
    ]
    assert seats(app, played) == [("ana", ana), ("Ben", ben), ("Zed", None)]
    assert seats(app, only_guests) == [("Zed", None), ("Yul", None)]
    assert version(app, played) == before + 1

    club_page = client.get(f"/clubs/{world.club}").text
    assert "guest seats have the names" not in club_page
    assert "Guest, in no rating: Zed" in club_page
    assert "No finished games yet" not in client.get(f"/clubs/{world.club}/players/{ana}").text
    ratings = client.get(f"/clubs/{world.club}/ratings").text  # the kept replay moved on
    assert "No finished games yet" not in ratings
    assert "Ana" in ratings and "Ben" in ratings and "Zed" not in ratings


def seat_ids(app, club_id: int, *game_ids: int) -> str:
    """What the preview page holds for these games (the seats its button sends)."""
    with app.app_context():
        club = db.session.get(Club, club_id)
        links = club_game_service.guest_links(club)
        return ",".join(str(link.seat.id) for link in links if link.game.id in game_ids)


def test_only_the_seats_the_preview_showed_are_linked(app, client, world):
    add_roster(app, world.club, "Ana", "Ben")
    shown = guest_game(app, world.club, ["Ana", "Cy"])
    sent = seat_ids(app, world.club, shown)
    later = guest_game(app, world.club, ["Ben", "Cy"])  # made after the owner read the page
    as_(client, app, world, "owner")
    client.post(f"/clubs/{world.club}/guests", data={"seats": sent + ",junk,-3,99999"})
    assert seats(app, shown)[0][1] is not None
    assert seats(app, later) == [("Ben", None), ("Cy", None)]


def test_a_roster_player_already_at_the_table_is_not_seated_twice(app, client, world):
    """Ana was renamed Anna after a game she played; a guest "Anna" at that table is someone
    else, and an archived player's name is no roster player's."""
    ana, gus = add_roster(app, world.club, "Ana", "Gus")
    make_club_game(app, world.club, ["Ana", "Anna"])
    with app.app_context():
        db.session.get(RosterPlayer, ana).display_name = "Anna"
        db.session.get(RosterPlayer, gus).archived = True
        db.session.commit()
    guest_game(app, world.club, ["Gus", "Bo"])
    with app.app_context():
        assert club_game_service.guest_links(db.session.get(Club, world.club)) == []
    as_(client, app, world, "owner")
    preview = client.get(f"/clubs/{world.club}/guests").text
    assert "No guest seat matches a roster player: there is nothing to link." in preview


def test_members_below_owner_see_the_count_but_no_link(app, client, world):
    add_roster(app, world.club, "Ana")
    guest_game(app, world.club, ["Ana", "Cy"])
    as_(client, app, world, "scorer")
    page = client.get(f"/clubs/{world.club}").text
    assert "1 guest seat has the name of a roster player" in page
    assert "The club’s owner can link them to the roster." in page
    assert f"/clubs/{world.club}/guests" not in page
