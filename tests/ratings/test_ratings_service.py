"""The club's ratings against openskill called directly on the same games: the hand-worked
league (ties, a guest, an ended game, a draw game, unfinished games), partnerships, a late
arrival, and after a correction, a deletion, a reopened game, a merge and an import."""

from __future__ import annotations

import json
import random
from datetime import date, datetime

import pytest
from clubs.helpers import add_roster
from openskill.models import PlackettLuce
from players.helpers import club_of, entry, game, make_league, play  # tests/ is on the path

from scorekeeper import core
from scorekeeper.extensions import db
from scorekeeper.models import RosterPlayer, User
from scorekeeper.services import export_json, importer, removals, roster
from scorekeeper.services import games as game_service
from scorekeeper.services import nights as night_service
from scorekeeper.services import ratings as rating_service
from tests.helpers import bench_module

# The league's counted games as places, in the order played (g6 is unfinished, g7 ended before
# its first round: neither counts; Gus is a guest).
LEAGUE = [
    {"Ana": 1, "Ben": 2, "Cy": 3},
    {"Ana": 1, "Ben": 1, "Dee": 3},
    {"Ana": 3, "Cy": 2, "Gus": 1},
    {"Ana": 1, "Ben": 2},
    {"Ana": 1, "Ben": 2},
]
GUESTS = {"Gus"}


def openskill_direct(games: list[dict[str, int]], teams: dict[int, list[list[str]]] | None = None):
    """(mu, sigma) per name, rating the games in order with openskill itself; guests new each
    time. `teams[i]` makes game i a partnership game (its places are per team, first name)."""
    model = PlackettLuce()
    ratings = {}
    for index, places in enumerate(games):
        groups = (teams or {}).get(index) or [[name] for name in places]
        rated = model.rate(
            [
                [model.rating() if n in GUESTS else ratings.get(n, model.rating()) for n in g]
                for g in groups
            ],
            ranks=[places[group[0]] for group in groups],
        )
        for group, result in zip(groups, rated, strict=True):
            for name, rating in zip(group, result, strict=True):
                if name not in GUESTS:
                    ratings[name] = rating
    return {name: (r.mu, r.sigma) for name, r in ratings.items()}


def app_ratings(club_id: int) -> dict[str, tuple[float, float]]:
    return {
        line.name: (line.mu, line.sigma) for line in rating_service.club_ratings(club_of(club_id))
    }


@pytest.fixture
def league(app):
    league = make_league(app)
    with app.app_context():
        yield league


def test_the_league_is_rated_as_openskill_rates_it(league):
    assert app_ratings(league.club) == openskill_direct(LEAGUE)


def test_lines_rank_games_and_provisional(league):
    lines = rating_service.club_ratings(club_of(league.club))
    assert [line.name for line in lines][0] == "Ana"
    assert {line.name: line.games for line in lines} == {"Ana": 5, "Ben": 4, "Cy": 2, "Dee": 1}
    assert {line.name: line.provisional for line in lines} == {
        "Ana": False,
        "Ben": True,
        "Cy": True,
        "Dee": True,
    }
    ratings = [line.rating for line in lines]
    assert ratings == sorted(ratings, reverse=True)
    assert [line.rank for line in lines] == [1, 2, 3, 4]
    # Shown rating: 1000 + 40 (mu - 3 sigma), a newcomer at 1000.
    ana = lines[0]
    assert ana.rating == round(1000 + 40 * (ana.mu - 3 * ana.sigma))
    assert rating_service.scaled(25.0, 25 / 3) == 1000


def test_a_corrected_round_is_replayed(league):
    # g1 round 2 corrected: Ana now holds 30, so Ben (10, a zero round) beats Cy (10) and Ana.
    g1 = game(league.games["g1"])
    outcome = game_service.edit_round(g1, 2, entry({"Ana": 30, "Ben": 0, "Cy": 5}, "Ben"))
    assert outcome.saved
    corrected = [{"Ana": 3, "Ben": 1, "Cy": 2}, *LEAGUE[1:]]
    assert app_ratings(league.club) == openskill_direct(corrected)


def test_a_deleted_game_no_longer_counts(league):
    db.session.delete(game(league.games["g3"]))
    db.session.commit()
    assert app_ratings(league.club) == openskill_direct([*LEAGUE[:2], *LEAGUE[3:]])


def test_a_deleted_night_takes_its_games_with_it(league):
    club = club_of(league.club)
    seats = [
        night_service.Seat("Dee", league.dee, 1),
        night_service.Seat("Cy", league.cy, 1),
    ]
    night = night_service.start_night(
        club, played_on=date(2025, 5, 1), name="", tables=1, seats=seats
    )
    (table,) = night_service.night_view(night).tables
    g = table.game
    for round_entry in (entry({"Dee": 0, "Cy": 5}, "Dee"), entry({"Dee": 0, "Cy": 3}, "Dee")):
        assert game_service.record_round(g, round_entry).saved
    game_service.end_game(g)  # the club's rules play 13 rounds: the table ends it after 2
    assert app_ratings(league.club) == openskill_direct([*LEAGUE, {"Dee": 1, "Cy": 2}])
    owner = db.session.get(User, league.world.owner)
    removals.delete_night(club, night, owner, "night")
    assert app_ratings(league.club) == openskill_direct(LEAGUE)


def test_a_reopened_game_no_longer_counts_until_it_ends_again(league):
    g4 = game(league.games["g4"])
    game_service.reopen_game(g4)
    assert app_ratings(league.club) == openskill_direct([*LEAGUE[:3], LEAGUE[4]])
    game_service.end_game(g4)
    assert app_ratings(league.club) == openskill_direct(LEAGUE)


def test_games_count_in_the_order_played_not_entered(league):
    # A game entered now but played before all the others counts first.
    late_entry = play(
        league_app(),
        league.club,
        {"Dee": league.dee, "Cy": league.cy},
        [entry({"Dee": 0, "Cy": 5}, "Dee")],
        end=True,
    )
    row = game(late_entry)
    row.played_on = date(2024, 12, 1)
    db.session.commit()
    assert app_ratings(league.club) == openskill_direct([{"Dee": 1, "Cy": 2}, *LEAGUE])


def league_app():
    from flask import current_app

    return current_app._get_current_object()  # type: ignore[attr-defined]


def test_partners_are_one_team_with_their_teams_place(league):
    # Teams Ana & Cy against Ben & Dee: Ana goes out each round, so Ana & Cy win as a team
    # even though Cy alone holds the most pips (Cy's own place is 4th).
    rounds = [
        entry({"Ana": 0, "Ben": 3, "Cy": 9, "Dee": 2}, "Ana"),
        entry({"Ana": 0, "Ben": 4, "Cy": 8, "Dee": 1}, "Ana"),
    ]
    seats = {"Ana": league.ana, "Ben": league.ben, "Cy": league.cy, "Dee": league.dee}
    g = game_service.create_game(
        list(seats),
        core.GameRules(rounds=2),
        [("Ana", "Cy"), ("Ben", "Dee")],
        club_id=league.club,
        roster_ids=list(seats.values()),
    )
    for round_entry in rounds:
        assert game_service.record_round(g, round_entry).saved
    assert g.finished_at is not None
    places = {"Ana": 1, "Cy": 1, "Ben": 2, "Dee": 2}
    expected = openskill_direct([*LEAGUE, places], {5: [["Ana", "Cy"], ["Ben", "Dee"]]})
    assert app_ratings(league.club) == expected


def test_a_late_arrival_is_rated_like_anyone_at_the_table(league):
    g = game_service.create_game(
        ["Ben", "Dee"],
        core.GameRules(rounds=2),
        club_id=league.club,
        roster_ids=[league.ben, league.dee],
    )
    assert game_service.record_round(g, entry({"Ben": 0, "Dee": 20}, "Ben")).saved
    game_service.join_late(g, "Cy", core.LateRule.ZERO, roster_id=league.cy)
    assert game_service.record_round(g, entry({"Ben": 5, "Dee": 0, "Cy": 1}, "Dee")).saved
    places = {p.name: p.place for p in game(g.id).players}
    assert places == {"Cy": 1, "Ben": 2, "Dee": 3}  # Cy's missed round scored 0: 0 + 1
    assert app_ratings(league.club) == openskill_direct([*LEAGUE, places])


def test_a_merged_entry_is_one_player(league):
    (dup,) = add_roster(league_app(), league.club, "Cyrus")
    play(
        league_app(),
        league.club,
        {"Cyrus": dup, "Dee": league.dee},
        [entry({"Cyrus": 0, "Dee": 5}, "Cyrus")],
        finished_at=datetime(2025, 4, 1, 20),
        end=True,
    )
    keep, drop = db.session.get(RosterPlayer, league.cy), db.session.get(RosterPlayer, dup)
    roster.merge_roster_players(keep, drop)
    assert app_ratings(league.club) == openskill_direct([*LEAGUE, {"Cy": 1, "Dee": 2}])


def test_an_imported_club_has_the_same_ratings(league):
    before = app_ratings(league.club)
    data = export_json.export_club_json(league.club)
    club = club_of(league.club)
    # Tokens are unique on an instance: the club goes before its export comes back.
    removals.delete_club(club, db.session.get(User, league.world.owner), club.name)
    copy = importer.import_club(data).club
    assert copy.id != league.club
    assert app_ratings(copy.id) == before == openskill_direct(LEAGUE)


def test_player_rating_history_best_and_worst(league):
    rated = rating_service.player_rating(club_of(league.club), league.ana)
    assert rated.games == 5
    assert [step.game_id for step in rated.steps] == [
        league.games[g] for g in ("g1", "g2", "g3", "g4", "g5")
    ]
    assert rated.worst is not None and rated.worst.game_id == league.games["g3"]
    assert rated.best is not None and rated.best.change == max(s.change for s in rated.steps)
    assert rated.rating == rated.steps[-1].rating
    nobody = rating_service.player_rating(club_of(league.club), 999999)
    assert (nobody.games, nobody.rating, nobody.best, nobody.worst) == (0, 1000, None, None)


def test_season_changes_between_dates(league):
    changes = rating_service.season_changes(
        club_of(league.club), date(2025, 2, 1), date(2025, 3, 31)
    )
    by_id = {change.entry_id: change for change in changes}
    assert set(by_id) == {league.ana, league.ben, league.cy}  # Dee played in January only
    assert [c.change for c in changes] == sorted((c.change for c in changes), reverse=True)
    ana = rating_service.club_replay(club_of(league.club)).steps(league.ana)
    assert by_id[league.ana].start == ana[1].rating  # after g2, the last January game
    assert by_id[league.ana].end == ana[-1].rating
    assert by_id[league.ana].change == ana[-1].rating - ana[1].rating


def test_win_chances_are_openskill_predictions(league):
    replayed = rating_service.club_replay(club_of(league.club))
    chances = rating_service.win_chances(replayed, [[league.ana], [league.dee], [None]])
    model = PlackettLuce()
    direct = openskill_direct(LEAGUE)
    expected = model.predict_win(
        [[model.rating(*direct["Ana"])], [model.rating(*direct["Dee"])], [model.rating()]]
    )
    assert chances == pytest.approx(expected)
    assert sum(chances) == pytest.approx(1.0)
    assert chances[0] > chances[1]


def test_rate_in_place_is_openskill_rate_bit_for_bit():
    """The replay's shortcut (no deep copies) gives exactly the floats rate() gives: ties,
    teams of two, guests, five hundred random matches in a row."""
    rng = random.Random(7)
    model = PlackettLuce()
    mine = {i: model.rating() for i in range(12)}
    theirs = {i: model.rating() for i in range(12)}
    for _ in range(500):
        people = rng.sample(range(12), rng.randint(2, 8))
        size = 2 if len(people) % 2 == 0 and len(people) >= 4 and rng.random() < 0.3 else 1
        groups = [people[i : i + size] for i in range(0, len(people), size)]
        ranks = [rng.randint(1, len(groups)) for _ in groups]
        rating_service.rate_in_place([[mine[p] for p in g] for g in groups], ranks)
        rated = model.rate(
            [[theirs[p] for p in g] for g in groups], ranks=[float(r) for r in ranks]
        )
        for group, result in zip(groups, rated, strict=True):
            for person, rating in zip(group, result, strict=True):
                theirs[person] = rating
    assert {p: (r.mu, r.sigma) for p, r in mine.items()} == {
        p: (r.mu, r.sigma) for p, r in theirs.items()
    }


def test_the_benchmark_runs(tmp_path):
    """bench/ratings.py on a small club, so the script cannot rot (times are not checked)."""
    out = tmp_path / "ratings.json"
    assert bench_module("ratings").main(["--games", "60", "--reps", "1", "--out", str(out)]) == 0
    results = json.loads(out.read_text())
    assert results["games"] == 60 and results["replay_s"] >= 0


def test_change_since_the_last_night(league):
    club = club_of(league.club)
    before = {line.name: line for line in rating_service.club_ratings(club)}
    assert all(line.change is None for line in before.values())  # no night yet
    seats = [night_service.Seat("Ben", league.ben, 1), night_service.Seat("Ana", league.ana, 1)]
    night = night_service.start_night(
        club, played_on=date(2025, 5, 1), name="", tables=1, seats=seats
    )
    (table,) = night_service.night_view(night).tables
    assert game_service.record_round(table.game, entry({"Ben": 0, "Ana": 9}, "Ben")).saved
    game_service.end_game(table.game)
    after = {line.name: line for line in rating_service.club_ratings(club)}
    assert after["Ana"].change == after["Ana"].rating - before["Ana"].rating < 0
    assert after["Ben"].change == after["Ben"].rating - before["Ben"].rating > 0
    assert after["Cy"].change is None and after["Dee"].change is None
