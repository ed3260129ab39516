"""Chart and QR code images of a game, for its page (by device) and its share link (by token).

Every image carries a strong ETag and `Cache-Control: private, no-cache`: a phone asks again
each time it shows the page and gets a 304 until the game changes.
"""

from __future__ import annotations

import io

from flask import Response, abort, request, url_for
from flask_babel import gettext as _
from werkzeug.routing import BuildError

from scorekeeper.access import image_source_for_device, image_source_for_share
from scorekeeper.charts import game as game_chart
from scorekeeper.charts.cache import CACHE, digest
from scorekeeper.games import bp
from scorekeeper.i18n import prefer_locale
from scorekeeper.services.games import GameRef
from scorekeeper.web.responses import svg_response


def _chart(game: GameRef, kind: str) -> Response:
    prefer_locale(request.args.get("lang"))  # a print page's chart: in the page's language
    return svg_response(*game_chart.chart_svg(game, kind))


@bp.get("/games/<id:game_id>/chart/<kind>.svg")
def chart(game_id: int, kind: str) -> Response:
    """A chart of a game this device created or opened: kind is 'race' or 'rounds'."""
    if kind not in game_chart.KINDS:
        abort(404)
    return _chart(image_source_for_device(game_id), kind)


@bp.get("/s/<token>/chart/<kind>.svg")
def share_chart(token: str, kind: str) -> Response:
    """A chart of the game a read-only share link points to."""
    if kind not in game_chart.KINDS:
        abort(404)
    return _chart(image_source_for_share(token), kind)


def share_url(game: GameRef) -> str:
    """The absolute read-only link to the game, as the QR code encodes it."""
    try:
        return url_for("games.share", token=game.view_token, _external=True)
    except BuildError:  # the share page's route is not registered (yet): same address by hand
        return request.host_url + "s/" + game.view_token


def qr_svg(url: str, title: str) -> tuple[bytes, str]:
    """A QR code of `url` as SVG and its ETag: drawn once (~10 ms), then kept in the chart
    cache like a chart."""
    name = f"qr-{digest(url + chr(31) + title, 10)}.svg"
    return CACHE.get(name, lambda: _draw_qr(url, title))


def _draw_qr(url: str, title: str) -> bytes:
    import segno  # on first use: most requests never draw a QR code

    buffer = io.BytesIO()
    segno.make_qr(url, error="m").save(
        buffer, kind="svg", scale=6, border=2, dark="#000", title=title
    )
    return buffer.getvalue()


def _qr(game: GameRef) -> Response:
    return svg_response(*qr_svg(share_url(game), _("Link to follow this game")))


@bp.get("/games/<id:game_id>/qr.svg")
def qr(game_id: int) -> Response:
    """A QR code of the game's read-only share link, for others at the table to scan."""
    return _qr(image_source_for_device(game_id))


@bp.get("/s/<token>/qr.svg")
def share_qr(token: str) -> Response:
    """The same QR code, from the share page itself."""
    return _qr(image_source_for_share(token))
