"""Club night pages through the test client: start a night, watch it live, seat a late arrival,
choose the late rule; who may do what; junk never gives a 500."""

from __future__ import annotations

import re
from html import unescape

import pytest
from clubs.helpers import as_, assert_sign_in_redirect, flashes, messages_on
from sqlalchemy import func, select

from scorekeeper.extensions import db
from scorekeeper.models import Club, ClubNight, Game
from scorekeeper.services import games as game_service
from tests.helpers import load_game

from .helpers import late_flags, record, roster_id, scores, start

THREE_TABLES = [["Ana", "Ben", "Cy"], ["Di", "Eve", "Finn"], ["Gus", "Hana", "Ivy"]]


def text_of(response) -> str:
    """The page's visible text, tags removed, spaces squeezed."""
    page = response.get_data(as_text=True)
    page = re.sub(r"<(script|style)[^>]*>.*?</\1>", " ", page, flags=re.S)
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", page)).split())


def hand_form(app, club_id, tables, guests=()) -> dict[str, str]:
    """The start form as a scorer fills it by hand: tick and table per roster player."""
    data = {"played_on": "2025-06-03", "name": "Tuesday", "tables": str(len(tables))}
    for number, names in enumerate(tables, 1):
        for name in names:
            entry = roster_id(app, club_id, name)
            data[f"here_{entry}"] = "y"
            data[f"table_{entry}"] = str(number)
    for row, (name, table) in enumerate(guests):
        data[f"guest_{row}"] = name
        data[f"guest_table_{row}"] = str(table)
    return data


def games_of(app, night_id) -> list[Game]:
    with app.app_context():
        return [
            load_game(game_id)
            for game_id in db.session.execute(
                select(Game.id).where(Game.club_night_id == night_id).order_by(Game.table_number)
            ).scalars()
        ]


# Starting a night ------------------------------------------------------------------------------


def test_the_start_page_offers_the_roster_and_guest_rows(app, client, world):
    page = as_(client, app, world, "scorer").get(f"/clubs/{world.club}/nights/new")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    for name in ("Ana", "Ivy"):
        assert f'name="here_{roster_id(app, world.club, name)}"' in html
    assert 'name="guest_3"' in html and 'name="guest_4"' not in html
    assert 'type="date"' in html
    more = client.post(
        f"/clubs/{world.club}/nights/new", data={"add_guest": "1", "guest_rows": "4"}
    )
    assert more.status_code == 200
    assert 'name="guest_4"' in more.get_data(as_text=True)


def test_a_scorer_starts_a_night_at_three_tables_by_hand(app, client, world):
    as_(client, app, world, "scorer")
    data = hand_form(app, world.club, THREE_TABLES, guests=[("Zed", 3)])
    response = client.post(f"/clubs/{world.club}/nights/new", data=data)
    assert response.status_code == 302, messages_on(response.get_data(as_text=True))
    with app.app_context():
        night = db.session.execute(select(ClubNight)).scalar_one()
        assert (night.name, str(night.played_on)) == ("Tuesday", "2025-06-03")
    assert response.headers["Location"] == f"/clubs/{world.club}/nights/{night.id}"
    games = games_of(app, night.id)
    assert [[p.name for p in g.players] for g in games] == [
        *THREE_TABLES[:2],
        [*THREE_TABLES[2], "Zed"],
    ]
    assert [g.table_number for g in games] == [1, 2, 3]
    assert "The night has started. Each table scores its own game." in flashes(client)


def test_shuffle_fills_the_tables_then_start_keeps_them(app, client, world):
    as_(client, app, world, "scorer")
    data = hand_form(app, world.club, [[*THREE_TABLES[0], *THREE_TABLES[1], *THREE_TABLES[2]]])
    data = {k: v for k, v in data.items() if not k.startswith("table_")}  # no tables chosen
    data.update({"tables": "3", "shuffle": "1"})
    shuffled = client.post(f"/clubs/{world.club}/nights/new", data=data)
    assert shuffled.status_code == 200
    html = shuffled.get_data(as_text=True)
    assert "Tables drawn" in html and "Draw number" in html
    chosen = dict(
        re.findall(
            r'name="(table_\d+)">(?:(?!</select>).)*?<option selected value="(\d+)"', html, re.S
        )
    )
    assert len(chosen) == 9
    assert sorted(list(chosen.values()).count(t) for t in "123") == [3, 3, 3]
    data.pop("shuffle")
    response = client.post(f"/clubs/{world.club}/nights/new", data={**data, **chosen})
    assert response.status_code == 302
    night_id = int(response.headers["Location"].rsplit("/", 1)[1])
    by_table = {
        p.roster_player_id: g.table_number for g in games_of(app, night_id) for p in g.players
    }
    assert {f"table_{k}": str(v) for k, v in by_table.items()} == chosen


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"tables": "4"}, "Table 4 needs at least 2 players (it has 0)."),
        ({"guest_0": "ana", "guest_table_0": "2"}, "Ana is in the list twice"),
        ({"guest_0": "Zed"}, "Zed: choose a table (or shuffle the tables)."),
        ({"tables": "0"}, "Not a valid choice"),
        ({"played_on": "yesterday"}, "Not a valid date value"),
    ],
)
def test_a_night_that_cannot_start_says_why(app, client, world, change, message):
    as_(client, app, world, "scorer")
    data = {**hand_form(app, world.club, THREE_TABLES), **change}
    response = client.post(f"/clubs/{world.club}/nights/new", data=data)
    assert response.status_code in (400, 422)
    assert any(message in m for m in messages_on(response.get_data(as_text=True))), messages_on(
        response.get_data(as_text=True)
    )
    with app.app_context():
        assert db.session.execute(select(func.count(Game.id))).scalar_one() == 0


def test_a_table_of_one_is_refused_with_its_number(app, client, world):
    as_(client, app, world, "scorer")
    tables = [["Ana", "Ben", "Cy"], ["Di"], ["Gus", "Hana"]]
    response = client.post(
        f"/clubs/{world.club}/nights/new", data=hand_form(app, world.club, tables)
    )
    assert response.status_code == 422
    assert "Table 2 needs at least 2 players (it has 1)." in messages_on(
        response.get_data(as_text=True)
    )


def test_a_player_the_rules_refuse_is_named_with_the_table(app, client, world):
    as_(client, app, world, "scorer")
    data = hand_form(app, world.club, [["Ana", "Ben"]], guests=[("x" * 41, 1)])
    response = client.post(f"/clubs/{world.club}/nights/new", data=data)
    assert response.status_code == 422
    assert any(
        m.startswith("Table 1: ") and "at most 40 characters" in m
        for m in messages_on(response.get_data(as_text=True))
    )


# The night's page ------------------------------------------------------------------------------


def test_the_night_page_shows_every_table(app, client, world):
    night_id, games = start(app, world.club, THREE_TABLES, name="Tuesday")
    record(app, games[1], "Di", Eve=12, Finn=7)
    page = as_(client, app, world, "viewer").get(f"/clubs/{world.club}/nights/{night_id}")
    assert page.status_code == 200
    text = text_of(page)
    for number in (1, 2, 3):
        assert f"Table {number}" in text
    assert "Round 1 of 13 · Engine: the 12-12 · Ana opens" in text
    assert "Round 2 of 13 · Engine: the 11-11 · Eve opens" in text
    assert "Leader: Di" in text
    assert re.search(r"1 Di 0 2 Finn 7 3 Eve 12", text)
    html = page.get_data(as_text=True)
    for game_id in games:
        assert f'href="/games/{game_id}"' in html
    assert not re.search(r"/games/[0-9]+/late\b", html)  # a viewer adds nobody
    assert 'src="/static/js/live.js"' in html and "<noscript>" in html
    scorer = as_(app.test_client(), app, world, "scorer")
    assert f"/games/{games[0]}/late" in scorer.get(f"/clubs/{world.club}/nights/{night_id}").text


def test_the_live_part_answers_304_until_a_table_moves(app, client, world):
    night_id, games = start(app, world.club, THREE_TABLES)
    as_(client, app, world, "scorer")
    url = f"/clubs/{world.club}/nights/{night_id}/live"
    first = client.get(url)
    assert first.status_code == 200
    etag = first.headers["ETag"]
    assert first.headers["Cache-Control"] == "private, no-cache"
    assert 'id="night-live"' in first.text and "<html" not in first.text
    assert client.get(url, headers={"If-None-Match": etag}).status_code == 304
    response = client.post(
        f"/games/{games[2]}/rounds",
        data={"number": "1", "out": "Gus", "pips_1": "9", "pips_2": "4", "confirm": "y"},
    )
    assert response.status_code == 302, response.text[:2000]
    moved = client.get(url, headers={"If-None-Match": etag})
    assert moved.status_code == 200
    assert moved.headers["ETag"] != etag
    assert re.search(r"1 Gus 0 2 Ivy 4 3 Hana 9", text_of(moved))


def test_when_every_table_is_over_the_results_show(app, client, world):
    with app.app_context():
        db.session.get(Club, world.club).rounds = 1
        db.session.commit()
    night_id, games = start(app, world.club, [["Ana", "Ben"], ["Cy", "Di", "Eve"]])
    record(app, games[0], "Ben", Ana=5)
    page = as_(client, app, world, "viewer").get(f"/clubs/{world.club}/nights/{night_id}")
    assert "Results of the night" not in page.text
    record(app, games[1], "Eve", Cy=3, Di=8)
    page = client.get(f"/clubs/{world.club}/nights/{night_id}")
    text = text_of(page)
    assert "Results of the night" in text
    # One line per table, labelled as a table (not with a place badge: it is not a ranking).
    assert re.search(
        r"Table 1 Winner: Ben 0 points 1 round Table 2 Winner: Eve 0 points 1 round", text
    )
    results = page.text.split('id="results-heading"')[1].split("</section>")[0]
    assert 'class="place"' not in results and "<ol" not in results
    assert "live.js" not in page.text  # nothing left to refresh
    listing = text_of(client.get(f"/clubs/{world.club}/nights"))
    assert "2 tables · Finished" in listing


# Late arrivals ---------------------------------------------------------------------------------


def _two_rounds(app, world) -> int:
    _night, games = start(app, world.club, [["Ana", "Ben", "Cy", "Di"], ["Finn", "Gus"]])
    record(app, games[0], "Ana", Ben=12, Cy=7, Di=4)
    record(app, games[0], "Ben", Ana=5, Cy=20, Di=1)
    return games[0]


def test_a_scorer_adds_a_late_arrival_and_the_sheet_marks_the_missed_rounds(app, client, world):
    game_id = _two_rounds(app, world)
    as_(client, app, world, "scorer")
    form = client.get(f"/games/{game_id}/late")
    assert form.status_code == 200
    assert "They join at round 3" in text_of(form)
    assert ">Eve</option>" in form.text and ">Ana</option>" not in form.text
    response = client.post(f"/games/{game_id}/late", data={"roster": "", "guest": "Zed"})
    assert response.status_code == 302
    assert response.headers["Location"] == f"/games/{game_id}#sheet"
    assert flashes(client) == [
        "Zed joins at round 3; the rounds they missed are scored by the club's rule."
    ]
    page = client.get(f"/games/{game_id}")
    html = page.text
    assert re.search(
        r'class=" late"[^>]*>12<span class="late-mark" aria-hidden="true">\*</span>', html
    )
    assert '>20<span class="late-mark"' in html
    text = text_of(page)
    assert "* joined late: scored by the club's rule (the highest score of the round)" in text
    assert "Zed 32" in text or "Zed 32 points" in text
    assert "Zed joined late at round 3: missed rounds scored at the round's highest score" in text
    printed = text_of(client.get(f"/games/{game_id}/print"))
    assert "12* (joined late)" in printed.replace(" *", "*"), printed
    assert "* joined late" in printed
    record(app, game_id, "Zed", Ana=9, Ben=2, Cy=1, Di=3)
    assert scores(app, game_id)["Zed"] == [12, 20, 0]


def test_a_roster_player_can_arrive_late(app, client, world):
    game_id = _two_rounds(app, world)
    eve = roster_id(app, world.club, "Eve")
    response = as_(client, app, world, "owner").post(
        f"/games/{game_id}/late", data={"roster": str(eve)}
    )
    assert response.status_code == 302
    assert late_flags(app, game_id)["Eve"] == [True, True]


def test_the_late_form_says_what_is_wrong(app, client, world):
    game_id = _two_rounds(app, world)
    as_(client, app, world, "scorer")
    nobody = client.post(f"/games/{game_id}/late", data={"guest": ""})
    assert nobody.status_code == 422
    assert "Choose a player from the roster, or type a guest's name." in messages_on(nobody.text)
    twice = client.post(f"/games/{game_id}/late", data={"guest": "CY"})
    assert twice.status_code == 422
    assert "Cy is already playing in this game." in messages_on(twice.text)


def test_no_late_arrival_once_the_game_is_over(app, client, world):
    game_id = _two_rounds(app, world)
    with app.app_context():
        game_service.end_game(load_game(game_id))
    as_(client, app, world, "scorer")
    page = client.get(f"/games/{game_id}/late")
    assert "The game is over: nobody can join it any more." in page.text
    assert "<form" not in page.text.split("</header>", 1)[1]
    assert client.post(f"/games/{game_id}/late", data={"guest": "Zed"}).status_code == 409
    assert "Zed" not in scores(app, game_id)


def test_the_owner_chooses_the_late_rule(app, client, world):
    as_(client, app, world, "owner")
    page = client.get(f"/clubs/{world.club}/nights")
    assert 'name="rule"' in page.text
    response = client.post(f"/clubs/{world.club}/late-rule", data={"rule": "average"})
    assert response.status_code == 302
    with app.app_context():
        assert db.session.get(Club, world.club).late_rule == "average"
    game_id = _two_rounds(app, world)
    client.post(f"/games/{game_id}/late", data={"guest": "Zed"})
    assert scores(app, game_id)["Zed"] == [6, 7]
    assert "the round's average score, rounded half up" in client.get(f"/games/{game_id}").text


# Who may do what -------------------------------------------------------------------------------


def _routes(world, night_id, game_id) -> list[tuple[str, str, str, dict]]:
    club = world.club
    return [
        ("GET", f"/clubs/{club}/nights", "viewer", {}),
        ("GET", f"/clubs/{club}/nights/{night_id}", "viewer", {}),
        ("GET", f"/clubs/{club}/nights/{night_id}/live", "viewer", {}),
        ("GET", f"/clubs/{club}/nights/new", "scorer", {}),
        ("POST", f"/clubs/{club}/nights/new", "scorer", {"tables": "1"}),
        ("GET", f"/games/{game_id}/late", "scorer", {}),
        ("POST", f"/games/{game_id}/late", "scorer", {"guest": "Zed"}),
        ("POST", f"/clubs/{club}/late-rule", "owner", {"rule": "zero"}),
    ]


RANK = {"viewer": 0, "scorer": 1, "owner": 2}


@pytest.mark.parametrize("who", ["anonymous", "viewer", "scorer", "owner", "other_owner"])
def test_who_may_do_what(app, world, who):
    night_id, games = start(app, world.club, [["Ana", "Ben"]])
    for method, path, needed, data in _routes(world, night_id, games[0]):
        client = as_(app.test_client(), app, world, who)
        response = client.open(path, method=method, data=data)
        if who == "anonymous":
            assert_sign_in_redirect(app, response)
        elif who == "other_owner":
            assert response.status_code == 404, path
        elif RANK[who] < RANK[needed]:
            assert response.status_code == 403, path
        else:
            assert response.status_code in (200, 302, 422), (path, response.status_code)
    with app.app_context():
        added = "Zed" in [p.name for p in load_game(games[0]).players]
        rule = db.session.get(Club, world.club).late_rule
    assert added == (who in ("scorer", "owner"))
    assert rule == ("zero" if who == "owner" else "highest")


def test_a_night_of_another_club_is_not_found(app, client, world):
    night_id, _games = start(app, world.club, [["Ana", "Ben"]])
    as_(client, app, world, "other_owner")
    assert client.get(f"/clubs/{world.other_club}/nights/{night_id}").status_code == 404
    assert client.get(f"/clubs/{world.other_club}/nights/999").status_code == 404


def test_a_quick_game_has_no_late_arrivals(app, client, world):
    with app.app_context():
        from scorekeeper import core

        game = game_service.create_game(["Ana", "Ben"], core.GameRules(), device="phone")
        game_id = game.id
    as_(client, app, world, "owner")
    assert client.get(f"/games/{game_id}/late").status_code == 404
