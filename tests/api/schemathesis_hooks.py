"""A Schemathesis check of our own, loaded by tests/api/test_api_schemathesis.py.

A request that fits the document may still break a rule of the game (a name that is not one of
this game's players, a start double above the set): the API answers 422 with the rule's code,
and that is a right answer. What it must never do is refuse such a request for its *shape*
(codes `request.*`): that would mean the document allows what the server refuses.
"""

from __future__ import annotations

import schemathesis


@schemathesis.check
def valid_data_is_refused_only_by_the_rules(ctx, response, case) -> bool | None:
    """A schema-valid request answered 422 carries only rule codes, never a shape code."""
    meta = case.meta
    if meta is None or not meta.generation.mode.is_positive or response.status_code != 422:
        return None
    body = response.json()
    problems = body.get("errors", []) + body.get("warnings", [])
    shape = sorted({p["code"] for p in problems if p["code"].startswith("request.")})
    if shape:
        raise AssertionError(f"A request that fits the document was refused for its shape: {shape}")
    return None
