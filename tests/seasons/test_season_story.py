"""The season's story (issue 34) on the hand-worked season of helpers.py plus one game: the
figures the service reads, the season page and its print showing them with how each was worked
out, and the players' race charts.

The hand-worked season, and game 5 (today, after game 3): Cy, Ben, Di; Cy goes out in both
rounds, Ben holds 4 and Di 6 each time -> Cy 0, Ben 8, Di 12: Cy 1st, Ben 2nd, Di 3rd.

Counted games in the order played: G1 (night, Ana wins), G2 (night, Ben), G3 (today, Cy),
G5 (today, Cy). G4 is in play: attendance only.
- games / wins / zero rounds: Ana 2/1/1 (G1 r1); Ben 4/1/3 (G1 r2, G2 r1, G2 r2);
  Cy 4/2/3 (G3 r1, G5 r1, G5 r2); Di 4/0/0.
- longest run of wins: Ana W L -> 1; Ben L W L L -> 1; Cy L L W W -> 2 (today); Di 0.
- lowest game total: Ben's 0 in G2 and Cy's 0 in G5: the earlier, Ben's (2 rounds, a week ago).
- best round (score below the others' average): G1 r1 Ana 0 vs 35/3; G1 r2 Ben 0 vs 11;
  G2 r1 Ben 0 vs 50/3 = 16.67 (the best); G2 r2 Ben 0 vs 40/3; G3 r1 Cy 0 vs 22/3;
  G3 r2 Gus the guest went out (not a roster player); G5 Cy 0 vs 5.
- places after each night (placement points): the night a week ago Ben 5, Ana 4.5, Cy 2.5,
  Di 0 -> Ben 1, Ana 2, Cy 3, Di 4; today Cy 2.5 + 3 + 2 = 7.5, Ben 5 + 1 + 1 = 7, Ana 4.5,
  Di 0 -> Cy 1, Ben 2, Ana 3, Di 4.
- attendance per night: a week ago 4 players, no guest, 2 games; today 4 players (Ana at G4),
  1 guest (Gus), 3 games (G3, G4, G5).
"""

from __future__ import annotations

import re
from datetime import timedelta
from fractions import Fraction

from clubs.helpers import as_

from scorekeeper.extensions import db
from scorekeeper.models import Club, Season
from scorekeeper.services import ratings as rating_service
from scorekeeper.services import season_standings, season_story
from scorekeeper.services import seasons as season_service

from .helpers import TODAY, hand_worked_season, play
from .test_season_views import text


def story_season(app, club_id):
    season_id, ids, games = hand_worked_season(app, club_id)
    cy_twice = [("Cy", {"Ben": 4, "Di": 6}), ("Cy", {"Ben": 4, "Di": 6})]
    games.append(play(app, club_id, ("Cy", "Ben", "Di"), cy_twice, ids))
    return season_id, ids, games


def story_of(app, season_id):
    with app.app_context():
        season = db.session.get(Season, season_id)
        club = db.session.get(Club, season.club_id)
        return season_story.story(season, club, season_standings.standings(season))


def test_each_players_games_wins_zero_rounds_and_longest_run(app, world):
    season_id, ids, _games = story_season(app, world.club)
    story = story_of(app, season_id)
    lines = [
        (p.name, p.games, p.wins, p.zero_rounds, p.longest_run) for p in story.players.values()
    ]
    # In the standings' order: Cy 7.5, Ben 7, Ana 4.5, Di 0.
    assert lines == [
        ("Cy", 4, 2, 3, 2),
        ("Ben", 4, 1, 3, 1),
        ("Ana", 2, 1, 1, 1),
        ("Di", 4, 0, 0, 0),
    ]


def test_each_players_race_is_their_place_after_each_night(app, world):
    season_id, ids, _games = story_season(app, world.club)
    with app.app_context():
        season = db.session.get(Season, season_id)
        races = season_standings.places_by_night(season)
        cy = season_story.race(season, ids["Cy"])
        nobody = season_story.race(season, 99999)
    assert races.nights == [TODAY - timedelta(days=7), TODAY]
    assert races.places == {
        ids["Ben"]: [1, 2],
        ids["Ana"]: [2, 3],
        ids["Cy"]: [3, 1],
        ids["Di"]: [4, 4],
    }
    assert races.ranked == 4
    assert cy == season_story.Race("Cy", [3, 1], 2, 4)
    assert nobody is None


def test_the_season_records_lowest_total_best_round_and_longest_run(app, world):
    season_id, ids, games = story_season(app, world.club)
    story = story_of(app, season_id)
    week_ago = TODAY - timedelta(days=7)
    low = story.lowest_total
    assert low is not None
    assert (low.name, low.total, low.rounds, low.game_id, low.played_on) == (
        "Ben",
        0,
        2,
        games[1],
        week_ago,
    )
    best = story.best_round
    assert best is not None
    assert (best.name, best.score, best.number, best.game_id, best.played_on) == (
        "Ben",
        0,
        1,
        games[1],
        week_ago,
    )
    assert best.others == Fraction(50, 3)
    run = story.longest_run
    assert run is not None and (run.length, run.names, run.first, run.last) == (
        2,
        ["Cy"],
        TODAY,
        TODAY,
    )


def test_attendance_per_night_counts_players_guests_and_games(app, world):
    season_id, _ids, _games = story_season(app, world.club)
    nights = [(n.played_on, n.players, n.guests, n.games) for n in story_of(app, season_id).nights]
    assert nights == [(TODAY - timedelta(days=7), 4, 0, 2), (TODAY, 4, 1, 3)]


def test_the_rating_gains_are_the_biggest_rises_of_the_season(app, world):
    season_id, _ids, _games = story_season(app, world.club)
    story = story_of(app, season_id)
    with app.app_context():
        season = db.session.get(Season, season_id)
        club = db.session.get(Club, world.club)
        changes = rating_service.season_changes(club, season.starts_on, season.ends_on)
    rises = [change for change in changes if change.change > 0]
    assert rises, "someone's rating went up over four games"
    assert story.gains == rises[:3]
    assert story.rating_changes == changes


def test_a_season_without_finished_games_has_no_records(app, world):
    with app.app_context():
        club = db.session.get(Club, world.club)
        season = season_service.create_season(
            club,
            season_service.SeasonInput(
                name="Empty", starts_on=TODAY - timedelta(days=3), ends_on=TODAY
            ),
        ).season
        story = season_story.story(season, club, season_standings.standings(season))
    assert story.players == {} and story.nights == []
    assert story.lowest_total is None and story.best_round is None and story.longest_run is None


# The page and the print ------------------------------------------------------------------------


def test_the_season_page_tells_the_story_with_how_each_line_was_worked_out(app, client, world):
    season_id, ids, games = story_season(app, world.club)
    response = as_(client, app, world, "viewer").get(f"/clubs/{world.club}/seasons/{season_id}")
    page = response.get_data(as_text=True)
    words = text(response)
    assert response.status_code == 200
    assert "The season's story" in words
    assert re.search(r"Lowest game total 2 Ben: 0 points in 2 rounds, ", words)
    assert re.search(
        r"Best round 3 Ben scored 0 in round 1 while the others at the table averaged 16.67, ",
        words,
    )
    assert f'href="/games/{games[1]}"' in page
    assert re.search(r"Longest run of wins 4 Cy: 2 wins in a row, ", words)
    assert re.search(r"Cy 4 2 3 2 .*Ben 4 1 3 1 .*Ana 2 1 1 1 .*Di 4 0 0 0", words)
    # Every line's note is on the page, and each line links to its own.
    for number in range(1, 8):
        assert f'id="story-note-{number}"' in page
        assert f'href="#story-note-{number}"' in page
    assert "Best round: of every round of the counted games" in words
    assert "Race: the player's place in these standings after each club night" in words
    # One race chart per player, named by the season's data version; its alt text says it.
    with app.app_context():
        version = season_standings.data_version(db.session.get(Season, season_id))
    for entry in ids.values():
        assert f"/race/{entry}.svg?v={version}" in page
    assert 'alt="Race chart of Cy: their place after each club night"' in page


def test_the_print_has_every_part_of_the_story(app, client, world):
    season_id, ids, _games = story_season(app, world.club)
    response = as_(client, app, world, "viewer").get(
        f"/clubs/{world.club}/seasons/{season_id}/print"
    )
    page = response.get_data(as_text=True)
    words = text(response)
    assert response.status_code == 200
    # The standings as before, each line with the player's zero rounds, run and race chart.
    assert re.search(r"1 Cy 4 2 7.5 3 2 .*2 Ben 4 1 7 3 1 .*3 Ana 2 1 4.5 1 1 .*4 Di", words)
    for heading in ("Biggest rating gains", "Lowest game total", "Best round"):
        assert heading in words
    assert "Longest run of wins" in words and "Attendance per night" in words
    assert re.search(r": 4 players, 0 guests, 2 games · .*: 4 players, 1 guest, 3 games", words)
    for number in range(1, 8):
        assert f'id="story-note-{number}"' in page
    assert page.count("/race/") == len(ids)
    assert 'loading="lazy"' not in page  # a printer does not scroll down to load them


def test_a_race_chart_is_drawn_once_per_data_version(app, client, world):
    season_id, ids, games = story_season(app, world.club)
    as_(client, app, world, "viewer")
    with app.app_context():
        version = season_standings.data_version(db.session.get(Season, season_id))
    url = f"/clubs/{world.club}/seasons/{season_id}/race/{ids['Cy']}.svg"
    first = client.get(f"{url}?v={version}")
    assert first.status_code == 200 and first.mimetype == "image/svg+xml"
    assert b"<title>Cy</title>" in first.data
    assert "immutable" in first.headers["Cache-Control"]
    # Without the version (or with junk), the current chart, asked again each time.
    for junk in ("", "?v=", "?v=nope", "?v=%C3%A9", "?v=" + "9" * 5000, "?v=a&v=b"):
        again = client.get(url + junk)
        assert again.status_code == 200 and again.data == first.data, junk
        assert "immutable" not in again.headers["Cache-Control"]
    assert client.get(url + "?v=%00").status_code == 400  # the app refuses a NUL anywhere
    assert client.get(url, headers={"If-None-Match": first.headers["ETag"]}).status_code == 304
    # A new game moves the data version: a new URL, a new drawing. Ben beats Cy: Ben 7 + 1 = 8
    # points, Cy 7.5: Cy is 2nd after today.
    ben_out = [("Ben", {"Cy": 30}), ("Ben", {"Cy": 50})]
    play(app, world.club, ("Ben", "Cy"), ben_out, ids)
    with app.app_context():
        newer = season_standings.data_version(db.session.get(Season, season_id))
    assert newer != version
    assert client.get(f"{url}?v={newer}").data != first.data


def test_a_race_chart_of_someone_outside_the_season_is_not_found(app, client, world):
    season_id, ids, _games = story_season(app, world.club)
    as_(client, app, world, "viewer")
    base = f"/clubs/{world.club}/seasons/{season_id}/race"
    assert client.get(f"{base}/99999.svg").status_code == 404
    assert client.get(f"{base}/abc.svg").status_code == 404
    other = as_(client, app, world, "other_owner")
    assert other.get(f"{base}/{ids['Cy']}.svg").status_code == 404


def test_the_story_reads_in_french_spanish_and_hindi(app, client, world):
    season_id, _ids, _games = story_season(app, world.club)
    as_(client, app, world, "viewer")
    url = f"/clubs/{world.club}/seasons/{season_id}"
    said = {
        language: text(client.get(url, headers={"Accept-Language": language}))
        for language in ("fr", "es", "hi")
    }
    assert "L’histoire de la saison" in said["fr"]
    assert "Cy : 2 victoires d’affilée" in said["fr"]
    assert "Ben: 0 puntos en 2 rondas" in said["es"]
    assert "सीज़न की कहानी" in said["hi"]
    for words in said.values():
        assert "The season's story" not in words and "Best round:" not in words
