"""GET /api/v1/openapi.json: an OpenAPI 3 document that describes every API route."""

from __future__ import annotations

import json
import re
from typing import Any

from flask import Flask

from scorekeeper.api import schemas

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
        "/games/{game_id}/leave",
        "/games/{game_id}/back",
        "/games/{game_id}/photos",
        "/games/{game_id}/hands",
        "/clubs/{club_id}/ratings",
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
            if path == "/games/{game_id}/photos":  # a photo, not JSON
                media = operation["requestBody"]["content"]["multipart/form-data"]
                assert media["schema"] == {"$ref": "#/components/schemas/PhotoUpload"}, where
            elif method in {"post", "put"}:
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


def test_request_examples_pass_validation_and_are_saved(client):
    doc = client.get(f"{API}/openapi.json").get_json()
    created = client.post(f"{API}/games", json={"players": ["Ana", "Ben", "Cy"]}).get_json()
    headers = {"Authorization": f"Bearer {created['edit_token']}"}
    for path, method, body in [
        ("/games", "post", "NewGame"),
        (f"/games/{created['id']}/rounds", "post", "RoundEntry"),
    ]:
        template = "/games/{game_id}/rounds" if "rounds" in path else path
        media = doc["paths"][template][method]["requestBody"]["content"]["application/json"]
        assert media["schema"] == {"$ref": f"#/components/schemas/{body}"}
        examples = [example["value"] for example in media["examples"].values()]
        assert examples
        for example in examples:
            getattr(schemas, body).model_validate(example)
        # The first example is a real request: the server takes it.
        answer = client.post(f"{API}{path}", json=examples[0], headers=headers)
        assert answer.status_code == 201, answer.get_json()


def test_unknown_properties_are_refused_and_documented(client):
    doc = client.get(f"{API}/openapi.json").get_json()
    for name in ("NewGame", "RoundEntry", "PenaltyEntry", "HouseRules"):
        assert doc["components"]["schemas"][name]["additionalProperties"] is False, name
    assert "422" in doc["info"]["description"] and "unknown_field" in doc["info"]["description"]
    response = client.post(f"{API}/games", json={"players": ["Ana", "Ben"], "colour": "red"})
    assert response.status_code == 422
    assert response.get_json() == {
        "errors": [
            {
                "player": None,
                "field": "colour",
                "code": "request.unknown_field",
                "message": "colour is not a field of this request.",
            }
        ]
    }


def test_write_routes_document_limits_busy_and_conditions(client):
    doc = client.get(f"{API}/openapi.json").get_json()
    writes = [
        doc["paths"]["/games"]["post"],
        doc["paths"]["/games/{game_id}/rounds"]["post"],
        doc["paths"]["/games/{game_id}/rounds/{number}"]["put"],
        doc["paths"]["/games/{game_id}/rounds/{number}"]["delete"],
    ]
    for operation in writes:
        for status in ("429", "503"):
            answer = operation["responses"][status]
            assert "Retry-After" in answer["headers"], (operation["summary"], status)
            schema = answer["content"]["application/json"]["schema"]
            assert schema == {"$ref": "#/components/schemas/Error"}
    for operation in writes[1:]:
        assert "If-Match" in [p["name"] for p in operation["parameters"]]
        assert (
            "ETag"
            in operation["responses"]["200" if "200" in operation["responses"] else "201"][
                "headers"
            ]
        )
    get = doc["paths"]["/games/{game_id}"]["get"]
    assert "If-None-Match" in [p["name"] for p in get["parameters"]]
    assert set(get["responses"]["304"]["headers"]) == {"ETag"}


def test_limits_are_in_the_document(client):
    schemas_ = client.get(f"{API}/openapi.json").get_json()["components"]["schemas"]
    players = schemas_["NewGame"]["properties"]["players"]
    assert (players["minItems"], players["maxItems"]) == (2, 14)
    name, _roster_ref = players["items"]["anyOf"]  # a name, or a club's roster player by id
    assert (name["minLength"], name["maxLength"]) == (1, 40)
    assert schemas_["NewGame"]["properties"]["set"]["enum"] == [6, 9, 12, 15, 18]
    pips = schemas_["RoundEntry"]["properties"]["scores"]["additionalProperties"]
    assert pips["type"] == ["integer", "null"] and pips["minimum"] == 0
    # Only JSON Schema keywords: none of pydantic's own names leak into the document.
    text = json.dumps(schemas_)
    assert '"ge"' not in text and '"le"' not in text
