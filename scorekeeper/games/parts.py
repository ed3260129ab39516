"""The parts of a game's pages kept per version: the sheet, standings and charts are the same
for every reader of one version, language and access, so they are rendered once and kept with
the version's snapshot under their ETag (etags.py; services/games/snapshot.py keeps them)."""

from __future__ import annotations

from typing import Any

from flask import get_template_attribute, render_template
from markupsafe import Markup

from scorekeeper.games.presenters import Sheet, sheet_of, tile_values
from scorekeeper.models import Game
from scorekeeper.services import games as game_service
from scorekeeper.services.games import Snapshot, snapshot_of
from scorekeeper.web.etags import etag_for
from scorekeeper.web.responses import kept_text


def results_part(game: Game, snapshot: Snapshot, access: str, sheet: Sheet | None = None) -> Markup:
    """The game page's sheet, standings and charts: rendered once per version, language and
    access, then kept with the version (every reload and every phone's poll shows the same)."""

    def render() -> str:
        return render_template(
            "games/_results.html",
            game=game,
            state=snapshot.state,
            sheet=sheet or sheet_of(snapshot),
            editable=access == "edit",
        )

    if game.version != snapshot.version:  # the row was read before a newer commit
        return Markup(render())
    etag = etag_for(snapshot.etag, part="results", access=access)
    return Markup(kept_text(snapshot, etag, render))


def hands_part(game: Game, snapshot: Snapshot, form: Any) -> Markup | None:
    """A fresh round sheet's hands (names, empty fields, tile pickers around this round's
    engine): rendered once per version and language, then kept; None if the game row is not
    the snapshot's version."""
    if game.version != snapshot.version:
        return None
    state = snapshot.state

    def render() -> str:
        fields = get_template_attribute("games/_macros.html", "hand_fields")
        tiles = tile_values(game, state.next_engine)
        setup = snapshot.setup
        opener, points = state.next_opener, setup.rules.house_rules.open_train_points
        away = setup.away_in(state.rounds_played + 1)
        return str(fields(form, setup.players, opener, tiles, points, away, one_grid=True))

    etag = etag_for(snapshot.etag, part="hands")
    return Markup(kept_text(snapshot, etag, render))


def history_part(snapshot: Snapshot, device: str) -> Markup:
    """The latest lines of the game's history (a scorer's page): rendered once per version,
    language and phone (a line says "this phone" to the phone that made it)."""

    def render() -> str:
        return render_template(
            "games/_history.html", history=snapshot.latest_changes, device=device
        )

    etag = etag_for(snapshot.etag, part="history", device=device)
    return Markup(game_service.kept_part(snapshot, etag, render))


def share_html(game: Game, token: str, template: str | None, offer_keep: bool) -> str:
    """The share page (`template`) or its live part alone (None); the live part (sheet,
    standings, charts) is rendered once per version and language, then kept with it."""
    snapshot = snapshot_of(game)
    # The full page's link preview reads the standings too; the kept live part needs nothing.
    sheet = sheet_of(snapshot) if template is not None else None

    def live() -> str:
        return render_template(
            "games/_live.html",
            game=game,
            state=snapshot.state,
            sheet=sheet or sheet_of(snapshot),
            access="view",
            token=token,
        )

    if game.version != snapshot.version:  # the row was read before a newer commit
        part = live()
    else:
        etag = etag_for(snapshot.etag, part="share-live")
        part = kept_text(snapshot, etag, live)
    if template is None:
        return part
    return render_template(
        template,
        game=game,
        players=snapshot.setup.players,
        state=snapshot.state,
        sheet=sheet,
        live_part=Markup(part),
        token=token,
        offer_keep=offer_keep,
    )
