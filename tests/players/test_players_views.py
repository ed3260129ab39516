"""Player pages, head-to-head pages, the matrix and the chart route: who may see them, what
they show (the league of helpers.make_league), redirects, ETags, and queries per page."""

from __future__ import annotations

import pytest
from clubs.helpers import add_roster, as_, assert_sign_in_redirect

from scorekeeper.services import players as player_service
from scorekeeper.services import roster as roster_service

from .helpers import club_of, entry, play


def page(league, who: str = "viewer") -> str:
    return f"/clubs/{league.club}/players/{who}"


def player_url(league, entry_id: int) -> str:
    return f"/clubs/{league.club}/players/{entry_id}"


# Who may see ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "path",
    [
        "/clubs/{club}/players/{ana}",
        "/clubs/{club}/players/{ana}/chart.svg",
        "/clubs/{club}/players/{ana}/vs/{ben}",
        "/clubs/{club}/players/{ana}/vs?opponent={ben}",
        "/clubs/{club}/head-to-head",
    ],
)
@pytest.mark.parametrize(("who", "status"), [("viewer", 200), ("other_owner", 404)])
def test_members_only(app, client, league, path, who, status):
    url = path.format(club=league.club, ana=league.ana, ben=league.ben)
    response = as_(client, app, league.world, who).get(url)
    expected = 302 if "opponent=" in url and status == 200 else status
    assert response.status_code == expected


@pytest.mark.parametrize(
    "path",
    [
        "/clubs/{club}/players/{ana}",
        "/clubs/{club}/players/{ana}/vs/{ben}",
        "/clubs/{club}/head-to-head",
    ],
)
def test_anonymous_is_sent_to_sign_in(app, client, league, path):
    url = path.format(club=league.club, ana=league.ana, ben=league.ben)
    assert_sign_in_redirect(app, client.get(url), back=url)


def test_entry_of_another_club_is_404(app, client, league):
    (stranger,) = add_roster(app, league.world.other_club, "Stranger")
    as_(client, app, league.world, "viewer")
    assert client.get(player_url(league, stranger)).status_code == 404
    assert client.get(f"{player_url(league, league.ana)}/vs/{stranger}").status_code == 404
    assert client.get(player_url(league, 999999)).status_code == 404


# The player page ------------------------------------------------------------------------------


def test_player_page_shows_the_record(app, client, league):
    html = as_(client, app, league.world, "viewer").get(player_url(league, league.ana)).text
    # Figures worked out in test_players_service.test_ana_record.
    assert "<h1>Ana</h1>" in html
    assert '<th scope="row">Games played</th><td class="num">4</td>' in html
    assert '<td class="num">3 (1 shared)</td>' in html
    assert '<td class="num">75%</td>' in html
    assert '<td class="num">5.4</td>' in html  # 38 / 7
    assert '<th scope="row">Zero rounds</th><td class="num">3</td>' in html
    assert "Draw dominoes: 1 game, not counted above" in html
    assert "A win is a first place, alone or shared." in html
    assert "Best game: 4 points" in html and "Worst game: 27 points" in html
    # Last games link to the game pages; the chart has alt text and its figures in a table.
    for name in ("g1", "g2", "g3", "g4", "g5"):
        assert f'href="/games/{league.games[name]}"' in html
    assert f'href="/games/{league.games["g6"]}"' not in html
    assert "Ana, Cy, Gus" in html
    assert f"/clubs/{league.club}/players/{league.ana}/chart.svg?v=" in html
    assert 'alt="Bar chart of the average score per round each month' in html
    assert '<td class="num">13.5</td>' in html  # February
    # The opponent form lists the others, not Ana herself.
    assert f'<option value="{league.ben}">Ben</option>' in html
    assert f'<option value="{league.ana}">' not in html


def test_player_without_games(app, client, league):
    (nobody,) = add_roster(app, league.club, "Nobody")
    as_(client, app, league.world, "viewer")
    html = client.get(player_url(league, nobody)).text
    assert "No finished Mexican Train games yet." in html
    assert "chart.svg" not in html
    assert client.get(f"{player_url(league, nobody)}/chart.svg").status_code == 404


def test_merged_entry_redirects(app, client, league):
    (annie,) = add_roster(app, league.club, "Annie")
    with app.app_context():
        entries = player_service.roster_entries(club_of(league.club))
        roster_service.merge_roster_players(entries[league.ana], entries[annie])
    as_(client, app, league.world, "viewer")
    response = client.get(player_url(league, annie))
    assert response.status_code == 302
    assert response.headers["Location"] == player_url(league, league.ana)
    response = client.get(f"{player_url(league, league.ben)}/vs/{annie}")
    assert response.headers["Location"] == f"{player_url(league, league.ben)}/vs/{league.ana}"
    chart = client.get(f"{player_url(league, annie)}/chart.svg")
    assert chart.headers["Location"] == f"{player_url(league, league.ana)}/chart.svg"


# Head-to-head ---------------------------------------------------------------------------------


def test_opponent_form_goes_to_head_to_head(app, client, league):
    as_(client, app, league.world, "viewer")
    response = client.get(f"{player_url(league, league.ana)}/vs?opponent={league.ben}")
    assert response.status_code == 302
    assert response.headers["Location"] == f"{player_url(league, league.ana)}/vs/{league.ben}"
    for junk in (str(league.ana), "999999", "x", ""):
        response = client.get(f"{player_url(league, league.ana)}/vs?opponent={junk}")
        assert response.headers["Location"] == f"{player_url(league, league.ana)}#compare"


def test_head_to_head_page(app, client, league):
    as_(client, app, league.world, "viewer")
    html = client.get(f"{player_url(league, league.ana)}/vs/{league.ben}").text
    # Worked out in test_players_service.test_head_to_head_ana_ben.
    assert "<h1>Ana vs Ben</h1>" in html
    assert '<th scope="row">Games together</th><td class="num">3</td>' in html
    assert '<th scope="row">Ana finished ahead</th><td class="num">2</td>' in html
    assert '<th scope="row">Ben finished ahead</th><td class="num">0</td>' in html
    assert '<th scope="row">Same place</th><td class="num">1</td>' in html
    assert '<td class="num">3.7</td>' in html and '<td class="num">7.7</td>' in html
    assert "Draw dominoes together: 1 game, not counted above." in html
    assert html.count('<li>\n      <a href="/games/') == 3  # the last meetings
    # Ana against herself is her own page.
    response = client.get(f"{player_url(league, league.ana)}/vs/{league.ana}")
    assert response.headers["Location"] == player_url(league, league.ana)


def test_matrix_page(app, client, league):
    as_(client, app, league.world, "viewer")
    html = client.get(f"/clubs/{league.club}/head-to-head").text
    assert 'class="sheet-scroll h2h-scroll"' in html
    assert f'href="{player_url(league, league.ana)}/vs/{league.ben}"' in html
    assert "Ana against Ben: 2 ahead, 0 behind" in html
    # The link's name starts with what it shows (axe: label-content-name-mismatch).
    assert ">2–0<span" in html and ">0–2<span" in html and ">1–1<span" in html
    assert html.count('aria-label="not met yet"') == 2  # Cy-Dee and Dee-Cy


# The chart route ------------------------------------------------------------------------------


def test_chart_route_svg_etag_and_304(app, client, league, renders):
    as_(client, app, league.world, "viewer")
    url = f"{player_url(league, league.ana)}/chart.svg"
    first = client.get(url)
    assert first.status_code == 200
    assert first.mimetype == "image/svg+xml"
    assert first.data.startswith(b"<?xml") and b"<title>" in first.data
    etag = first.headers["ETag"]
    assert first.headers["Cache-Control"] == "private, no-cache"
    again = client.get(url, headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.data == b""
    assert renders == ["player_chart"]
    # The page's image address carries the same key, so a new game gives a new address.
    assert f"chart.svg?v={etag.strip(chr(34))}" in client.get(player_url(league, league.ana)).text
    play(
        app,
        league.club,
        {"Ana": league.ana, "Dee": league.dee},
        [entry({"Ana": 0, "Dee": 5}, "Ana"), entry({"Ana": 2, "Dee": 0}, "Dee")],
    )
    changed = client.get(url, headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed.headers["ETag"] != etag


# Queries per page -----------------------------------------------------------------------------


def test_player_page_queries_do_not_grow_with_games(app, client, statements):
    from clubs.helpers import make_world

    world = make_world(app)
    ana, ben, cy = add_roster(app, world.club, "Ana", "Ben", "Cy")
    seats = {"Ana": ana, "Ben": ben, "Cy": cy}
    rounds = [
        entry({"Ana": 0, "Ben": 3, "Cy": 4}, "Ana"),
        entry({"Ana": 5, "Ben": 0, "Cy": 1}, "Ben"),
    ]
    as_(client, app, world, "viewer")
    pages = (f"/clubs/{world.club}/players/{ana}", f"/clubs/{world.club}/players/{ana}/vs/{ben}")
    for _ in range(2):
        play(app, world.club, seats, rounds)
    client.get(pages[0])  # the first request of a client loads a little more (the session)
    with_two = [statements.of_get(client, url) for url in pages]
    for _ in range(18):
        play(app, world.club, seats, rounds)
    # The first view of new ratings replays them once and keeps them (services/ratings_kept.py).
    client.get(pages[0])
    with_twenty = [statements.of_get(client, url) for url in pages]
    assert with_two == with_twenty
    assert with_two[0] <= 12


def test_one_game_is_both_the_best_and_the_worst_game(app, client, league):
    (newcomer,) = add_roster(app, league.club, "Newcomer")
    seats = {"Newcomer": newcomer, "Ana": league.ana}
    play(
        app,
        league.club,
        seats,
        [entry({"Newcomer": 0, "Ana": 9}, "Newcomer"), entry({"Newcomer": 6, "Ana": 0}, "Ana")],
    )
    html = as_(client, app, league.world, "viewer").get(player_url(league, newcomer)).text
    assert "Best game: 6 points" in html
    assert "Worst game: 6 points" in html
