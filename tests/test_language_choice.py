"""Choosing the language: the phone's Accept-Language, the switcher's cookie (no account, no
JavaScript), the account's preference, a club's default on its public and print pages; `<html
lang>` names the language served, dates follow it, and charts and live parts never carry one
language's words to another reader."""

from __future__ import annotations

import re

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from clubs.helpers import add_roster, make_club, make_club_game, make_user, sign_in
from sqlalchemy import func, select

from scorekeeper.extensions import db
from scorekeeper.i18n import shell_locale
from scorekeeper.models import Club, User

WORDS = {
    "fr": {"New game": "Nouvelle partie", "Running totals": "Totaux cumulés"},
    "es": {"New game": "Nueva partida", "Running totals": "Totales acumulados"},
    "hi": {"New game": "नया खेल", "Running totals": "कुल योग"},
}
NEW_GAME = {"en": "New game", **{code: words["New game"] for code, words in WORDS.items()}}


@pytest.fixture
def app_config(app_config, tmp_path):
    """Small fr, es and hi catalogues (the real ones are the translators')."""
    folder = tmp_path / "translations"
    for code, words in WORDS.items():
        catalog = Catalog(locale=code)
        catalog.add("Database is up to date.", f"[{code}] database ok")
        for english, translated in words.items():
            catalog.add(english, translated)
        out = folder / code / "LC_MESSAGES"
        out.mkdir(parents=True)
        with open(out / "messages.mo", "wb") as mo:
            write_mo(mo, catalog)
    return {**app_config, "BABEL_TRANSLATION_DIRECTORIES": str(folder)}


def served(response) -> str:
    """The `<html lang>` of a page."""
    return re.search(r'<html lang="([^"]+)"', response.get_data(as_text=True)).group(1)


def speaks(response, code: str) -> bool:
    """The page is in `code`: its lang says so and its "New game" is in that language."""
    return served(response) == code and NEW_GAME[code] in response.get_data(as_text=True)


@pytest.mark.parametrize(
    ("header", "code"),
    [("fr-FR,fr;q=0.9", "fr"), ("es-MX", "es"), ("hi-IN,en;q=0.5", "hi"), ("de, ja", "en")],
)
def test_the_phone_language_is_served_by_default(client, header, code):
    assert speaks(client.get("/", headers={"Accept-Language": header}), code)


def test_the_switcher_is_on_every_page_kind_with_each_language_named_in_itself(client):
    html = client.get("/games/new").get_data(as_text=True)
    for code, name in {"en": "English", "fr": "Français", "es": "Español", "hi": "हिन्दी"}.items():
        assert f'lang="{code}" hreflang="{code}"' in html
        assert f">{name}</a>" in html
    assert 'href="/language/fr?next=/games/new"' in html
    assert re.search(r'hreflang="en" aria-current="true">English<', html)


def test_the_switcher_keeps_the_language_in_a_cookie_and_comes_back(app, client):
    with app.app_context():
        users_before = db.session.execute(select(func.count()).select_from(User)).scalar_one()
    response = client.get("/language/hi?next=/games/new", headers={"Accept-Language": "fr"})
    assert response.status_code == 303
    assert response.headers["Location"] == "/games/new"
    cookie = response.headers["Set-Cookie"]
    assert cookie.startswith("lang=hi;") and "HttpOnly" in cookie and "SameSite=Lax" in cookie
    # The cookie beats the phone's own language, on every page after.
    assert speaks(client.get("/", headers={"Accept-Language": "fr"}), "hi")
    page = client.get("/games/new", headers={"Accept-Language": "fr"}).get_data(as_text=True)
    assert re.search(r'hreflang="hi" aria-current="true">हिन्दी<', page)
    with app.app_context():  # a GET: nothing written but the cookie
        assert db.session.execute(select(func.count()).select_from(User)).scalar_one() == (
            users_before
        )


@pytest.mark.parametrize(
    "target", ["https://evil.example/", "//evil.example/x", "/\\evil.example", "javascript:x", ""]
)
def test_the_switcher_only_goes_back_to_this_site(client, target):
    response = client.get("/language/es", query_string={"next": target})
    assert response.status_code == 303
    assert response.headers["Location"] == "/"


def test_an_unknown_language_is_not_found(client):
    for code in ("de", "xx", "el", "../fr"):
        response = client.get(f"/language/{code}")
        assert response.status_code == 404
        assert "Set-Cookie" not in response.headers


def test_a_test_only_language_is_refused_outside_tests(app_config):
    from scorekeeper import create_app

    app = create_app(
        {
            **app_config,
            "TESTING": False,
            "SECRET_KEY": "Tz4q-Hv9wLp2Xk7RmB3nYc8Fd",
            "TEST_LOCALES": ("el",),
        }
    )
    assert app.test_client().get("/language/el").status_code == 404
    testing = create_app({**app_config, "TEST_LOCALES": ("el",)})
    assert testing.test_client().get("/language/el").status_code == 303


def test_the_account_preference_follows_the_account(app, client):
    user_id = make_user(app, "Asha")
    sign_in(client, app, user_id)
    page = client.get("/account").get_data(as_text=True)
    assert 'name="locale"' in page and '<option lang="hi" value="hi">हिन्दी</option>' in page
    response = client.post("/account/language", data={"locale": "hi"})
    assert response.status_code == 302
    assert response.headers["Set-Cookie"].startswith("lang=hi;")  # this phone switches at once
    with app.app_context():
        assert db.session.get(User, user_id).locale == "hi"
    # Another phone, set to French, signed in to the same account: Hindi.
    other = app.test_client()
    sign_in(other, app, user_id)
    assert speaks(other.get("/", headers={"Accept-Language": "fr"}), "hi")
    # ...unless that phone chose a language with the switcher: the phone's own choice wins.
    other.get("/language/es")
    assert speaks(other.get("/", headers={"Accept-Language": "fr"}), "es")
    # Back to "as each device is set": the cookie goes, the phone's language is served.
    response = client.post("/account/language", data={"locale": ""})
    assert "lang=;" in response.headers["Set-Cookie"]
    client.delete_cookie("lang")
    assert speaks(client.get("/", headers={"Accept-Language": "fr"}), "fr")


def test_a_bad_language_choice_is_refused_next_to_the_field(app, client):
    user_id = make_user(app, "Asha")
    sign_in(client, app, user_id)
    response = client.post("/account/language", data={"locale": "xx"})
    assert response.status_code == 422
    assert 'id="locale-error"' in response.get_data(as_text=True)
    with app.app_context():
        assert db.session.get(User, user_id).locale is None


def _club_world(app, client):
    owner = make_user(app, "Olive")
    club_id = make_club(app, owner, public=True)
    add_roster(app, club_id, "Ana", "Ben", "Cy")
    game_id = make_club_game(app, club_id, ["Ana", "Ben", "Cy"])
    sign_in(client, app, owner)
    return club_id, game_id


def test_the_club_default_serves_its_public_and_print_pages(app, client):
    club_id, game_id = _club_world(app, client)
    response = client.post(
        f"/clubs/{club_id}/settings",
        data={"name": "Thursday Trains", "set_size": "12", "blank_scoring": "face",
              "order": "descending", "open_train_points": "0", "public": "y", "locale": "es"},
    )  # fmt: skip
    assert response.status_code == 302, response.get_data(as_text=True)
    with app.app_context():
        club = db.session.get(Club, club_id)
        assert club.locale == "es"
        public = f"/c/{club.public_token}"
    visitor = app.test_client()
    french = {"Accept-Language": "fr"}
    assert served(visitor.get(public, headers=french)) == "es"
    page = client.get(f"/games/{game_id}/print", headers=french).get_data(as_text=True)
    assert '<html lang="es">' in page
    # The club's other pages follow the reader (here: the member's phone, in French).
    assert served(client.get(f"/clubs/{club_id}", headers=french)) == "fr"
    # A visitor who chose a language keeps it on the club's pages too.
    visitor.get("/language/hi")
    assert served(visitor.get(public, headers=french)) == "hi"


def test_the_print_chart_is_drawn_in_the_print_page_language(app, client):
    club_id, game_id = _club_world(app, client)
    with app.app_context():
        db.session.get(Club, club_id).locale = "es"
        db.session.commit()
    client.post(f"/games/{game_id}/rounds", data={"number": "1", "mode_0": "pips",
                "pips_0": "0", "mode_1": "pips", "pips_1": "5", "mode_2": "pips",
                "pips_2": "7", "out": "0"})  # fmt: skip
    page = client.get(f"/games/{game_id}/print", headers={"Accept-Language": "fr"})
    chart_url = re.search(r'<img src="([^"]+race\.svg[^"]+)"', page.get_data(as_text=True))
    chart = client.get(chart_url.group(1).replace("&amp;", "&"), headers={"Accept-Language": "fr"})
    assert chart.status_code == 200
    assert "Totales acumulados" in chart.get_data(as_text=True)


def test_charts_and_live_parts_are_kept_per_language(app, client):
    from games.test_views import round_data, start_game

    game_id = start_game(client, ["Ana", "Ben", "Cy"])
    client.post(f"/games/{game_id}/rounds", data=round_data(1, {0: 0, 1: 5, 2: 7}, out=0))
    charts = {}
    for code in ("fr", "es", "hi", "en"):
        response = client.get(f"/games/{game_id}/chart/race.svg", headers={"Accept-Language": code})
        assert response.status_code == 200
        charts[code] = response.get_data(as_text=True)
        assert "Accept-Language" in response.headers["Vary"]
    assert "Totaux cumulés" in charts["fr"] and "Totales acumulados" in charts["es"]
    assert "कुल योग" in charts["hi"] and "Running totals" in charts["en"]
    # SVG text stays text (the browser draws Devanagari with its own fonts).
    assert re.search(r"<text\b[^>]*>कुल योग</text>", charts["hi"])
    live = client.get(f"/games/{game_id}/live", headers={"Accept-Language": "fr"})
    again = client.get(
        f"/games/{game_id}/live",
        headers={"Accept-Language": "es", "If-None-Match": live.headers["ETag"]},
    )
    assert again.status_code == 200  # not a 304 that would keep the French part
    assert {"Accept-Language", "Cookie"} <= set(again.headers["Vary"].replace(" ", "").split(","))


def test_dates_follow_the_language(client):
    from games.test_views import start_game

    game_id = start_game(client, ["Ana", "Ben", "Cy"])
    english = client.get(f"/games/{game_id}/print", headers={"Accept-Language": "en"})
    french = client.get(f"/games/{game_id}/print", headers={"Accept-Language": "fr"})
    months = "janv.|févr.|mars|avr.|mai|juin|juil.|août|sept.|oct.|nov.|déc."
    assert re.search(rf"<p>\d{{1,2}} ({months}) \d{{4}} ·", french.get_data(as_text=True))
    assert re.search(r"<p>[A-Z][a-z]{2} \d{1,2}, \d{4} ·", english.get_data(as_text=True))


@pytest.mark.parametrize(
    ("environ", "code"),
    [
        ({"LANG": "fr_FR.UTF-8"}, "fr"),
        ({"LANGUAGE": "de:es", "LANG": "fr_FR.UTF-8"}, "es"),
        ({"LC_ALL": "hi_IN.UTF-8", "LANG": "fr_FR"}, "hi"),
        ({"LC_ALL": "C", "LANG": "fr_FR"}, None),
        ({}, None),
    ],
)
def test_the_commands_speak_the_shell_language(environ, code):
    assert shell_locale(("en", "fr", "es", "hi"), environ) == code


def test_a_command_prints_in_the_shell_language(runner, monkeypatch):
    monkeypatch.setenv("LANG", "fr_FR.UTF-8")
    assert runner.invoke(args=["init-db"]).output == "[fr] database ok\n"
    monkeypatch.setenv("LANG", "C.UTF-8")
    assert runner.invoke(args=["init-db"]).output == "Database is up to date.\n"
