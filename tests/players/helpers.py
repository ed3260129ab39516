"""Player test helpers: a club with a hand-worked set of games, played through the services."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from clubs.helpers import World, add_roster, make_world  # tests/ is on the path
from flask import Flask

from scorekeeper import core
from scorekeeper.extensions import db
from scorekeeper.models import Club, Game
from scorekeeper.services import games as game_service

TWO_ROUNDS = core.GameRules(rounds=2)  # engines 12 then 11: short games to work by hand


def entry(hands: dict[str, int], out: str) -> core.RoundEntry:
    """A round: each player's pips (the one who went out holds 0)."""
    return core.RoundEntry({name: core.HandEntry(pips=pips) for name, pips in hands.items()}, out)


def play(
    app: Flask,
    club_id: int,
    seats: dict[str, int | None],
    rounds: list[core.RoundEntry],
    *,
    finished_at: datetime | None = None,
    rules: core.GameRules = TWO_ROUNDS,
    end: bool = False,
) -> int:
    """A club game through the services: create it, record `rounds`, end it early if `end`.

    `finished_at` moves the finish and play dates afterwards (the services stamp "now"), so
    that games fall in the months the chart tests expect."""
    with app.app_context():
        game = game_service.create_game(
            list(seats), rules, club_id=club_id, roster_ids=list(seats.values())
        )
        for round_entry in rounds:
            outcome = game_service.record_round(game, round_entry)
            assert outcome.saved, outcome.check
        if end:
            game_service.end_game(game)
        if finished_at is not None:
            assert game.finished_at is not None
            game.finished_at = finished_at
            # Pages date a game by when it was played: as if entered live at that moment.
            game.played_on, game.played_at = finished_at.date(), finished_at
            db.session.commit()
        return game.id


@dataclass(frozen=True)
class League:
    """make_world's club, its roster (Ana, Ben, Cy, Dee) and the hand-worked games."""

    world: World
    ana: int
    ben: int
    cy: int
    dee: int
    games: dict[str, int]

    @property
    def club(self) -> int:
        return self.world.club


def make_league(app: Flask) -> League:
    """The hand-worked games (two rounds each unless said; lowest total wins; ties on total go
    to most zero rounds, then the lowest non-zero round, else the place is shared):

    g1 Jan 2025  Ana 0+7=7 (1 zero)  Ben 10+0=10 (1 zero)  Cy 5+5=10 (0 zeros)
                 -> Ana 1st, Ben 2nd (beats Cy on zero rounds), Cy 3rd
    g2 Jan 2025  Ana 4+0=4 (1 zero)  Ben 0+4=4 (1 zero)  Dee 20+6=26
                 -> Ana and Ben share 1st (same total, zeros, lowest non-zero), Dee 3rd
    g3 Feb 2025  Ana 15+12=27  Cy 0+8=8 (1 zero)  Gus (guest) 3+0=3 (1 zero)
                 -> Gus 1st, Cy 2nd, Ana 3rd
    g4 Mar 2025  one round, then the table ended it: Ana 0 (1 zero), Ben 9
                 -> Ana 1st, Ben 2nd (counted, but not a best/worst game: ended early)
    g5 Mar 2025  draw game, one hand then ended: Ana went out and scores Ben's 12 -> Ana 1st
    g6           Ana, Ben, Cy: one round recorded, not finished -> not counted
    g7           Ana, Ben: ended before the first round -> not counted (both "1st" with 0)
    """
    world = make_world(app)
    ana, ben, cy, dee = add_roster(app, world.club, "Ana", "Ben", "Cy", "Dee")
    club = world.club
    games = {
        "g1": play(
            app,
            club,
            {"Ana": ana, "Ben": ben, "Cy": cy},
            [
                entry({"Ana": 0, "Ben": 10, "Cy": 5}, "Ana"),
                entry({"Ana": 7, "Ben": 0, "Cy": 5}, "Ben"),
            ],
            finished_at=datetime(2025, 1, 9, 21, 0),
        ),
        "g2": play(
            app,
            club,
            {"Ana": ana, "Ben": ben, "Dee": dee},
            [
                entry({"Ana": 4, "Ben": 0, "Dee": 20}, "Ben"),
                entry({"Ana": 0, "Ben": 4, "Dee": 6}, "Ana"),
            ],
            finished_at=datetime(2025, 1, 23, 21, 0),
        ),
        "g3": play(
            app,
            club,
            {"Ana": ana, "Cy": cy, "Gus": None},
            [
                entry({"Ana": 15, "Cy": 0, "Gus": 3}, "Cy"),
                entry({"Ana": 12, "Cy": 8, "Gus": 0}, "Gus"),
            ],
            finished_at=datetime(2025, 2, 13, 21, 0),
        ),
        "g4": play(
            app,
            club,
            {"Ana": ana, "Ben": ben},
            [entry({"Ana": 0, "Ben": 9}, "Ana")],
            finished_at=datetime(2025, 3, 6, 21, 0),
            end=True,
        ),
        "g5": play(
            app,
            club,
            {"Ana": ana, "Ben": ben},
            [entry({"Ana": 0, "Ben": 12}, "Ana")],
            finished_at=datetime(2025, 3, 6, 22, 0),
            rules=core.GameRules(game_type=core.GameType.DRAW),
            end=True,
        ),
        "g6": play(
            app,
            club,
            {"Ana": ana, "Ben": ben, "Cy": cy},
            [entry({"Ana": 0, "Ben": 3, "Cy": 4}, "Ana")],
        ),
        "g7": play(app, club, {"Ana": ana, "Ben": ben}, [], end=True),
    }
    return League(world, ana, ben, cy, dee, games)


def club_of(club_id: int) -> Club:
    club = db.session.get(Club, club_id)
    assert club is not None
    return club


def game(game_id: int) -> Game:
    found = db.session.get(Game, game_id)
    assert found is not None
    return found
