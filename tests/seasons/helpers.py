"""Season test helpers: seasons and club nights as rows, games played through the services on
chosen days, and the hand-worked season the standings tests check."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, timedelta

from flask import Flask

from scorekeeper import core
from scorekeeper.extensions import db
from scorekeeper.models import Club, ClubNight, Game, RosterPlayer, Season, utcnow
from scorekeeper.services import games as game_service
from scorekeeper.services import seasons as season_service
from tests.helpers import load_game

TODAY = utcnow().date()
RULES = core.GameRules(rounds=2)  # two rounds a game: short hand-worked games


def make_season(app: Flask, club_id: int, name: str = "Autumn", **values) -> int:
    """A season through the service (so games of its dates are filed); returns its id."""
    values.setdefault("starts_on", TODAY - timedelta(days=30))
    values.setdefault("ends_on", TODAY + timedelta(days=30))
    with app.app_context():
        club = db.session.get(Club, club_id)
        saved = season_service.create_season(club, season_service.SeasonInput(name=name, **values))
        return saved.season.id


def make_night(app: Flask, club_id: int, played_on: date, season_id: int | None = None) -> int:
    with app.app_context():
        night = ClubNight(club_id=club_id, played_on=played_on, season_id=season_id)
        db.session.add(night)
        db.session.commit()
        return night.id


def roster(app: Flask, club_id: int, *names: str) -> dict[str, int]:
    with app.app_context():
        entries = [RosterPlayer(club_id=club_id, display_name=name) for name in names]
        db.session.add_all(entries)
        db.session.commit()
        return {entry.display_name: entry.id for entry in entries}


def play(
    app: Flask,
    club_id: int,
    seats: Sequence[str],
    rounds: Sequence[tuple[str, dict[str, int]]],
    ids: dict[str, int],
    *,
    night: int | None = None,
    table: int | None = None,
    season: int | None = None,
    on: date | None = None,
) -> int:
    """A club game through the services: `seats` in order (a name missing from `ids` is a
    guest), each round as (who went out, {other player: pips}); returns the game's id.

    `on`: the day it was played, as for a game entered after the fact (it is dated, and filed
    under a season, by that day)."""
    with app.app_context():
        game = game_service.create_game(
            list(seats),
            RULES,
            club_id=club_id,
            roster_ids=[ids.get(name) for name in seats],
            season_id=season,
            club_night_id=night,
            table_number=table,
            played_on=on,
        )
        game_id = game.id
        for number, (out, pips) in enumerate(rounds, 1):
            db.session.remove()
            loaded = load_game(game_id)
            hands = {n: core.HandEntry(pips=0 if n == out else pips.get(n, 0)) for n in seats}
            outcome = game_service.record_round(
                loaded, core.RoundEntry(hands, out), number=number, confirm=True
            )
            assert outcome.saved, outcome.check
        db.session.remove()
        return game_id


def season_of(app: Flask, game_id: int) -> int | None:
    with app.app_context():
        return db.session.get(Game, game_id).season_id


def update(app: Flask, season_id: int, **changes) -> season_service.Saved:
    """Change a season through the service, keeping what is not given."""
    with app.app_context():
        season = db.session.get(Season, season_id)
        values = {
            "name": season.name,
            "starts_on": season.starts_on,
            "ends_on": season.ends_on,
            "method": season.method,
            "min_games": season.min_games,
            "points_table": season.points_table,
        }
        values.update(changes)
        saved = season_service.update_season(season, season_service.SeasonInput(**values))
        return saved


# The hand-worked season ------------------------------------------------------------------------
#
# Roster: Ana, Ben, Cy, Di. Gus is a guest (not on the roster). Two rounds a game.
# Night 1 (a club night a week ago), table 1 -- game 1:
#   round 1: Ana out, Ben 5, Cy 10, Di 20;  round 2: Ben out, Ana 3, Cy 10, Di 20
#   totals Ana 3, Ben 5, Cy 20, Di 40 -> Ana 1st, Ben 2nd, Cy 3rd, Di 4th.
# Night 1, table 2 -- game 2:
#   round 1: Ben out, Ana 10, Cy 10, Di 30;  round 2: Ben out, Ana 5, Cy 5, Di 30
#   totals Ben 0, Ana 15, Cy 15, Di 60 -> Ben 1st; Ana and Cy tie on total, zero rounds (0)
#   and lowest round (5): they share 2nd; Di 4th.
# Today, outside any club night -- game 3 (Gus the guest plays):
#   round 1: Cy out, Gus 2, Ben 8, Di 12;  round 2: Gus out, Cy 1, Ben 8, Di 12
#   totals Cy 1, Gus 2, Ben 16, Di 24 -> Cy 1st, Gus 2nd, Ben 3rd, Di 4th.
# Today -- game 4, still in play (one round of two): Ana, Di, Gus. Not counted in standings;
#   counted in attendance.
#
# Per player over the three finished games (rounds, total):
#   Ana: 2 games, 1 win, 4 rounds, 3 + 15 = 18        -> average 18 / 4 = 4.5
#   Ben: 3 games, 1 win, 6 rounds, 5 + 0 + 16 = 21    -> average 21 / 6 = 3.5
#   Cy:  3 games, 1 win, 6 rounds, 20 + 15 + 1 = 36   -> average 36 / 6 = 6
#   Di:  3 games, 0 wins, 6 rounds, 40 + 60 + 24 = 124 -> average 124 / 6 = 20.67
#
# Placement points, default (one point per player finished ahead of; 4 players a game):
#   Ana: 1st = 3, shared 2nd = (2 + 1) / 2 = 1.5          -> 4.5
#   Ben: 2nd = 2, 1st = 3, 3rd = 1                         -> 6
#   Cy:  3rd = 1, shared 2nd = 1.5, 1st = 3                -> 5.5
#   Di:  0 + 0 + 0                                         -> 0
#   Standings: Ben 6, Cy 5.5, Ana 4.5, Di 0.
# Placement table 5, 3, 1 (4th scores 0, past the table):
#   Ana: 5 + (3 + 1) / 2 = 7;  Ben: 3 + 5 + 1 = 9;  Cy: 1 + 2 + 5 = 8;  Di: 0.
#   Standings: Ben 9, Cy 8, Ana 7, Di 0.
# Games won: Ana, Ben, Cy 1 win each; ties by lower average: Ben 3.5, Ana 4.5, Cy 6; Di 0 wins.
#   Standings: Ben, Ana, Cy, Di.
# Average per round, 3 games needed: Ben 3.5, Cy 6, Di 20.67 ranked; Ana (2 games) not ranked.
#   With 2 games needed: Ben 3.5, Ana 4.5, Cy 6, Di 20.67.
# Attendance (every game, finished or not): nights are club night 1 and today.
#   Ana: 2 nights, 3 games; Ben: 2 nights, 3 games; Cy: 2 nights, 3 games; Di: 2 nights, 4 games.


def hand_worked_season(app: Flask, club_id: int, **season) -> tuple[int, dict[str, int], list]:
    """The season above; returns (season id, roster ids by name, game ids)."""
    season_id = make_season(app, club_id, **season)
    ids = roster(app, club_id, "Ana", "Ben", "Cy", "Di")
    night = make_night(app, club_id, TODAY - timedelta(days=7), season_id)
    four = ("Ana", "Ben", "Cy", "Di")
    games = [
        play(
            app,
            club_id,
            four,
            [("Ana", {"Ben": 5, "Cy": 10, "Di": 20}), ("Ben", {"Ana": 3, "Cy": 10, "Di": 20})],
            ids,
            night=night,
            table=1,
            on=TODAY - timedelta(days=7),
        ),
        play(
            app,
            club_id,
            four,
            [("Ben", {"Ana": 10, "Cy": 10, "Di": 30}), ("Ben", {"Ana": 5, "Cy": 5, "Di": 30})],
            ids,
            night=night,
            table=2,
            on=TODAY - timedelta(days=7),
        ),
        play(
            app,
            club_id,
            ("Cy", "Gus", "Ben", "Di"),
            [("Cy", {"Gus": 2, "Ben": 8, "Di": 12}), ("Gus", {"Cy": 1, "Ben": 8, "Di": 12})],
            ids,
        ),
        play(app, club_id, ("Ana", "Di", "Gus"), [("Gus", {"Ana": 7, "Di": 9})], ids),
    ]
    return season_id, ids, games
