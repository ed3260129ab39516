"""The pages a game is read on: the game page and its live part, its history, the print view.

Views are thin: read the form, call one service, flash, redirect. Scores come from the core
through the services; nothing here adds up a round.
"""

from __future__ import annotations

from flask import render_template, request
from flask.typing import ResponseReturnValue

from scorekeeper.access import (
    game_for_device,
    game_for_share,
    game_page_for_device,
    game_ref_for_device,
)
from scorekeeper.games import bp
from scorekeeper.games.parts import results_part
from scorekeeper.games.presenters import sheet_of
from scorekeeper.games.views.common import render_game, table_url
from scorekeeper.i18n import prefer_locale
from scorekeeper.models import Game, etag_of
from scorekeeper.services import games as game_service
from scorekeeper.services.clubs import club_locale
from scorekeeper.services.games import snapshot_of
from scorekeeper.web.devices import current_device
from scorekeeper.web.etags import conditional, etag_for


@bp.get("/games/<id:game_id>")
def detail(game_id: int) -> ResponseReturnValue:
    """The game page: current round, the sheet, standings, charts, and (to scorers) the form."""
    game, access = game_page_for_device(game_id)
    return render_game(game, access)


@bp.get("/games/<id:game_id>/live")
def live(game_id: int) -> ResponseReturnValue:
    """The game page's changing parts (current round, sheet, standings, charts), polled with
    If-None-Match by the scorers' phones: 304 while the game is unchanged."""
    # The ETag comes from one light query (the game's version and this phone's right): a poll
    # of an unchanged game loads nothing else.
    ref, access = game_ref_for_device(game_id)

    def render() -> str:
        game, _access = game_for_device(game_id)
        snapshot = snapshot_of(game)
        return render_template(
            "games/_game_live.html",
            game=game,
            state=snapshot.state,
            results_part=results_part(game, snapshot, access),
            access=access,
            editable=access == "edit",
        )

    etag = etag_for(etag_of(ref.id, ref.version, ref.view_token), part="game", access=access)
    return conditional(etag, render)


@bp.get("/games/<id:game_id>/history")
def history(game_id: int) -> ResponseReturnValue:
    """Every change to the game, newest first: round, player, old and new value, when, where."""
    game, _access = game_for_device(game_id, edit=True)
    return render_template(
        "games/history.html",
        game=game,
        history=game_service.history_of(game, limit=10_000),
        device=current_device(),
    )


@bp.get("/games/<id:game_id>/print")
def print_view(game_id: int) -> ResponseReturnValue:
    """One page for the fridge door: standings, sheet and chart; ?blank=1 for a paper sheet."""
    game, access = game_for_device(game_id)
    return _print(game, table=table_url(game) if access == "edit" else None)


@bp.get("/s/<token>/print")
def share_print(token: str) -> ResponseReturnValue:
    """The print view, from the share link."""
    return _print(game_for_share(token), token=token)


def _print(game: Game, token: str | None = None, table: str | None = None) -> ResponseReturnValue:
    blank = request.args.get("blank") == "1"
    prefer_locale(club_locale(game.club_id))
    snapshot = snapshot_of(game)
    state = snapshot.state
    sheet = sheet_of(snapshot)
    if blank:
        # A paper sheet: players and every engine filled in, no scores.
        sheet.rows, sheet.leaders, sheet.future_engines = [], set(), list(state.engines)
    return render_template(
        "games/print.html",
        game=game,
        state=state,
        sheet=sheet,
        blank=blank,
        token=token,
        table_url=table,
    )
