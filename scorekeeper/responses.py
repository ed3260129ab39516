"""Answers several blueprints send alike: an SVG image (a chart or a QR code) and its headers,
and the JSON body of a refusal (`Error`: the API's error answers and the app-wide error handlers
for JSON clients send this one model)."""

from __future__ import annotations

from flask import Response, current_app, request
from pydantic import BaseModel, ConfigDict

# SVG opened on its own is a document of our origin: let it load nothing and run nothing.
SVG_POLICY = "default-src 'none'; style-src 'unsafe-inline'"


def svg_response(svg: bytes, etag: str) -> Response:
    """An SVG answer that the browser revalidates every time (304 while unchanged)."""
    response = Response(svg, mimetype="image/svg+xml")
    response.set_etag(etag)
    response.headers["Cache-Control"] = "private, no-cache"
    response.headers["Content-Security-Policy"] = SVG_POLICY
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.vary.add("Accept-Language")
    return response.make_conditional(request)


class Error(BaseModel):
    """A request that could not be served, with a message for people."""

    model_config = ConfigDict(extra="forbid")

    error: str


def json_response(answer: BaseModel, status: int = 200) -> Response:
    """A body model as a JSON answer, written by the app's JSON provider as every answer is."""
    response = current_app.json.response(answer.model_dump(mode="json"))
    response.status_code = status
    return response


def json_error(message: str, status: int) -> Response:
    """A refusal as JSON: `{"error": message}` (the `Error` model)."""
    return json_response(Error(error=message), status)
