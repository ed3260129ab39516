"""Deleting a season, a club night or a whole club (services.removals and their pages): the
second step, what goes, what stays (other clubs, quick games, accounts), and the club's history
saying who did it."""

from __future__ import annotations

import re
from datetime import date

import pytest
from sqlalchemy import func, select

from scorekeeper import core
from scorekeeper.extensions import db
from scorekeeper.models import (
    Change,
    Club,
    ClubEvent,
    ClubNight,
    Game,
    Hand,
    Membership,
    Player,
    RosterPlayer,
    Round,
    Season,
    User,
)
from scorekeeper.services import accounts as account_service
from scorekeeper.services import games as game_service
from tests.helpers import load_game
from tests.nights.helpers import record as night_record
from tests.nights.helpers import start as night_start

from .helpers import add_roster, make_club, make_club_game, make_user, messages_on, sign_in

DAY = date(2025, 6, 3)


def page(response) -> str:
    return response.get_data(as_text=True)


def count(app, model, *where) -> int:
    with app.app_context():
        return db.session.execute(
            select(func.count()).select_from(model).where(*where)
        ).scalar_one()


def play_round(app, game_id: int) -> None:
    with app.app_context():
        game = load_game(game_id)
        names = [player.name for player in game.players]
        hands = {name: core.HandEntry(0 if i == 0 else 7) for i, name in enumerate(names)}
        assert game_service.record_round(game, core.RoundEntry(hands, out=names[0])).saved


@pytest.fixture
def world(app):
    """Olive's club with a season, a night of two tables (one round recorded at table 1) and a
    game outside the night; Otto's club with a game; a quick game."""
    olive, otto = make_user(app, "Olive Owner"), make_user(app, "Otto Other")
    club, other = make_club(app, olive), make_club(app, otto, "Other Club")
    add_roster(app, club, "Ana", "Ben")
    tables = [make_club_game(app, club, ["Ana", "Cy"]), make_club_game(app, club, ["Ben", "Di"])]
    loose = make_club_game(app, club, ["Ana", "Ben"])
    elsewhere = make_club_game(app, other, ["Xi", "Yu"])
    with app.app_context():
        quick = game_service.create_game(["Ana", "Ben"], core.GameRules(), device="d" * 22).id
        season = Season(club_id=club, name="Summer", starts_on=DAY, ends_on=DAY)
        night = ClubNight(club_id=club, played_on=DAY, name="Tuesday league")
        db.session.add_all([season, night])
        db.session.flush()
        night.season_id = season.id
        for game_id in tables:
            db.session.get(Game, game_id).club_night_id = night.id
        db.session.get(Game, loose).season_id = season.id
        db.session.commit()
        ids = dict(season=season.id, night=night.id)
    for game_id in (tables[0], elsewhere, quick):
        play_round(app, game_id)
    return dict(olive=olive, otto=otto, club=club, other=other, tables=tables, loose=loose,
                elsewhere=elsewhere, quick=quick, **ids)  # fmt: skip


def owner_client(app, world):
    client = app.test_client()
    sign_in(client, app, world["olive"])
    return client


def test_a_night_with_rounds_says_what_goes_with_it_then_goes(app, world):
    client = owner_client(app, world)
    url = f"/clubs/{world['club']}/nights/{world['night']}/delete"
    second_step = page(client.get(url))
    assert "2 games go with it," in second_step
    assert "with 1 recorded round: its scores are lost for good" in second_step
    assert count(app, ClubNight) == 1  # opening the page deleted nothing

    done = client.post(url, follow_redirects=True)
    assert "“Tuesday league · Jun 3, 2025” deleted, with its games." in messages_on(page(done))
    assert count(app, ClubNight) == 0
    assert count(app, Game, Game.id.in_(world["tables"])) == 0
    for model in (Round, Player, Change):
        assert count(app, model, model.game_id.in_(world["tables"])) == 0, model
    assert count(app, Hand, Hand.round_id.not_in(select(Round.id))) == 0  # no orphan hands
    # The rest is untouched: the club's other game, another club's, a quick game, the season.
    assert count(app, Game) == 3 and count(app, Round) == 2
    assert count(app, Season) == 1

    history = page(client.get(f"/clubs/{world['club']}/history"))
    assert (
        "Olive Owner deleted the club night “Tuesday league · Jun 3, 2025” and its games."
        in history.replace("\n", " ")
    )


def test_a_scorer_may_delete_a_night_only_while_no_round_is_recorded(app, world):
    sam = make_user(app, "Sam Scorer")
    with app.app_context():
        db.session.add(Membership(club_id=world["club"], user_id=sam, role="scorer"))
        db.session.commit()
    client = app.test_client()
    sign_in(client, app, sam)
    url = f"/clubs/{world['club']}/nights/{world['night']}/delete"
    assert client.get(url).status_code == 403
    assert client.post(url).status_code == 403
    assert count(app, ClubNight) == 1


def test_deleting_a_season_keeps_its_games_and_nights(app, world):
    client = owner_client(app, world)
    url = f"/clubs/{world['club']}/seasons/{world['season']}/delete"
    assert "Its games and club nights stay with the club" in page(client.get(url))
    done = client.post(url, follow_redirects=True)
    assert "Season “Summer” deleted; its games are kept." in messages_on(page(done))
    assert count(app, Season) == 0
    assert count(app, Game) == 5 and count(app, ClubNight) == 1
    assert count(app, Game, Game.season_id.is_not(None)) == 0
    with app.app_context():
        event = db.session.execute(select(ClubEvent)).scalar_one()
        assert (event.action, event.detail, event.user_id) == (
            "season_deleted",
            "Summer",
            world["olive"],
        )


def test_the_club_delete_page_offers_the_export_and_wants_the_name(app, world):
    client = owner_client(app, world)
    url = f"/clubs/{world['club']}/delete"
    second_step = page(client.get(url))
    assert f'href="/clubs/{world["club"]}/export.json"' in second_step
    assert f'href="/clubs/{world["club"]}/export.csv"' in second_step
    assert "Type “Thursday Trains” to confirm." in second_step

    wrong = client.post(url, data={"name": "Thursday trains"})
    assert wrong.status_code == 422
    assert "Type the club's name exactly as it is shown to delete it." in messages_on(page(wrong))
    assert 'value="Thursday trains"' in page(wrong)
    assert count(app, Club) == 2


def test_deleting_a_club_takes_everything_it_holds_and_nothing_else(app, world):
    client = owner_client(app, world)
    client.get(f"/clubs/{world['club']}/history")
    client.post(f"/clubs/{world['club']}/seasons/{world['season']}/delete")  # a history line
    done = client.post(f"/clubs/{world['club']}/delete", data={"name": " Thursday Trains "})
    assert done.status_code == 302 and done.headers["Location"] == "/clubs"
    assert count(app, Club) == 1
    for model in (ClubNight, Season, RosterPlayer, Membership, ClubEvent):
        assert count(app, model, model.club_id == world["club"]) == 0, model
    assert count(app, Game) == 2  # Otto's club game and the quick game
    assert count(app, Round) == 2 and count(app, Player) == 4
    assert count(app, User) == 2  # accounts stay
    assert count(app, Membership) == 1
    assert client.get(f"/clubs/{world['club']}").status_code == 404
    assert "Thursday Trains" not in page(client.get("/clubs"))


def standings_on(html: str) -> list[tuple[str, str]]:
    """The game page's standings as a reader sees them: (name, total) in order."""
    section = html.split('id="standings"', 1)[1].split("</section>", 1)[0]
    names = re.findall(r'<span class="who">([^<]*)', section)
    totals = re.findall(r'<span class="total">([^<]*)</span>', section)
    return [(name.strip(), total) for name, total in zip(names, totals, strict=True)]


def test_a_night_started_again_after_its_deletion_shows_its_own_players(app):
    """A night started with the wrong people is deleted and started again: the new table's game
    and the night, read through the API and the pages before and after a round, show the new
    players. (SQLite handed the deleted game's id to the new one, and what was kept of the old
    game under that id, its API answer and the page's standings, was shown.)"""
    olive = make_user(app, "Olive Owner")
    club = make_club(app, olive)
    add_roster(app, club, "Gus", "Hal", "Ivy", "Jo", "Kim", "Lu")
    with app.app_context():
        token = account_service.create_token(db.session.get(User, olive), "laptop").secret
    api = {"Authorization": f"Bearer {token}"}
    client = owner_client(app, {"olive": olive})

    def read(night_id: int, game_id: int) -> tuple[dict, list[tuple[str, str]], object]:
        answer = client.get(f"/api/v1/games/{game_id}", headers=api)
        assert answer.status_code == 200
        standings = standings_on(page(client.get(f"/games/{game_id}")))
        return answer.get_json(), standings, client.get(f"/clubs/{club}/nights/{night_id}")

    wrong_night, (wrong,) = night_start(app, club, [["Gus", "Hal", "Ivy"]], day=DAY)
    read(wrong_night, wrong)
    night_record(app, wrong, "Gus", Hal=5, Ivy=9)
    _game, _standings, wrong_page = read(wrong_night, wrong)
    assert client.post(f"/clubs/{club}/nights/{wrong_night}/delete").status_code == 302

    night, (game,) = night_start(app, club, [["Jo", "Kim", "Lu"]], day=DAY)
    answer, standings, night_page = read(night, game)
    assert sorted(answer["players"]) == ["Jo", "Kim", "Lu"]
    assert sorted(name for name, _total in standings) == ["Jo", "Kim", "Lu"]
    assert all(total == "0 points" for _name, total in standings)
    night_record(app, game, "Kim", Jo=4, Lu=7)
    answer, standings, night_page = read(night, game)
    expected = [("Kim", 0), ("Jo", 4), ("Lu", 7)]
    assert [(line["name"], line["total"]) for line in answer["standings"]] == expected
    assert standings == [(name, f"{total} points") for name, total in expected]
    # A browser still holding the deleted night's page asks again: it gets the new one.
    again = client.get(
        f"/clubs/{club}/nights/{night}", headers={"If-None-Match": wrong_page.headers["ETag"]}
    )
    assert again.status_code == 200
    assert "Kim" in page(again) and not {"Gus", "Hal", "Ivy"} & set(re.findall(r"\w+", page(again)))
