"""A hand sent before its round is saved (a player's own phone, issue 33): checked by the same
rules as a hand of the round sheet (RULES.md section 8), alone and against the hands already
sent for the round."""

from __future__ import annotations

from collections.abc import Mapping

from .problems import N_
from .rounds import Checker, HandEntry, RoundCheck, RoundEntry
from .setup import GameSetup
from .tiles import Tile


def check_hands(
    game: GameSetup, round_number: int, hands: Mapping[str, HandEntry], player: str
) -> RoundCheck:
    """Check one player's hand sent before the round is saved (a table link, issue 33) with the
    same rules as a whole round: a number of pips in range, or tiles from the set, not the
    round's engine, not also in another hand already sent (`hands`: every hand sent so far,
    this player's among them). Only the problems of `player`'s hand are returned."""
    checker = Checker(game, round_number, RoundEntry(hands=hands))
    if player not in game.players:
        checker.error(
            "hand_unknown",
            N_("%(name)s is not playing in this game."),
            None,
            "players",
            name=str(player)[:40],
        )
        return RoundCheck(tuple(checker.errors))
    holders: dict[Tile, str] = {}
    # The others' tiles first: a tile already sent by someone else is this player's mistake.
    for other in game.players:
        if other != player and other in hands:
            checker.hand_pips(other, hands[other], False, holders)
    checker.errors.clear()
    value, _held = checker.hand_pips(player, hands.get(player), False, holders)
    if value is not None:
        checker.check_bounds({player: value})
    errors = tuple(p for p in checker.errors if p.player == player)
    warnings = tuple(p for p in checker.warnings if p.player == player)
    return RoundCheck(errors, warnings)
