"""Chart service and chart/QR routes: render once per version, cache in memory and on disk."""

import os
import threading
import xml.etree.ElementTree as ET

import pytest

from scorekeeper import core
from scorekeeper.devices import COOKIE
from scorekeeper.games import chart_views
from scorekeeper.services import charts as chart_service
from scorekeeper.services import games as game_service

DEVICE = "chartdevice-0123456789abcdefghij"  # 32 URL-safe characters, like a real one
OTHER_DEVICE = "otherdevice-0123456789abcdefghij"
PLAYERS = ["Ana", "Ben", "Cleo", "Dan"]


@pytest.fixture
def app_config(app_config, tmp_path):
    """Charts go to this test's own folder, not the shared instance/charts."""
    return {**app_config, "CHART_CACHE_DIR": str(tmp_path / "charts")}


@pytest.fixture(autouse=True)
def _empty_lru():
    chart_service.clear_memory()
    yield
    chart_service.clear_memory()


def play(game, extra=0):
    """Record the next round: the first player goes out, the others hold a few pips."""
    names = [player.name for player in game.players]
    hands = {name: core.HandEntry(pips=5 + seat + extra) for seat, name in enumerate(names[1:])}
    outcome = game_service.record_round(game, core.RoundEntry(hands, out=names[0]), confirm=True)
    assert outcome.saved, outcome.check.errors


def make_game(rounds=2, rules=None):
    """A game created on DEVICE with a few rounds; call inside an app context."""
    game = game_service.create_game(PLAYERS, rules or core.GameRules(), device=DEVICE)
    for number in range(rounds):
        play(game, number)
    return game_service.load_game(game.id)


@pytest.fixture
def game_ids(app):
    """(id, view token) of a 4-player game with 2 rounds."""
    with app.app_context():
        game = make_game()
        return game.id, game.view_token


@pytest.fixture
def device_client(client):
    client.set_cookie(COOKIE, DEVICE)
    return client


def chart_files(app):
    folder = app.config["CHART_CACHE_DIR"]
    return sorted(os.listdir(folder)) if os.path.isdir(folder) else []


# The service -------------------------------------------------------------------------------


def test_first_call_renders_and_the_second_is_a_cache_hit(app):
    with app.app_context():
        game = make_game()
        before = chart_service.RENDERS
        svg, etag = chart_service.chart_svg(game, "race")
        assert chart_service.RENDERS == before + 1
        again, same_etag = chart_service.chart_svg(game, "race")
        assert chart_service.RENDERS == before + 1
        name = chart_service.file_name(game, "race", chart_service.ChartText())
    assert (again, same_etag) == (svg, etag)
    ET.fromstring(svg)
    assert b"Ana" in svg
    assert chart_files(app) == [name]


def test_phones_asking_at_once_for_a_new_chart_have_it_drawn_once(app, game_ids):
    """After a round every phone at the table asks for the new chart: one request draws it,
    the others wait for it and get the same image."""
    _game_id, token = game_ids
    before = chart_service.RENDERS
    start = threading.Barrier(6)
    answers = []

    def phone() -> None:
        client = app.test_client()
        start.wait()
        answers.append(client.get(f"/s/{token}/chart/race.svg"))

    threads = [threading.Thread(target=phone) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert [answer.status_code for answer in answers] == [200] * 6
    assert len({answer.headers["ETag"] for answer in answers}) == 1
    assert chart_service.RENDERS == before + 1


def test_another_worker_reads_the_file_instead_of_rendering(app):
    with app.app_context():
        game = make_game()
        svg, etag = chart_service.chart_svg(game, "rounds")
        (name,) = chart_files(app)
        path = os.path.join(app.config["CHART_CACHE_DIR"], name)
        written = os.stat(path)
        chart_service.clear_memory()  # a fresh worker: nothing in its memory
        before = chart_service.RENDERS
        assert chart_service.chart_svg(game, "rounds") == (svg, etag)
        assert chart_service.RENDERS == before
        now = os.stat(path)
    assert (now.st_ino, now.st_mtime_ns) == (written.st_ino, written.st_mtime_ns)
    assert not [n for n in chart_files(app) if n.startswith(".tmp")]


def test_a_new_round_gives_new_bytes_a_new_etag_and_drops_the_old_file(app):
    with app.app_context():
        game = make_game()
        race, race_etag = chart_service.chart_svg(game, "race")
        rounds, _ = chart_service.chart_svg(game, "rounds")
        old_race = chart_service.file_name(game, "race", chart_service.ChartText())
        old_version = game.version
        play(game, 7)
        game = game_service.load_game(game.id)
        assert game.version == old_version + 1
        new_race, new_etag = chart_service.chart_svg(game, "race")
        new_name = chart_service.file_name(game, "race", chart_service.ChartText())
    assert new_race != race
    assert new_etag != race_etag
    files = chart_files(app)
    assert old_race not in files
    assert new_name in files
    # The rounds chart of the old version stays until a rounds chart of a newer one is drawn.
    assert len([n for n in files if "-rounds-" in n]) == 1
    assert rounds


def test_each_language_has_its_own_chart(app):
    with app.app_context():
        game = make_game()
    with app.test_request_context(headers={"Accept-Language": "fr"}):
        game = game_service.load_game(game.id)
        french = chart_service.file_name(game, "race", chart_service.ChartText())
        chart_service.chart_svg(game, "race")
    with app.test_request_context(headers={"Accept-Language": "en"}):
        english = chart_service.file_name(game, "race", chart_service.ChartText())
    assert "-fr-" in french and "-en-" in english
    assert chart_files(app) == [french]


def test_new_wording_is_a_new_chart(app):
    with app.app_context():
        game = make_game()
        plain, _ = chart_service.chart_svg(game, "race")
        worded, _ = chart_service.chart_svg(game, "race", chart_service.ChartText(total="Somme"))
    assert plain != worded
    assert b"Somme" in worded


def test_draw_game_charts_number_the_hands(app):
    rules = core.GameRules(game_type=core.GameType.DRAW)
    with app.app_context():
        game = game_service.create_game(PLAYERS[:3], rules, device=DEVICE)
        game = game_service.load_game(game.id)
        play(game)
        game = game_service.load_game(game.id)
        svg, _ = chart_service.chart_svg(game, "race", chart_service.ChartText(hand="Hand"))
    assert b"Hand" in svg


def test_unknown_kind_is_an_error(app):
    with app.app_context():
        game = make_game(rounds=0)
        with pytest.raises(ValueError):
            chart_service.chart_svg(game, "pie")


# The routes --------------------------------------------------------------------------------


def test_chart_route_answers_with_etag_then_304(device_client, game_ids):
    game_id, _ = game_ids
    url = f"/games/{game_id}/chart/race.svg"
    response = device_client.get(url)
    assert response.status_code == 200
    assert response.mimetype == "image/svg+xml"
    etag = response.headers["ETag"]
    assert etag.startswith('"') and not etag.startswith("W/")
    assert response.headers["Cache-Control"] == "private, no-cache"
    assert "Accept-Language" in response.headers["Vary"]
    ET.fromstring(response.data)
    again = device_client.get(url, headers={"If-None-Match": etag})
    assert again.status_code == 304
    assert again.data == b""
    assert again.headers["ETag"] == etag


def test_chart_route_after_a_new_round_has_a_new_etag(app, device_client, game_ids):
    game_id, _ = game_ids
    url = f"/games/{game_id}/chart/rounds.svg"
    first = device_client.get(url)
    with app.app_context():
        play(game_service.load_game(game_id), 3)
    second = device_client.get(url, headers={"If-None-Match": first.headers["ETag"]})
    assert second.status_code == 200
    assert second.headers["ETag"] != first.headers["ETag"]
    assert second.data != first.data


def test_another_device_gets_404(client, game_ids):
    game_id, _ = game_ids
    assert client.get(f"/games/{game_id}/chart/race.svg").status_code == 404
    client.set_cookie(COOKIE, OTHER_DEVICE)
    assert client.get(f"/games/{game_id}/chart/race.svg").status_code == 404
    assert client.get(f"/games/{game_id}/qr.svg").status_code == 404
    assert client.get("/games/999999/chart/race.svg").status_code == 404


def test_share_link_chart_needs_no_device(client, game_ids):
    _, token = game_ids
    response = client.get(f"/s/{token}/chart/rounds.svg")
    assert response.status_code == 200
    assert response.mimetype == "image/svg+xml"
    assert b"Cleo" in response.data
    assert client.get("/s/not-a-token/chart/rounds.svg").status_code == 404


def test_unknown_kind_is_404(device_client, game_ids):
    game_id, token = game_ids
    assert device_client.get(f"/games/{game_id}/chart/pie.svg").status_code == 404
    assert device_client.get(f"/s/{token}/chart/pie.svg").status_code == 404


def test_qr_codes_are_svg_of_the_share_link(app, device_client, game_ids):
    game_id, token = game_ids
    response = device_client.get(f"/games/{game_id}/qr.svg")
    assert response.status_code == 200
    assert response.mimetype == "image/svg+xml"
    root = ET.fromstring(response.data)
    assert root.tag.endswith("svg")
    assert response.headers["ETag"]
    shared = device_client.get(f"/s/{token}/qr.svg")
    assert shared.status_code == 200
    assert shared.data == response.data
    assert (
        device_client.get(
            f"/s/{token}/qr.svg", headers={"If-None-Match": shared.headers["ETag"]}
        ).status_code
        == 304
    )
    with app.test_request_context():
        game = game_service.load_game(game_id)
        assert chart_views.share_url(game) == f"http://localhost/s/{token}"
