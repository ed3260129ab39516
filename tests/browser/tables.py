"""A club with every kind of page to look at, made through the services: an owner, a roster of
eight, a season, a club night, an 8-player game in progress (with penalties), a finished game
and a partnership game. The accessibility and layout tests serve it and walk its pages."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, timedelta

import flask_migrate
from flask import Flask

from scorekeeper import core, create_app
from scorekeeper.extensions import db
from scorekeeper.models import Club, Game
from scorekeeper.services import club_games, nights, seasons
from scorekeeper.services.games import create_game, record_round
from tests import serving

OWNER_EMAIL = "olive.tables@example.com"
EIGHT = [
    *("Anabel", "Benjamin", "Cyrille", "Dimitra"),
    *("Esperanza", "Finnegan", "Gustavo", "Hannelore"),
]


@dataclass
class Tables:
    """What the pages are about: ids and links the tests open."""

    base: str
    club: int
    eight: int
    finished: int
    teams: int
    season: int
    night: int
    player: int
    share: str
    finished_share: str
    table: str  # the 8-player game's table link token (players send their own hands)
    public: str


def _round(game: Game, out: str | list[str], pips: dict[str, int], penalties=()) -> None:
    hands = {name: core.HandEntry(pips=str(pips.get(name, 0))) for name in game_players(game)}
    record_round(game, core.RoundEntry(hands=hands, out=out, penalties=penalties))


def game_players(game: Game) -> list[str]:
    return [player.name for player in sorted(game.players, key=lambda p: p.seat)]


def seed(app: Flask, owner_id: int, club_id: int) -> dict[str, int]:
    """The club's season, night and games; returns their ids."""
    rng = random.Random(11)
    with app.app_context():
        club = db.session.get(Club, club_id)
        today = date.today()
        season = seasons.create_season(
            club,
            seasons.SeasonInput(
                name="Autumn", starts_on=today - timedelta(days=30), ends_on=today + timedelta(30)
            ),
        )
        night = nights.start_night(
            club,
            played_on=today,
            name="Tuesday",
            tables=1,
            seats=[nights.Seat(name, table=1) for name in EIGHT[:4]],
        )
        night_game = db.session.scalars(db.select(Game).filter_by(club_night_id=night.id)).one()
        _round(night_game, EIGHT[0], {n: rng.randint(3, 60) for n in EIGHT[1:4]})

        rules = core.GameRules(house_rules=core.HouseRules(open_train_points=10))
        eight = club_games.create_club_game(club, EIGHT, rules)
        for number in range(5):
            out = EIGHT[number % 8]
            pips = {name: rng.randint(3, 95) for name in EIGHT if name != out}
            penalties = [core.PenaltyEntry(EIGHT[(number + 3) % 8], "open_train")] if number else []
            _round(eight, out, pips, penalties)

        finished = club_games.create_club_game(club, EIGHT[:4], core.GameRules(rounds=2))
        _round(finished, EIGHT[0], {EIGHT[1]: 15, EIGHT[2]: 7, EIGHT[3]: 22})
        _round(finished, EIGHT[2], {EIGHT[0]: 12, EIGHT[1]: 3, EIGHT[3]: 30})

        teams = club_games.create_club_game(
            club, EIGHT[:4], core.GameRules(), teams=[EIGHT[0:2], EIGHT[2:4]]
        )
        _round(teams, EIGHT[0], {EIGHT[1]: 20, EIGHT[2]: 7, EIGHT[3]: 22})
        return {
            "season": season.season.id,
            "night": night.id,
            "eight": eight.id,
            "finished": finished.id,
            "teams": teams.id,
            "share": eight.view_token,
            "finished_share": finished.view_token,
            "table": eight.table_token,
            "public": club.public_token,
        }


def guest_game(app: Flask, club_id: int) -> None:
    """A club game the API made before it knew the roster: its players are guests to link."""
    with app.app_context():
        create_game([EIGHT[0].lower(), EIGHT[1], "Zed"], core.GameRules(), club_id=club_id)


def serve(tmp_path, make_user, make_club, add_roster, *, guests: bool = False) -> Iterator[Tables]:
    """Serve a fresh app with the seeded club on a free loopback port (`guests`: and a club game
    whose roster players were seated as guests)."""
    db_file = tmp_path / "tables.sqlite"
    app = create_app(
        {"TESTING": True, "SECRET_KEY": "tables", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{db_file}"}
    )
    with app.app_context():
        flask_migrate.upgrade()
    owner = make_user(app, "Olive Owner", OWNER_EMAIL)
    club = make_club(app, owner, "Tuesday Trains", public=True)  # share links work
    roster = add_roster(app, club, *EIGHT)
    ids = seed(app, owner, club)
    ids["player"] = roster[0]
    if guests:
        guest_game(app, club)
    with serving.serve(app) as base:
        yield Tables(base=base, club=club, **ids)
