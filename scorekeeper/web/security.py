"""HTTP hardening: security headers on every response, no NUL byte inside, trusted proxies.

A small after_request hook rather than Flask-Talisman: the original Talisman is archived, its
fork's defaults (forcing HTTPS redirects, its own session-cookie settings) fight the settings
this app already has, and SVG charts keep their own stricter policy, which a per-response
`setdefault` leaves alone without per-view decorators.
"""

from __future__ import annotations

from flask import Flask, Response, abort, current_app, request
from werkzeug.middleware.proxy_fix import ProxyFix

from scorekeeper.web.styles import page_style_sources

# No inline script anywhere (templates load static/js files only) and no inline style but the
# page's own stylesheets, each allowed by its hash (styles.py), so the policy needs no
# 'unsafe-inline'. QR codes and charts are <img> of our own SVG routes.
CONTENT_SECURITY_POLICY = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "font-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    )
)
# Share and edit links carry their token in the URL: never send it to another site.
HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Opener-Policy": "same-origin",
}
HSTS = "max-age=31536000; includeSubDomains"


def content_security_policy(style_sources: list[str]) -> str:
    """The policy, allowing also the inline <style> elements with these hashes."""
    if not style_sources:
        return CONTENT_SECURITY_POLICY
    return CONTENT_SECURITY_POLICY.replace(
        "style-src 'self'", " ".join(["style-src 'self'", *style_sources])
    )


# The headers a 304 answered before Flask carries (polls.py, answers.py): all but the policy,
# which only the page itself can work out (see add_security_headers).
HEADERS_OF_304 = {
    name: value for name, value in HEADERS.items() if name != "Content-Security-Policy"
}

# Worked out once per process: the headers as (lower-cased name, name, value), and the policy
# for each set of inline stylesheets a page holds (a handful: app.css, plus one per section).
_PAIRS = tuple((name.lower(), name, value) for name, value in HEADERS.items())
_POLICIES: dict[tuple[str, ...], str] = {}


def add_security_headers(response: Response) -> Response:
    """Set the security headers a response does not set itself (charts keep their own CSP)."""
    headers = response.headers
    present = {name.lower() for name in headers.keys()}
    for lowered, name, value in _PAIRS:
        if lowered in present:
            continue
        if lowered == "content-security-policy":
            if response.status_code == 304:
                # A browser keeps a 304's headers with the page it had: a policy worked out
                # without the page (no stylesheet hashes) would then block the page's styles.
                continue
            value = _policy(tuple(page_style_sources()))
        headers.add(name, value)
    # Only over HTTPS: HSTS on a plain-HTTP deployment would lock browsers out of it.
    if current_app.config.get("SECURE_COOKIES") and "strict-transport-security" not in present:
        headers.add("Strict-Transport-Security", HSTS)
    return response


def refuse_nul_bytes() -> None:
    """No token, name or field of ours holds a NUL byte (PostgreSQL cannot even store one):
    404 for one in the path, 400 in the query, a cookie or a posted form. JSON bodies (the
    API's) and uploads (the club importer's) are refused by their own checks, with a reason."""
    if "\x00" in request.path:
        abort(404)
    fields = [*request.args.items(multi=True), *request.cookies.items(multi=True)]
    if request.mimetype == "application/x-www-form-urlencoded":
        fields += request.form.items(multi=True)
    if any("\x00" in key or "\x00" in value for key, value in fields):
        abort(400)


def _policy(sources: tuple[str, ...]) -> str:
    found = _POLICIES.get(sources)
    if found is None:
        found = _POLICIES[sources] = content_security_policy(list(sources))
    return found


def trusted_proxies(app: Flask) -> int:
    """The TRUSTED_PROXIES setting as a count (0 when unset); a clear error when it is not one."""
    value = app.config.get("TRUSTED_PROXIES") or 0
    if isinstance(value, str) and value.strip().isdecimal():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(
            f"TRUSTED_PROXIES must be a whole number of proxies (0 or more), not {value!r}."
        )
    return value


def init_app(app: Flask) -> None:
    """Add the headers and NUL hooks, and read X-Forwarded-* from as many proxies as are
    trusted."""
    app.after_request(add_security_headers)
    app.before_request(refuse_nul_bytes)
    proxies = trusted_proxies(app)
    if proxies:
        # The client address, scheme and host as the outermost trusted proxy saw them; with 0
        # a client could claim any address (and dodge the sign-in throttle), so none is read.
        app.wsgi_app = ProxyFix(  # type: ignore[method-assign]
            app.wsgi_app, x_for=proxies, x_proto=proxies, x_host=proxies
        )
