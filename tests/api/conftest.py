"""API test helpers: create games through the API, bearer headers, and response schema checks."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from werkzeug.test import Client

from scorekeeper.api.openapi import document

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


def _check(instance: Any, schema: dict[str, Any], root: dict[str, Any], where: str) -> None:
    """A small JSON Schema subset (what openapi.py uses): enough to hold bodies to the doc."""
    if "$ref" in schema:
        name = schema["$ref"].removeprefix("#/components/schemas/")
        schema = root["components"]["schemas"][name]
    if "oneOf" in schema:
        passed = 0
        for option in schema["oneOf"]:
            try:
                _check(instance, option, root, where)
                passed += 1
            except AssertionError:
                pass
        assert passed == 1, f"{where}: {instance!r} matches {passed} of oneOf"
        return
    if "enum" in schema:
        assert instance in schema["enum"], f"{where}: {instance!r} not in {schema['enum']}"
    kinds = schema.get("type")
    if kinds is not None:
        kinds = [kinds] if isinstance(kinds, str) else kinds
        python = {
            "object": dict,
            "array": list,
            "string": str,
            "boolean": bool,
            "null": type(None),
        }
        ok = any(
            isinstance(instance, int) and not isinstance(instance, bool)
            if kind == "integer"
            else isinstance(instance, python[kind])
            for kind in kinds
        )
        assert ok, f"{where}: {instance!r} is not {kinds}"
    if isinstance(instance, dict):
        for key in schema.get("required", []):
            assert key in instance, f"{where}: {key} missing"
        properties = schema.get("properties", {})
        extra = schema.get("additionalProperties", True)
        for key, value in instance.items():
            if key in properties:
                _check(value, properties[key], root, f"{where}.{key}")
            elif extra is False:
                raise AssertionError(f"{where}: {key} is not in the schema")
            elif isinstance(extra, dict):
                _check(value, extra, root, f"{where}.{key}")
    if isinstance(instance, list) and "items" in schema:
        for index, item in enumerate(instance):
            _check(item, schema["items"], root, f"{where}[{index}]")


@pytest.fixture
def conforms() -> Callable[[Any, str], None]:
    """Assert a body matches a schema of the served OpenAPI document (by component name)."""
    root = document()

    def check(instance: Any, name: str) -> None:
        _check(instance, {"$ref": f"#/components/schemas/{name}"}, root, name)

    return check
