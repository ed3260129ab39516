"""The chart builders: valid, deterministic SVG from plain data, for 1 to 14 players."""

import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from itertools import accumulate

import pytest

from scorekeeper.charts import draw

SVG_NS = "{http://www.w3.org/2000/svg}"
ENGINES = [str(n) for n in range(12, -1, -1)]
PLAYERS = ["Ana", "Ben", "Cleo", "Dan"]
ROUNDS = {"Ana": [0, 12, 30], "Ben": [25, 0, 7], "Cleo": [8, 9, 0], "Dan": [40, 3, 11]}


def totals(round_scores):
    return {name: list(accumulate(scores)) for name, scores in round_scores.items()}


def race(names=PLAYERS, rounds=ENGINES, round_scores=ROUNDS, higher_wins=False, title="Race"):
    return draw.race_chart(
        names,
        rounds,
        totals(round_scores),
        higher_wins=higher_wins,
        title=title,
        xlabel="Engine",
        ylabel="Total",
    )


def bars(names=PLAYERS, rounds=ENGINES, round_scores=ROUNDS, title="Rounds"):
    return draw.rounds_chart(
        names, rounds, round_scores, title=title, xlabel="Engine", ylabel="Points"
    )


def text_of(svg: bytes) -> str:
    return " ".join(ET.fromstring(svg).itertext())


def players(count):
    names = [f"Player {n}" for n in range(1, count + 1)]
    return names, {
        name: [(seat * 7 + r * 5) % 31 for r in range(13)] for seat, name in enumerate(names)
    }


@pytest.mark.parametrize("build", [race, bars], ids=["race", "rounds"])
def test_builders_return_svg_with_a_title_and_every_name(build):
    svg = build()
    root = ET.fromstring(svg)
    assert root.tag == SVG_NS + "svg"
    title = root.find(SVG_NS + "title")
    assert title is not None and title.text in ("Race", "Rounds")
    for name in PLAYERS:
        assert name in text_of(svg)


@pytest.mark.parametrize("build", [race, bars], ids=["race", "rounds"])
def test_same_data_gives_the_same_bytes(build):
    assert build() == build()


@pytest.mark.parametrize("build", [race, bars], ids=["race", "rounds"])
def test_a_changed_score_changes_the_chart(build):
    changed = {**ROUNDS, "Ben": [25, 0, 8]}
    assert build() != build(round_scores=changed)


@pytest.mark.parametrize("build", [race, bars], ids=["race", "rounds"])
@pytest.mark.parametrize("count", [1, 2, 5, 8, 14])
def test_one_to_fourteen_players_over_thirteen_rounds(build, count):
    names, round_scores = players(count)
    svg = build(names=names, round_scores=round_scores)
    text = text_of(svg)
    assert all(name in text for name in names)


@pytest.mark.parametrize("build", [race, bars], ids=["race", "rounds"])
def test_a_game_without_rounds_still_draws_its_axes(build):
    svg = build(round_scores={name: [] for name in PLAYERS})
    assert "Ana" in text_of(svg)


def legend_as_read(svg: bytes) -> list[str]:
    """The legend's entries (those ending in a total) in reading order: by rows, then across."""
    entries = [
        (float(text.get("y")), float(text.get("x")), text.text.strip())
        for text in ET.fromstring(svg).iter(SVG_NS + "text")
        if text.text and re.search(r"\(\d+\)$", text.text.strip())
    ]
    return [name for _y, _x, name in sorted(entries)]


def test_race_legend_lists_the_leader_first_with_totals():
    # Totals: Ana 42, Ben 32, Cleo 17, Dan 54; lowest wins.
    assert legend_as_read(race()) == ["Cleo (17)", "Ben (32)", "Ana (42)", "Dan (54)"]
    high = legend_as_read(race(higher_wins=True))
    assert high == ["Dan (54)", "Ana (42)", "Ben (32)", "Cleo (17)"]


@pytest.mark.parametrize("build", [race, bars], ids=["race", "rounds"])
def test_markup_in_names_and_titles_is_escaped(build):
    names = ["Zoë & <Al>", "आरव", "Ben"]
    round_scores = {name: [5, 0] for name in names}
    svg = build(names=names, round_scores=round_scores, **{"title": "Scores <&> totals"})
    root = ET.fromstring(svg)
    assert root.find(SVG_NS + "title").text == "Scores <&> totals"
    assert "Zoë & <Al>" in text_of(svg)
    assert "आरव" in text_of(svg)


@pytest.mark.parametrize("build", [race, bars], ids=["race", "rounds"])
def test_dollar_signs_are_text_not_a_formula(build):
    names = ["Ca$h", "$am $mith", "x$^$"]
    svg = build(names=names, round_scores={name: [3] for name in names}, title="$5 a $game")
    text = text_of(svg)
    assert all(name in text for name in names)
    assert "$5 a $game" in text


def test_long_names_are_shortened():
    long = "Bartholomew-Maximilian of the Long Table"
    names, round_scores = players(8)
    names[0] = long
    round_scores[long] = round_scores.pop("Player 1")
    text = text_of(bars(names=names, round_scores=round_scores))
    assert long not in text
    assert "Bartholomew-Max\u2026" in text


# A 360 px phone shows a chart 326 CSS px wide (the page's 16 px margins and the card's border).
PHONE_WIDTH = 326


def smallest_text_on_a_phone(svg: bytes) -> float:
    """The smallest text of the chart in CSS px, when the picture is shown 326 px wide."""
    root = ET.fromstring(svg)
    width = float(root.get("viewBox").split()[2])
    sizes = [float(size) for size in re.findall(rb'font-size="([\d.]+)px"', svg)]
    assert sizes, "no text sizes found"
    return min(sizes) * PHONE_WIDTH / width


def with_players(count):
    """Positional arguments of race() and bars() for `count` players over 13 rounds."""
    names, round_scores = players(count)
    return names, ENGINES, round_scores


def player_chart():
    return draw.player_chart(
        ["Sep 2026", "Oct 2026", "Nov 2026"],
        [12.5, 8.0, 10.2],
        [12.5, 10.1, 10.2],
        title="Average score per round",
        month_label="That month",
        running_label="Since the first game",
        xlabel="Month",
        ylabel="Points per round",
    )


def season_chart():
    names, _ = players(8)
    return draw.season_chart(
        names,
        ["1 Sep", "8 Sep", "15 Sep"],
        {name: [seat, seat + 1, seat + 3] for seat, name in enumerate(names)},
        [str(seat + 3) for seat in range(8)],
        higher_is_better=True,
        title="Standings after each club night or day of play",
        xlabel="Club night",
        ylabel="Points",
    )


@pytest.mark.parametrize(
    "build",
    [
        lambda: race(*with_players(8)),
        lambda: bars(*with_players(8)),
        lambda: race(*with_players(14)),
        lambda: bars(*with_players(14)),
        player_chart,
        season_chart,
    ],
    ids=["race-8", "rounds-8", "race-14", "rounds-14", "player", "season"],
)
def test_chart_text_is_at_least_12_px_on_a_360_px_phone(build):
    assert smallest_text_on_a_phone(build()) >= 12


def test_a_negative_round_score_extends_the_scale_below_zero():
    # A signed adjustment (a house rule) can take a round below zero.
    text = text_of(bars(round_scores={**ROUNDS, "Ana": [-5, 12, 30]}))
    assert re.search(r"(^|\s)-\d+\b", text)
    assert not re.search(r"(^|\s)-\d+\b", text_of(bars()))


def test_every_player_of_fourteen_has_a_style_of_their_own():
    styles = [draw.style(seat) for seat in range(14)]
    # In grey print: line style and marker together tell players apart.
    assert len({(s["linestyle"], s["marker"]) for s in styles}) == 14
    # In colour, colour and line style do too.
    assert len({(s["color"], s["linestyle"]) for s in styles}) == 14
    assert len({s["color"] for s in styles[:8]}) == 8


def test_importing_the_app_does_not_import_matplotlib():
    code = (
        "import sys; from scorekeeper import create_app; "
        "create_app({'TESTING': True, 'SECRET_KEY': 't', 'SQLALCHEMY_DATABASE_URI': 'sqlite://'}); "
        "assert 'matplotlib' not in sys.modules, 'matplotlib imported at start-up'"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_rating_chart_is_deterministic_svg_with_its_words():
    args = (["1/2/25", "1/9/25", "1/16/25"], [1000, 1043, 1012])
    words = {
        "newcomer": 1000,
        "title": "Rating after each game",
        "xlabel": "Game",
        "ylabel": "Rating",
    }
    first = draw.rating_chart(*args, **words)
    assert first == draw.rating_chart(*args, **words)
    assert first.startswith(b"<?xml") and b"<title>Rating after each game</title>" in first


def test_rating_chart_names_a_day_of_several_games_once():
    """Three games of one evening and one a week later: each date once on the axis."""
    chart = draw.rating_chart(
        ["11/27/26", "11/27/26", "11/27/26", "12/4/26"],
        [1000, 1010, 1020, 1005],
        newcomer=1000,
        title="Rating after each game",
        xlabel="Game",
        ylabel="Rating",
    )
    assert chart.count(b">11/27/26<") == 1
    assert chart.count(b">12/4/26<") == 1
