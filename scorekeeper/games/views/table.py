"""The table link (issue 33): every player's phone opens the share page with a "My hand" panel
and sends its own hand for the current round; the scorer's round form shows the hands sent
(its own small poll, `sent`) until the scorer saves the round. The table link can do nothing
else: no saving rounds, no edits, no settings.

A sent hand never moves the game's version (services/games/sent_hands.py): the scorer's form,
pinned to the version it read, saves as before, and the pages and caches keyed by the version
stay as they are. The scorer's page polls `/games/<id>/sent` every 2 s with the ETag it holds
(a 304 while no hand came); a new or replaced hand changes it.
"""

from __future__ import annotations

from collections.abc import Mapping

from flask import (
    Response,
    abort,
    current_app,
    flash,
    jsonify,
    redirect,
    render_template,
    request,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from markupsafe import Markup

from scorekeeper import core
from scorekeeper.access import game_for_device, game_for_table, shared_publicly
from scorekeeper.extensions import csrf
from scorekeeper.games import bp
from scorekeeper.games.parts import share_html
from scorekeeper.games.presenters import sheet_of, tile_values
from scorekeeper.games.views.charts import qr_svg
from scorekeeper.games.views.common import table_url
from scorekeeper.games.views.photos import answer
from scorekeeper.i18n import problem_text
from scorekeeper.models import Game
from scorekeeper.photos.reader import ADVICE
from scorekeeper.services import games as game_service
from scorekeeper.services import photos as photo_service
from scorekeeper.services.games import snapshot_of
from scorekeeper.web import limits, uploads
from scorekeeper.web.etags import conditional, etag_for
from scorekeeper.web.responses import svg_response

# Longest values read from the hand's form (anything longer is refused by the rules anyway).
LONGEST = 40


def _wants_json() -> bool:
    return request.accept_mimetypes.best == "application/json"


def _live_part(game: Game) -> str:
    """The scores as the share page shows them (kept per version); a private club's game
    without its charts, whose share links (and so the charts' addresses) do not open."""
    if shared_publicly(game):
        return share_html(game, game.view_token, None, False)
    snapshot = snapshot_of(game)
    return render_template(
        "games/_live.html",
        game=game,
        state=snapshot.state,
        sheet=sheet_of(snapshot),
        access="view",
        token=None,
        charts=False,
    )


def _table_page(
    game: Game,
    token: str,
    *,
    errors: dict[str, list[str]] | None = None,
    typed: Mapping[str, object] | None = None,
    status: int = 200,
) -> ResponseReturnValue:
    """The share page with the "My hand" panel (`errors` beside their fields, `typed` kept)."""
    snapshot = snapshot_of(game)
    number = game_service.current_round(snapshot)
    live = _live_part(game)
    page = render_template(
        "games/table.html",
        game=game,
        token=token,
        players=snapshot.setup.players,
        away=snapshot.setup.away_in(number or 0),
        number=number,
        state=snapshot.state,
        tile_values=tile_values(game, snapshot.state.next_engine) if number else [],
        live_part=Markup(live),
        errors=errors or {},
        typed=typed or {},
    )
    return page, status


@bp.get("/t/<token>")
def table(token: str) -> ResponseReturnValue:
    """The table link: the scores as on the share page, and "My hand" for the current round."""
    return _table_page(game_for_table(token), token)


@bp.get("/t/<token>/live")
def table_live(token: str) -> ResponseReturnValue:
    """The table page's live part (the sheet and standings), polled as the share page's."""
    game = game_for_table(token)
    etag = etag_for(game.etag, part="share-live")
    return conditional(etag, lambda: _live_part(game))


def _typed() -> tuple[Mapping[str, object], core.HandEntry]:
    """What the player typed (kept for the page) and the hand as the core takes it."""
    form = request.form
    tiles = [text[:LONGEST] for text in form.getlist("tiles")[: core.tile_count(18)]]
    mode = "tiles" if form.get("mode") == "tiles" else "pips"
    pips = form.get("pips", "")[:LONGEST]
    typed = {"player": form.get("player", "")[:LONGEST], "mode": mode, "pips": pips, "tiles": tiles}
    hand = core.HandEntry(tiles=tiles) if mode == "tiles" else core.HandEntry(pips=pips)
    return typed, hand


@bp.post("/t/<token>/hand")
@limits.round_writes
def send_hand(token: str) -> ResponseReturnValue:
    """A player's Send: their hand for the current round, checked by the rules; the scorer's
    form shows it. JSON for the page's script (201, 409, 422), the page again without it."""
    game = game_for_table(token)
    typed, hand = _typed()
    raw_round = request.form.get("round", "")
    number = (
        int(raw_round)
        if raw_round.isascii() and raw_round.isdecimal() and len(raw_round) < 9
        else 0
    )
    player = str(typed["player"])
    try:
        line = game_service.send_hand(game, number, player, hand)
    except game_service.NotThisRound as refused:
        template, values = refused.words
        message = _(template, **values)
        if _wants_json():
            return jsonify(error=message), 409
        flash(message, "error")
        return _table_page(game, token, typed=typed, status=409)
    except game_service.HandRefused as refused:
        errors: dict[str, list[str]] = {}
        for problem in refused.problems:
            field = problem.field if problem.field in ("pips", "tiles") else "player"
            errors.setdefault(field, []).append(problem_text(problem))
        if _wants_json():
            return jsonify(errors=errors), 422
        return _table_page(game, token, errors=errors, typed=typed, status=422)
    message = _(
        "Sent: %(pips)s pips for %(name)s, round %(n)s. The scorer sees it now.",
        pips=line.pips,
        name=line.player,
        n=line.round,
    )
    if _wants_json():
        return jsonify(message=message, pips=line.pips, round=line.round), 201
    flash(message, "success")
    return redirect(url_for("games.table", token=token, _anchor="my-hand"))


@bp.post("/t/<token>/photo")
@limits.photo_reads
@csrf.exempt  # checked below, once the upload limit is raised for the photo
def table_photo(token: str) -> ResponseReturnValue:
    """A player's photo of their hand, read by the same reader as the scorer's: JSON for the
    page's script (the tiles to confirm), the page with the tiles ticked without it."""
    game = game_for_table(token)
    limits.check_game_photo_read(game.id)
    max_bytes = current_app.config["PHOTO_MAX_BYTES"]
    protect = csrf.protect if current_app.config.get("WTF_CSRF_ENABLED", True) else None
    try:
        data = uploads.hand_photo(request, busy_first=_wants_json(), protect=protect)
        reading = photo_service.read_hand(data, set_max=game.set_size, max_bytes=max_bytes)
    except photo_service.PhotoRefused as refusal:
        headers = {} if refusal.retry_after is None else {"Retry-After": str(refusal.retry_after)}
        if _wants_json():
            return jsonify(error=refusal.message), refusal.status, headers
        flash(refusal.message, "error")
        return _table_page(game, token, status=refusal.status)
    if _wants_json():
        return jsonify(answer(reading))
    names = [f"{max(t.pips)}-{min(t.pips)}" for t in reading.tiles]
    for code in reading.advice:
        flash(_(ADVICE[code]), "warning")
    typed = {"player": request.form.get("player", "")[:LONGEST], "mode": "tiles", "tiles": names}
    if names:
        flash(
            _(
                "Read from the photo: %(tiles)s (%(total)s pips). Check the ticked tiles, then "
                "send.",
                tiles=", ".join(names),
                total=reading.total,
            ),
            "info",
        )
    return _table_page(game, token, typed=typed)


@bp.get("/games/<id:game_id>/sent")
def sent(game_id: int) -> Response:
    """The hands the players sent for the current round (JSON), for the scorer's round form:
    polled every 2 s, 304 while none came or changed."""
    game, _access = game_for_device(game_id, edit=True)
    etag = etag_for(game_service.sent_key(game), part="sent")

    def render() -> Response:
        snapshot = snapshot_of(game)
        seats = {name: index for index, name in enumerate(snapshot.setup.players)}
        hands = [
            {
                "seat": seats[line.player],
                "player": line.player,
                "pips": line.pips,
                "tiles": list(line.tiles) if line.tiles is not None else None,
                "note": _("from %(name)s's phone", name=line.player)
                + (": " + ", ".join(line.tiles) if line.tiles else ""),
            }
            for line in game_service.sent_hands(game, snapshot)
        ]
        return jsonify(round=game_service.current_round(snapshot), hands=hands)

    return conditional(etag, render)


@bp.get("/games/<id:game_id>/table-qr.svg")
def table_qr(game_id: int) -> Response:
    """A QR code of the table link, for the players to scan (shown to the game's scorers)."""
    game, _access = game_for_device(game_id, edit=True)
    url = table_url(game)
    if url is None:
        abort(404)
    return svg_response(*qr_svg(url, _("Link to send your own hand")))
