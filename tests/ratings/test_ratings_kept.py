"""Kept ratings (services/ratings_kept.py): a club's replay is run once per ratings mark and
kept in the database; the Ratings page, CSV, chart and API read it, answer 304 to a repeat, and
show what a replay from scratch shows after a new game, a corrected old game, a deleted game, a
merge or a rename."""

from __future__ import annotations

import csv
import io
import re
import threading
from datetime import datetime

import pytest
from clubs.helpers import as_  # tests/ is on the path
from players.helpers import club_of, entry, game, make_league, play
from sqlalchemy import event, select

from scorekeeper.extensions import db
from scorekeeper.models import KeptRatings, RosterPlayer, User
from scorekeeper.services import accounts as account_service
from scorekeeper.services import games as game_service
from scorekeeper.services import ratings as rating_service
from scorekeeper.services import ratings_kept, roster

from .test_ratings_service import LEAGUE, openskill_direct


@pytest.fixture
def league(app):
    return make_league(app)


def replays(club_id: int) -> int:
    return ratings_kept.REPLAYS[club_id]


def fresh(app, club_id: int) -> list[rating_service.RatingLine]:
    """The lines a replay from scratch gives, nothing kept read or written."""
    with app.app_context():
        club = club_of(club_id)
        replayed = rating_service.replay(rating_service.club_matches(club_id))
        rows = db.session.scalars(select(RosterPlayer).where(RosterPlayer.club_id == club_id))
        entries = {e.id: e for e in rows}
        return rating_service.rating_lines(rating_service.rating_figures(club, replayed), entries)


def kept_mark(app, club_id: int) -> str | None:
    with app.app_context():
        row = db.session.get(KeptRatings, club_id)
        return row.mark if row is not None else None


def api_headers(app, league) -> dict[str, str]:
    with app.app_context():
        user = db.session.get(User, league.world.viewer)
        secret = account_service.create_token(user, "ratings").secret
    return {"Authorization": f"Bearer {secret}"}


def shown(client, league, headers) -> dict[str, object]:
    """What the page, the CSV and the API answer: (name, rating) on the page, (name, mu, sigma)
    in the CSV and the API."""
    page = client.get(f"/clubs/{league.club}/ratings").text
    rows = list(csv.DictReader(io.StringIO(client.get(f"/clubs/{league.club}/ratings.csv").text)))
    body = client.get(f"/api/v1/clubs/{league.club}/ratings", headers=headers).get_json()
    return {
        "page": re.findall(
            r'">([^<]+)</a>(?:[^<]|<span[^>]*>[^<]*</span>)*</th>\s*'
            r'<td class="num">(-?\d+)</td>',
            page,
        ),
        "csv": [(r["player"], float(r["mu"]), float(r["sigma"])) for r in rows],
        "api": [(line["player"], line["mu"], line["sigma"]) for line in body],
    }


def expected(lines: list[rating_service.RatingLine]) -> dict[str, object]:
    return {
        "page": [(line.name, str(line.rating)) for line in lines],
        "csv": [(line.name, line.mu, line.sigma) for line in lines],
        "api": [(line.name, line.mu, line.sigma) for line in lines],
    }


def test_a_new_game_moves_the_mark_and_the_ratings_everywhere(app, client, league):
    viewer = as_(client, app, league.world, "viewer")
    headers = api_headers(app, league)
    before = shown(viewer, league, headers)
    assert before == expected(fresh(app, league.club))
    first_mark = kept_mark(app, league.club)
    assert first_mark is not None

    play(
        app,
        league.club,
        {"Dee": league.dee, "Cy": league.cy},
        [entry({"Dee": 0, "Cy": 5}, "Dee"), entry({"Dee": 0, "Cy": 3}, "Dee")],
        finished_at=datetime(2025, 4, 3, 21, 0),
    )
    after = shown(viewer, league, headers)
    assert after != before
    assert after == expected(fresh(app, league.club))
    direct = openskill_direct([*LEAGUE, {"Dee": 1, "Cy": 2}])
    assert {name: (mu, sigma) for name, mu, sigma in after["api"]} == direct
    assert kept_mark(app, league.club) not in (None, first_mark)


def test_the_replay_runs_once_per_mark(app, client, league):
    viewer = as_(client, app, league.world, "viewer")
    headers = api_headers(app, league)
    start = replays(league.club)
    for _ in range(3):
        shown(viewer, league, headers)
        assert (
            viewer.get(f"/clubs/{league.club}/players/{league.ana}/rating.svg").status_code == 200
        )
        assert viewer.get(f"/clubs/{league.club}/players/{league.ana}").status_code == 200
    assert replays(league.club) == start + 1
    with app.app_context():
        assert db.session.scalar(select(KeptRatings.mark)) == rating_service.mark_text(
            club_of(league.club)
        )
    # A round saved in a game not finished (one of two) moves no rating: nothing is replayed.
    play(
        app,
        league.club,
        {"Ana": league.ana, "Dee": league.dee},
        [entry({"Ana": 0, "Dee": 4}, "Ana")],
    )
    shown(viewer, league, headers)
    assert replays(league.club) == start + 1


def test_a_repeat_is_answered_304_without_a_replay(app, client, league):
    viewer = as_(client, app, league.world, "viewer")
    headers = api_headers(app, league)
    urls = {
        f"/clubs/{league.club}/ratings": {},
        f"/clubs/{league.club}/ratings.csv": {},
        f"/clubs/{league.club}/players/{league.ana}/rating.svg": {},
        f"/api/v1/clubs/{league.club}/ratings": headers,
    }
    tags = {}
    for url, extra in urls.items():
        first = viewer.get(url, headers=extra)
        assert first.status_code == 200 and first.headers["ETag"], url
        tags[url] = first.headers["ETag"]
    start = replays(league.club)
    for url, extra in urls.items():
        again = viewer.get(url, headers={**extra, "If-None-Match": tags[url]})
        assert again.status_code == 304, url
        assert again.data == b""
    assert replays(league.club) == start
    # Another member's first view of the same ratings reads the kept ones: no replay either.
    other = app.test_client()
    as_(other, app, league.world, "owner").get(f"/clubs/{league.club}/ratings")
    assert replays(league.club) == start


def test_an_edit_to_an_old_game_is_shown_at_once(app, client, league):
    viewer = as_(client, app, league.world, "viewer")
    headers = api_headers(app, league)
    page = viewer.get(f"/clubs/{league.club}/ratings")
    chart = viewer.get(f"/clubs/{league.club}/players/{league.ben}/rating.svg")
    api = viewer.get(f"/api/v1/clubs/{league.club}/ratings", headers=headers)
    before = shown(viewer, league, headers)
    with app.app_context():  # g1, the oldest game: Ben now beats Ana and Cy
        outcome = game_service.edit_round(
            game(league.games["g1"]), 2, entry({"Ana": 30, "Ben": 0, "Cy": 5}, "Ben")
        )
        assert outcome.saved
    for response, url, extra in (
        (page, f"/clubs/{league.club}/ratings", {}),
        (chart, f"/clubs/{league.club}/players/{league.ben}/rating.svg", {}),
        (api, f"/api/v1/clubs/{league.club}/ratings", headers),
    ):
        again = viewer.get(url, headers={**extra, "If-None-Match": response.headers["ETag"]})
        assert again.status_code == 200 and again.data != response.data, url
    after = shown(viewer, league, headers)
    assert after != before
    assert after == expected(fresh(app, league.club))
    corrected = [{"Ana": 3, "Ben": 1, "Cy": 2}, *LEAGUE[1:]]
    assert {name: (mu, sigma) for name, mu, sigma in after["api"]} == openskill_direct(corrected)


def test_a_deleted_game_and_a_merge_are_shown_at_once(app, client, league):
    viewer = as_(client, app, league.world, "viewer")
    headers = api_headers(app, league)
    shown(viewer, league, headers)
    with app.app_context():
        db.session.delete(game(league.games["g3"]))
        db.session.commit()
    after_delete = shown(viewer, league, headers)
    assert after_delete == expected(fresh(app, league.club))
    assert {n: (mu, s) for n, mu, s in after_delete["api"]} == openskill_direct(
        [*LEAGUE[:2], *LEAGUE[3:]]
    )
    with app.app_context():  # Dee was Cy all along (they never shared a table)
        keep, drop = (
            db.session.get(RosterPlayer, league.cy),
            db.session.get(RosterPlayer, league.dee),
        )
        roster.merge_roster_players(keep, drop)
    after_merge = shown(viewer, league, headers)
    assert "Dee" not in {name for name, _mu, _sigma in after_merge["api"]}
    assert after_merge == expected(fresh(app, league.club))


def test_a_rename_changes_the_page_without_a_replay(app, client, league):
    viewer = as_(client, app, league.world, "viewer")
    page = viewer.get(f"/clubs/{league.club}/ratings")
    start = replays(league.club)
    with app.app_context():
        roster.update_roster_player(db.session.get(RosterPlayer, league.ana), "Anabel", None)
    again = viewer.get(
        f"/clubs/{league.club}/ratings", headers={"If-None-Match": page.headers["ETag"]}
    )
    assert again.status_code == 200 and ">Anabel</a>" in again.text
    assert replays(league.club) == start


def test_a_get_writes_only_the_kept_ratings_and_only_once(app, client, league):
    viewer = as_(client, app, league.world, "viewer")
    with app.app_context():
        engine = db.engine
    sent: list[str] = []

    def hit(_conn, _cursor, statement, *_args) -> None:
        if statement.lstrip().split(None, 1)[0].upper() in ("INSERT", "UPDATE", "DELETE"):
            sent.append(" ".join(statement.split()[:3]))

    event.listen(engine, "before_cursor_execute", hit)
    try:
        viewer.get(f"/clubs/{league.club}/ratings")
        first, sent[:] = list(sent), []
        viewer.get(f"/clubs/{league.club}/ratings")
        viewer.get(f"/clubs/{league.club}/ratings.csv")
        later = list(sent)
    finally:
        event.remove(engine, "before_cursor_execute", hit)
    assert first == ["INSERT INTO kept_ratings"]
    assert later == []


def test_the_kept_replay_is_the_replay_bit_for_bit(app, league):
    with app.app_context():
        club = club_of(league.club)
        from_scratch = rating_service.replay(rating_service.club_matches(league.club))
        assert rating_service.club_replay(club) == from_scratch  # replayed and kept
        assert rating_service.club_replay(club) == from_scratch  # read back from the row
        text = rating_service.replay_json(from_scratch)
        assert rating_service.replay_of_json(text) == from_scratch
        # One player's part (a chart, a player page) is theirs in the whole replay.
        for who in (league.ana, league.ben, league.cy, league.dee, 999999):
            own = rating_service.replay_of_json(text, only=who)
            assert own.steps(who) == from_scratch.steps(who)
            assert own.current(who) == from_scratch.current(who)
            assert own.last_played(who) == from_scratch.last_played(who)
            rated = rating_service.player_rating(club, who)
            assert rated.steps == from_scratch.steps(who)
            assert (rated.mu, rated.sigma) == from_scratch.current(who)


def test_threads_opening_new_ratings_at_once_replay_them_once(app, league):
    start = replays(league.club)
    answers: list[list[rating_service.RatingLine]] = []
    errors: list[BaseException] = []
    gate = threading.Barrier(4)

    def member() -> None:
        try:
            with app.app_context():
                gate.wait()
                answers.append(rating_service.club_ratings(club_of(league.club)))
        except BaseException as error:  # noqa: BLE001 - reported below
            errors.append(error)

    threads = [threading.Thread(target=member) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert replays(league.club) == start + 1
    assert answers == [fresh(app, league.club)] * 4


def test_two_workers_storing_at_once_both_succeed(app, league):
    """Two processes (or servers) that replayed the same club: both stores succeed, the row is
    one of theirs, whole."""
    results: list[bool] = []
    gate = threading.Barrier(2)

    def worker(mark: str) -> None:
        with app.app_context():
            gate.wait()
            results.append(ratings_kept.store(league.club, mark, f'["{mark}"]', "{}"))

    threads = [threading.Thread(target=worker, args=(m,)) for m in ("1-2", "3-4")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == [True, True]
    with app.app_context():
        row = db.session.get(KeptRatings, league.club)
        assert (row.mark, row.lines) in {("1-2", '["1-2"]'), ("3-4", '["3-4"]')}
