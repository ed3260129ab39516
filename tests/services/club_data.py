"""The club the export and import tests share: every kind of row a club holds."""

import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date, timedelta
from pathlib import Path

from sqlalchemy import func, select

from scorekeeper import core, create_app
from scorekeeper.extensions import db
from scorekeeper.models import (
    ApiToken,
    Change,
    Club,
    ClubNight,
    Game,
    Invite,
    Membership,
    RosterPlayer,
    Season,
    User,
    utcnow,
)
from scorekeeper.services import games as game_service
from tests.helpers import load_game

DEVICE = "exportdevice-0123456789abcdefghij"  # a browser's cookie: must not leave the instance
OWNER_HASH = "scrypt:32768:8:1$salt$owner-secret-hash"
API_HASH = "a" * 64
HOUSE = core.HouseRules(open_train_points=10, strategic_error=True, adjustments=True)


def hands(**pips):
    return {name: core.HandEntry(pips=value) for name, value in pips.items()}


def record(game, entry):
    outcome = game_service.record_round(game, entry, confirm=True, device=DEVICE)
    assert outcome.saved, outcome.check.errors
    return load_game(game.id)


def build_club() -> int:
    """A club with every kind of row; returns its id (call inside an app context)."""
    olga = User(email="olga@example.org", name="Olga", password_hash=OWNER_HASH)
    sam = User(email="sam@example.org", name="Sam", password_hash="sam-hash")
    vic = User(email="vic@example.org", name="Vic", password_hash=None)
    fern = User(email="fern@example.org", name="Fern", password_hash="fern-hash")  # left
    stranger = User(email="zed@example.org", name="Zed", password_hash="zed-hash")
    club = Club(
        name="Thursday Trains ☕",
        public=True,
        rounds=6,
        open_train_points=10,
        strategic_error=True,
        adjustments=True,
        late_rule="average",
    )
    db.session.add_all([olga, sam, vic, fern, stranger, club])
    db.session.flush()
    db.session.add_all(
        [
            Membership(club_id=club.id, user_id=olga.id, role="owner"),
            Membership(club_id=club.id, user_id=sam.id, role="scorer"),
            Membership(club_id=club.id, user_id=vic.id, role="viewer"),
            ApiToken(user_id=olga.id, name="phone", token_hash=API_HASH),
        ]
    )
    now = utcnow()
    db.session.add_all(
        [
            Invite(
                club_id=club.id, role="scorer", created_by=olga.id, expires_at=now + timedelta(7)
            ),
            Invite(
                club_id=club.id,
                role="viewer",
                created_by=fern.id,
                expires_at=now + timedelta(7),
                revoked_at=now,
            ),
            Invite(club_id=club.id, role="viewer", expires_at=now - timedelta(1)),
        ]
    )
    ana = RosterPlayer(club_id=club.id, display_name="Ana", user_id=olga.id)
    ben = RosterPlayer(club_id=club.id, display_name="Ben")
    cleo = RosterPlayer(club_id=club.id, display_name="Cleo", archived=True)
    eve = RosterPlayer(club_id=club.id, display_name="Eve", user_id=fern.id)
    benny = RosterPlayer(club_id=club.id, display_name="Benny")
    db.session.add_all([ana, ben, cleo, eve, benny])
    db.session.flush()
    benny.merged_into_id = ben.id  # Ben entered twice; Benny's games now count for Ben
    spring = Season(
        club_id=club.id,
        name="Spring",
        starts_on=date(2019, 3, 1),
        ends_on=date(2019, 5, 31),
        method="games_won",
        points_table="",
        set_size=9,
    )
    summer = Season(
        club_id=club.id,
        name="Summer",
        starts_on=date(2019, 6, 1),
        ends_on=date(2019, 8, 31),
        points_table="5,3,1",
        blank_scoring="double_blank_50",
    )
    db.session.add_all([summer, spring])  # made in this order: refs follow it, not the dates
    db.session.flush()
    night = ClubNight(club_id=club.id, season_id=spring.id, played_on=date(2019, 3, 5))
    loose = ClubNight(club_id=club.id, name="Picnic", played_on=date(2019, 7, 1))
    db.session.add_all([night, loose])
    db.session.commit()

    # A game with house rules: tiles, penalties, a blocked round, an edit and an undo.
    rules = core.GameRules(rounds=4, house_rules=HOUSE)
    game = game_service.create_game(
        ["Ana", "Benny", "Cleo", "Dan"],
        rules,
        device=DEVICE,
        club_id=club.id,
        roster_ids=[ana.id, benny.id, cleo.id, None],
    )
    game = load_game(game.id)
    game = record(
        game,
        core.RoundEntry(
            {
                "Ana": core.HandEntry(tiles=["12-11", "5-0"]),
                "Benny": core.HandEntry(pips=12),
                "Cleo": core.HandEntry(pips=7),
            },
            out="Dan",
            penalties=[
                core.PenaltyEntry("Benny", "open_train", reason="left open"),
                core.PenaltyEntry("Cleo", "strategic_error"),
                core.PenaltyEntry("Dan", "adjustment", -5, "miscount"),
            ],
        ),
    )
    game = record(game, core.RoundEntry(hands(Ana=3, Benny=9, Cleo=14, Dan=1), blocked=True))
    game = record(game, core.RoundEntry(hands(Benny=5, Cleo=6, Dan=7), out="Ana"))
    outcome = game_service.edit_round(
        game, 3, core.RoundEntry(hands(Benny=8, Cleo=6, Dan=7), out="Ana"), device="api"
    )
    assert outcome.saved
    game = record(load_game(game.id), core.RoundEntry(hands(Ana=1, Benny=2, Dan=3), out="Cleo"))
    game_service.undo_last_round(load_game(game.id), device=DEVICE)
    game = load_game(game.id)
    game.season_id, game.club_night_id, game.table_number = spring.id, night.id, 2
    db.session.commit()
    # Fay came late: the rounds she missed are scored by the rule chosen when she joined (the
    # highest score of each), not the club's rule of today (average).
    game_service.join_late(load_game(game.id), "Fay", core.LateRule.HIGHEST, device=DEVICE)

    # A team game that was ended early.
    teams = game_service.create_game(
        ["Ana", "Ben", "Eve", "Gus"],
        core.GameRules(rounds=3),
        [["Ana", "Eve"], ["Ben", "Gus"]],
        club_id=club.id,
        roster_ids=[ana.id, ben.id, eve.id],
    )
    teams = record(load_game(teams.id), core.RoundEntry(hands(Ana=4, Ben=0, Eve=2), out="Gus"))
    game_service.end_game(teams, device=DEVICE)

    # The draw game (no engines), with a guest whose name a spreadsheet would run.
    draw = game_service.create_game(
        ["Ana", "Ben", "=1+1"],
        core.GameRules(game_type=core.GameType.DRAW),
        club_id=club.id,
        roster_ids=[ana.id, ben.id, None],
    )
    draw = record(load_game(draw.id), core.RoundEntry(hands(Ben=10, **{"=1+1": 4}), out="Ana"))
    record(draw, core.RoundEntry(hands(Ana=6, Ben=0), out="=1+1"))

    # Another club's game and a quick game: not this club's data.
    other = Club(name="Other")
    db.session.add(other)
    db.session.commit()
    game_service.create_game(["X", "Y"], core.GameRules(), club_id=other.id)
    game_service.create_game(["P", "Q"], core.GameRules(), device=DEVICE)

    ben.display_name = "Benjamin"  # renamed after the games: the CSV shows the name now
    db.session.commit()
    return club.id


def counts() -> dict[str, int]:
    """How many rows the tables an import writes hold (the same before and after a refusal)."""
    return {
        model.__tablename__: db.session.execute(
            select(func.count()).select_from(model)
        ).scalar_one()
        for model in (User, Club, Membership, Invite, RosterPlayer, Game, Change)
    }


def set_at(path, value):
    """A change to a document: the value at `path` (keys and indexes) becomes `value`."""

    def change(doc):
        *parents, last = path
        target = doc
        for key in parents:
            target = target[key]
        target[last] = value
        return doc

    return change


@contextmanager
def source_instance(migrated_database: Path, folder: Path) -> Iterator[None]:
    """Inside the app context of an instance of its own (a copy of the migrated database in
    `folder`), where a test builds the club it exports."""
    path = folder / "source.sqlite"
    shutil.copyfile(migrated_database, path)
    source = create_app(
        {"TESTING": True, "SECRET_KEY": "test", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{path}"}
    )
    with source.app_context():
        yield
        db.engine.dispose()
