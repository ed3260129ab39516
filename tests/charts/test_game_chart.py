"""A game's charts: drawn once per version, language and wording, then read from the cache."""

import xml.etree.ElementTree as ET

import pytest

from scorekeeper import core
from scorekeeper.charts import game as game_chart
from scorekeeper.charts.text import ChartText
from scorekeeper.services import games as game_service
from tests.helpers import load_game

from .helpers import DEVICE, PLAYERS, chart_files, make_game, play


def test_first_call_draws_and_the_second_reads_the_file(app, renders):
    with app.app_context():
        game = make_game()
        svg, etag = game_chart.chart_svg(game, "race")
        again, same_etag = game_chart.chart_svg(game, "race")
        name = game_chart.file_name(game, "race", ChartText())
    assert renders == ["race_chart"]
    assert (again, same_etag) == (svg, etag)
    ET.fromstring(svg)
    assert b"Ana" in svg
    assert chart_files(app) == [name]


def test_a_new_round_gives_new_bytes_a_new_etag_and_drops_the_old_file(app, renders):
    with app.app_context():
        game = make_game()
        race, race_etag = game_chart.chart_svg(game, "race")
        rounds, _ = game_chart.chart_svg(game, "rounds")
        old_race = game_chart.file_name(game, "race", ChartText())
        old_version = game.version
        play(game, 7)
        game = load_game(game.id)
        assert game.version == old_version + 1
        new_race, new_etag = game_chart.chart_svg(game, "race")
        new_name = game_chart.file_name(game, "race", ChartText())
    assert renders == ["race_chart", "rounds_chart", "race_chart"]
    assert new_race != race
    assert new_etag != race_etag
    files = chart_files(app)
    assert old_race not in files
    assert new_name in files
    # The rounds chart of the old version stays until a rounds chart of a newer one is drawn.
    assert len([n for n in files if "-rounds-" in n]) == 1
    assert rounds


def test_an_old_version_asked_late_does_not_delete_the_newer_chart(app):
    """A slow worker still holding the previous version draws it, but leaves the new file."""
    with app.app_context():
        old = make_game()
        play(old, 3)
        new = load_game(old.id)
        game_chart.chart_svg(new, "race")
        newer_name = game_chart.file_name(new, "race", ChartText())
        game_chart.chart_svg(
            game_service.GameRef(old.id, new.version - 1, old.view_token, None), "race"
        )
    assert newer_name in chart_files(app)


def test_each_language_has_its_own_chart(app):
    with app.app_context():
        game = make_game()
    # Words given, not looked up: flask-babel keeps a catalogue per language for the whole
    # process, and tests/test_i18n.py needs French to be first looked up with its own.
    with app.test_request_context(headers={"Accept-Language": "fr"}):
        game = load_game(game.id)
        french = game_chart.file_name(game, "race", ChartText())
        game_chart.chart_svg(game, "race", ChartText())
    with app.test_request_context(headers={"Accept-Language": "en"}):
        english = game_chart.file_name(game, "race", ChartText())
    assert "-fr-" in french and "-en-" in english
    assert chart_files(app) == [french]


def test_new_wording_is_a_new_chart(app):
    with app.app_context():
        game = make_game()
        plain, _ = game_chart.chart_svg(game, "race")
        worded, _ = game_chart.chart_svg(game, "race", ChartText(total="Somme"))
    assert plain != worded
    assert b"Somme" in worded


def test_draw_game_charts_number_the_hands(app):
    rules = core.GameRules(game_type=core.GameType.DRAW)
    with app.app_context():
        game = game_service.create_game(PLAYERS[:3], rules, device=DEVICE)
        game = load_game(game.id)
        play(game)
        game = load_game(game.id)
        svg, _ = game_chart.chart_svg(game, "race", ChartText(hand="Hand"))
    assert b"Hand" in svg


def test_unknown_kind_is_an_error(app):
    with app.app_context():
        game = make_game(rounds=0)
        with pytest.raises(ValueError):
            game_chart.chart_svg(game, "pie")


def test_a_new_drawing_style_is_a_new_file(app, monkeypatch):
    """A chart cached before a change of look is never served after it."""
    with app.app_context():
        game = make_game()
        before = game_chart.file_name(game, "race", ChartText())
        monkeypatch.setattr(game_chart.draw, "STYLE", game_chart.draw.STYLE + 1)
        after = game_chart.file_name(game, "race", ChartText())
    assert before != after
