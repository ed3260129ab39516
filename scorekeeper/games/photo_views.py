"""Reading a hand from a photo on the round sheet: the photo in, the tiles found out.

The page's script sends a photo scaled down to 1600 px and shows the answer (JSON) for the
scorer to confirm; without the script the whole round form comes with the full photo, and the
page comes back with that hand's tiles ticked and a message listing them. Nothing is stored:
not the photo, not the reading; the tiles count once the round is saved as usual.
"""

from __future__ import annotations

from flask import current_app, flash, jsonify, render_template, request
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from werkzeug.exceptions import RequestEntityTooLarge

from scorekeeper import limits
from scorekeeper.access import game_for_device
from scorekeeper.extensions import csrf
from scorekeeper.games import bp
from scorekeeper.games.views import _render_game, _round_form
from scorekeeper.photos.decode import NotAnImage, Unreadable
from scorekeeper.photos.reader import ADVICE, Reading, read_photo
from scorekeeper.services.games import snapshot_of

# Room for the round form's other fields beside the photo.
FORM_ROOM = 64 * 1024


def _wants_json() -> bool:
    return request.accept_mimetypes.best == "application/json"


def _refused(game, access: str, status: int, message: str) -> ResponseReturnValue:
    """The refusal as JSON for the script, or the game page (everything typed kept) without."""
    if _wants_json():
        return jsonify(error=message), status
    flash(message, "error")
    # Past the size limit the form is not read: the page starts afresh.
    form = None if status == 413 else _round_form(game, snapshot_of(game), request.form)
    return _render_game(game, access, form=form, status=status)


def _too_large() -> str:
    megabytes = current_app.config["PHOTO_MAX_BYTES"] // (1024 * 1024)
    return _("The photo is larger than %(n)s MB: take it again at a smaller size.", n=megabytes)


@bp.get("/games/<id:game_id>/photos/panel")
def photo_panel(game_id: int) -> ResponseReturnValue:
    """The confirm panel's markup and words, fetched by photo.js when a photo is first chosen
    (the game page does not carry it: most rounds use no photo)."""
    game_for_device(game_id, edit=True)
    return render_template("games/_photo_panel.html")


def _seat(players: int) -> int | None:
    raw = request.form.get("photo_seat") or request.args.get("seat") or ""
    return int(raw) if raw.isdigit() and int(raw) < players else None


@bp.post("/games/<id:game_id>/photos")
@limits.photo_reads
@csrf.exempt  # checked below, once the upload limit is raised for the photo
def read_hand_photo(game_id: int) -> ResponseReturnValue:
    """Read the tiles on a photo of one hand (multipart field `photo`; from the round form
    itself, `photo_seat` says whose): JSON for the page's script, the game page without it."""
    game, access = game_for_device(game_id, edit=True)
    request.max_content_length = current_app.config["PHOTO_MAX_BYTES"] + FORM_ROOM
    if (request.content_length or 0) > request.max_content_length:
        # Refused before a byte is parsed (no half-written temporary file left behind).
        return _refused(game, access, 413, _too_large())
    try:
        if current_app.config.get("WTF_CSRF_ENABLED", True):
            csrf.protect()
        players = len(snapshot_of(game).setup.players)
        seat = _seat(players)
        upload = request.files.get("photo")
    except RequestEntityTooLarge:
        return _refused(game, access, 413, _too_large())
    if upload is None or not upload.filename and not upload.content_length:
        return _refused(game, access, 400, _("Choose a photo of the hand first."))
    data = upload.read()
    if not data:
        return _refused(game, access, 400, _("Choose a photo of the hand first."))
    try:
        reading = read_photo(data, set_max=game.set_size)
    except NotAnImage:
        return _refused(
            game, access, 415, _("That file is not a photo: choose a JPEG, PNG or HEIC picture.")
        )
    except Unreadable:
        return _refused(game, access, 422, _("That photo could not be read: take it again."))
    if _wants_json():
        return jsonify(answer(reading))
    return _fill_hand(game, access, seat, reading)


def answer(reading: Reading) -> dict[str, object]:
    """The reading as the script (and the API) take it: tiles, total, advice in words."""
    return {
        "tiles": [
            {
                "pips": list(tile.pips),
                "confidence": tile.confidence,
                "corners": [list(point) for point in tile.corners],
                "check": tile.low_confidence,
            }
            for tile in reading.tiles
        ],
        "total": reading.total,
        "advice": [_(ADVICE[code]) for code in reading.advice],
        "width": reading.width,
        "height": reading.height,
    }


def _fill_hand(game, access: str, seat: int | None, reading: Reading) -> ResponseReturnValue:
    """Without the script: the round form as sent, that hand's tiles ticked from the photo."""
    form = _round_form(game, snapshot_of(game), request.form)
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
    return _render_game(game, access, form=form)
