"""GET /api/v1/openapi.json: an OpenAPI 3 document that describes every API route."""

from __future__ import annotations

import json
import re
from typing import Any

from flask import Flask

API = "/api/v1"
METHODS = {"get", "post", "put", "delete", "patch"}


def api_routes(app: Flask) -> dict[str, set[str]]:
    """The API's routes as OpenAPI paths (relative to the server URL) and their methods."""
    routes: dict[str, set[str]] = {}
    for rule in app.url_map.iter_rules():
        if not rule.endpoint.startswith("api."):
            continue
        path = re.sub(r"<(?:[^<>]*:)?(\w+)>", r"{\1}", rule.rule).removeprefix(API)
        routes.setdefault(path, set()).update(m.lower() for m in rule.methods or ())
    return {path: methods & METHODS for path, methods in routes.items()}


def refs(node: Any) -> list[str]:
    if isinstance(node, dict):
        found = [node["$ref"]] if "$ref" in node else []
        return found + [ref for value in node.values() for ref in refs(value)]
    if isinstance(node, list):
        return [ref for value in node for ref in refs(value)]
    return []


def test_document_is_openapi_3_json(client):
    response = client.get(f"{API}/openapi.json")
    assert response.status_code == 200
    assert response.mimetype == "application/json"
    doc = json.loads(response.data)
    assert re.fullmatch(r"3\.\d+\.\d+", doc["openapi"])
    assert doc["info"]["title"] and doc["info"]["version"]
    assert doc["servers"] == [{"url": API}]


def test_every_route_and_method_is_described(client, app):
    doc = client.get(f"{API}/openapi.json").get_json()
    described = {
        path: {key for key in item if key in METHODS} for path, item in doc["paths"].items()
    }
    assert described == api_routes(app)
    assert set(described) == {
        "/openapi.json",
        "/games",
        "/games/{game_id}",
        "/games/{game_id}/rounds",
        "/games/{game_id}/rounds/{number}",
    }


def test_operations_declare_parameters_bodies_and_responses(client):
    doc = client.get(f"{API}/openapi.json").get_json()
    for path, item in doc["paths"].items():
        for method, operation in item.items():
            if method not in METHODS:
                continue
            where = f"{method} {path}"
            declared = {
                p["name"] for p in item.get("parameters", []) + operation.get("parameters", [])
            }
            assert set(re.findall(r"{(\w+)}", path)) <= declared, where
            assert operation["summary"], where
            assert operation["responses"], where
            for status, answer in operation["responses"].items():
                assert re.fullmatch(r"[1-5]\d\d", status), where
                assert answer["description"], where
            if method in {"post", "put"}:
                assert "application/json" in operation["requestBody"]["content"], where
            if path.startswith("/games/"):
                assert operation["security"] == [{"bearer": []}, {"personalToken": []}], where
                assert {"401", "403", "404"} <= set(operation["responses"]), where


def test_every_reference_resolves(client):
    doc = client.get(f"{API}/openapi.json").get_json()
    schemas = doc["components"]["schemas"]
    used = set()
    for ref in refs(doc):
        assert ref.startswith("#/components/schemas/"), ref
        name = ref.removeprefix("#/components/schemas/")
        assert name in schemas, ref
        used.add(name)
    assert used == set(schemas)  # nothing described that no route uses
