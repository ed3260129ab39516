"""Season standings end to end: games played through the services, summed in SQL, ranked by
the core; every number below is worked out by hand in helpers.py."""

from __future__ import annotations

from fractions import Fraction

from scorekeeper import core
from scorekeeper.extensions import db
from scorekeeper.models import Club, Season
from scorekeeper.services import games as game_service
from scorekeeper.services import roster as roster_service
from scorekeeper.services import season_standings
from scorekeeper.services import seasons as season_service

from .helpers import TODAY, hand_worked_season, play, roster, update


def table_of(app, season_id):
    with app.app_context():
        season = db.session.get(Season, season_id)
        return season_standings.standings(season)


def rows(standings, figure):
    return [
        (row.line.place, row.name, row.line.games, row.line.wins, figure(row.line))
        for row in standings.lines
    ]


def test_placement_points_by_default_one_point_per_player_finished_ahead_of(app, world):
    season_id, _ids, _games = hand_worked_season(app, world.club)
    table = table_of(app, season_id)
    # Ben 2 + 3 + 1 = 6; Cy 1 + 1.5 + 3 = 5.5; Ana 3 + 1.5 = 4.5; Di 0.
    assert rows(table, lambda line: line.points) == [
        (1, "Ben", 3, 1, 6),
        (2, "Cy", 3, 1, Fraction(11, 2)),
        (3, "Ana", 2, 1, Fraction(9, 2)),
        (4, "Di", 3, 0, 0),
    ]
    # Three finished games on two nights (club night 1, and today); Gus's seat was a guest's;
    # the game in play is not counted.
    assert table.summary == season_standings.Summary(games=3, nights=2, guest_seats=1, uncounted=1)


def test_placement_points_with_the_seasons_table(app, world):
    season_id, _ids, _games = hand_worked_season(app, world.club, points_table="5, 3, 1")
    table = table_of(app, season_id)
    # Ben 3 + 5 + 1 = 9; Cy 1 + (3 + 1) / 2 + 5 = 8; Ana 5 + 2 = 7; Di 0 (4th is past the table).
    assert rows(table, lambda line: line.points) == [
        (1, "Ben", 3, 1, 9),
        (2, "Cy", 3, 1, 8),
        (3, "Ana", 2, 1, 7),
        (4, "Di", 3, 0, 0),
    ]
    assert table.table == (5, 3, 1)


def test_games_won_ties_broken_by_the_lower_average_per_round(app, world):
    season_id, _ids, _games = hand_worked_season(app, world.club, method="games_won")
    table = table_of(app, season_id)
    # One win each for Ben, Ana and Cy: averages 21/6 = 3.5, 18/4 = 4.5, 36/6 = 6; Di no win.
    assert rows(table, lambda line: line.average) == [
        (1, "Ben", 3, 1, Fraction(7, 2)),
        (2, "Ana", 2, 1, Fraction(9, 2)),
        (3, "Cy", 3, 1, Fraction(6)),
        (4, "Di", 3, 0, Fraction(62, 3)),
    ]


def test_average_per_round_with_a_minimum_of_games(app, world):
    season_id, _ids, _games = hand_worked_season(app, world.club, method="average", min_games=3)
    table = table_of(app, season_id)
    # Ana played 2 of the 3 games needed: listed after the ranked players, not ranked.
    assert rows(table, lambda line: line.average) == [
        (1, "Ben", 3, 1, Fraction(7, 2)),
        (2, "Cy", 3, 1, Fraction(6)),
        (3, "Di", 3, 0, Fraction(62, 3)),
        (None, "Ana", 2, 1, Fraction(9, 2)),
    ]
    assert [row.line.qualified for row in table.lines] == [True, True, True, False]
    update(app, season_id, min_games=2)
    assert [row.name for row in table_of(app, season_id).lines] == ["Ben", "Ana", "Cy", "Di"]


def test_attendance_counts_every_game_and_night_of_the_season(app, world):
    season_id, _ids, _games = hand_worked_season(app, world.club)
    with app.app_context():
        lines = season_standings.attendance(db.session.get(Season, season_id))
    # Di also sits at the game in play; guests are not listed.
    assert [(a.name, a.nights, a.games) for a in lines] == [
        ("Di", 2, 4),
        ("Ana", 2, 3),
        ("Ben", 2, 3),
        ("Cy", 2, 3),
    ]


def test_merged_roster_entries_count_under_the_entry_kept(app, world):
    season_id, ids, _games = hand_worked_season(app, world.club)
    # "Benny" is Ben entered a second time: he won a game under that entry.
    benny = roster(app, world.club, "Benny")
    four = ("Benny", "Ana", "Cy", "Di")
    play(
        app,
        world.club,
        four,
        [("Benny", {"Ana": 1, "Cy": 2, "Di": 3}), ("Benny", {"Ana": 1, "Cy": 2, "Di": 3})],
        {**ids, **benny},
    )
    before = {row.name: row.line for row in table_of(app, season_id).lines}
    assert before["Benny"].games == 1 and before["Ben"].games == 3
    with app.app_context():
        club = db.session.get(Club, world.club)
        keep = roster_service.roster_entry(club, ids["Ben"])
        drop = roster_service.roster_entry(club, benny["Benny"])
        roster_service.merge_roster_players(keep, drop)
    after = {row.name: row.line for row in table_of(app, season_id).lines}
    assert "Benny" not in after
    # Ben: 6 + 3 (1st of 4 in Benny's game) = 9 points, 4 games, 2 wins.
    assert (after["Ben"].games, after["Ben"].wins, after["Ben"].points) == (4, 2, 9)


def test_a_renamed_roster_player_shows_under_the_new_name(app, world):
    season_id, ids, _games = hand_worked_season(app, world.club)
    with app.app_context():
        club = db.session.get(Club, world.club)
        roster_service.update_roster_player(
            roster_service.roster_entry(club, ids["Di"]), "Diana", None
        )
    assert [row.name for row in table_of(app, season_id).lines][-1] == "Diana"


def test_draw_games_and_other_seasons_games_are_not_counted(app, world):
    season_id, ids, _games = hand_worked_season(app, world.club)
    other = season_service_create(app, world.club, "Other")
    # A finished game filed under the other season by hand counts there, not here.
    play(
        app,
        world.club,
        ("Di", "Ana"),
        [("Di", {"Ana": 50}), ("Di", {"Ana": 50})],
        ids,
        season=other,
    )
    # A draw game of the season, ended at once: finished, but scored the other way round.
    with app.app_context():
        draw = game_service.create_game(
            ["Ana", "Ben"],
            core.GameRules(game_type=core.GameType.DRAW),
            club_id=world.club,
            roster_ids=[ids["Ana"], ids["Ben"]],
        )
        game_service.end_game(draw)
        assert draw.season_id == season_id and draw.finished_at is not None
    summary = table_of(app, season_id).summary
    assert (summary.games, summary.uncounted) == (3, 2)
    other_table = table_of(app, other)
    assert [(row.name, row.line.points) for row in other_table.lines] == [("Di", 1), ("Ana", 0)]


def season_service_create(app, club_id, name):
    with app.app_context():
        club = db.session.get(Club, club_id)
        # Dates far in the past: it files none of today's games by date.
        start = TODAY.replace(year=TODAY.year - 5)
        saved = season_service.create_season(
            club, season_service.SeasonInput(name=name, starts_on=start, ends_on=start)
        )
        return saved.season.id
