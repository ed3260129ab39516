"""Club night test helpers: nights started through the service, rounds recorded, and readers."""

from __future__ import annotations

import random
from collections.abc import Sequence
from datetime import date

from flask import Flask

from scorekeeper import core
from scorekeeper.extensions import db
from scorekeeper.models import Club, Game
from scorekeeper.services import games as game_service
from scorekeeper.services import nights as night_service
from tests.helpers import load_game

ROSTER = ("Ana", "Ben", "Cy", "Di", "Eve", "Finn", "Gus", "Hana", "Ivy")


def roster_id(app: Flask, club_id: int, name: str) -> int:
    with app.app_context():
        club = db.session.get(Club, club_id)
        return next(e.id for e in club.roster if e.display_name == name)


def start(
    app: Flask,
    club_id: int,
    tables: Sequence[Sequence[str]],
    *,
    day: date | None = None,
    seed: int | None = None,
    name: str = "",
) -> tuple[int, list[int]]:
    """A night with these players at these tables (roster names become roster players, other
    names guests); returns the night's id and its games' ids by table."""
    with app.app_context():
        club = db.session.get(Club, club_id)
        seats = [
            night_service.Seat(name=player, table=number)
            for number, players in enumerate(tables, 1)
            for player in players
        ]
        night = night_service.start_night(
            club,
            played_on=day or date.today(),
            name=name,
            tables=len(tables),
            seats=seats,
            rng=random.Random(seed) if seed is not None else None,
        )
        games = db.session.execute(
            db.select(Game.id).where(Game.club_night_id == night.id).order_by(Game.table_number)
        ).scalars()
        return night.id, list(games)


def record(app: Flask, game_id: int, out: str | None, **pips: int) -> None:
    """Record the next round: `out` went out, the others hold `pips`."""
    with app.app_context():
        game = load_game(game_id)
        hands = {name: core.HandEntry(pips=value) for name, value in pips.items()}
        if out is not None:
            hands[out] = core.HandEntry(pips=0)
        entry = core.RoundEntry(hands, out=out, blocked=out is None)
        outcome = game_service.record_round(game, entry, confirm=True)
        assert outcome.saved, outcome.check.errors


def scores(app: Flask, game_id: int) -> dict[str, list[int]]:
    """Each player's round scores."""
    with app.app_context():
        snapshot = game_service.snapshot_of(game_service.game_row(game_id))
        return core.round_scores(snapshot.setup, list(snapshot.results))


def late_flags(app: Flask, game_id: int) -> dict[str, list[bool]]:
    """Which of each player's hands are marked late."""
    with app.app_context():
        game = load_game(game_id)
        names = {player.seat: player.name for player in game.players}
        flags: dict[str, list[bool]] = {name: [] for name in names.values()}
        for row in game.round_rows:
            for hand in row.hands:
                flags[names[hand.seat]].append(hand.late)
        return flags
