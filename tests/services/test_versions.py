"""Every change to a game moves it to a new version, and the next view of it shows the change.

A game's pages, API answers and charts are kept per version (the snapshot cache, ETags, chart
files), so a service that changed a game without a new version would serve stale pages. Each
case below changes a game through the service a page or the CLI calls, then reads the game the
way a phone does: its version must have moved, and the page that shows the change (the game's
own page, or the club's or a season's where the change shows there) must show it.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta

import pytest
from flask import Flask
from sqlalchemy import select

from scorekeeper import core
from scorekeeper.extensions import db
from scorekeeper.models import Club, Game, RosterPlayer, Season, new_token, utcnow
from scorekeeper.services import club_games as club_game_service
from scorekeeper.services import export_json, importer
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


@dataclass(frozen=True)
class Shown:
    """What the next view shows once a change is made, and where: `page` (the game's own page
    when empty); `gone_from`: a page that must no longer show it."""

    text: str
    page: str = ""
    gone_from: str = ""


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


def leave(table: Table) -> str:
    game_service.leave(_game(table), "Dee")
    return "Dee left after round 1"


def come_back(table: Table) -> str:
    game_service.leave(_game(table), "Dee")
    db.session.remove()
    game_service.come_back(_game(table), "Dee")
    return "Dee came back at round 2"


def _season_page(table: Table, season_id: int) -> str:
    return f"/clubs/{table.club_id}/seasons/{season_id}"


def _listed(table: Table) -> str:
    """The game's line on a club or season page (a link to it)."""
    return f'href="/games/{table.game_id}"'


def move_to_season(table: Table) -> Shown:
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
    # Spring's page lists the game (moved there by hand); Winter's, whose dates cover its day,
    # no longer does.
    return Shown(
        _listed(table),
        page=_season_page(table, later.season.id),
        gone_from=_season_page(table, saved.season.id),
    )


def file_under_new_season(table: Table) -> Shown:
    today = utcnow().date()
    season_service.create_season(
        _club(table), season_service.SeasonInput(name="Winter", starts_on=today, ends_on=today)
    )
    # A season page lists games by their day whatever they are filed under; the filing itself
    # (the season whose rules a club night takes) shows in the club's export.
    return Shown('"season": 1', page=f"/clubs/{table.club_id}/export.json")


def merge_roster(table: Table) -> Shown:
    club = _club(table)
    twin = roster_service.add_roster_player(club, "Anabel")
    ana = next(e for e in roster_service.roster_of(club) if e.display_name == "Ana")
    roster_service.merge_roster_players(db.session.get(RosterPlayer, twin.id), ana)
    # The club's list of games names roster players by their current name: Ana's seat is now
    # Anabel's (the roster on the same page lists Anabel either way: look at the game's line).
    return Shown("<strong>Anabel, Ben, Cy, Dee</strong>", page=f"/clubs/{table.club_id}")


CHANGES: list[Callable[[Table], str | Shown]] = [
    record,
    record_with_penalty,
    edit,
    undo,
    end,
    reopen,
    join_late,
    leave,
    come_back,
    move_to_season,
    file_under_new_season,
    merge_roster,
]


@pytest.mark.parametrize("change", CHANGES, ids=lambda change: change.__name__)
def test_every_change_moves_the_version_and_shows_on_the_next_view(table: Table, change):
    app, client = table.app, table.client
    game_page, club_page = f"/games/{table.game_id}", f"/clubs/{table.club_id}"
    with app.app_context():
        before = _game(table).version
    seen = {page: client.get(page) for page in (game_page, club_page, f"{club_page}/export.json")}
    assert all(response.status_code == 200 for response in seen.values())
    with app.app_context():
        shown = change(table)
        db.session.remove()
        after = _game(table).version
    assert after > before
    if isinstance(shown, str):
        shown = Shown(shown)
    page = shown.page or game_page
    if page in seen:  # a season made by the change had no page before it
        assert shown.text not in seen[page].get_data(as_text=True)
    now = client.get(page)
    assert now.status_code == 200
    assert shown.text in now.get_data(as_text=True)
    if shown.gone_from:
        assert shown.text not in client.get(shown.gone_from).get_data(as_text=True)


def test_moving_a_quick_game_into_a_club_moves_its_version_and_shows_it(table: Table):
    """A quick game's page is its devices'; once in the club, the club's members see it."""
    app, client = table.app, table.client
    with app.app_context():
        quick = game_service.create_game(PLAYERS, RULES)
        quick_id, before = quick.id, quick.version
    listed = f'href="/games/{quick_id}"'
    assert client.get(f"/games/{quick_id}").status_code == 404
    assert listed not in client.get(f"/clubs/{table.club_id}").get_data(as_text=True)
    with app.app_context():
        club_game_service.move_game_to_club(db.session.get(Game, quick_id), _club(table))
        db.session.remove()
        assert db.session.get(Game, quick_id).version > before
    assert client.get(f"/games/{quick_id}").status_code == 200
    assert listed in client.get(f"/clubs/{table.club_id}").get_data(as_text=True)


def _under_new_links(document: dict) -> dict:
    """The same club export with links this instance has never made (a club imported again)."""
    document = copy.deepcopy(document)
    document["club"]["public_token"] = new_token()
    for invite in document["invites"]:
        invite["token"] = new_token()
    for game in document["games"]:
        game["edit_token"], game["view_token"] = new_token(), new_token()
    return document


def test_import_never_changes_a_game_and_its_games_show_what_was_imported(table: Table):
    """Import cannot change an existing game: it only ever makes a new club with new games, and
    refuses a file whose game links this instance already uses (the same export imported again)
    without writing anything. So the existing game keeps its version, and what an import shows
    is a new game's page, read from the imported rows."""
    app, client = table.app, table.client
    with app.app_context():
        document = export_json.export_club_json(table.club_id)
        before = _game(table).version
        with pytest.raises(importer.ImportProblem, match="already uses"):
            importer.import_club(copy.deepcopy(document))
        db.session.remove()
        assert _game(table).version == before
        # The file says Dee held 43 pips in round 1 (this instance's game says 9).
        again = _under_new_links(document)
        dee = again["games"][0]["rounds"][0]["hands"][3]
        dee["pips"] = dee["score"] = 43
        imported = importer.import_club(again).club.id
        (new_id,) = db.session.scalars(select(Game.id).where(Game.club_id == imported))
    old_page = client.get(f"/games/{table.game_id}").get_data(as_text=True)
    new_page = client.get(f"/games/{new_id}")  # Olga, the owner, is a member of the new club
    assert new_page.status_code == 200
    assert ">43<" in new_page.get_data(as_text=True)
    assert ">43<" not in old_page
    assert "Record round 2" in new_page.get_data(as_text=True)


def test_a_write_that_skips_the_session_objects_is_refused(table: Table):
    """A bulk UPDATE of a game's rows would change it without a new version: refused."""
    from sqlalchemy import update

    from scorekeeper.models import Hand

    with table.app.app_context(), pytest.raises(RuntimeError, match="version"):
        db.session.execute(update(Hand).values(score=0))
