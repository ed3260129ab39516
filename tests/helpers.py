"""Helpers every area's tests share: a game's stored objects, how many games there are, a club
import that returns the club, a game's ETag, and the benchmark scripts (bench/ is not a package)
as modules."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import selectinload

from scorekeeper.extensions import db
from scorekeeper.models import Club, Game, Round, etag_of
from scorekeeper.services import importer

BENCH_DIR = Path(__file__).resolve().parent.parent / "bench"


def load_game(game_id: int) -> Game | None:
    """The game with its seats, rounds, hands and penalties as stored objects, in a fixed
    number of queries (tests look at what was stored; pages read snapshots)."""
    return db.session.execute(
        select(Game)
        .where(Game.id == game_id)
        .options(
            selectinload(Game.players),
            selectinload(Game.round_rows).selectinload(Round.hands),
            selectinload(Game.round_rows).selectinload(Round.penalties),
        )
    ).scalar_one_or_none()


def game_etag(game: Mapping[str, Any], version: int) -> str:
    """The ETag header the API sends with `version` of a quick game it made (`game`: the body
    of its 201: the id and share token name the game)."""
    return f'"{etag_of(game["id"], version, game["view_token"])}"'


def count_games() -> int:
    """How many games the database holds."""
    return db.session.execute(select(func.count(Game.id))).scalar_one()


def import_club_json(data: object) -> Club:
    """Import a club export (the dict of export_club_json) as a new club; ImportProblem if junk."""
    return importer.import_club(data).club


@cache
def bench_module(name: str) -> ModuleType:
    """bench/<name>.py, imported from its file once per test session."""
    spec = importlib.util.spec_from_file_location(f"bench_{name}", BENCH_DIR / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the file runs
    spec.loader.exec_module(module)
    return module
