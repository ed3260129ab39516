"""The season page sends as many SQL statements with 20 games as with 2: standings, attendance
and the summary are grouped queries, and the games list loads a page of games in fixed steps."""

from __future__ import annotations

from datetime import date

from clubs.helpers import as_

from .helpers import make_season, play, roster

SEATS = ("Ana", "Ben", "Cy", "Di", "Gus")  # Gus: a guest


def season_with(app, world, games: int, year: int) -> str:
    """A season of `games` finished games (filed by hand: the seasons' dates do not overlap)."""
    season_id = make_season(
        app, world.club, f"{year}", starts_on=date(year, 1, 1), ends_on=date(year, 12, 31)
    )
    ids = roster(app, world.club, *(f"{name}{games}" for name in SEATS[:4]))
    names = [*ids, "Gus"]
    for number in range(games):
        seats = names[number % 5 :] + names[: number % 5]
        out = seats[0]
        pips = {name: 3 + i for i, name in enumerate(seats[1:])}
        play(
            app,
            world.club,
            seats,
            [(out, pips), (seats[1], {**pips, out: 4})],
            ids,
            season=season_id,
        )
    return f"/clubs/{world.club}/seasons/{season_id}"


def test_the_season_page_does_not_send_more_queries_for_more_games(app, client, world, statements):
    as_(client, app, world, "scorer")
    few = season_with(app, world, 2, 2021)
    many = season_with(app, world, 20, 2022)
    # The first view of new ratings replays them once and keeps them (services/ratings_kept.py).
    client.get(few)
    assert statements.of_get(client, few) == statements.of_get(client, many)
