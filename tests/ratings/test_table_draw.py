"""Fair tables (services/table_draw.py): every draw seats everyone once at tables of 3 to 8 as
equal as can be, repeats from its seed, and does what its method says; then the night form's
draw, with ratings and the club's last nights."""

from __future__ import annotations

import itertools
import random
import re
from datetime import date

import pytest
from clubs.helpers import as_  # tests/ is on the path
from players.helpers import club_of, make_league

from scorekeeper import core
from scorekeeper.services import games as game_service
from scorekeeper.services import nights as night_service
from scorekeeper.services import table_draw
from scorekeeper.services.nights import NightError
from scorekeeper.services.table_draw import Person, draw, pair


def people(count: int, seed: int = 1) -> list[Person]:
    rng = random.Random(seed)
    return [Person(f"r{i}", rng.randint(600, 1500), f"P{i}") for i in range(count)]


def recent_of(count: int, seed: int = 2) -> set[tuple[str, str]]:
    rng = random.Random(seed)
    return {
        pair(f"r{a}", f"r{b}")
        for a in range(count)
        for b in range(a + 1, count)
        if rng.random() < 0.2
    }


@pytest.mark.parametrize("method", table_draw.METHODS)
@pytest.mark.parametrize(("count", "tables"), [(6, 2), (7, 2), (16, 2), (23, 4), (40, 8), (3, 1)])
def test_everyone_sits_once_at_tables_as_equal_as_can_be(method, count, tables):
    result = draw(people(count), tables, method, 99, recent_of(count))
    seated = [p.key for table in result.tables for p in table.people]
    assert sorted(seated) == sorted(p.key for p in people(count))
    sizes = [len(table.people) for table in result.tables]
    assert len(sizes) == tables and max(sizes) - min(sizes) <= 1
    assert all(3 <= size <= 8 for size in sizes)
    assert [table.number for table in result.tables] == list(range(1, tables + 1))


@pytest.mark.parametrize("method", table_draw.METHODS)
def test_a_seed_repeats_the_draw_and_another_seed_draws_again(method):
    crowd, recent = people(24), recent_of(24)
    first = draw(crowd, 4, method, 1234, recent)
    assert draw(crowd, 4, method, 1234, recent) == first
    others = {
        draw(crowd, 4, method, seed, recent).table_of() == first.table_of() for seed in range(5)
    }
    if method != "top":  # the strongest together: only equal ratings could move
        assert False in others


def test_balanced_tables_are_closer_than_any_random_draw():
    crowd = people(40)
    balanced = draw(crowd, 8, "balanced", 5)
    randoms = [draw(crowd, 8, "random", seed).spread for seed in range(30)]
    assert balanced.spread < min(randoms)
    assert balanced.spread <= 25  # averages of 5 ratings between 600 and 1500


def test_fresh_pairs_has_fewer_repeats_than_random_draws():
    crowd, recent = people(40), recent_of(40)
    fresh = draw(crowd, 8, "fresh", 5, recent)
    randoms = [draw(crowd, 8, "random", seed, recent).repeats for seed in range(30)]
    assert fresh.repeats < min(randoms)
    assert fresh.repeats == sum(table.repeats for table in fresh.tables)


def test_the_top_table_holds_the_strongest():
    crowd = people(17)
    result = draw(crowd, 3, "top", 5)
    assert [len(t.people) for t in result.tables] == [6, 6, 5]
    for upper, lower in itertools.pairwise(result.tables):
        assert upper.low >= lower.high
    assert {p.key for p in result.tables[0].people} == {
        p.key for p in sorted(crowd, key=lambda p: -p.skill)[:6]
    }


@pytest.mark.parametrize(("count", "tables"), [(5, 2), (2, 1), (41, 5), (0, 1)])
def test_what_cannot_be_seated_is_refused(count, tables):
    with pytest.raises(NightError) as caught:
        draw(people(count), tables, "balanced", 1)
    assert caught.value.problems[0].code == "draw_count"


def test_an_unknown_method_is_refused():
    with pytest.raises(NightError):
        draw(people(6), 2, "best", 1)


def test_random_is_todays_shuffle():
    crowd = people(13)
    seats = [night_service.Seat(p.name, key=p.key) for p in crowd]
    shuffled = night_service.shuffle_tables(seats, 3, random.Random(77))
    result = draw(crowd, 3, "random", 77)
    assert {p.key: t.number for t in result.tables for p in t.people} == {
        s.key: s.table for s in shuffled
    }


# The night form --------------------------------------------------------------------------------


@pytest.fixture
def league(app):
    return make_league(app)


def form_data(league, method: str, **more: str) -> dict[str, str]:
    data = {
        "played_on": "2025-06-05",
        "tables": "2",
        "guest_rows": "4",
        "draw_method": method,
        "shuffle": "1",
        "guest_0": "Zed",
        "guest_1": "Yan",
    }
    for entry_id in (league.ana, league.ben, league.cy, league.dee):
        data[f"here_{entry_id}"] = "y"
    data.update(more)
    return data


def selected_tables(html: str) -> dict[str, str]:
    return dict(
        re.findall(
            r'name="((?:guest_)?table_\d+)">(?:(?!</select>).)*?<option selected value="(\d+)"',
            html,
            re.S,
        )
    )


def test_the_form_draws_balanced_tables_and_says_why(app, client, league):
    as_(client, app, league.world, "scorer")
    page = client.post(f"/clubs/{league.club}/nights/new", data=form_data(league, "balanced"))
    html = page.get_data(as_text=True)
    assert page.status_code == 200
    seed = re.search(r"Draw number (\d+)", html).group(1)
    assert f'name="seed" type="text" value="{seed}"' in html
    assert "Balanced: the players were spread" in html
    assert len(re.findall(r"average skill \d+", html)) == 2
    chosen = selected_tables(html)
    assert sorted(chosen.values()) == ["1", "1", "1", "2", "2", "2"]
    # The same number gives the same tables; Draw again gives another number.
    same = client.post(
        f"/clubs/{league.club}/nights/new", data=form_data(league, "balanced", seed=seed)
    )
    assert selected_tables(same.get_data(as_text=True)) == chosen
    again = client.post(
        f"/clubs/{league.club}/nights/new",
        data={**form_data(league, "balanced", seed=seed), "draw_again": "1"},
    )
    assert f"Draw number {seed}<" not in again.get_data(as_text=True)
    assert "Draw again" in again.get_data(as_text=True)


def test_balanced_uses_the_ratings_before_the_night(app, client, league):
    with app.app_context():
        seats = [
            night_service.Seat("Ana", league.ana, key="a"),
            night_service.Seat("Ben", league.ben, key="b"),
            night_service.Seat("Cy", league.cy, key="c"),
            night_service.Seat("Dee", league.dee, key="d"),
            night_service.Seat("Zed", None, key="guest_0"),
            night_service.Seat("Yan", None, key="guest_1"),
        ]
        drawn, placed = table_draw.draw_for_night(
            club_of(league.club), date(2025, 6, 5), seats, 2, "balanced", 8
        )
    skills = {p.name: p.skill for t in drawn.tables for p in t.people}
    assert skills["Zed"] == skills["Yan"] == 2000  # guests: a newcomer's skill, mu 25
    assert skills["Ana"] > 2000
    assert {s.name: s.table for s in placed} == {
        p.name: t.number for t in drawn.tables for p in t.people
    }


def test_fresh_pairs_reads_the_club_s_last_nights(app, league):
    with app.app_context():
        club = club_of(league.club)
        seats = [
            night_service.Seat("Ana", league.ana, 1),
            night_service.Seat("Ben", league.ben, 1),
            night_service.Seat("Cy", league.cy, 2),
            night_service.Seat("Dee", league.dee, 2),
        ]
        night = night_service.start_night(
            club, played_on=date(2025, 5, 1), name="", tables=2, seats=seats
        )
        for table in night_service.night_view(night).tables:
            game = table.game
            first, second = table.players
            entry = core.RoundEntry({second: core.HandEntry(pips=9)}, out=first)
            assert game_service.record_round(game, entry).saved
        recent = table_draw.recent_pairs(club, date(2025, 6, 1))
        assert recent == {
            pair(f"r{league.ana}", f"r{league.ben}"),
            pair(f"r{league.cy}", f"r{league.dee}"),
        }
        assert table_draw.recent_pairs(club, date(2025, 5, 1)) == set()  # that night or later


def test_a_night_never_played_puts_nobody_together(app, league):
    """A night started with the wrong people and never played (no round recorded) does not
    count as sitting together; the night played before it still does."""
    with app.app_context():
        club = club_of(league.club)
        played = night_service.start_night(
            club,
            played_on=date(2025, 5, 1),
            name="",
            tables=1,
            seats=[
                night_service.Seat("Ana", league.ana, 1),
                night_service.Seat("Cy", league.cy, 1),
            ],
        )
        game = night_service.night_view(played).tables[0].game
        assert game_service.record_round(
            game, core.RoundEntry({"Cy": core.HandEntry(pips=4)}, out="Ana")
        ).saved
        night_service.start_night(
            club,
            played_on=date(2025, 5, 8),
            name="",
            tables=1,
            seats=[
                night_service.Seat("Ana", league.ana, 1),
                night_service.Seat("Ben", league.ben, 1),
            ],
        )
        assert table_draw.recent_pairs(club, date(2025, 6, 1)) == {
            pair(f"r{league.ana}", f"r{league.cy}")
        }


@pytest.mark.parametrize(
    "junk",
    [
        {"tables": "x"},
        {"tables": "99"},
        {"draw_method": "best"},
        {"seed": "-5"},
        {"seed": "9" * 12},
        {"played_on": "yesterday"},
    ],
)
def test_junk_in_the_draw_never_fails(app, client, league, junk):
    as_(client, app, league.world, "scorer")
    response = client.post(
        f"/clubs/{league.club}/nights/new", data=form_data(league, "fresh", **junk)
    )
    assert response.status_code in (200, 400, 422)


def test_nobody_ticked_is_said(app, client, league):
    as_(client, app, league.world, "scorer")
    data = {
        k: v
        for k, v in form_data(league, "balanced").items()
        if not k.startswith(("here_", "guest_"))
    }
    data["guest_rows"] = "4"
    response = client.post(f"/clubs/{league.club}/nights/new", data=data)
    assert response.status_code == 422
    assert "0 players cannot sit at 2 tables of 3 to 8 players." in response.get_data(as_text=True)
