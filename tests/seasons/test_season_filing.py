"""Filing a club's games under seasons by date, and moving a game by hand.

The rule (services/seasons.py): a game belongs to the latest-starting season whose dates include
the day it was created. Creating a season or changing its dates files again the games of the
affected days that had no season or were where the date rule had put them; a game moved by
hand stays where it was put.
"""

from __future__ import annotations

from datetime import date

import pytest

from scorekeeper.extensions import db
from scorekeeper.models import Club, ClubNight, Season
from scorekeeper.services import seasons as season_service

from .helpers import make_night, make_season, play, roster, season_of, update

ROUNDS = [("Ana", {"Ben": 5}), ("Ana", {"Ben": 5})]


@pytest.fixture
def ids(app, world):
    return roster(app, world.club, "Ana", "Ben")


def game_on(app, world, ids, day: date) -> int:
    return play(app, world.club, ("Ana", "Ben"), ROUNDS, ids, on=day)


def test_a_new_season_files_the_games_played_in_its_dates(app, world, ids):
    before = game_on(app, world, ids, date(2025, 2, 28))
    first = game_on(app, world, ids, date(2025, 3, 1))
    last = game_on(app, world, ids, date(2025, 5, 31))
    after = game_on(app, world, ids, date(2025, 6, 1))
    with app.app_context():
        saved = season_service.create_season(
            db.session.get(Club, world.club),
            season_service.SeasonInput("Spring", date(2025, 3, 1), date(2025, 5, 31)),
        )
        spring = saved.season.id
    assert saved.filed == 2
    # Both ends are included; the days around are not.
    assert [season_of(app, g) for g in (before, first, last, after)] == [None, spring, spring, None]


def test_another_clubs_games_are_never_filed(app, world, ids):
    other_roster = roster(app, world.other_club, "Zed", "Yan")
    theirs = play(
        app, world.other_club, ("Zed", "Yan"), [("Zed", {"Yan": 1})] * 2, other_roster,
        on=date(2025, 4, 1),
    )  # fmt: skip
    make_season(app, world.club, "Spring", starts_on=date(2025, 3, 1), ends_on=date(2025, 5, 31))
    assert season_of(app, theirs) is None


def test_overlapping_seasons_the_latest_starting_takes_the_game(app, world, ids):
    july = game_on(app, world, ids, date(2025, 7, 15))
    march = game_on(app, world, ids, date(2025, 3, 15))
    year = make_season(
        app, world.club, "2025", starts_on=date(2025, 1, 1), ends_on=date(2025, 12, 31)
    )
    assert season_of(app, july) == year
    summer = make_season(
        app, world.club, "Summer", starts_on=date(2025, 6, 1), ends_on=date(2025, 8, 31)
    )
    # The July game followed the date rule: the summer season, starting later, takes it.
    assert (season_of(app, july), season_of(app, march)) == (summer, year)


def test_a_game_moved_by_hand_stays_when_dates_change(app, world, ids):
    july = game_on(app, world, ids, date(2025, 7, 15))
    august = game_on(app, world, ids, date(2025, 8, 15))
    year = make_season(
        app, world.club, "2025", starts_on=date(2025, 1, 1), ends_on=date(2025, 12, 31)
    )
    summer = make_season(
        app, world.club, "Summer", starts_on=date(2025, 6, 1), ends_on=date(2025, 8, 31)
    )
    with app.app_context():
        season_service.move_game(
            db.session.get(Club, world.club), july, db.session.get(Season, year)
        )
    assert season_of(app, july) == year
    # Summer now ends on 31 July: the August game goes back to the year by date, the July game
    # (moved by hand) stays in the year, and moving the end back does not take it either.
    saved = update(app, summer, ends_on=date(2025, 7, 31))
    assert (saved.filed, saved.left) == (0, 1)
    assert (season_of(app, july), season_of(app, august)) == (year, year)
    update(app, summer, ends_on=date(2025, 8, 31))
    assert (season_of(app, july), season_of(app, august)) == (year, summer)


def test_shrinking_a_season_leaves_games_outside_every_season_without_one(app, world, ids):
    may = game_on(app, world, ids, date(2025, 5, 10))
    spring = make_season(
        app, world.club, "Spring", starts_on=date(2025, 3, 1), ends_on=date(2025, 5, 31)
    )
    assert season_of(app, may) == spring
    update(app, spring, ends_on=date(2025, 4, 30))
    assert season_of(app, may) is None


def test_club_nights_are_filed_with_their_games(app, world, ids):
    night = make_night(app, world.club, date(2025, 4, 2))
    spring = make_season(
        app, world.club, "Spring", starts_on=date(2025, 3, 1), ends_on=date(2025, 5, 31)
    )
    with app.app_context():
        assert db.session.get(ClubNight, night).season_id == spring


def test_a_new_game_is_filed_under_todays_season(app, world, ids):
    current = make_season(app, world.club, "Now")
    game = play(app, world.club, ("Ana", "Ben"), ROUNDS, ids)
    assert season_of(app, game) == current


def test_moving_a_game_of_another_club_is_refused(app, world, ids):
    other_roster = roster(app, world.other_club, "Zed", "Yan")
    theirs = play(app, world.other_club, ("Zed", "Yan"), [("Zed", {"Yan": 1})] * 2, other_roster)
    season = make_season(app, world.club)
    with app.app_context():
        with pytest.raises(season_service.SeasonError):
            season_service.move_game(
                db.session.get(Club, world.club), theirs, db.session.get(Season, season)
            )
