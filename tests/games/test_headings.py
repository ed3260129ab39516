"""The score sheet's column headings (presenters.abbreviate): at most the letters that fit, all
different, readable (issue 23: 'Carla' and 'Carlos' were both 'Carl')."""

from __future__ import annotations

import pytest

from scorekeeper.games.presenters import abbreviate, heading_letters


def test_the_eight_names_a_newcomer_typed_get_distinct_readable_headings():
    names = ["Ana", "Carla", "Carlos", "Anabel", "María J", "María L", "Bob", "Zoe"]
    assert abbreviate(names, heading_letters(8)) == [
        "Ana", "Cara", "Caro", "Anab", "MarJ", "MarL", "Bob", "Zoe"
    ]  # fmt: skip


@pytest.mark.parametrize(
    "names",
    [
        ["Alexander", "Alexandra", "Alexandre", "Alex"],
        ["Bo", "Bo", "Bob", "Bobby"],
        ["María José", "María Jesús", "María", "Mar"],
        ["Esperanza", "Guadalupe", "Maximiliano", "Bartholomew", "Ana", "Ben", "Cy", "Di"],
    ],
)
@pytest.mark.parametrize("width", [3, 4])
def test_headings_fit_and_are_all_different(names, width):
    short = abbreviate(names, width)
    assert len(set(short)) == len(names)
    assert all(0 < len(s) <= width for s in short)


def test_a_cut_never_makes_an_unfortunate_word():
    assert abbreviate(["Analía", "Ben", "Cy", "Di"], 4)[0] == "Ana"
    assert abbreviate(["Analía", "Ana", "Cy", "Di"], 4)[:2] == ["Anaí", "Ana"]


def test_the_standings_say_nothing_before_the_first_round(client):
    from tests.games.test_views import round_data, start_game

    game_id = start_game(client)
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    standings = page[page.index('id="standings"') :]
    assert "zero round" not in standings and "shared: same total" not in standings
    client.post(f"/games/{game_id}/rounds", data=round_data(1, {1: 12, 2: 3, 3: 8}, out=0))
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "1 zero round" in page[page.index('id="standings"') :]
