"""A game as rows and as the core sees it: the one mapping between the two, both ways.

Reads go from plain rows (the snapshot's queries) to the core's values; writes go from the
core's values to the tables' columns and rows. The benchmark's bulk writer uses the same
functions, so what it stores is what the services store.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence, Set
from dataclasses import replace
from typing import Any

from scorekeeper import core
from scorekeeper.models import Hand, Penalty, Round


def entry_digest(entry: core.RoundEntry) -> str:
    """A round as typed, named by 64 hex digits: the same hands, went-out, blocked and
    penalties give the same digest (what binds a write's key to its round)."""

    def text(value: object) -> str:
        return "" if value is None else str(value).strip()

    out = entry.out
    shape = {
        "hands": {
            player: [text(hand.pips), sorted(hand.tiles) if hand.tiles is not None else None]
            for player, hand in sorted(entry.hands.items())
        },
        "out": sorted(out) if isinstance(out, (list, tuple)) else text(out),
        "blocked": bool(entry.blocked),
        "penalties": sorted(
            [p.player, p.kind, text(p.points), p.reason.strip()] for p in entry.penalties
        ),
    }
    encoded = json.dumps(shape, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(encoded.encode("utf-8")).hexdigest()


def rules_of(game: Any) -> core.GameRules:
    """A game row's option columns as the core's GameRules (rule_columns writes them)."""
    return core.GameRules(
        game_type=core.GameType(game.game_type),
        set_size=game.set_size,
        blank_scoring=core.BlankScoring(game.blank_scoring),
        start_double=game.start_double,
        rounds=game.rounds,
        order=core.Order(game.order),
        hand_size=game.hand_size,
        target=game.target,
        house_rules=house_rules_of(game),
    )


def house_rules_of(row: Any) -> core.HouseRules:
    """A game's (or a club's default) house-rule columns as the core's HouseRules."""
    return core.house_rules_from({rule.name: getattr(row, rule.name) for rule in core.HOUSE_RULES})


def house_values_of(row: Any) -> dict[str, int | bool]:
    """A game's (or a club's default) house rules by name, as the export writes them."""
    return core.house_rule_values(house_rules_of(row))


def set_house_rules(row: Any, house: core.HouseRules) -> None:
    """Write house rules onto a game's or a club's columns (house_rules_of reads them back)."""
    for name, value in core.house_rule_values(house).items():
        setattr(row, name, value)


def rule_columns(rules: core.GameRules) -> dict[str, object]:
    """The game row's option columns for these rules (rules_of reads them back)."""
    return {
        "game_type": rules.game_type.value,
        "set_size": rules.set_size,
        "blank_scoring": rules.blank_scoring.value,
        "start_double": rules.start_double,
        "rounds": rules.rounds,
        "order": rules.order.value,
        "hand_size": rules.hand_size,
        "target": rules.target,
        **core.house_rule_values(rules.house_rules),
    }


def setup_of(game: Any, seats: Sequence[Any]) -> core.GameSetup:
    """The game as the core sees it: players in seating order, rules, teams.

    `game`: its row's columns; `seats`: rows with seat, name, team and left_after (the last
    round played by a player who left), in seat order."""
    names = tuple(seat.name for seat in seats)
    left = tuple(
        (seat.name, seat.left_after)
        for seat in seats
        if getattr(seat, "left_after", None) is not None
    )
    teams: dict[int, list[str]] = {}
    for seat in seats:
        if seat.team is not None:
            teams.setdefault(seat.team, []).append(seat.name)
    pairs = tuple((pair[0], pair[1]) for _, pair in sorted(teams.items()) if len(pair) == 2)
    return core.GameSetup(names, rules_of(game), pairs, left)


def result_of(stored: Any, names: Mapping[int, str]) -> core.RoundResult:
    """A stored round (engine, out_seat, blocked, hands, penalties as rows) as the core's
    RoundResult: the scores the core gave it when it was saved. `names`: names by seat."""
    hands = tuple(
        core.HandResult(
            player=names[hand.seat],
            pips=hand.pips,
            penalty=hand.penalty,
            score=hand.score,
            went_out=hand.went_out,
            tiles=tuple(core.parse_tile(t) for t in hand.tiles.split()) if hand.tiles else None,
            missed=bool(hand.late) or bool(getattr(hand, "away", False)),
            away=bool(getattr(hand, "away", False)),
        )
        for hand in stored.hands
    )
    penalties = tuple(
        core.Penalty(names[p.seat], core.PenaltyKind(p.kind), p.points, p.reason)
        for p in stored.penalties
    )
    out = names.get(stored.out_seat) if stored.out_seat is not None else None
    return core.RoundResult(stored.engine, hands, out, stored.blocked, penalties)


def entry_of(result: core.RoundResult) -> core.RoundEntry:
    """A scored round as the entry that gives it (to prefill the edit form)."""
    hands = {
        hand.player: core.HandEntry(
            pips=hand.pips,
            tiles=[str(t) for t in hand.tiles] if hand.tiles is not None else None,
        )
        for hand in result.hands
    }
    penalties = [
        core.PenaltyEntry(p.player, p.kind.value, p.points, p.reason) for p in result.penalties
    ]
    return core.RoundEntry(hands, result.out, result.blocked, penalties)


def as_played(
    setup: core.GameSetup, away: Set[str], entry: core.RoundEntry
) -> tuple[core.GameSetup, core.RoundEntry]:
    """The table as it played a round that `away` missed (late arrivals, leavers): without them
    (whatever the entry says for them is left out: their score follows from the others')."""
    if not away:
        # An old round is checked as it was played: who is away now has nothing to do with it.
        return replace(setup, left_after=()), entry
    present = tuple(name for name in setup.players if name not in away)
    teams = tuple(team for team in setup.teams if not away & set(team))
    hands = {name: hand for name, hand in entry.hands.items() if name not in away}
    return core.GameSetup(present, setup.rules, teams), replace(entry, hands=hands)


def late_rule_in(history_value: str | None) -> core.LateRule | None:
    """The late-arrival rule a "joined late (highest)" history line records, or None."""
    word = (history_value or "").rstrip(")").rsplit("(", 1)[-1]
    return core.LateRule(word) if word in {rule.value for rule in core.LateRule} else None


def tiles_text(tiles: Sequence[core.Tile] | None) -> str | None:
    """A hand's tiles as stored ("6-4 3-2"), or None for a hand entered as a number."""
    return " ".join(str(t) for t in tiles) if tiles is not None else None


def round_columns(result: core.RoundResult, seat_of: Mapping[str, int]) -> dict[str, Any]:
    """A scored round's own columns. `seat_of`: each player's seat, by name."""
    return {
        "engine": result.engine,
        "out_seat": seat_of[result.out] if result.out else None,
        "blocked": result.blocked,
    }


def hand_columns(hand: core.HandResult, seat_of: Mapping[str, int]) -> dict[str, Any]:
    """One scored hand's columns."""
    return {
        "seat": seat_of[hand.player],
        "pips": hand.pips,
        "tiles": tiles_text(hand.tiles),
        "penalty": hand.penalty,
        "score": hand.score,
        "went_out": hand.went_out,
        "away": hand.away,
    }


def penalty_columns(penalty: core.Penalty, seat_of: Mapping[str, int]) -> dict[str, Any]:
    """One scored penalty's columns."""
    return {
        "seat": seat_of[penalty.player],
        "kind": penalty.kind.value,
        "points": penalty.points,
        "reason": penalty.reason[:200],
    }


def store_result(row: Round, result: core.RoundResult, seat_of: Mapping[str, int]) -> None:
    """Write a scored round onto its row, updating hands in place (seat is unique per round)."""
    for name, value in round_columns(result, seat_of).items():
        setattr(row, name, value)
    existing = {hand.seat: hand for hand in row.hands}
    for result_hand in result.hands:
        columns = hand_columns(result_hand, seat_of)
        hand = existing.get(columns["seat"])
        if hand is None:
            hand = Hand(seat=columns["seat"])
            row.hands.append(hand)
        for name, value in columns.items():
            setattr(hand, name, value)
    row.penalties.clear()
    row.penalties.extend(Penalty(**penalty_columns(p, seat_of)) for p in result.penalties)


def describe_hand(result: core.HandResult) -> str:
    """One hand as the history shows it: 'out', '15' or '15 (6-4 3-2)', with penalties."""
    if result.away:
        return f"{result.score} (away)"
    text = "out" if result.went_out else str(result.pips)
    if result.tiles:
        text += " (" + " ".join(str(t) for t in result.tiles) + ")"
    if result.penalty:
        text += f" {result.penalty:+d}"
    # Change.old_value/new_value hold 400 characters (enforced by PostgreSQL): cut long hands.
    return text if len(text) <= 400 else text[:399] + "…"


def final_figures(state: core.GameState | None) -> dict[str, dict[str, int | None]]:
    """Each seat's stored final figures by name (place, shared, total, rounds, zero rounds):
    the core's standings of a finished game, kept so that season standings and player pages
    can be summed in SQL without replaying rounds. Empty while the game is not finished."""
    if state is None or not state.finished:
        return {}
    shared: dict[int, int] = {}
    for line in state.standings:
        shared[line.place] = shared.get(line.place, 0) + 1
    return {
        line.name: {
            "place": line.place,
            "place_shared": shared[line.place],
            "total": line.total,
            "rounds_played": len(line.rounds),
            "zero_rounds": line.zero_rounds,
        }
        for line in state.standings
    }


FIGURES = ("place", "place_shared", "total", "rounds_played", "zero_rounds")
