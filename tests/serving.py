"""Serve a test app from a thread on loopback: the browser tests' servers and Schemathesis'."""

import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from flask import Flask
from werkzeug.serving import WSGIRequestHandler, make_server

from scorekeeper.extensions import db

RESPONSE_KEY = "tests.response"


class ClosingRequestHandler(WSGIRequestHandler):
    """Werkzeug's development server leaves an answer unclosed when the browser drops the
    connection mid-answer (a page navigating away while a static file is sent); its open file
    then surfaces later as a ResourceWarning in whatever test is running. Close it here."""

    def connection_dropped(self, error: BaseException, environ: Any = None) -> None:
        response = (environ or {}).get(RESPONSE_KEY)
        if response is not None and hasattr(response, "close"):
            response.close()


@contextmanager
def serve(
    app: Flask, handler: type[ClosingRequestHandler] = ClosingRequestHandler
) -> Iterator[str]:
    """Serve `app` on a free loopback port; yield its base URL; stop and dispose after."""
    wsgi_app = app.wsgi_app

    def keeping_the_answer(environ: dict, start_response: Any) -> Iterable[bytes]:
        environ[RESPONSE_KEY] = answer = wsgi_app(environ, start_response)
        return answer

    server = make_server("127.0.0.1", 0, keeping_the_answer, threaded=True, request_handler=handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(timeout=5)
        server.server_close()
        with app.app_context():
            db.engine.dispose()
