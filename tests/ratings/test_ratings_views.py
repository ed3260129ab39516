"""Ratings pages: who may see them, what they show (the league of players.helpers), the
player's rating section and chart, the CSV, and the pages at a phone's width."""

from __future__ import annotations

import csv
import io

import pytest
from clubs.helpers import as_  # tests/ is on the path
from players.helpers import club_of, make_league

from scorekeeper.services import ratings as rating_service


@pytest.fixture
def league(app):
    return make_league(app)


def lines_of(app, league):
    with app.app_context():
        return rating_service.club_ratings(club_of(league.club))


@pytest.mark.parametrize(
    "path",
    [
        "/clubs/{club}/ratings",
        "/clubs/{club}/ratings/how",
        "/clubs/{club}/ratings.csv",
        "/clubs/{club}/players/{ana}/rating.svg",
    ],
)
@pytest.mark.parametrize(
    ("who", "status"),
    [("anonymous", 302), ("viewer", 200), ("scorer", 200), ("owner", 200), ("other_owner", 404)],
)
def test_members_only(app, client, league, path, who, status):
    url = path.format(club=league.club, ana=league.ana)
    assert as_(client, app, league.world, who).get(url).status_code == status


def test_anonymous_is_sent_to_sign_in(app, client, league):
    response = client.get(f"/clubs/{league.club}/ratings")
    assert response.status_code == 302 and "next=" in response.headers["Location"]


def test_the_ratings_page_lists_players_best_first(app, client, league):
    lines = lines_of(app, league)
    page = as_(client, app, league.world, "viewer").get(f"/clubs/{league.club}/ratings")
    text = page.get_data(as_text=True)
    assert page.status_code == 200
    positions = [text.index(f">{line.name}</a>") for line in lines]
    assert positions == sorted(positions)  # best first
    for line in lines:
        assert f'<td class="num">{line.rating}</td>' in text
    assert text.count(">provisional<") == 3  # Ben, Cy and Dee have fewer than 5 games
    assert 'aria-current="page">Ratings<' in text
    assert "How ratings work" in text


def test_change_since_the_last_night_without_nights_is_a_dash(app, client, league):
    text = as_(client, app, league.world, "viewer").get(f"/clubs/{league.club}/ratings").text
    assert 'aria-label="did not play">–<' in text


def test_no_games_no_table(app, client):
    from clubs.helpers import make_world

    world = make_world(app)
    text = as_(client, app, world, "viewer").get(f"/clubs/{world.club}/ratings").text
    assert "No finished games yet" in text


def test_the_csv_holds_openskill_figures_unrounded(app, client, league):
    lines = lines_of(app, league)
    response = as_(client, app, league.world, "viewer").get(f"/clubs/{league.club}/ratings.csv")
    assert response.mimetype == "text/csv"
    rows = list(csv.DictReader(io.StringIO(response.get_data(as_text=True))))
    assert [row["player"] for row in rows] == [line.name for line in lines]
    assert [float(row["mu"]) for row in rows] == [line.mu for line in lines]
    assert [float(row["sigma"]) for row in rows] == [line.sigma for line in lines]
    assert [row["provisional"] for row in rows] == ["no", "yes", "yes", "yes"]


def test_the_player_page_shows_rating_chart_and_results(app, client, league):
    as_(client, app, league.world, "viewer")
    with app.app_context():
        rated = rating_service.player_rating(club_of(league.club), league.ana)
    text = client.get(f"/clubs/{league.club}/players/{league.ana}").text
    assert f"<strong>{rated.rating}</strong>" in text
    assert "after 5 games" in text
    assert f"/clubs/{league.club}/players/{league.ana}/rating.svg?v=" in text
    assert f"Worst result: {rated.worst.change:+d}" in text
    assert f"/games/{rated.worst.game_id}" in text
    chart = client.get(f"/clubs/{league.club}/players/{league.ana}/rating.svg")
    assert chart.status_code == 200 and chart.mimetype == "image/svg+xml"
    assert b"Rating after each game" in chart.data
    again = client.get(
        f"/clubs/{league.club}/players/{league.ana}/rating.svg",
        headers={"If-None-Match": chart.headers["ETag"]},
    )
    assert again.status_code == 304


def test_a_player_without_rated_games(app, client, league):
    from clubs.helpers import add_roster

    (newbie,) = add_roster(app, league.club, "Newbie")
    as_(client, app, league.world, "viewer")
    assert "No rated games yet." in client.get(f"/clubs/{league.club}/players/{newbie}").text
    assert client.get(f"/clubs/{league.club}/players/{newbie}/rating.svg").status_code == 404


def test_the_chart_changes_when_a_game_is_corrected(app, client, league):
    from players.helpers import entry, game

    from scorekeeper.services import games as game_service

    as_(client, app, league.world, "viewer")
    first = client.get(f"/clubs/{league.club}/players/{league.ana}/rating.svg")
    with app.app_context():
        corrected = entry({"Ana": 30, "Ben": 0, "Cy": 5}, "Ben")
        assert game_service.edit_round(game(league.games["g1"]), 2, corrected).saved
    second = client.get(
        f"/clubs/{league.club}/players/{league.ana}/rating.svg",
        headers={"If-None-Match": first.headers["ETag"]},
    )
    assert second.status_code == 200 and second.data != first.data


def test_how_ratings_work_in_french(app, client, league):
    as_(client, app, league.world, "viewer")
    text = client.get(f"/clubs/{league.club}/ratings/how", headers={"Accept-Language": "fr"}).text
    assert "openskill" in text
    assert "How ratings work" not in text


def test_the_season_page_shows_each_players_rating_change(app, client, league):
    from datetime import date

    from scorekeeper.services import seasons as season_service

    with app.app_context():
        season = season_service.create_season(
            club_of(league.club),
            season_service.SeasonInput(
                name="Spring", starts_on=date(2025, 2, 1), ends_on=date(2025, 3, 31)
            ),
        ).season
        season_id = season.id
        changes = rating_service.season_changes(
            club_of(league.club), date(2025, 2, 1), date(2025, 3, 31)
        )
    text = (
        as_(client, app, league.world, "viewer")
        .get(f"/clubs/{league.club}/seasons/{season_id}")
        .text
    )
    assert "Ratings over the season" in text
    for change in changes:
        assert (
            f'<th scope="row" class="who">{change.name}</th><td class="num">{change.start}</td>'
            f'<td class="num">{change.end}</td><td class="num">{change.change:+d}</td>'
        ) in text
    assert '>Dee</th><td class="num">' not in text.split("Ratings over the season")[1]


def test_the_night_page_shows_each_tables_chances(app, client, league):
    from datetime import date

    from openskill.models import PlackettLuce

    from scorekeeper.services import nights as night_service

    with app.app_context():
        seats = [
            night_service.Seat("Ana", league.ana, 1),
            night_service.Seat("Dee", league.dee, 1),
            night_service.Seat("Cy", league.cy, 2),
            night_service.Seat("Zed", None, 2),
        ]
        night = night_service.start_night(
            club_of(league.club), played_on=date(2025, 6, 5), name="", tables=2, seats=seats
        )
        night_id = night.id
        replayed = rating_service.club_replay(club_of(league.club))
        model = PlackettLuce()
        ana, dee = replayed.current(league.ana), replayed.current(league.dee)
        expected = model.predict_win([[model.rating(*ana)], [model.rating(*dee)]])
    text = (
        as_(client, app, league.world, "viewer").get(f"/clubs/{league.club}/nights/{night_id}").text
    )
    assert "Chances to win" in text
    section = text.split("Chances to win")[1]
    assert f"<strong>{round(expected[0] * 100)}%</strong>" in section
    assert f"<strong>{round(expected[1] * 100)}%</strong>" in section
    # The guest, as a new player: skill 2000 (mu 25), rating 1000 (mu - 3 sigma = 0).
    assert '>Zed</th><td class="num skill">2000</td><td class="num meta">1000</td>' in section
    live = (
        as_(client, app, league.world, "viewer")
        .get(f"/clubs/{league.club}/nights/{night_id}/live")
        .text
    )
    assert "Chances to win" not in live
