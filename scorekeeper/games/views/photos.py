"""Reading a hand from a photo on the round sheet: the photo in, the tiles found out.

The page's script sends a photo scaled down to 1600 px and shows the answer (JSON) for the
scorer to confirm; without the script the whole round form comes with the full photo, and the
page comes back with that hand's tiles ticked and a message listing them. Nothing is stored:
not the photo, not the reading; the tiles count once the round is saved as usual.
"""

from __future__ import annotations

from flask import current_app, flash, jsonify, make_response, render_template, request
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _

from scorekeeper.access import game_for_device
from scorekeeper.extensions import csrf
from scorekeeper.games import bp
from scorekeeper.games.views.common import render_game, round_form
from scorekeeper.photos.reader import ADVICE, Reading
from scorekeeper.services import photos as photo_service
from scorekeeper.services.games import snapshot_of
from scorekeeper.web import limits, uploads


def _wants_json() -> bool:
    return request.accept_mimetypes.best == "application/json"


def _refused(game, access: str, refusal: photo_service.PhotoRefused) -> ResponseReturnValue:
    """The refusal as JSON for the script, or the game page (everything typed kept) without."""
    headers = {} if refusal.retry_after is None else {"Retry-After": str(refusal.retry_after)}
    if _wants_json():
        return jsonify(error=refusal.message), refusal.status, headers
    flash(refusal.message, "error")
    # Past the size limit the form is not read: the page starts afresh.
    form = None if refusal.status == 413 else round_form(game, snapshot_of(game), request.form)
    page = make_response(render_game(game, access, form=form, status=refusal.status))
    page.headers.update(headers)
    return page


@bp.get("/games/<id:game_id>/photos/panel")
def photo_panel(game_id: int) -> ResponseReturnValue:
    """The confirm panel's markup and words, fetched by photo.js when a photo is first chosen
    (the game page does not carry it: most rounds use no photo)."""
    game_for_device(game_id, edit=True)
    return render_template("games/_photo_panel.html")


def _seat(players: int) -> int | None:
    raw = request.form.get("photo_seat") or request.args.get("seat") or ""
    return int(raw) if raw.isascii() and raw.isdecimal() and int(raw) < players else None


@bp.post("/games/<id:game_id>/photos")
@limits.photo_reads
@csrf.exempt  # checked below, once the upload limit is raised for the photo
def read_hand_photo(game_id: int) -> ResponseReturnValue:
    """Read the tiles on a photo of one hand (multipart field `photo`; from the round form
    itself, `photo_seat` says whose): JSON for the page's script, the game page without it."""
    game, access = game_for_device(game_id, edit=True)
    limits.check_game_photo_read(game.id)
    max_bytes = current_app.config["PHOTO_MAX_BYTES"]
    protect = csrf.protect if current_app.config.get("WTF_CSRF_ENABLED", True) else None
    try:
        # The page's script keeps the form itself: a full lane is told before the photo is
        # parsed. Without JavaScript the form is parsed first, so the page keeps what was typed.
        data = uploads.hand_photo(request, busy_first=_wants_json(), protect=protect)
        seat = _seat(len(snapshot_of(game).setup.players))
        reading = photo_service.read_hand(data, set_max=game.set_size, max_bytes=max_bytes)
    except photo_service.PhotoRefused as refusal:
        return _refused(game, access, refusal)
    if _wants_json():
        return jsonify(answer(reading))
    return _fill_hand(game, access, seat, reading)


def answer(reading: Reading) -> dict[str, object]:
    """The reading as the API sends it (services.photos.answer), with what the confirm panel
    also needs: which tiles to check, and the photo's size to draw the outlines on."""
    body = photo_service.answer(reading)
    tiles = [
        {**tile, "check": found.low_confidence}
        for tile, found in zip(body["tiles"], reading.tiles, strict=True)
    ]
    return {**body, "tiles": tiles, "width": reading.width, "height": reading.height}


def _fill_hand(game, access: str, seat: int | None, reading: Reading) -> ResponseReturnValue:
    """Without the script: the round form as sent, that hand's tiles ticked from the photo."""
    form = round_form(game, snapshot_of(game), request.form)
    names = [f"{max(t.pips)}-{min(t.pips)}" for t in reading.tiles]
    doubtful = [f"{max(t.pips)}-{min(t.pips)}" for t in reading.tiles if t.low_confidence]
    for code in reading.advice:
        flash(_(ADVICE[code]), "warning")
    if seat is None:
        flash(_("Choose whose hand the photo shows, then read it again."), "error")
    elif reading.tiles:
        form[f"mode_{seat}"].data = "tiles"
        form[f"tiles_{seat}"].data = names
        message = _(
            "Read from the photo: %(tiles)s (%(total)s pips). Check the ticked tiles, then save.",
            tiles=", ".join(names),
            total=reading.total,
        )
        if doubtful:
            message += " " + _("Look twice at: %(tiles)s.", tiles=", ".join(doubtful))
        flash(message, "info")
    return render_game(game, access, form=form)
