"""A GET never writes: every GET route of the app, opened with real ids and tokens of a seeded
game, club, season, night, roster player, invite and API token, by a signed-in owner, the phone
that scores the game and a cookieless visitor (a link-preview bot), leaves every table as it was."""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Iterator
from datetime import date

import pytest
from sqlalchemy import event, func, select
from werkzeug.routing import Rule

from scorekeeper import core
from scorekeeper.extensions import db
from scorekeeper.models import Club, Game, Membership, User
from scorekeeper.services import account_links
from scorekeeper.services import accounts as account_service
from scorekeeper.services import clubs as club_service
from scorekeeper.services import games as game_service
from scorekeeper.services import nights as night_service
from scorekeeper.services import roster as roster_service
from scorekeeper.services import seasons as season_service
from tests.helpers import load_game

DEVICE = "get-never-writes-device-0123456789ab"
# The one exception, on purpose: derived data a read may keep for the next reads, in a short
# transaction of its own, never the request's (a club's ratings replay at its ratings mark,
# services/ratings_kept.py). Nothing a person entered is in it; deleting it loses nothing.
DERIVED_TABLES = ("kept_ratings",)
PLACEHOLDER = re.compile(r"<(?:[^<>:]+:)?(\w+)>")


def _seed(app, user_factory) -> dict[str, object]:
    """A small world with one of everything a URL can name; returns the values for the URLs."""
    owner = user_factory("Olive")
    scorer = user_factory("Sam")
    # Unconfirmed: opening its confirmation link must not confirm it.
    newcomer = user_factory("Nina", verified=False)
    with app.app_context():
        olive = db.session.get(User, owner.id)
        club = club_service.create_club(olive, "Thursday Trains")
        club.public = True
        db.session.commit()
        club_id, public_token = club.id, club.public_token
        names = ("Ana", "Ben", "Cy", "Di", "Eve", "Finn")
        entries = [roster_service.add_roster_player(club, name) for name in names]
        db.session.add(Membership(club_id=club_id, user_id=scorer.id, role="scorer"))
        db.session.commit()
        season = season_service.create_season(
            club,
            season_service.SeasonInput(
                name="Autumn", starts_on=date(2020, 1, 1), ends_on=date(2099, 12, 31)
            ),
        ).season
        seats = [
            night_service.Seat(name=entry.display_name, roster_id=entry.id, table=1 + i // 3)
            for i, entry in enumerate(entries)
        ]
        night = night_service.start_night(
            db.session.get(Club, club_id),
            played_on=date.today(),
            name="",
            tables=2,
            seats=seats,
            rng=random.Random(1),
        )
        club_game_id = db.session.execute(
            select(Game.id).where(Game.club_night_id == night.id).limit(1)
        ).scalar_one()
        season_id, night_id, entry_ids = season.id, night.id, [e.id for e in entries[:2]]
        _play_a_round(club_game_id, device=None)
        quick = game_service.create_game(["Ana", "Ben", "Cy"], core.GameRules(), device=DEVICE)
        quick_id, view_token, edit_token = quick.id, quick.view_token, quick.edit_token
        table_token = quick.table_token
        _play_a_round(quick_id, device=DEVICE)
        _play_a_round(quick_id, device=DEVICE)
        olive = db.session.get(User, owner.id)  # playing a round ended the session
        invite = club_service.create_invite(db.session.get(Club, club_id), olive)
        token = account_service.create_token(db.session.get(User, owner.id), "laptop")
        nina = db.session.get(User, newcomer.id)
        reset_token, verify_token = (
            account_links.reset_token(nina),
            account_links.verify_token(nina),
        )
        return {
            "owner": owner,
            "club_id": [club_id],
            "season_id": [season_id],
            "night_id": [night_id],
            "game_id": [quick_id, club_game_id],
            "entry_id": [entry_ids[0]],
            "a": [entry_ids[0]],
            "b": [entry_ids[1]],
            "user_id": [scorer.id],
            "invite_id": [invite.id],
            "token_id": [token.token.id],
            "number": [1],
            "invite_token": invite.token,
            "public_token": public_token,
            "view_token": view_token,
            "edit_token": edit_token,
            "table_token": table_token,
            "api_secret": token.secret,
            "code": ["fr"],  # the language switcher
            "reset_token": reset_token,
            "verify_token": verify_token,
        }


def _play_a_round(game_id: int, device: str | None) -> None:
    game = load_game(game_id)
    names = list(game_service.snapshot_of(game).setup.players)
    hands = {name: core.HandEntry(0 if i == 0 else 5 + i) for i, name in enumerate(names)}
    outcome = game_service.record_round(
        game, core.RoundEntry(hands, out=names[0]), confirm=True, device=device
    )
    assert outcome.saved, outcome.check
    db.session.remove()


def _tokens_for(rule: Rule, world: dict[str, object]) -> list[str]:
    path = rule.rule
    if path.startswith("/s/"):
        return [world["view_token"]]
    if path.startswith("/e/"):
        return [world["edit_token"]]
    if path.startswith("/t/"):
        return [world["table_token"]]
    if path.startswith("/invite/"):
        return [world["invite_token"]]
    if path.startswith("/c/"):
        return [world["public_token"]]
    if path.startswith("/reset-password/"):
        return [world["reset_token"]]
    if path.startswith("/verify-email/"):
        return [world["verify_token"]]
    raise AssertionError(f"which token does {path} take?")


def _kinds_for(rule: Rule) -> list[str]:
    converter = rule._converters.get("kind")
    items = getattr(converter, "items", None)
    return sorted(items) if items else ["race", "rounds"]


def get_urls(app, world: dict[str, object]) -> Iterator[str]:
    """Every GET route with each combination of the world's values for its parameters."""
    for rule in sorted(app.url_map.iter_rules(), key=lambda r: r.rule):
        if "GET" not in (rule.methods or ()) or rule.endpoint == "static":
            continue
        names = PLACEHOLDER.findall(rule.rule)
        choices = []
        for name in names:
            if name == "token":
                choices.append(_tokens_for(rule, world))
            elif name == "kind":
                choices.append(_kinds_for(rule))
            else:
                choices.append(world[name])
        for combination in itertools.product(*choices):
            values = dict(zip(names, map(str, combination), strict=True))
            yield PLACEHOLDER.sub(lambda m, v=values: v[m.group(1)], rule.rule)


def row_counts() -> dict[str, int]:
    return {
        table.name: db.session.execute(select(func.count()).select_from(table)).scalar_one()
        for table in db.metadata.sorted_tables
        if table.name not in DERIVED_TABLES
    }


def derived(statement: str) -> bool:
    """True for a write to derived data only (DERIVED_TABLES), e.g. `INSERT INTO kept_ratings`."""
    words = statement.replace('"', " ").split()
    target = words[2] if words[0].upper() in ("INSERT", "DELETE") else words[1]
    return target in DERIVED_TABLES


@pytest.fixture
def writes(app) -> Iterator[list[str]]:
    """The INSERT, UPDATE and DELETE statements the app sends while the test runs."""
    with app.app_context():
        engine = db.engine
    sent: list[str] = []

    def hit(_conn, _cursor, statement, *_args) -> None:
        verb = statement.lstrip().split(None, 1)[0].upper()
        if verb in ("INSERT", "UPDATE", "DELETE") and not derived(statement.strip()):
            sent.append(statement.split("\n", 1)[0][:80])

    event.listen(engine, "before_cursor_execute", hit)
    yield sent
    event.remove(engine, "before_cursor_execute", hit)


def test_no_get_route_writes_to_the_database(app, user_factory, sign_in, writes):
    world = _seed(app, user_factory)
    owner = app.test_client()
    sign_in(owner, world["owner"].email, world["owner"].password)
    owner.set_cookie("sk_device", DEVICE)
    bot = app.test_client(use_cookies=False)  # a link preview: no cookie, ever
    # A personal token never used before: a GET with it must not note its use either.
    api = {"Authorization": f"Bearer {world['api_secret']}"}
    with app.app_context():
        before = row_counts()
    writes.clear()

    urls = list(get_urls(app, world))
    answers: dict[tuple[str, str], int] = {}
    written: dict[tuple[str, str], list[str]] = {}
    for url in urls:
        for who, client, headers in (("owner", owner, api), ("bot", bot, {})):
            response = client.get(url, headers=headers if url.startswith("/api/") else {})
            response.close()  # a file answer (the service worker, the icon) holds its file open
            answers[(who, url)] = response.status_code
            if writes:
                written[(who, url)] = list(writes)
                writes.clear()

    with app.app_context():
        after = row_counts()
    assert written == {}
    assert after == before
    assert [key for key, code in answers.items() if code >= 500] == []
    # The owner really saw the pages (not a wall of 404s that would prove nothing).
    owner_ok = [url for (who, url), code in answers.items() if who == "owner" and code == 200]
    assert len(owner_ok) >= 40, sorted(answers.items())
    # Among them the API's, opened with the personal token (whose use a GET must not note).
    assert any(url.startswith("/api/v1/games/") for url in owner_ok), owner_ok
    assert {f"/s/{world['view_token']}", f"/e/{world['edit_token']}"} <= {
        url for (who, url), code in answers.items() if who == "bot" and code == 200
    }
