"""A club export (the JSON of export_json.py) made into a new club, in one transaction.

The file is read with limits (size, nesting), checked against its schema (import_schema.py)
and for references (import_refs.py), and every round goes through the same rules as a live
save (import_rules.py): anything wrong refuses the whole file and nothing is saved.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, BinaryIO

from flask import current_app
from sqlalchemy import func, or_, select
from sqlalchemy.exc import IntegrityError

from scorekeeper.core import N_
from scorekeeper.extensions import db
from scorekeeper.models import (
    Change,
    Club,
    ClubEvent,
    ClubNight,
    Game,
    Hand,
    Invite,
    Membership,
    Penalty,
    Player,
    RosterPlayer,
    Round,
    Season,
    User,
)
from scorekeeper.services.accounts import normalise_email
from scorekeeper.services.export_json import Refs
from scorekeeper.services.import_refs import check_references
from scorekeeper.services.import_rules import check_game_rules
from scorekeeper.services.import_schema import ImportProblem, Phrase, check_document
from scorekeeper.services.unit import unit_of_work

__all__ = ["ImportProblem", "ImportReport", "import_club", "read_document"]

# The largest file import-club reads (the setting IMPORT_MAX_BYTES): a club's years of games
# are a few megabytes; a file many times that is not an export.
IMPORT_MAX_BYTES = 20 * 1024 * 1024
# The format is about 6 levels deep; anything much deeper is not an export (and parsing it
# would exhaust Python's stack).
MAX_DEPTH = 20
# Every number in the format fits in 32 bits (10 digits); a longer one is not an export's.
MAX_DIGITS = 20
_TOKEN_BATCH = 500
# A JSON string (escapes included), then anything that is not a bracket.
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")


@dataclass
class ImportReport:
    """What an import created: the club, row counts, and accounts that need a password (the
    CLI), or the people the file names whom an upload from the web did not add (`not_added`)."""

    club: Club
    counts: dict[str, int]
    new_users: list[str] = field(default_factory=list)
    not_added: list[str] = field(default_factory=list)


# Reading the file --------------------------------------------------------------------------


def _depth(text: str) -> int:
    """How deeply the JSON text nests arrays and objects, counted without parsing it (so
    without recursion): brackets inside strings do not count."""
    deepest = depth = 0
    for bracket in _NOT_BRACKET.sub("", _STRING.sub("", text)):
        depth += 1 if bracket in "[{" else -1
        deepest = max(deepest, depth)
    return deepest


def _whole_number(digits: str) -> int:
    """A JSON integer, refused before Python converts one longer than any field holds (a
    5000-digit number would otherwise stop the reader with Python's own error)."""
    if len(digits.lstrip("-")) > MAX_DIGITS:
        raise ImportProblem(
            N_("The file holds a number of more than %(digits)s digits: no field takes one."),
            digits=MAX_DIGITS,
        )
    return int(digits)


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object, refused if it names one key twice (which value would count is not said
    by JSON, and readers disagree)."""
    found: dict[str, Any] = {}
    for key, value in pairs:
        if key in found:
            raise ImportProblem(
                N_("The file names %(key)s twice in one object: it is not a club export."),
                key=repr(key),
            )
        found[key] = value
    return found


def read_document(source: BinaryIO | bytes) -> object:
    """The JSON of an import file (a binary file or its bytes); ImportProblem if it is larger
    than IMPORT_MAX_BYTES, not UTF-8 JSON, or nested deeper than MAX_DEPTH."""
    limit = int(current_app.config.get("IMPORT_MAX_BYTES", IMPORT_MAX_BYTES))
    raw = source if isinstance(source, bytes) else source.read(limit + 1)
    if len(raw) > limit:
        raise ImportProblem(
            N_(
                "The file is larger than %(limit)s bytes (IMPORT_MAX_BYTES): it is not a club "
                "export. Nothing was imported."
            ),
            limit=limit,
        )
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise ImportProblem(
            N_("This is not a JSON file: it is not UTF-8 text (at byte %(position)s)."),
            position=error.start,
        ) from None
    if _depth(text) > MAX_DEPTH:
        raise ImportProblem(
            N_(
                "The file nests lists and objects more than %(depth)s deep: it is not a club "
                "export. Nothing was imported."
            ),
            depth=MAX_DEPTH,
        )
    try:
        return json.loads(text, parse_int=_whole_number, object_pairs_hook=_object)
    except json.JSONDecodeError as error:
        # Where it stops being JSON (the json module says what it expected only in English).
        raise ImportProblem(
            N_("This is not a JSON file: it stops being JSON at line %(line)s, column %(column)s."),
            line=error.lineno,
            column=error.colno,
        ) from None
    except RecursionError:  # brackets the count above could not see (the text is not JSON)
        raise ImportProblem(N_("This is not a JSON file: it nests too deeply.")) from None


def count_rows(doc: Mapping[str, Any], owner: User | None = None) -> dict[str, int]:
    """How many of each thing a (checked) document holds, for the import's summary (an upload
    by `owner`: one member, no invite)."""
    games = doc["games"]
    return {
        "members": 1 if owner else len(doc["members"]),
        "invites": 0 if owner else len(doc["invites"]),
        "roster": len(doc["roster"]),
        "seasons": len(doc["seasons"]),
        "club_nights": len(doc["club_nights"]),
        "games": len(games),
        "rounds": sum(len(game["rounds"]) for game in games),
        "history": sum(len(game["history"]) for game in games),
    }


# Writing it --------------------------------------------------------------------------------


def _taken_tokens(doc: Mapping[str, Any], owner: User | None) -> list[Phrase]:
    """Which of the document's tokens this instance already uses (links must stay unique)."""
    taken: list[Phrase] = []
    club_token = doc["club"]["public_token"]
    if db.session.execute(select(Club.id).where(Club.public_token == club_token)).first():
        taken.append(
            Phrase(N_("the club's public page token %(token)s"), {"token": repr(club_token)})
        )
    invite_tokens = [] if owner else [invite["token"] for invite in doc["invites"]]
    game_tokens = [t for game in doc["games"] for t in (game["edit_token"], game["view_token"])]
    for start in range(0, len(invite_tokens), _TOKEN_BATCH):
        batch = invite_tokens[start : start + _TOKEN_BATCH]
        query = select(Invite.token).where(Invite.token.in_(batch))
        found = db.session.execute(query).scalars()
        taken += [Phrase(N_("invite token %(token)s"), {"token": repr(t)}) for t in found]
    for start in range(0, len(game_tokens), _TOKEN_BATCH):
        batch = game_tokens[start : start + _TOKEN_BATCH]
        pairs = select(Game.edit_token, Game.view_token).where(
            or_(Game.edit_token.in_(batch), Game.view_token.in_(batch))
        )
        for edit, view in db.session.execute(pairs).all():
            taken += [
                Phrase(N_("game token %(token)s"), {"token": repr(t)})
                for t in (edit, view)
                if t in batch
            ]
    return taken


def _named_people(doc: Mapping[str, Any], owner: User) -> list[str]:
    """The emails of the file's members and linked roster players, other than `owner`'s."""
    named = {normalise_email(m["user"]) for m in doc["members"]}
    named |= {normalise_email(entry["user"]) for entry in doc["roster"] if entry["user"]}
    return sorted(named - {normalise_email(owner.email)})


def _users(doc: Mapping[str, Any], owner: User | None) -> tuple[dict[str, User], list[str]]:
    """The document's users by lower-cased email: existing accounts, or new ones (no password).
    An upload by `owner` touches no account: only the owner's own email maps to an account."""
    if owner is not None:
        return {normalise_email(owner.email): owner}, []
    by_email: dict[str, User] = {}
    created: list[str] = []
    for entry in doc["users"]:
        email = normalise_email(entry["email"])
        user = db.session.execute(
            select(User).where(func.lower(User.email) == email)
        ).scalar_one_or_none()
        if user is None:
            user = User(email=email, name=entry["name"], password_hash=None)
            db.session.add(user)
            created.append(email)
        by_email[email] = user
    return by_email, created


def _columns(entry: Mapping[str, Any], *other: str) -> dict[str, Any]:
    """A document entry's fields that are its row's columns as they are (`other`: the fields
    that are references, or rows of their own)."""
    return {key: value for key, value in entry.items() if key not in other}


def _date_older_game(game: Game) -> None:
    """A game from a file made before games carried their day: dated as migration
    0005_game_played_on dates existing games (its night's day, or the day it was created)."""
    night = db.session.get(ClubNight, game.club_night_id) if game.club_night_id else None
    game.played_on = night.played_on if night is not None else game.created_at.date()
    game.played_at = game.created_at if game.created_at.date() == game.played_on else None
    game.season_by_hand = False


def _import_game(doc_game: Mapping[str, Any], club: Club, refs: Refs, index: int) -> Game:
    """One game with its players, rounds, hands, penalties and history, its rounds checked and
    scored by the rules (flushed, not committed); ImportProblem if a round breaks them."""
    game = Game(
        club_id=club.id,
        **_columns(doc_game, "rules", "season", "club_night", "players", "rounds", "history"),
        season_id=refs.of(refs.seasons, doc_game["season"]),
        club_night_id=refs.of(refs.nights, doc_game["club_night"]),
        **doc_game["rules"],
    )
    if "played_on" not in doc_game:
        _date_older_game(game)
    # In seating order, as the game is read back: the core seats players in this order.
    game.players = [
        Player(**_columns(p, "roster"), roster_player_id=refs.of(refs.roster, p["roster"]))
        for p in sorted(doc_game["players"], key=lambda p: p["seat"])
    ]
    game.round_rows = [
        Round(
            **_columns(r, "hands", "penalties"),
            hands=[Hand(**hand) for hand in r["hands"]],
            penalties=[Penalty(**penalty) for penalty in r["penalties"]],
        )
        for r in doc_game["rounds"]
    ]
    db.session.add(game)
    db.session.flush()
    db.session.add_all(Change(game_id=game.id, **change) for change in doc_game["history"])
    db.session.flush()  # the late arrivals' rules are read from the history
    check_game_rules(game, club, index)
    return game


def _add_members(
    doc: Mapping[str, Any], club: Club, users: dict[str, User], owner: User | None
) -> None:
    """The file's members and invites; an upload by `owner`: the owner alone, no invite (the
    file's invite links belong to the club it came from), and a line in the club's history."""
    if owner is not None:
        db.session.add(Membership(club_id=club.id, user_id=owner.id, role="owner"))
        db.session.add(
            ClubEvent(
                club_id=club.id, user_id=owner.id, user_name=owner.name[:80], action="imported"
            )
        )
        return
    db.session.add_all(
        Membership(
            club_id=club.id, user_id=users[normalise_email(m["user"])].id, **_columns(m, "user")
        )
        for m in doc["members"]
    )
    db.session.add_all(
        Invite(
            club_id=club.id,
            created_by=users[normalise_email(i["created_by"])].id if i["created_by"] else None,
            **_columns(i, "created_by"),
        )
        for i in doc["invites"]
    )


def _import(doc: Mapping[str, Any], owner: User | None) -> tuple[Club, list[str]]:
    """The document's club and everything it holds, added to the session (not committed);
    returns the club and the emails of the accounts it created."""
    users, created = _users(doc, owner)
    source = doc["club"]
    club = Club(**_columns(source, "rules"), **source["rules"])
    db.session.add(club)
    db.session.flush()
    _add_members(doc, club, users, owner)
    seasons = {
        entry["ref"]: Season(club_id=club.id, **_columns(entry, "ref", "rules"), **entry["rules"])
        for entry in doc["seasons"]
    }
    db.session.add_all(seasons.values())
    db.session.flush()
    nights = {
        entry["ref"]: ClubNight(
            club_id=club.id,
            season_id=seasons[entry["season"]].id if entry["season"] is not None else None,
            **_columns(entry, "ref", "season"),
        )
        for entry in doc["club_nights"]
    }
    db.session.add_all(nights.values())
    roster: dict[int, RosterPlayer] = {}
    for entry in doc["roster"]:
        user = users.get(normalise_email(entry["user"])) if entry["user"] else None
        roster[entry["ref"]] = RosterPlayer(
            club_id=club.id,
            user_id=user.id if user else None,
            **_columns(entry, "ref", "user", "merged_into"),
        )
    db.session.add_all(roster.values())
    db.session.flush()
    for entry in doc["roster"]:
        if entry["merged_into"] is not None:
            roster[entry["ref"]].merged_into_id = roster[entry["merged_into"]].id
    refs = Refs(
        roster={ref: row.id for ref, row in roster.items()},
        seasons={ref: row.id for ref, row in seasons.items()},
        nights={ref: row.id for ref, row in nights.items()},
    )
    for index, doc_game in enumerate(doc["games"]):
        _import_game(doc_game, club, refs, index)
    return club, created


def import_club(data: object, owner: User | None = None) -> ImportReport:
    """Import a club export as a new club, all or nothing; ImportProblem if it cannot be.

    The CLI (no `owner`) brings the file's members along, making accounts for those this
    instance lacks. An upload from the web by `owner` touches nobody else's account: the
    uploader is the one member (the owner), the file's invites are left out, and roster players
    linked to others' accounts come unlinked; the report's `not_added` lists those people."""
    doc = check_document(data)
    check_references(doc)
    taken = _taken_tokens(doc, owner)
    if len(taken) > 3:
        raise ImportProblem(
            N_(
                "This instance already uses %(tokens)s and %(more)s more: was this club imported "
                "here before? Nothing was imported."
            ),
            tokens=tuple(taken[:3]),
            more=len(taken) - 3,
        )
    if taken:
        raise ImportProblem(
            N_(
                "This instance already uses %(tokens)s: was this club imported here before? "
                "Nothing was imported."
            ),
            tokens=tuple(taken),
        )
    try:
        with unit_of_work():
            club, created = _import(doc, owner)
    except IntegrityError as error:
        # A token or account made by someone else while this import ran: the database's own
        # words go to the log, the organiser reads what happened.
        current_app.logger.warning("import-club clashed: %s", error.orig)
        raise ImportProblem(
            N_(
                "The import clashes with this instance's data (a link or an account made while "
                "it ran). Nothing was imported."
            )
        ) from None
    named = _named_people(doc, owner) if owner is not None else []
    return ImportReport(club, count_rows(doc, owner), created, named)
