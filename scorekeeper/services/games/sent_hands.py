"""Hands the players send from their own phones (the table link, issue 33), before the round is
saved: checked by the core as the round form's hands are, kept one per player and round (a hand
sent again replaces the first), shown on the scorer's round form and never counted until the
scorer saves the round.

A sent hand is not a row of the game for versions.py: sending one leaves the game's version
alone, so the scorer's form (pinned to the version it read) saves as it would have, and no
page, chart or cache of the game moves. The scorer's page learns of sent hands from its own
small poll, whose ETag is `sent_key` (games/views/table.py).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select

from scorekeeper import core
from scorekeeper.extensions import db
from scorekeeper.models import Game, SentHand, etag_of, utcnow
from scorekeeper.services.games.snapshot import Snapshot, snapshot_of
from scorekeeper.services.unit import unit_of_work


@dataclass(frozen=True)
class SentLine:
    """One hand as a player sent it: for the scorer's form, the player's phone and the API."""

    round: int
    player: str
    pips: int
    tiles: tuple[str, ...] | None
    sent_at: datetime


class NotThisRound(Exception):
    """A hand for a round that is not the one being played (saved already, or not begun), or
    for a game that is over: nothing was sent."""

    def __init__(self, asked: int, current: int | None) -> None:
        super().__init__(asked, current)
        self.asked = asked
        self.current = current  # None: the game is over

    @property
    def words(self) -> tuple[str, dict[str, object]]:
        """What to tell the player (a template for gettext, and its values)."""
        if self.current is None:
            return core.N_("The game is over: no hand can be sent."), {}
        if self.asked < self.current:
            return core.N_(
                "Round %(n)s is already saved: your hand was not sent. "
                "Ask the scorer to correct it."
            ), {"n": self.asked}
        return core.N_("Round %(n)s has not started: the table is playing round %(current)s."), {
            "n": self.asked,
            "current": self.current,
        }


class HandRefused(Exception):
    """The rules refuse the hand (the core's problems, each with its field): nothing was sent."""

    def __init__(self, problems: tuple[core.Problem, ...]) -> None:
        super().__init__(problems)
        self.problems = problems


def current_round(snapshot: Snapshot) -> int | None:
    """The round hands may be sent for, or None once the game is over."""
    return None if snapshot.state.finished else snapshot.state.next_round


def _rows(game_id: int, round_number: int) -> list[SentHand]:
    return list(
        db.session.execute(
            select(SentHand)
            .where(SentHand.game_id == game_id, SentHand.round_number == round_number)
            .order_by(SentHand.seat)
        ).scalars()
    )


def _entry(row: SentHand) -> core.HandEntry:
    if row.tiles is not None:
        return core.HandEntry(tiles=row.tiles.split())
    return core.HandEntry(pips=str(row.pips))


def sent_hands(game: Any, snapshot: Snapshot | None = None) -> list[SentLine]:
    """The hands sent for the game's current round, in seat order (none once it is over)."""
    snapshot = snapshot if snapshot is not None else snapshot_of(game)
    number = current_round(snapshot)
    if number is None:
        return []
    names = {seat: name for name, seat in snapshot.seat_of.items()}
    return [
        SentLine(
            number,
            names[row.seat],
            row.pips,
            tuple(row.tiles.split()) if row.tiles is not None else None,
            row.sent_at,
        )
        for row in _rows(game.id, number)
        if row.seat in names
    ]


def sent_key(game: Any) -> str:
    """What the scorer's poll of sent hands is keyed by: the game's version and every hand sent
    for its current round (a new or replaced hand moves it)."""
    lines = sent_hands(game)
    text = "|".join(f"{line.player}:{line.pips}:{line.tiles}:{line.sent_at}" for line in lines)
    version = etag_of(game.id, game.version, game.view_token)
    return f"{version}-{hashlib.blake2b(text.encode(), digest_size=6).hexdigest()}"


def send_hand(game: Game, round_number: int, player: str, hand: core.HandEntry) -> SentLine:
    """Keep `player`'s hand for `round_number`, replacing one they sent before; NotThisRound if
    that round is not the current one, HandRefused with the core's problems if the rules refuse
    the hand (the other hands sent for the round count: a tile is in one hand only)."""
    snapshot = snapshot_of(game)
    current = current_round(snapshot)
    if current is None or round_number != current:
        raise NotThisRound(round_number, current)
    seat_of = snapshot.seat_of
    names = {seat: name for name, seat in seat_of.items()}
    with unit_of_work():
        rows = _rows(game.id, round_number)
        hands = {names[row.seat]: _entry(row) for row in rows if row.seat in names}
        hands[player] = hand
        check = core.check_hands(snapshot.setup, round_number, hands, player)
        if check.errors:
            raise HandRefused(check.errors)
        pips, tiles = _value(snapshot, round_number, hand)
        seat = seat_of[player]
        row = next((row for row in rows if row.seat == seat), None)
        if row is None:
            row = SentHand(game_id=game.id, round_number=round_number, seat=seat)
            db.session.add(row)
        row.pips, row.tiles, row.sent_at = pips, tiles, utcnow()
    return SentLine(
        round_number, player, pips, tuple(tiles.split()) if tiles else None, row.sent_at
    )


def _value(snapshot: Snapshot, round_number: int, hand: core.HandEntry) -> tuple[int, str | None]:
    """The hand's pips as the core counts them, and its tiles as stored ("6-4 3-2")."""
    if hand.tiles is None:
        pips = core.parse_points(hand.pips)
        assert pips is not None  # check_hands refused anything else
        return pips, None
    tiles = [core.parse_tile(text) for text in hand.tiles]
    pips = core.hand_value(tiles, snapshot.setup.rules.blank_scoring)
    return pips, " ".join(str(tile) for tile in tiles)
