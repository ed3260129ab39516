"""This browser's identity: a long-lived random cookie that lists the games it created or opened.

Quick games need no account; the device cookie is what gives the phone that created a game its
edit rights, and what puts a game on the home page of every phone that opened it.
"""

from __future__ import annotations

import re
import secrets

from flask import Flask, Response, current_app, g, request

COOKIE = "sk_device"
MAX_AGE = 2 * 365 * 24 * 3600
_VALID = re.compile(r"^[A-Za-z0-9_-]{20,64}$")


def current_device() -> str:
    """This request's device token (a new one is made, and set as a cookie, if it had none)."""
    device = g.get("device")
    if device is None:
        raw = request.cookies.get(COOKIE, "")
        device = raw if valid(raw) else secrets.token_urlsafe(24)
        g.device = device
        g.device_is_new = raw != device
    return device


def known_device() -> str | None:
    """This request's device token if the browser already has one; never makes one (a page
    that only reads must not hand every crawler a new identity)."""
    device = g.get("device")
    if device is not None:
        return device
    raw = request.cookies.get(COOKIE, "")
    return raw if valid(raw) else None


def valid(raw: str) -> bool:
    """A device cookie's value is one of our tokens (anything else is replaced)."""
    return _VALID.match(raw) is not None


def device_label(device: str | None) -> str:
    """A short, stable label for a device in the history ("api" for API clients)."""
    if not device:
        return "?"
    return device if device.startswith("api") else device[:6]


def _set_cookie(response: Response) -> Response:
    if g.get("device_is_new"):
        response.set_cookie(
            COOKIE,
            g.device,
            max_age=MAX_AGE,
            httponly=True,
            samesite="Lax",
            secure=current_app.config.get("SESSION_COOKIE_SECURE", False),
        )
    return response


def init_app(app: Flask) -> None:
    """Set the device cookie on responses to requests that made a new device token."""
    app.after_request(_set_cookie)
