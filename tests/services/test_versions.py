"""Every change to a game moves it to a new version, and the next view of it shows the change.

A game's pages, API answers and charts are kept per version (the snapshot cache, ETags, chart
files), so a service that changed a game without a new version would serve stale pages. Each
case below changes a game through the service a page or the CLI calls, then reads the game the
way a phone does: its version must have moved, and the page or answer must show the change.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta

import pytest
from flask import Flask

from scorekeeper import core
from scorekeeper.extensions import db
from scorekeeper.models import Club, Game, RosterPlayer, Season, utcnow
from scorekeeper.services import club_games as club_game_service
from scorekeeper.services import games as game_service
from scorekeeper.services import nights as night_service
from scorekeeper.services import roster as roster_service
from scorekeeper.services import seasons as season_service
from tests.clubs.helpers import make_club, make_user, sign_in

PLAYERS = ["Ana", "Ben", "Cy", "Dee"]
RULES = core.GameRules(house_rules=core.HouseRules(adjustments=True))


@dataclass
class Table:
    """A club, its organiser's signed-in phone, and one club game at its second round."""

    app: Flask
    client: object
    club_id: int
    game_id: int


def _round(out: str, **pips: int) -> core.RoundEntry:
    return core.RoundEntry({name: core.HandEntry(pips=value) for name, value in pips.items()}, out)


@pytest.fixture
def table(app: Flask, client) -> Table:
    owner = make_user(app, "Olga")
    club_id = make_club(app, owner, late_rule="highest")
    with app.app_context():
        club = db.session.get(Club, club_id)
        for name in PLAYERS:
            roster_service.add_roster_player(club, name)
        game = club_game_service.create_club_game(club, PLAYERS, RULES)
        outcome = game_service.record_round(game, _round("Ana", Ben=5, Cy=7, Dee=9))
        assert outcome.saved
        game_id = game.id
    sign_in(client, app, owner)
    return Table(app, client, club_id, game_id)


def _game(table: Table) -> Game:
    return db.session.get(Game, table.game_id)


def _club(table: Table) -> Club:
    return db.session.get(Club, table.club_id)


def record(table: Table) -> str:
    game_service.record_round(_game(table), _round("Ben", Ana=31, Cy=2, Dee=3))
    return "Record round 3"


def record_with_penalty(table: Table) -> str:
    entry = core.RoundEntry(
        {
            "Ana": core.HandEntry(pips=4),
            "Cy": core.HandEntry(pips=2),
            "Dee": core.HandEntry(pips=3),
        },
        "Ben",
        penalties=[core.PenaltyEntry("Cy", "adjustment", 41, "miscount")],
    )
    assert game_service.record_round(_game(table), entry).saved
    return ">43<"  # Cy's 2 pips and the 41 points


def edit(table: Table) -> str:
    assert game_service.edit_round(_game(table), 1, _round("Ana", Ben=5, Cy=7, Dee=43)).saved
    return ">43<"


def undo(table: Table) -> str:
    game_service.undo_last_round(_game(table))
    return "Record round 1"


def end(table: Table) -> str:
    game_service.end_game(_game(table))
    return "Game over"


def reopen(table: Table) -> str:
    game_service.end_game(_game(table))
    db.session.remove()
    game_service.reopen_game(_game(table))
    return "Game reopened: play goes on"


def join_late(table: Table) -> str:
    night_service.add_late_player(_club(table), _game(table), guest="Zed")
    return "Zed"


def move_to_season(table: Table) -> str:
    club = _club(table)
    today = utcnow().date()
    saved = season_service.create_season(  # takes the game: it was played in its dates
        club, season_service.SeasonInput(name="Winter", starts_on=today, ends_on=today)
    )
    later = season_service.create_season(
        club,
        season_service.SeasonInput(
            name="Spring", starts_on=today + timedelta(days=9), ends_on=today + timedelta(days=9)
        ),
    )
    assert _game(table).season_id == saved.season.id
    season_service.move_game(club, table.game_id, db.session.get(Season, later.season.id))
    return "Spring"


def file_under_new_season(table: Table) -> str:
    today = utcnow().date()
    season_service.create_season(
        _club(table), season_service.SeasonInput(name="Winter", starts_on=today, ends_on=today)
    )
    return "Winter"


def merge_roster(table: Table) -> str:
    club = _club(table)
    twin = roster_service.add_roster_player(club, "Anabel")
    ana = next(e for e in roster_service.roster_of(club) if e.display_name == "Ana")
    roster_service.merge_roster_players(db.session.get(RosterPlayer, twin.id), ana)
    return "Anabel"


CHANGES: list[Callable[[Table], str]] = [
    record,
    record_with_penalty,
    edit,
    undo,
    end,
    reopen,
    join_late,
    move_to_season,
    file_under_new_season,
    merge_roster,
]


@pytest.mark.parametrize("change", CHANGES, ids=lambda change: change.__name__)
def test_every_change_moves_the_version_and_shows_on_the_next_view(table: Table, change):
    app, client = table.app, table.client
    with app.app_context():
        before = _game(table).version
    page = client.get(f"/games/{table.game_id}")
    assert page.status_code == 200
    with app.app_context():
        shown = change(table)
        db.session.remove()
        after = _game(table).version
    assert after > before
    if change in (move_to_season, file_under_new_season, merge_roster):
        # Filing and roster names show on the club's pages, which read the game afresh: the
        # game page's ETag moved so no phone keeps the old one.
        assert f"g{table.game_id}v{after}" != f"g{table.game_id}v{before}"
        return
    assert shown not in page.get_data(as_text=True)
    assert shown in client.get(f"/games/{table.game_id}").get_data(as_text=True)


def test_moving_a_quick_game_into_a_club_moves_its_version(table: Table):
    app = table.app
    with app.app_context():
        quick = game_service.create_game(PLAYERS, RULES)
        quick_id, before = quick.id, quick.version
        club_game_service.move_game_to_club(quick, _club(table))
        db.session.remove()
        assert db.session.get(Game, quick_id).version > before


def test_a_write_that_skips_the_session_objects_is_refused(table: Table):
    """A bulk UPDATE of a game's rows would change it without a new version: refused."""
    from sqlalchemy import update

    from scorekeeper.models import Hand

    with table.app.app_context(), pytest.raises(RuntimeError, match="version"):
        db.session.execute(update(Hand).values(score=0))
