"""services.nights: starting a night (by hand, shuffled), its live view, late arrivals."""

from __future__ import annotations

import random
from collections import Counter
from datetime import date, timedelta

import pytest
from sqlalchemy import func, select

from scorekeeper import core
from scorekeeper.extensions import db
from scorekeeper.models import Change, Club, ClubNight, Game, Player, Season
from scorekeeper.services import games as game_service
from scorekeeper.services import nights as night_service
from scorekeeper.services.nights import NightError, Seat
from tests.helpers import load_game

from .helpers import ROSTER, late_flags, record, roster_id, scores, start

THREE_TABLES = [["Ana", "Ben", "Cy"], ["Di", "Eve", "Finn"], ["Gus", "Hana", "Ivy", "Zed"]]


def count(model) -> int:
    return db.session.execute(select(func.count()).select_from(model)).scalar_one()


# Shuffling -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "tables", "sizes"),
    [(9, 3, [3, 3, 3]), (10, 3, [4, 3, 3]), (4, 2, [2, 2]), (17, 3, [6, 6, 5]), (8, 1, [8])],
)
def test_shuffle_balances_the_tables(players, tables, sizes):
    seats = [Seat(f"P{n}") for n in range(players)]
    placed = night_service.shuffle_tables(seats, tables, random.Random(1))
    assert sorted(Counter(s.table for s in placed).values(), reverse=True) == sizes
    assert sorted(s.name for s in placed) == sorted(s.name for s in seats)


def test_shuffle_is_repeatable_with_a_seed():
    seats = [Seat(name) for name in ROSTER]
    first = night_service.shuffle_tables(seats, 3, random.Random(42))
    again = night_service.shuffle_tables(seats, 3, random.Random(42))
    other = night_service.shuffle_tables(seats, 3, random.Random(43))
    assert first == again
    assert first != other


@pytest.mark.parametrize(("players", "tables"), [(5, 3), (1, 1), (17, 2), (3, 0), (30, 13)])
def test_shuffle_refuses_what_cannot_be_seated(players, tables):
    seats = [Seat(f"P{n}") for n in range(players)]
    with pytest.raises(NightError) as caught:
        night_service.shuffle_tables(seats, tables, random.Random(1))
    assert caught.value.problems[0].code in {"night_shuffle_count", "night_tables"}


# Starting a night ------------------------------------------------------------------------------


def test_a_night_by_hand_makes_one_club_game_per_table(app, world):
    night_id, games = start(app, world.club, THREE_TABLES, name="Tuesday league")
    with app.app_context():
        night = db.session.get(ClubNight, night_id)
        assert (night.club_id, night.name, night.played_on) == (
            world.club,
            "Tuesday league",
            date.today(),
        )
        assert len(games) == 3
        for number, (game_id, names) in enumerate(zip(games, THREE_TABLES, strict=True), 1):
            game = load_game(game_id)
            assert (game.club_id, game.club_night_id, game.table_number) == (
                world.club,
                night_id,
                number,
            )
            assert [p.name for p in game.players] == names
            for player in game.players:
                expected = None if player.name == "Zed" else roster_id(app, world.club, player.name)
                assert player.roster_player_id == expected
            assert (game.set_size, game.rounds) == (12, 13)  # the club's defaults


def test_a_seeded_shuffle_seats_everyone_as_shuffle_tables_says(app, world):
    names = [*ROSTER, "Zed"]
    expected = night_service.shuffle_tables([Seat(n) for n in names], 3, random.Random(7))
    night_id, games = start(app, world.club, [names[:4], names[4:7], names[7:]], seed=7)
    with app.app_context():
        seated = {
            player.name: game.table_number
            for game in db.session.execute(
                select(Game).where(Game.club_night_id == night_id)
            ).scalars()
            for player in game.players
        }
    assert seated == {seat.name: seat.table for seat in expected}
    assert sorted(Counter(seated.values()).values()) == [3, 3, 4]


def test_the_night_counts_for_the_season_of_its_date_with_its_rules(app, world):
    day = date(2019, 3, 5)
    with app.app_context():
        season = Season(
            club_id=world.club,
            name="Spring 2019",
            starts_on=date(2019, 3, 1),
            ends_on=date(2019, 5, 31),
            set_size=9,
            rounds=4,
        )
        db.session.add(season)
        db.session.commit()
        season_id = season.id
    night_id, games = start(app, world.club, [["Ana", "Ben"], ["Cy", "Di"]], day=day)
    _other_night, other_games = start(app, world.club, [["Eve", "Finn"]], day=day + timedelta(99))
    with app.app_context():
        assert db.session.get(ClubNight, night_id).season_id == season_id
        game = db.session.get(Game, games[0])
        assert (game.season_id, game.set_size, game.rounds) == (season_id, 9, 4)
        assert db.session.get(Game, other_games[0]).season_id is None


def _refused(app, club_id, seats, tables=3, name="") -> list[str]:
    with app.app_context():
        club = db.session.get(Club, club_id)
        with pytest.raises(NightError) as caught:
            night_service.start_night(
                club, played_on=date.today(), name=name, tables=tables, seats=seats
            )
        assert count(ClubNight) == 0
        assert count(Game) == 0
        return [problem.code for problem in caught.value.problems]


def test_each_table_needs_two_players(app, world):
    seats = [Seat("Ana", table=1), Seat("Ben", table=1), Seat("Cy", table=2), Seat("Di", table=3)]
    with app.app_context():
        club = db.session.get(Club, world.club)
        with pytest.raises(NightError) as caught:
            night_service.start_night(club, played_on=date.today(), name="", tables=3, seats=seats)
    problems = caught.value.problems
    assert [(p.code, p.field) for p in problems] == [
        ("night_table_small", "table-2"),
        ("night_table_small", "table-3"),
    ]
    assert problems[0].message == "Table 2 needs at least 2 players (it has 1)."


def test_a_player_sits_at_one_table_only(app, world):
    ana = roster_id(app, world.club, "Ana")
    seats = [
        Seat("Ana", roster_id=ana, table=1, key="table_1"),
        Seat("Ben", table=1),
        Seat(" ana ", table=2, key="guest_0"),  # typed as a guest: the same person
        Seat("Cy", table=2),
    ]
    assert _refused(app, world.club, seats, tables=2) == ["night_twice"]


@pytest.mark.parametrize(
    ("seats", "tables", "code"),
    [
        ([Seat("Ana", table=1), Seat("Ben")], 1, "night_no_table"),
        ([Seat("Ana", table=1), Seat("Ben", table=4)], 1, "night_table_unknown"),
        ([Seat("Ana", table=1), Seat("Ben", table=1)], 0, "night_tables"),
        ([Seat("Ana", table=1), Seat("Ben", table=1)], 13, "night_tables"),
        ([], 1, "night_nobody"),
        ([Seat("Ana", roster_id=99999, table=1), Seat("Ben", table=1)], 1, "night_not_roster"),
    ],
)
def test_a_night_that_cannot_start_changes_nothing(app, world, seats, tables, code):
    assert _refused(app, world.club, seats, tables=tables) == [code]


def test_a_table_the_rules_refuse_leaves_no_game_behind(app, world):
    crowd = [Seat(f"Guest {n}", table=2) for n in range(15)]  # more than 14 at table 2
    problems = _refused(app, world.club, [Seat("Ana", table=1), Seat("Ben", table=1), *crowd], 2)
    assert problems == ["player_count"]


def test_a_long_night_name_is_refused(app, world):
    seats = [Seat("Ana", table=1), Seat("Ben", table=1)]
    assert _refused(app, world.club, seats, tables=1, name="x" * 81) == ["night_name_long"]


# The night's live view -------------------------------------------------------------------------


def test_the_view_shows_every_table_and_the_version_moves_with_a_round(app, world):
    night_id, games = start(app, world.club, THREE_TABLES)
    with app.app_context():
        night = db.session.get(ClubNight, night_id)
        before = night_service.night_version(night)
        view = night_service.night_view(night)
        assert [t.number for t in view.tables] == [1, 2, 3]
        assert [t.players for t in view.tables] == THREE_TABLES
        assert [t.state.next_engine for t in view.tables] == [12, 12, 12]
        assert view.tables[0].leaders == []
        assert not view.finished
    record(app, games[0], "Ana", Ben=12, Cy=7)
    with app.app_context():
        night = db.session.get(ClubNight, night_id)
        assert night_service.night_version(night) != before
        view = night_service.night_view(night)
        assert view.tables[0].leaders == ["Ana"]
        assert [(line.name, line.total) for line in view.tables[0].state.standings] == [
            ("Ana", 0),
            ("Cy", 7),
            ("Ben", 12),
        ]
        assert view.tables[0].state.next_engine == 11


def test_the_night_is_finished_when_every_table_is(app, world):
    night_id, games = start(app, world.club, [["Ana", "Ben"], ["Cy", "Di"]])
    with app.app_context():
        for game_id in games:
            game_service.end_game(load_game(game_id))
        night = db.session.get(ClubNight, night_id)
        assert night_service.night_view(night).finished
        lines = night_service.nights_of(db.session.get(Club, world.club))
        assert [(line.tables, line.finished) for line in lines] == [(2, 2)]


# Late arrivals ---------------------------------------------------------------------------------

# A hand-worked table: Ana, Ben, Cy and Di play two rounds, then Eve arrives.
#   round 1 (12-12): Ana out 0, Ben 12, Cy 7, Di 4   -> highest 12, average 23/4 = 5.75 -> 6
#   round 2 (11-11): Ben out 0, Ana 5, Cy 20, Di 1   -> highest 20, average 26/4 = 6.5  -> 7
#   (the average rounds half up); zero: 0 and 0.
LATE = {"highest": [12, 20], "average": [6, 7], "zero": [0, 0]}


def _two_rounds(app, world) -> int:
    _night, games = start(app, world.club, [["Ana", "Ben", "Cy", "Di"], ["Finn", "Gus"]])
    record(app, games[0], "Ana", Ben=12, Cy=7, Di=4)
    record(app, games[0], "Ben", Ana=5, Cy=20, Di=1)
    return games[0]


def _set_rule(app, club_id, rule):
    with app.app_context():
        night_service.set_late_rule(db.session.get(Club, club_id), rule)


def _join(app, club_id, game_id, **kw):
    with app.app_context():
        club = db.session.get(Club, club_id)
        game = load_game(game_id)
        player = night_service.add_late_player(club, game, **kw)
        return player.name, player.joined_round


@pytest.mark.parametrize("rule", ["highest", "average", "zero"])
def test_a_late_arrival_scores_the_missed_rounds_by_the_club_rule(app, world, rule):
    game_id = _two_rounds(app, world)
    _set_rule(app, world.club, rule)
    with app.app_context():
        version = db.session.get(Game, game_id).version
    assert _join(app, world.club, game_id, roster_id=roster_id(app, world.club, "Eve")) == (
        "Eve",
        3,
    )
    assert scores(app, game_id)["Eve"] == LATE[rule]
    assert late_flags(app, game_id)["Eve"] == [True, True]
    assert late_flags(app, game_id)["Ana"] == [False, False]
    with app.app_context():
        game = load_game(game_id)
        assert game.version == version + 1
        eve = game.players[-1]
        assert (eve.seat, eve.joined_round, eve.roster_player_id) == (
            4,
            3,
            roster_id(app, world.club, "Eve"),
        )
        assert all(h.pips == 0 for r in game.round_rows for h in r.hands if h.late)
        change = db.session.execute(
            select(Change).where(Change.game_id == game_id, Change.action == "joined late")
        ).scalar_one()
        assert (change.player, change.round_number, change.new_value) == (
            "Eve",
            3,
            f"joined late ({rule})",
        )
        state = game_service.state_of(game)
        totals = {line.name: line.total for line in state.standings}
        assert totals == {"Ana": 5, "Ben": 12, "Cy": 27, "Di": 5, "Eve": sum(LATE[rule])}
        # Eve is a seat like the others from round 3: the opener rotation counts her.
        assert state.next_opener == core.opener(("Ana", "Ben", "Cy", "Di", "Eve"), 3)


def test_after_joining_the_late_arrival_plays_normal_rounds(app, world):
    game_id = _two_rounds(app, world)
    _join(app, world.club, game_id, guest="Zed")
    with app.app_context():
        game = load_game(game_id)
        # check_round wants Zed's hand now: a round without it is refused.
        entry = core.RoundEntry({n: core.HandEntry(pips=3) for n in ("Ben", "Cy", "Di")}, "Ana")
        outcome = game_service.record_round(game, entry)
        assert not outcome.saved
        assert "Zed" in {problem.player for problem in outcome.check.errors}
    record(app, game_id, "Zed", Ana=9, Ben=2, Cy=0, Di=3)
    assert scores(app, game_id)["Zed"] == [12, 20, 0]
    assert late_flags(app, game_id)["Zed"] == [True, True, False]
    with app.app_context():
        game = load_game(game_id)
        line = next(s for s in game_service.state_of(game).standings if s.name == "Zed")
        assert (line.total, line.zero_rounds) == (32, 1)
        assert game.players[-1].roster_player_id is None


def test_editing_an_earlier_round_scores_the_late_hand_again(app, world):
    game_id = _two_rounds(app, world)
    _join(app, world.club, game_id, guest="Zed")
    with app.app_context():
        game = load_game(game_id)
        row = game.round_rows[0]
        # The edit form still shows Zed's line (0): it is left out, the rule decides.
        hands = {"Ana": 0, "Ben": 15, "Cy": 7, "Di": 4, "Zed": 99}
        entry = core.RoundEntry({n: core.HandEntry(pips=v) for n, v in hands.items()}, "Ana")
        outcome = game_service.edit_round(game, 1, entry, round_version=row.version, confirm=True)
        assert outcome.saved, outcome.check.errors
        assert {(c.player, c.old_value, c.new_value) for c in outcome.changes} == {
            ("Ben", "12", "15"),
            ("Zed", "12 (joined late)", "15 (joined late)"),
        }
    assert scores(app, game_id)["Zed"] == [15, 20]
    assert late_flags(app, game_id)["Zed"] == [True, True]


def test_the_rule_a_late_arrival_joined_under_stays_theirs(app, world):
    game_id = _two_rounds(app, world)
    _join(app, world.club, game_id, guest="Zed")  # highest: 12, 20
    _set_rule(app, world.club, "zero")
    with app.app_context():
        game = load_game(game_id)
        row = game.round_rows[1]
        hands = {"Ana": 5, "Ben": 0, "Cy": 21, "Di": 1}
        entry = core.RoundEntry({n: core.HandEntry(pips=v) for n, v in hands.items()}, "Ben")
        assert game_service.edit_round(game, 2, entry, round_version=row.version).saved
        assert game_service.snapshot_of(game).late_rules == (core.LateRule.HIGHEST,)
    assert scores(app, game_id)["Zed"] == [12, 21]


def test_undoing_the_round_before_they_joined_lets_them_play_it(app, world):
    game_id = _two_rounds(app, world)
    _join(app, world.club, game_id, guest="Zed")
    with app.app_context():
        game = load_game(game_id)
        assert game_service.undo_last_round(game) == 2
        game = load_game(game_id)
        assert game.players[-1].joined_round == 2
    record(app, game_id, "Zed", Ana=1, Ben=2, Cy=3, Di=4)
    assert scores(app, game_id)["Zed"] == [12, 0]
    assert late_flags(app, game_id)["Zed"] == [True, False]


def test_a_late_arrival_before_the_first_round_just_joins(app, world):
    _night, games = start(app, world.club, [["Ana", "Ben"]])
    assert _join(app, world.club, games[0], guest="Zed") == ("Zed", 1)
    record(app, games[0], "Zed", Ana=3, Ben=4)
    assert late_flags(app, games[0])["Zed"] == [False]


@pytest.mark.parametrize(
    ("how", "code"),
    [
        ({"guest": "ana"}, "late_seated"),  # the roster's Ana, already at the table
        ({"roster_id": "Ana"}, "late_seated"),
        ({"guest": "  "}, "late_nobody"),
        ({"roster_id": 99999}, "night_not_roster"),
        ({"guest": "x" * 41}, "name_long"),
    ],
)
def test_a_late_arrival_who_cannot_join(app, world, how, code):
    game_id = _two_rounds(app, world)
    if how.get("roster_id") == "Ana":
        how = {"roster_id": roster_id(app, world.club, "Ana")}
    with app.app_context(), pytest.raises(NightError) as caught:
        night_service.add_late_player(db.session.get(Club, world.club), load_game(game_id), **how)
    assert [p.code for p in caught.value.problems] == [code]
    assert scores(app, game_id).keys() == {"Ana", "Ben", "Cy", "Di"}


def test_a_guest_name_the_game_has_is_refused(app, world):
    _night, games = start(app, world.club, [["Ana", "Zed"]])
    with app.app_context(), pytest.raises(NightError) as caught:
        night_service.add_late_player(
            db.session.get(Club, world.club), load_game(games[0]), guest="zed"
        )
    assert [(p.code, p.field) for p in caught.value.problems] == [("name_twice", "name")]


@pytest.mark.parametrize("kind", ["teams", "draw", "finished"])
def test_no_late_arrival_in_a_partnership_draw_or_finished_game(app, world, kind):
    with app.app_context():
        club = db.session.get(Club, world.club)
        if kind == "teams":
            game = game_service.create_game(
                ["Ana", "Ben", "Cy", "Di"],
                core.GameRules(),
                [["Ana", "Cy"], ["Ben", "Di"]],
                club_id=club.id,
            )
        elif kind == "draw":
            game = game_service.create_game(
                ["Ana", "Ben"], core.GameRules(game_type=core.GameType.DRAW), club_id=club.id
            )
        else:
            game = game_service.create_game(["Ana", "Ben"], core.GameRules(), club_id=club.id)
            game_service.end_game(game)
        game = load_game(game.id)
        with pytest.raises(NightError) as caught:
            night_service.add_late_player(club, game, guest="Zed")
        assert [p.code for p in caught.value.problems] == [f"late_{kind}"]
        assert count(Player) == (4 if kind == "teams" else 2)


def test_the_late_rule_must_be_one_of_three(app, world):
    with app.app_context():
        club = db.session.get(Club, world.club)
        with pytest.raises(NightError):
            night_service.set_late_rule(club, "lowest")
        night_service.set_late_rule(club, "average")
        assert db.session.get(Club, world.club).late_rule == "average"


def test_a_round_recorded_from_a_page_loaded_before_a_late_arrival_is_stale(app, world):
    game_id = _two_rounds(app, world)
    with app.app_context():
        stale = load_game(game_id)  # this phone loaded the game ...
        setup = game_service.snapshot_of(stale).setup
        hands = {name: core.HandEntry(pips=0 if name == "Ana" else 2) for name in setup.players}
        entry = core.RoundEntry(hands, out="Ana")
        # ... then another phone seats a late arrival (its own app context: its own session).
        _join(app, world.club, game_id, guest="Zed")
        with pytest.raises(game_service.StaleGame):
            game_service.record_round(stale, entry)
    assert len(scores(app, game_id)["Zed"]) == 2
