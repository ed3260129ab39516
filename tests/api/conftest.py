"""API test helpers: create games through the API, bearer headers, and response schema checks."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import jsonschema
import pytest
from werkzeug.test import Client

API = "/api/v1"


def bearer(token: str) -> dict[str, str]:
    """The Authorization header for a game token."""
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture
def make_game(client: Client) -> Callable[..., dict[str, Any]]:
    """POST /games with these fields (players Ana, Ben, Cy by default); returns the 201 body."""

    def make(**fields: Any) -> dict[str, Any]:
        body = {"players": ["Ana", "Ben", "Cy"], **fields}
        response = client.post(f"{API}/games", json=body)
        assert response.status_code == 201, response.get_json()
        return response.get_json()

    return make


@pytest.fixture
def conforms(client: Client) -> Callable[[Any, str], None]:
    """Assert a body matches a schema of the served OpenAPI document (by component name)."""
    components = client.get(f"{API}/openapi.json").get_json()["components"]

    def check(instance: Any, name: str) -> None:
        schema = {"$ref": f"#/components/schemas/{name}", "components": components}
        jsonschema.Draft202012Validator(schema).validate(instance)

    return check
