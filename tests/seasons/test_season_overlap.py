"""Seasons over the same dates (issue 14): a club keeps a "wins" and a "points" table side by
side; each counts every game played in its dates, unless a game was moved to one by hand."""

from __future__ import annotations

from datetime import date

from clubs.helpers import as_

from .helpers import make_season, play, roster
from .test_season_views import FORM, text

SPRING = {"starts_on": date(2025, 3, 1), "ends_on": date(2025, 5, 31)}
ROUNDS = [("Ana", {"Ben": 5}), ("Ana", {"Ben": 5})]


def _page(client, world, season_id) -> str:
    return text(client.get(f"/clubs/{world.club}/seasons/{season_id}"))


def test_two_seasons_over_the_same_dates_both_count_the_games(app, client, world):
    ids = roster(app, world.club, "Ana", "Ben")
    wins = make_season(app, world.club, "Wins", method="games_won", min_games=0, **SPRING)
    points = make_season(app, world.club, "Points", method="placement_points", min_games=0,
                         **SPRING)  # fmt: skip
    play(app, world.club, ("Ana", "Ben"), ROUNDS, ids, on=date(2025, 3, 6))
    play(app, world.club, ("Ana", "Ben"), ROUNDS, ids, on=date(2025, 4, 3))
    play(app, world.club, ("Ana", "Ben"), ROUNDS, ids, on=date(2025, 6, 5))  # after both
    as_(client, app, world, "viewer")
    for season_id in (wins, points):
        page = _page(client, world, season_id)
        assert "Computed from 2 finished games, played on 2 club nights." in page
        assert "3/6/25" in page and "4/3/25" in page and "6/5/25" not in page
    rows = client.get(f"/clubs/{world.club}/export.csv")
    assert rows.status_code == 403  # the CSV is the owner's
    as_(client, app, world, "owner")
    seasons = {
        line.split(",")[5]
        for line in client.get(f"/clubs/{world.club}/export.csv").text.splitlines()[1:]
    }
    assert seasons == {"Wins; Points", ""}


def test_a_season_created_over_played_dates_counts_them_and_says_so(app, client, world):
    ids = roster(app, world.club, "Ana", "Ben")
    play(app, world.club, ("Ana", "Ben"), ROUNDS, ids, on=date(2025, 3, 6))
    make_season(app, world.club, "Wins", method="games_won", min_games=0, **SPRING)
    response = as_(client, app, world, "owner").post(
        f"/clubs/{world.club}/seasons/new",
        data={**FORM, "name": "Points", "starts_on": "2025-03-01", "ends_on": "2025-05-31"},
    )
    assert response.status_code == 302
    page = text(client.get(response.headers["Location"]))
    assert "1 game played in these dates was filed under the season." in page


def test_a_game_moved_by_hand_counts_in_that_season_only(app, client, world):
    ids = roster(app, world.club, "Ana", "Ben")
    wins = make_season(app, world.club, "Wins", method="games_won", min_games=0, **SPRING)
    points = make_season(app, world.club, "Points", min_games=0, **SPRING)
    friendlies = make_season(app, world.club, "Friendlies", starts_on=date(2020, 1, 1),
                             ends_on=date(2020, 1, 2), min_games=0)  # fmt: skip
    game = play(app, world.club, ("Ana", "Ben"), ROUNDS, ids, on=date(2025, 3, 6))
    as_(client, app, world, "scorer")
    response = client.post(
        f"/clubs/{world.club}/seasons/{wins}/games/{game}/move",
        data={"season_id": str(friendlies)},
    )
    assert response.status_code == 302
    assert "3/6/25" not in _page(client, world, wins)
    assert "3/6/25" not in _page(client, world, points)
    moved = _page(client, world, friendlies)
    assert "3/6/25" in moved and "moved to this season by hand" in moved
    # Widening the seasons' dates later does not take the game back.
    response = client.post(
        f"/clubs/{world.club}/seasons/{points}/edit",
        data={**FORM, "name": "Points", "starts_on": "2025-01-01", "ends_on": "2025-12-31"},
    )
    assert response.status_code == 302
    assert "3/6/25" not in _page(client, world, points)


def test_averages_are_shown_rounded_half_up(app, client, world):
    """Ana's average per round is 49/8 = 6.125: shown 6.13 (half to even would say 6.12), in
    the table and in the chart's legend alike."""
    ids = roster(app, world.club, "Ana", "Ben")
    season = make_season(app, world.club, "Average", method="average", min_games=0, **SPRING)
    for pips in (20, 29):  # Ana: 20 + 0, 29 + 0, then 0 + 0 twice: 49 points in 8 rounds
        play(app, world.club, ("Ana", "Ben"), [("Ben", {"Ana": pips}), ("Ana", {"Ben": 1})], ids,
             on=date(2025, 3, 6))  # fmt: skip
    for _ in range(2):
        play(app, world.club, ("Ana", "Ben"), [("Ana", {"Ben": 1}), ("Ana", {"Ben": 1})], ids,
             on=date(2025, 3, 7))  # fmt: skip
    page = _page(as_(client, app, world, "viewer"), world, season)
    assert "6.13" in page and "6.12" not in page
    chart = client.get(f"/clubs/{world.club}/seasons/{season}/chart.svg").text
    assert "Ana (6.13)" in chart and "6.12" not in chart
