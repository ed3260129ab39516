"""Season pages: who may see and change them, the forms and their errors, the season page with
its explanation, chart and games list, moving a game, and the print view."""

from __future__ import annotations

import re
from datetime import date, timedelta
from html import unescape

import pytest
from clubs.helpers import as_, assert_sign_in_redirect, flashes, messages_on

from scorekeeper.extensions import db
from scorekeeper.models import Season
from scorekeeper.services import season_standings

from .helpers import TODAY, hand_worked_season, make_season, play, season_of

FORM = {
    "name": "Winter league",
    "starts_on": "2025-12-01",
    "ends_on": "2026-02-28",
    "method": "placement_points",
    "min_games": "3",
    "points_table": "",
    "set_size": "",
    "blank_scoring": "",
    "rounds": "",
}


def text(response) -> str:
    """The page's words, tags removed and spaces squeezed."""
    page = re.sub(r"<[^>]+>", " ", response.get_data(as_text=True))
    return re.sub(r"\s+", " ", unescape(page))


def urls(world, season_id, game_id=1):
    base = f"/clubs/{world.club}/seasons"
    return {
        "index": ("get", base),
        "new": ("get", f"{base}/new"),
        "create": ("post", f"{base}/new"),
        "detail": ("get", f"{base}/{season_id}"),
        "edit": ("get", f"{base}/{season_id}/edit"),
        "save": ("post", f"{base}/{season_id}/edit"),
        "print": ("get", f"{base}/{season_id}/print"),
        "chart": ("get", f"{base}/{season_id}/chart.svg"),
        "race": ("get", f"{base}/{season_id}/race/1.svg"),  # roster entry 1: Ana
        "move": ("post", f"{base}/{season_id}/games/{game_id}/move"),
    }


READ = ("index", "detail", "print", "chart", "race")
WRITE = ("new", "create", "edit", "save", "move")


# Who may do what -------------------------------------------------------------------------------


@pytest.mark.parametrize("page", READ + WRITE)
def test_signed_out_visitors_are_sent_to_sign_in(app, client, world, page):
    season_id = make_season(app, world.club)
    method, url = urls(world, season_id)[page]
    response = getattr(client, method)(url, data=FORM)
    assert_sign_in_redirect(app, response)


@pytest.mark.parametrize("page", READ + WRITE)
def test_a_non_member_is_told_nothing(app, client, world, page):
    season_id = make_season(app, world.club)
    method, url = urls(world, season_id)[page]
    response = getattr(as_(client, app, world, "other_owner"), method)(url, data=FORM)
    assert response.status_code == 404


@pytest.mark.parametrize("page", WRITE)
def test_a_viewer_cannot_create_edit_or_move(app, client, world, page):
    season_id = make_season(app, world.club)
    method, url = urls(world, season_id)[page]
    response = getattr(as_(client, app, world, "viewer"), method)(url, data=FORM)
    assert response.status_code == 403


@pytest.mark.parametrize("page", READ)
def test_a_viewer_sees_the_season(app, client, world, page):
    season_id, _ids, _games = hand_worked_season(app, world.club)
    _method, url = urls(world, season_id)[page]
    response = as_(client, app, world, "viewer").get(url)
    assert response.status_code == 200


def test_another_clubs_season_is_not_found_through_this_club(app, client, world):
    theirs = make_season(app, world.other_club, "Theirs")
    response = as_(client, app, world, "owner").get(f"/clubs/{world.club}/seasons/{theirs}")
    assert response.status_code == 404


# Creating and editing --------------------------------------------------------------------------


@pytest.mark.parametrize("who", ["scorer", "owner"])
def test_scorers_and_the_owner_create_a_season(app, client, world, who):
    response = as_(client, app, world, who).post(
        f"/clubs/{world.club}/seasons/new",
        data={**FORM, "method": "average", "min_games": "4", "points_table": "3;2;1",
              "set_size": "9", "blank_scoring": "blank_25", "rounds": "5"},
    )  # fmt: skip
    assert response.status_code == 302
    with app.app_context():
        season = db.session.execute(db.select(Season)).scalar_one()
        assert (season.name, season.starts_on, season.ends_on) == (
            "Winter league",
            date(2025, 12, 1),
            date(2026, 2, 28),
        )
        assert (season.method, season.min_games, season.points_table) == ("average", 4, "3, 2, 1")
        assert (season.set_size, season.blank_scoring, season.rounds) == (9, "blank_25", 5)
    assert response.headers["Location"].endswith(f"/clubs/{world.club}/seasons/{season.id}")
    assert "The season Winter league is set up." in flashes(client)


def test_blank_rules_keep_the_clubs_defaults(app, client, world):
    as_(client, app, world, "owner").post(f"/clubs/{world.club}/seasons/new", data=FORM)
    with app.app_context():
        season = db.session.execute(db.select(Season)).scalar_one()
        assert (season.set_size, season.blank_scoring, season.rounds) == (None, None, None)


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"ends_on": "2025-11-30"}, "ends_on", "The season cannot end before it starts"),
        ({"starts_on": ""}, "starts_on", "Enter the first day of the season."),
        ({"ends_on": "31/12/2025"}, "ends_on", "Enter a date like 2025-09-30."),
        ({"name": "  "}, "name", "Give the season a name."),
        ({"points_table": "three, two"}, "points_table", "separated by commas"),
        ({"min_games": "lots"}, "min_games", "Enter a whole number of games"),
        ({"rounds": "99"}, "rounds", "rounds"),
        ({"method": "coin_toss"}, "method", "Not a valid choice"),
    ],
)
def test_mistakes_are_shown_next_to_their_field(app, client, world, changes, field, message):
    response = as_(client, app, world, "scorer").post(
        f"/clubs/{world.club}/seasons/new", data={**FORM, **changes}
    )
    assert response.status_code in (400, 422)
    page = response.get_data(as_text=True)
    error = re.search(rf'id="{field}-error">([^<]*)<', page)
    assert error is not None, messages_on(page)
    assert message in unescape(error.group(1))
    with app.app_context():
        assert db.session.execute(db.select(Season)).first() is None


def test_editing_a_season_changes_it_and_files_games_again(app, client, world):
    season_id, _ids, games = hand_worked_season(app, world.club)
    response = as_(client, app, world, "owner").get(f"/clubs/{world.club}/seasons/{season_id}/edit")
    assert 'value="Autumn"' in response.get_data(as_text=True)
    # The season now starts today: the club night's games (a week ago) leave it.
    response = client.post(
        f"/clubs/{world.club}/seasons/{season_id}/edit",
        data={**FORM, "name": "Autumn cup", "starts_on": TODAY.isoformat(),
              "ends_on": (TODAY + timedelta(days=30)).isoformat()},
    )  # fmt: skip
    assert response.status_code == 302
    assert "2 games played outside the new dates left the season." in flashes(client)
    assert [season_of(app, game) for game in games] == [None, None, season_id, season_id]
    with app.app_context():
        assert db.session.get(Season, season_id).name == "Autumn cup"


# The season page -------------------------------------------------------------------------------


def test_the_season_page_shows_standings_explanation_attendance_and_games(app, client, world):
    season_id, _ids, games = hand_worked_season(app, world.club)
    response = as_(client, app, world, "viewer").get(f"/clubs/{world.club}/seasons/{season_id}")
    words = text(response)
    # Standings in order, with the points worked out by hand (helpers.py).
    assert re.search(r"1 Ben 3 1 6 .*2 Cy 3 1 5.5 .*3 Ana 2 1 4.5 .*4 Di 3 0 0", words)
    assert (
        "Placement points: each player scores one point for every player they finished ahead "
        "of in each game"
    ) in words
    assert "players sharing a place split the points of the places they share" in words
    assert "Computed from 3 finished games, played on 2 club nights." in words
    assert "Guests (players not on the club's roster) are left out of the standings" in words
    assert "Guests took 1 seat." in words
    assert "1 game of the season is not counted" in words
    assert "Attendance" in words and re.search(r"Di 2 4", words)
    assert "4 games" in words and "Gus" in words  # the games list names guests
    assert f"/clubs/{world.club}/seasons/{season_id}/chart.svg" in response.get_data(as_text=True)
    # A viewer gets no edit link and no move control.
    assert "Edit the season" not in words and "Move to another season" not in words
    assert f"/games/{games[0]}" in response.get_data(as_text=True)


@pytest.mark.parametrize(
    ("method", "sentence"),
    [
        ("games_won", "Games won: most wins first (a shared first place is a win for each"),
        ("average", "Average score per round: each player's total score in the season divided"),
    ],
)
def test_the_explanation_follows_the_method(app, client, world, method, sentence):
    season_id, _ids, _games = hand_worked_season(app, world.club, method=method)
    words = text(as_(client, app, world, "viewer").get(f"/clubs/{world.club}/seasons/{season_id}"))
    assert sentence in words
    if method == "average":
        assert "A player needs 3 games to be ranked" in words
        assert "Not ranked: 2 of 3 games" in words  # Ana
    else:
        assert "ranked by their average score per round, the lower first" in words


def test_a_custom_placement_table_is_explained(app, client, world):
    season_id, _ids, _games = hand_worked_season(app, world.club, points_table="5,3,1")
    words = text(as_(client, app, world, "viewer").get(f"/clubs/{world.club}/seasons/{season_id}"))
    assert "from the season's table: 5, 3, 1 points for 1st, 2nd, 3rd" in words
    assert re.search(r"1 Ben 3 1 9 .*2 Cy 3 1 8 .*3 Ana 2 1 7", words)


def test_an_empty_season_says_so(app, client, world):
    season_id = make_season(app, world.club)
    response = as_(client, app, world, "viewer").get(f"/clubs/{world.club}/seasons/{season_id}")
    words = text(response)
    assert "the standings appear after the first one" in words
    assert "chart.svg" not in response.get_data(as_text=True)
    assert "No games in this season yet." in words


def test_the_seasons_list(app, client, world):
    make_season(app, world.club, "Old", starts_on=date(2024, 1, 1), ends_on=date(2024, 6, 30))
    make_season(app, world.club, "Current")
    words = text(as_(client, app, world, "viewer").get(f"/clubs/{world.club}/seasons"))
    assert words.index("Current") < words.index("Old")
    assert "Now" in words and "New season" not in words
    words = text(as_(client, app, world, "scorer").get(f"/clubs/{world.club}/seasons"))
    assert "New season" in words


def test_games_are_listed_a_page_at_a_time(app, client, world):
    season_id, ids, _games = hand_worked_season(app, world.club)
    for _ in range(season_standings.GAMES_PER_PAGE):
        play(app, world.club, ("Ana", "Ben"), [("Ana", {"Ben": 1})] * 2, ids)
    url = f"/clubs/{world.club}/seasons/{season_id}"
    first = text(as_(client, app, world, "viewer").get(url))
    assert "Page 1 of 2" in first and "Older" in first
    second = text(client.get(url + "?page=2"))
    assert "Page 2 of 2" in second and "Newer" in second
    assert client.get(url + "?page=999").status_code == 200


# Moving a game ---------------------------------------------------------------------------------


def test_a_scorer_moves_a_game_to_another_season(app, client, world):
    season_id, _ids, games = hand_worked_season(app, world.club)
    other = make_season(app, world.club, "Friendlies", starts_on=date(2020, 1, 1),
                        ends_on=date(2020, 1, 2))  # fmt: skip
    page = as_(client, app, world, "scorer").get(f"/clubs/{world.club}/seasons/{season_id}")
    assert "Move to another season" in text(page)
    response = client.post(
        f"/clubs/{world.club}/seasons/{season_id}/games/{games[2]}/move",
        data={"season_id": str(other)},
    )
    assert response.status_code == 302
    assert response.headers["Location"].endswith(f"/clubs/{world.club}/seasons/{season_id}")
    assert "The game now counts for Friendlies." in flashes(client)
    assert season_of(app, games[2]) == other
    # Game 3 is gone from the table: Cy 1 + 1.5 = 2.5; Ben 2 + 3 = 5; Ana 4.5; Di 0.
    words = text(client.get(f"/clubs/{world.club}/seasons/{season_id}"))
    assert re.search(r"1 Ben 2 1 5 .*2 Ana 2 1 4.5 .*3 Cy 2 0 2.5", words)


def test_moving_to_no_season_or_another_clubs_season_is_refused(app, client, world):
    season_id, _ids, games = hand_worked_season(app, world.club)
    theirs = make_season(app, world.other_club, "Theirs")
    url = f"/clubs/{world.club}/seasons/{season_id}/games/{games[0]}/move"
    for data in ({}, {"season_id": str(theirs)}, {"season_id": str(season_id)}):
        response = as_(client, app, world, "owner").post(url, data=data)
        assert response.status_code == 302
        assert "Choose the season to move the game to." in flashes(client)
        assert season_of(app, games[0]) == season_id


# The chart and the print view ------------------------------------------------------------------


def test_the_chart_is_an_svg_drawn_once_per_season_data_version(app, client, world, renders):
    season_id, ids, _games = hand_worked_season(app, world.club)
    url = f"/clubs/{world.club}/seasons/{season_id}/chart.svg"
    as_(client, app, world, "viewer")
    first = client.get(url)
    assert first.status_code == 200 and first.mimetype == "image/svg+xml"
    assert b"<title>Standings after each club night or day of play</title>" in first.data
    assert b"Ben (6)" in first.data  # the legend: leader first, with the final figure
    again = client.get(url)
    assert again.data == first.data and renders == ["season_chart"]
    assert client.get(url, headers={"If-None-Match": first.headers["ETag"]}).status_code == 304
    # A new finished game is a new data version: a new chart.
    play(app, world.club, ("Di", "Ana"), [("Di", {"Ana": 9})] * 2, ids)
    changed = client.get(url)
    assert changed.data != first.data and renders == ["season_chart"] * 2


def test_the_print_view_holds_the_standings_on_one_black_and_white_page(app, client, world):
    season_id, _ids, _games = hand_worked_season(app, world.club)
    response = as_(client, app, world, "viewer").get(
        f"/clubs/{world.club}/seasons/{season_id}/print"
    )
    page = response.get_data(as_text=True)
    words = text(response)
    assert response.status_code == 200
    assert "css/print.css" in page and "css/seasons.css" in page
    assert 'class="print-page"' in page and "site-header" not in page
    assert "Thursday Trains · Autumn" in words
    assert re.search(r"1 Ben 3 1 6 .*2 Cy 3 1 5.5 .*3 Ana 2 1 4.5 .*4 Di 3 0 0", words)
    assert "Computed from 3 finished games, played on 2 club nights." in words
    assert 'class="no-print"' in page


def test_a_rename_a_merge_or_a_moved_game_draws_a_new_chart(app, client, world):
    season_id, ids, games = hand_worked_season(app, world.club)
    url = f"/clubs/{world.club}/seasons/{season_id}/chart.svg"
    as_(client, app, world, "owner")
    seen = [client.get(url).data]
    with app.app_context():
        from scorekeeper.models import Club
        from scorekeeper.services import roster as roster_service

        club = db.session.get(Club, world.club)
        roster_service.update_roster_player(
            roster_service.roster_entry(club, ids["Ben"]), "Benedict", None
        )
    seen.append(client.get(url).data)
    assert b"Benedict (6)" in seen[-1]
    other = make_season(app, world.club, "Friendlies", starts_on=date(2020, 1, 1),
                        ends_on=date(2020, 1, 2))  # fmt: skip
    client.post(
        f"/clubs/{world.club}/seasons/{season_id}/games/{games[2]}/move",
        data={"season_id": str(other)},
    )
    seen.append(client.get(url).data)
    # Without game 3: Ben 2 + 3 = 5 points.
    assert b"Benedict (5)" in seen[-1]
    assert len(set(seen)) == 3


def test_delete_the_season_comes_after_the_standings_and_the_games(app, client, world):
    season_id, _ids, _games = hand_worked_season(app, world.club)
    page = unescape(
        as_(client, app, world, "owner")
        .get(f"/clubs/{world.club}/seasons/{season_id}")
        .get_data(as_text=True)
    )
    delete = page.index(">Delete the season<")
    assert page.index('id="standings-heading"') < delete
    assert page.index('id="games-heading"') < delete
