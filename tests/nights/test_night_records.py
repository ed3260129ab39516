"""Club records that match the night they record (issue 14): a night's date everywhere, the late
rule each table used, late arrivals in the CSV, missed rounds never zero rounds."""

from __future__ import annotations

import csv
import io
from datetime import date

from clubs.helpers import as_

from scorekeeper.extensions import db
from scorekeeper.models import Club, Game, Player
from scorekeeper.services import seasons as season_service

from .helpers import record, roster_id, start
from .test_nights_views import text_of

LONG_AGO = date(2025, 1, 10)


def _season(app, club_id: int, name: str, starts: date, ends: date, method: str) -> int:
    with app.app_context():
        saved = season_service.create_season(
            db.session.get(Club, club_id),
            season_service.SeasonInput(name, starts, ends, method=method, min_games=0),
        )
        return saved.season.id


def _csv_rows(client, club_id: int) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(client.get(f"/clubs/{club_id}/export.csv").text)))


def test_a_night_entered_a_year_later_shows_its_own_date_everywhere(app, client, world):
    wins = _season(app, world.club, "Wins 2025", date(2025, 1, 1), date(2025, 6, 30), "games_won")
    with app.app_context():
        db.session.get(Club, world.club).rounds = 2
        db.session.commit()
    night_id, games = start(app, world.club, [["Ana", "Ben"], ["Cy", "Di"]], day=LONG_AGO)
    for game_id, out, other in ((games[0], "Ana", "Ben"), (games[1], "Cy", "Di")):
        for _ in range(2):
            record(app, game_id, out, **{other: 7})
    with app.app_context():
        game = db.session.get(Game, games[0])
        assert (game.played_on, game.played_at) == (LONG_AGO, None)  # no made-up time
    as_(client, app, world, "owner")
    season_page = text_of(client.get(f"/clubs/{world.club}/seasons/{wins}"))
    assert "1/10/25 · Table 1" in season_page and "1/10/25 · Table 2" in season_page
    club_page = text_of(client.get(f"/clubs/{world.club}"))
    assert "1/10/25" in club_page
    ana = roster_id(app, world.club, "Ana")
    player_page = client.get(f"/clubs/{world.club}/players/{ana}")
    player_text = text_of(player_page)
    assert "Jan 2025" in player_text  # the figures by month: the night's month
    assert "1/10/25" in player_text  # best, worst and last games
    today = date.today()
    assert f"{today.month}/{today.day}/{today:%y}" not in player_text + season_page + club_page
    night_page = text_of(client.get(f"/clubs/{world.club}/nights/{night_id}"))
    assert "Jan 10, 2025" in night_page  # the night's own date, in its title
    assert "These games count in the season standings." in night_page  # filed by that date
    assert f"{today:%b} {today.day}, {today.year}" not in night_page
    # The charts: the season's tick under the night, the player's month.
    season_chart = client.get(f"/clubs/{world.club}/seasons/{wins}/chart.svg").text
    assert ">10 Jan<" in season_chart and f">{today.day} {today:%b}<" not in season_chart
    player_chart = client.get(f"/clubs/{world.club}/players/{ana}/chart.svg").text
    assert ">Jan 2025<" in player_chart and f">{today:%b %Y}<" not in player_chart
    rows = _csv_rows(client, world.club)
    assert {row["game_date"] for row in rows} == {"2025-01-10"}
    assert {(row["player"], row["night"], row["table"], row["season"]) for row in rows} == {
        ("Ana", "2025-01-10", "1", "Wins 2025"),
        ("Ben", "2025-01-10", "1", "Wins 2025"),
        ("Cy", "2025-01-10", "2", "Wins 2025"),
        ("Di", "2025-01-10", "2", "Wins 2025"),
    }
    # The JSON export keeps the night's date, with no made-up time of play.
    saved = client.get(f"/clubs/{world.club}/export.json").get_json()
    assert [night["played_on"] for night in saved["club_nights"]] == ["2025-01-10"]
    assert [(g["played_on"], g["played_at"]) for g in saved["games"]] == [
        ("2025-01-10", None),
        ("2025-01-10", None),
    ]


def test_the_night_page_states_the_rule_each_table_used(app, client, world):
    _night, games = start(app, world.club, [["Ana", "Ben", "Cy"], ["Di", "Eve"]], name="Opener")
    record(app, games[0], "Ana", Ben=12, Cy=7)
    as_(client, app, world, "owner")
    assert client.post(f"/games/{games[0]}/late", data={"guest": "Zed"}).status_code == 302
    # The club changes its rule after the night's late arrival.
    assert client.post(f"/clubs/{world.club}/late-rule", data={"rule": "zero"}).status_code == 302
    night_id = _night
    page = text_of(client.get(f"/clubs/{world.club}/nights/{night_id}"))
    assert (
        "Table 1: A late arrival scores, for each round they missed, the highest score of that "
        "round at their table." in page
    )
    assert (
        "From now on (the club's rule): A late arrival scores zero for each round they missed."
        in page
    )
    # The sheet and the night page agree: Zed scored the highest, 12.
    assert "Zed" in text_of(client.get(f"/games/{games[0]}")) and "12" in page


def test_missed_rounds_scored_0_are_not_zero_rounds_and_the_csv_flags_them(app, client, world):
    as_(client, app, world, "owner")
    client.post(f"/clubs/{world.club}/late-rule", data={"rule": "zero"})
    with app.app_context():
        db.session.get(Club, world.club).rounds = 4
        db.session.commit()
    _night, games = start(app, world.club, [["Ana", "Ben"], ["Di", "Eve"]])
    record(app, games[0], "Ana", Ben=7)
    record(app, games[0], "Ben", Ana=9)
    cy = roster_id(app, world.club, "Cy")
    assert client.post(f"/games/{games[0]}/late", data={"roster": str(cy)}).status_code == 302
    record(app, games[0], "Ana", Ben=4, Cy=6)
    record(app, games[0], "Cy", Ana=5, Ben=3)  # RULES.md example 10.1: Cy goes out in round 4
    with app.app_context():
        seat = db.session.scalars(
            db.select(Player).where(Player.game_id == games[0], Player.name == "Cy")
        ).one()
        assert (seat.total, seat.zero_rounds) == (6, 1)  # not 3
    sheet = text_of(client.get(f"/games/{games[0]}"))
    assert "Cy" in sheet and "1 zero round" in sheet
    player_page = text_of(client.get(f"/clubs/{world.club}/players/{cy}"))
    assert "Zero rounds 1" in player_page
    rows = [row for row in _csv_rows(client, world.club) if row["game_id"] == str(games[0])]
    cy_rows = [(row["round"], row["score"], row["late"]) for row in rows if row["player"] == "Cy"]
    assert cy_rows == [("1", "0", "yes"), ("2", "0", "yes"), ("3", "6", "no"), ("4", "0", "no")]
