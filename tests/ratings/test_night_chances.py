"""A night's chances read right (issue 34): each chance beside the skill it comes from and the
rating the Ratings page shows, tables ordered by the skill shown, every game finished before
the night counted (earlier the same day too) and the night's own never, and How ratings work
explaining the two numbers."""

from __future__ import annotations

import re

import pytest
from clubs.helpers import as_  # tests/ is on the path
from nights.helpers import record
from players.helpers import TWO_ROUNDS, club_of, entry, make_league, play

from scorekeeper.extensions import db
from scorekeeper.models import Game
from scorekeeper.services import games as game_service
from scorekeeper.services import nights as night_service
from scorekeeper.services import ratings as rating_service


@pytest.fixture
def league(app):
    return make_league(app)


def start_night(app, league, tables, day=None):
    """A night of the league's club: `tables` of (name, roster id or None); its id and games."""
    with app.app_context():
        seats = [
            night_service.Seat(name, roster_id, number)
            for number, table in enumerate(tables, 1)
            for name, roster_id in table
        ]
        night = night_service.start_night(
            club_of(league.club),
            played_on=day or db.session.get(Game, league.games["g5"]).played_on,
            name="",
            tables=len(tables),
            seats=seats,
        )
        games = [table.game.id for table in night_service.night_view(night).tables]
        return night.id, games


def chance_rows(text: str) -> list[list[tuple[str, int, int, int]]]:
    """Each table's rows as shown: (who, skill, rating, chance in %), top to bottom."""
    section = text.split('id="chances-heading"')[1].split("</section>")[0]
    tables = []
    for table in section.split("<tbody>")[1:]:
        rows = re.findall(
            r'<th scope="row" class="who">([^<]+)</th><td class="num skill">(\d+)</td>'
            r'<td class="num meta">(\d+)</td><td class="num"><strong>(\d+)%</strong>',
            table.split("</tbody>")[0],
        )
        tables.append([(who, int(s), int(r), int(c)) for who, s, r, c in rows])
    return tables


def shown_order(text: str, names: list[str]) -> list[tuple[str, int]]:
    """Each name of a table and the first number shown after it, in the page's order."""
    section = text.split("Chances to win")[1].split("</section>")[0]
    found = []
    for name in names:
        at = section.index(f">{name}<")
        found.append((at, name, int(re.search(r"\d{3,4}", section[at + len(name) :]).group())))
    return [(name, number) for _at, name, number in sorted(found)]


def test_a_table_is_ordered_by_the_skill_shown(app, client, league):
    # Ben, Cy and Dee: on ratings (970, 974, 962) their chances ran Dee, Cy, Ben, so the page
    # listed a lower number above a higher one.
    night_id, _games = start_night(
        app,
        league,
        [
            [("Ben", league.ben), ("Cy", league.cy), ("Dee", league.dee)],
            [("Ana", league.ana), ("Zed", None)],
        ],
    )
    text = (
        as_(client, app, league.world, "viewer").get(f"/clubs/{league.club}/nights/{night_id}").text
    )
    for names in (["Ben", "Cy", "Dee"], ["Ana", "Zed"]):
        numbers = [number for _name, number in shown_order(text, names)]
        assert numbers == sorted(numbers, reverse=True), numbers
    first, second = chance_rows(text)
    assert [who for who, *_rest in first] == ["Dee", "Cy", "Ben"]
    with app.app_context():
        replayed = rating_service.club_replay(club_of(league.club))
        for who, skill, rating, _chance in first:
            mu, sigma = replayed.current(getattr(league, who.lower()))
            assert (skill, rating) == (round(1000 + 40 * mu), round(1000 + 40 * (mu - 3 * sigma)))
    # The guest: a new player's skill (mu 25) and rating (mu - 3 sigma = 0).
    assert second[1][:3] == ("Zed", 2000, 1000)
    assert "Skill is how strong a player seems" in text
    assert "Rating is the careful figure on the Ratings page" in text
    assert "earlier the same day included" in text


def test_a_game_finished_earlier_the_same_day_counts_and_the_nights_own_never(app, client, league):
    # Today: Dee beats Ana at lunch, then the evening's night seats them together.
    lunch = play(
        app,
        league.club,
        {"Ana": league.ana, "Dee": league.dee},
        [entry({"Ana": 30, "Dee": 0}, "Dee"), entry({"Ana": 25, "Dee": 0}, "Dee")],
    )
    with app.app_context():
        today = db.session.get(Game, lunch).played_on
        replayed = rating_service.club_replay(club_of(league.club))
        ana, dee = replayed.current(league.ana), replayed.current(league.dee)
        model = rating_service.MODEL
        expected = model.predict_win([[model.rating(*dee)], [model.rating(*ana)]])
    night_id, games = start_night(
        app,
        league,
        [[("Ana", league.ana), ("Dee", league.dee)], [("Cy", league.cy), ("Ben", league.ben)]],
        today,
    )
    viewer = as_(client, app, league.world, "viewer")
    url = f"/clubs/{league.club}/nights/{night_id}"
    before = chance_rows(viewer.get(url).text)
    assert before[0] == [
        (
            "Dee",
            round(1000 + 40 * dee[0]),
            round(1000 + 40 * (dee[0] - 3 * dee[1])),
            round(expected[0] * 100),
        ),
        (
            "Ana",
            round(1000 + 40 * ana[0]),
            round(1000 + 40 * (ana[0] - 3 * ana[1])),
            round(expected[1] * 100),
        ),
    ]
    # The night's first table finishes (Ana wins it): a reload shows the same chances.
    record(app, games[0], "Ana", Dee=40)
    with app.app_context():
        game_service.end_game(db.session.get(Game, games[0]))
    page = viewer.get(url)
    assert page.status_code == 200
    assert chance_rows(page.text) == before


def test_a_game_of_the_day_finished_during_the_night_moves_its_chances(app, client, league):
    # Started at lunch, one round played; the night begins; the lunch game ends at 7 pm.
    with app.app_context():
        lunch = game_service.create_game(
            ["Ana", "Dee"],
            TWO_ROUNDS,
            club_id=league.club,
            roster_ids=[league.ana, league.dee],
        )
        lunch_id, today = lunch.id, lunch.played_on
    record(app, lunch_id, "Dee", Ana=30)
    night_id, _games = start_night(
        app,
        league,
        [[("Ana", league.ana), ("Dee", league.dee)], [("Cy", league.cy), ("Ben", league.ben)]],
        today,
    )
    viewer = as_(client, app, league.world, "viewer")
    url = f"/clubs/{league.club}/nights/{night_id}"
    first = viewer.get(url)
    etag = first.headers["ETag"]
    assert viewer.get(url, headers={"If-None-Match": etag}).status_code == 304
    record(app, lunch_id, "Dee", Ana=25)  # its second and last round: it is finished
    again = viewer.get(url, headers={"If-None-Match": etag})
    assert again.status_code == 200
    with app.app_context():
        assert db.session.get(Game, lunch_id).finished_at is not None
        dee = rating_service.club_replay(club_of(league.club)).current(league.dee)
    assert chance_rows(again.text)[0][0][:2] == ("Dee", round(1000 + 40 * dee[0]))
    assert chance_rows(again.text) != chance_rows(first.text)


def test_how_ratings_work_explains_the_two_numbers(app, client, league):
    text = as_(client, app, league.world, "viewer").get(f"/clubs/{league.club}/ratings/how").text
    two = text.split('id="two-numbers">')[1].split("</p>")[0]
    assert (
        "Behind each rating are two numbers: skill, how strong a player seems (openskill's mu, "
        "shown as 1000 + 40 × mu), and doubt, how unsure that is (40 × sigma); a new player has "
        "skill 2000 and doubt 333."
    ) in two
    assert (
        "The rating is the careful figure, skill minus three times the doubt, so a new player "
        "starts at 1000 and the rating rises as the app grows surer of a player."
    ) in two
    assert "A night's chances to win come from skill and doubt" in two
    assert "earlier the same day included" in text
