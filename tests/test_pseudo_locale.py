"""No English escapes translation: under a pseudo-language whose every message is marked ⟦…⟧,
every page kind (every GET route with a seeded club, night, season, finished and running games,
as an owner, a phone and a visitor; forms sent back with errors; error pages; print views and the
paper sheet), every chart's SVG text and every API error message shows no plain English word
outside the marks, and `<html lang>` names the pseudo-language."""

from __future__ import annotations

import io
import json

import pytest
from pseudo_locale import PSEUDO, build, english_words, svg_texts, visible_texts
from test_get_never_writes import DEVICE, _play_a_round, _seed, get_urls

from scorekeeper import core, i18n
from scorekeeper.services import export_json
from scorekeeper.services import games as game_service

# Typed by the players (the seeded world's names) or the same in every language.
ALLOWED = {
    *("Olive", "Sam", "Ana", "Ben", "Cy", "Di", "Eve", "Finn", "Thursday", "Trains"),
    *("Autumn", "laptop", "Gil", "Hal", "Nina"),
    # Each language's own name in the switcher is marked with its `lang`; English is the one
    # name the pseudo-language's page cannot tell from an escaped word.
    "English",
}


@pytest.fixture
def app_config(app_config, tmp_path, monkeypatch):
    """The app with the pseudo language's catalogue, and serving it beside the shipped ones."""
    folder = build(tmp_path / "pseudo")
    monkeypatch.setattr(i18n, "SERVED_LOCALES", (*i18n.SERVED_LOCALES, PSEUDO))
    return {**app_config, "BABEL_TRANSLATION_DIRECTORIES": str(folder)}


def api_fields() -> set[str]:
    """Every field name of the API's request and answer models."""
    from pydantic import BaseModel

    from scorekeeper.api import schemas

    return {
        name
        for model in vars(schemas).values()
        if isinstance(model, type) and issubclass(model, BaseModel)
        for name in model.model_fields
    }


def _finished_game() -> int:
    game = game_service.create_game(["Gil", "Hal", "Ana"], core.GameRules(rounds=1), device=DEVICE)
    game_id = game.id
    _play_a_round(game_id, device=DEVICE)
    return game_id


def _refused_club_files(club_id: int) -> list[bytes]:
    """The seeded club's export, refused by the import page three ways: its links are already
    here (a list of tokens, each with its kind), a hand's pips is not a number (the kind of
    value), and, with fresh links, a round the rules refuse (the core's own problem)."""
    document = export_json.export_club_json(club_id)
    played = next(g for g, game in enumerate(document["games"]) if game["rounds"])
    hand = document["games"][played]["rounds"][0]["hands"][0]
    already_here = export_json.dumps(document)
    hand["pips"] = "12"
    not_a_number = export_json.dumps(document)
    hand["pips"] = -5
    document["club"]["public_token"] = "p" * 22
    for index, game in enumerate(document["games"]):
        game["edit_token"], game["view_token"] = f"e{index:021d}", f"v{index:021d}"
    return [text.encode() for text in (already_here, not_a_number, export_json.dumps(document))]


def _problems(url: str, body: bytes, mimetype: str) -> list[str]:
    """The escaped English words in one answer (and a wrong `lang` on a page)."""
    text = body.decode("utf-8", "replace")
    if mimetype == "text/html":
        lang, texts = visible_texts(text)
        found = english_words(texts, ALLOWED)
        if lang != PSEUDO and "<html" in text:  # a live part has no <html> of its own
            found.append(f"<html lang={lang!r}>")
        return found
    if mimetype == "image/svg+xml":
        return english_words(svg_texts(text), ALLOWED)
    if mimetype == "application/json" and url.startswith("/api/"):
        # A message may name the request's field ("players is required."): code, not English.
        return english_words(_messages(json.loads(text)), ALLOWED | api_fields())
    if mimetype == "application/manifest+json":  # the installed app's name and description
        manifest = json.loads(text)
        return english_words([manifest[k] for k in ("name", "short_name", "description")], ALLOWED)
    return []


def _messages(body: object) -> list[str]:
    """The human-readable messages of an API answer: `error` and each `errors[].message`."""
    if not isinstance(body, dict):
        return []
    found = [body["error"]] if isinstance(body.get("error"), str) else []
    for entry in body.get("errors") or []:
        found.append(entry.get("message", ""))
    return found


def test_every_page_chart_and_message_is_translated(app, user_factory, sign_in):
    world = _seed(app, user_factory)
    with app.app_context():
        finished = _finished_game()
    world["game_id"] = [*world["game_id"], finished]
    world["code"] = [PSEUDO]  # the switcher's own GET: a redirect

    owner = app.test_client()
    owner.set_cookie("lang", PSEUDO)  # the switcher's cookie (before the sign-in's message)
    sign_in(owner, world["owner"].email, world["owner"].password)
    owner.set_cookie("sk_device", DEVICE)
    visitor = app.test_client()  # no account, no cookie: the phone's Accept-Language
    phone = {"Accept-Language": f"{PSEUDO},en;q=0.5"}
    api = {"Authorization": f"Bearer {world['api_secret']}", **phone}

    escaped: dict[str, list[str]] = {}
    seen = {"text/html": 0, "image/svg+xml": 0, "application/json": 0, "api messages": 0}

    def check(who: str, response, url: str) -> None:
        assert response.status_code < 500, (who, url, response.status_code)
        if 300 <= response.status_code < 400:  # Werkzeug's redirect body: never shown
            return
        problems = _problems(url, response.data, response.mimetype)
        seen[response.mimetype] = seen.get(response.mimetype, 0) + 1
        if response.mimetype == "application/json" and url.startswith("/api/"):
            seen["api messages"] += len(_messages(response.get_json()))
        if problems:
            escaped[f"{who} {response.status_code} {url}"] = sorted(set(problems))

    urls = list(get_urls(app, world))
    urls += [
        f"/games/{world['game_id'][0]}/print?blank=1",
        f"/s/{world['view_token']}/print?blank=1",
        "/no-such-page",
        "/api/v1/games/2147483000",
        "/api/v1/no-such-thing",
    ]
    for url in urls:
        for who, client, headers in (("owner", owner, api), ("visitor", visitor, phone)):
            response = client.get(url, headers=headers)
            check(who, response, url)
            response.close()

    # Forms sent back with their errors, the core's messages, the API's refusals.
    game_id, club_game = world["game_id"][0], world["game_id"][1]
    posts = [
        ("/games/new", {"players-0": "Ana", "players-1": "", "game_type": "mexican"}),
        (f"/games/{game_id}/rounds", {"number": "3", "hands-0-points": "x"}),
        ("/sign-in", {"email": "nobody@example.com", "password": "wrong-password"}),
        ("/sign-up", {"name": "", "email": "not-an-email", "password": "x"}),
        ("/account/tokens", {"name": ""}),
        ("/account/language", {"locale": "xx"}),
        (f"/clubs/{world['club_id'][0]}/settings", {"name": "", "set_size": "99"}),
        (f"/clubs/{world['club_id'][0]}/seasons/new", {"name": "", "starts_on": "x"}),
        (f"/clubs/{world['club_id'][0]}/roster", {"display_name": ""}),
    ]
    for url, data in posts:
        response = owner.post(url, data=data, headers=phone)
        check("owner-post", response, url)
    with app.app_context():
        club_files = _refused_club_files(world["club_id"][0])
    for number, content in enumerate(club_files, start=1):
        upload = {"file": (io.BytesIO(content), "club.json")}
        response = owner.post("/clubs/import", data=upload, headers=phone)
        assert response.status_code == 422, response.status_code
        check(f"owner-import-{number}", response, "/clubs/import")
    api_posts = [
        ("/api/v1/games", {"players": ["Ana"]}),
        ("/api/v1/games", "not json"),
        (f"/api/v1/games/{club_game}/rounds", {"number": 2, "hands": {"Eve": {"points": -1}}}),
        (f"/api/v1/games/{club_game}/rounds", {"number": 9, "hands": {}}),
    ]
    for url, body in api_posts:
        if isinstance(body, str):
            response = owner.post(url, data=body, headers={**api, "Content-Type": "text/plain"})
        else:
            response = owner.post(url, json=body, headers=api)
        check("api-post", response, url)
    response = visitor.get(f"/api/v1/games/{game_id}", headers=phone)  # no token: 401
    check("api-anonymous", response, f"/api/v1/games/{game_id}")

    assert escaped == {}, "\n".join(f"{where}: {words}" for where, words in escaped.items())
    # The pages, charts and API errors were really there to read.
    assert seen["text/html"] > 80 and seen["image/svg+xml"] >= 10
    assert seen["api messages"] >= 10


def test_the_pseudo_catalogue_marks_without_breaking_placeholders():
    from pseudo_locale import pseudo

    assert pseudo("Round %(number)s saved.") == "⟦Ŕöúñð %(number)s šáṽéð.⟧"
    assert pseudo('<a href="%(url)s">Open</a> {n}') == '⟦<a href="%(url)s">Öþéñ</a> {n}⟧'
    assert english_words(["⟦Ŕöúñð⟧ 3 Ana", "Round", "⟦Ŕöúñð 2: out⟧"], {"Ana"}) == ["Round", "out"]
