"""A round's result: what each hand holds, who went out, penalties; checked and scored."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from .engines import engine_of
from .problems import N_, Problem, RuleError
from .setup import GameSetup
from .tiles import (
    Tile,
    best_tiles_value,
    hand_value,
    most_in_hands,
    parse_tile,
    tile_count,
    tiles_in_set,
)


class PenaltyKind(StrEnum):
    """The house-rule penalties of RULES.md section 4."""

    OPEN_TRAIN = "open_train"
    STRATEGIC_ERROR = "strategic_error"
    ADJUSTMENT = "adjustment"


@dataclass(frozen=True)
class HandEntry:
    """What the scorer entered for one hand: a number of pips, or the tiles still held.

    `pips` is kept raw (as typed) so the core can say what is wrong with it; when `tiles`
    is not None the hand was entered as tiles and `pips` is ignored.
    """

    pips: object = None
    tiles: Sequence[str] | None = None


@dataclass(frozen=True)
class PenaltyEntry:
    """A penalty as entered: whom, which kind, points (adjustments only) and a reason."""

    player: str
    kind: str
    points: object = None
    reason: str = ""


@dataclass(frozen=True)
class RoundEntry:
    """Everything recorded for one round (or one hand of the draw game)."""

    hands: Mapping[str, HandEntry]
    out: str | Sequence[str] | None = None
    blocked: bool = False
    penalties: Sequence[PenaltyEntry] = ()


@dataclass(frozen=True)
class Penalty:
    """A penalty as scored: its points are final."""

    player: str
    kind: PenaltyKind
    points: int
    reason: str = ""


@dataclass(frozen=True)
class HandResult:
    """One player's line of the round: pips in hand, penalties, and the round score.

    `missed`: a round the player did not play: a late arrival's, scored by the club's rule
    (RULES.md section 10), or, with `away`, one after they left (section 11, the round's highest
    score). It takes no part in either tie-breaker."""

    player: str
    pips: int
    penalty: int
    score: int
    went_out: bool
    tiles: tuple[Tile, ...] | None = None
    missed: bool = False
    away: bool = False


@dataclass(frozen=True)
class RoundResult:
    """A checked, scored round: one HandResult per player in seating order."""

    engine: int | None
    hands: tuple[HandResult, ...]
    out: str | None
    blocked: bool
    penalties: tuple[Penalty, ...] = ()

    def score(self, player: str) -> int:
        """The player's round score."""
        return self.hand(player).score

    def hand(self, player: str) -> HandResult:
        """The player's line of this round."""
        return next(hand for hand in self.hands if hand.player == player)

    @property
    def scores(self) -> dict[str, int]:
        return {hand.player: hand.score for hand in self.hands}


@dataclass(frozen=True)
class RoundCheck:
    """The core's answer to an entry: hard errors, warnings, and the result when there is one."""

    errors: tuple[Problem, ...] = ()
    warnings: tuple[Problem, ...] = ()
    result: RoundResult | None = None

    @property
    def ok(self) -> bool:
        """True when the round can be saved (warnings still need the scorer's confirmation)."""
        return not self.errors


_WHOLE = re.compile(r"^[+-]?\d+$")


def parse_points(raw: object) -> int | None:
    """A whole number from what was typed ("12", 12, " 7 "), or None if it is not one."""
    if isinstance(raw, bool):
        return None
    if isinstance(raw, int):
        return raw
    if isinstance(raw, float) and raw.is_integer():
        return int(raw)
    if isinstance(raw, str) and _WHOLE.match(raw.strip()) and len(raw.strip()) <= 9:
        return int(raw.strip())
    return None


class Checker:
    """Collects the problems of one entry while working out each hand's pips."""

    def __init__(self, game: GameSetup, round_number: int, entry: RoundEntry):
        self.game = game
        self.rules = game.rules
        self.entry = entry
        self.engine = engine_of(game.rules, round_number)
        self.engine_tile = Tile(self.engine, self.engine) if self.engine is not None else None
        self.errors: list[Problem] = []
        self.warnings: list[Problem] = []
        self.most = most_in_hands(self.rules.set_size, self.rules.blank_scoring, self.engine_tile)

    def error(
        self,
        code: str,
        template: str,
        who: str | None = None,
        field: str | None = None,
        **params: object,
    ) -> None:
        self.errors.append(Problem(code, template, params, player=who, field=field))

    def bound_message(self, whole_table: bool) -> str:
        """The hard-bound message, whole (translators get full sentences, never pieces)."""
        if whole_table:
            if self.engine is None:
                return N_(
                    "All hands together hold %(total)s, more than every tile in a "
                    "double-%(set)s set (%(most)s)."
                )
            return N_(
                "All hands together hold %(total)s, more than every tile left in a "
                "double-%(set)s set without the %(engine)s-%(engine)s (%(most)s)."
            )
        if self.engine is None:
            return N_(
                "%(player)s: %(pips)s is more than every tile in a double-%(set)s set (%(most)s)."
            )
        return N_(
            "%(player)s: %(pips)s is more than every tile left in a double-%(set)s set "
            "without the %(engine)s-%(engine)s (%(most)s)."
        )

    def out_player(self) -> str | None:
        out = self.entry.out
        names = [out] if isinstance(out, str) else list(out or [])
        names = [name for name in names if name]
        if len(names) > 1:
            self.error(
                "out_many",
                N_("Only one player can go out: %(names)s are all marked out."),
                field="out",
                names=", ".join(str(n) for n in names),
            )
            return None
        if names and names[0] not in self.game.players:
            self.error(
                "out_unknown",
                N_("%(name)s is not playing in this game."),
                field="out",
                name=str(names[0]),
            )
            return None
        return names[0] if names else None

    def hand_pips(
        self, player: str, hand: HandEntry | None, out: bool, holders: dict[Tile, str]
    ) -> tuple[int | None, tuple[Tile, ...] | None]:
        if hand is not None and hand.tiles is not None:
            return self.tile_pips(player, hand.tiles, holders)
        raw = hand.pips if hand is not None else None
        if raw is None or (isinstance(raw, str) and not raw.strip()):
            if out:
                return 0, None
            self.error(
                "pips_missing",
                N_("%(player)s: enter the pips left in hand (0 if none), or the tiles."),
                player,
                "pips",
                player=player,
            )
            return None, None
        pips = parse_points(raw)
        if pips is None:
            self.error(
                "pips_not_whole",
                N_("%(player)s: %(value)s is not a whole number of pips."),
                player,
                "pips",
                player=player,
                value=str(raw)[:20],
            )
            return None, None
        if pips < 0:
            self.error(
                "pips_negative",
                N_("%(player)s: a hand cannot be worth less than 0 (you entered %(value)s)."),
                player,
                "pips",
                player=player,
                value=pips,
            )
            return None, None
        return pips, None

    def tile_pips(
        self, player: str, texts: Sequence[str], holders: dict[Tile, str]
    ) -> tuple[int | None, tuple[Tile, ...] | None]:
        tiles: list[Tile] = []
        ok = True
        in_set = set(tiles_in_set(self.rules.set_size))
        for text in texts:
            try:
                tile = parse_tile(text)
            except RuleError as error:
                self.error(
                    "tile_unreadable",
                    N_("%(player)s: %(text)s is not a tile: write it like 6-4."),
                    player,
                    "tiles",
                    player=player,
                    text=error.problems[0].params["text"],
                )
                ok = False
                continue
            if tile not in in_set:
                self.error(
                    "tile_not_in_set",
                    N_("%(player)s: %(tile)s is not in a double-%(set)s set."),
                    player,
                    "tiles",
                    player=player,
                    tile=str(tile),
                    set=self.rules.set_size,
                )
                ok = False
            elif tile == self.engine_tile:
                self.error(
                    "tile_engine",
                    N_(
                        "%(player)s: %(tile)s is this round's engine: it is on the table, "
                        "not in a hand."
                    ),
                    player,
                    "tiles",
                    player=player,
                    tile=str(tile),
                )
                ok = False
            elif tile in holders:
                other = holders[tile]
                if other == player:
                    self.error(
                        "tile_twice_hand",
                        N_("%(player)s: %(tile)s is entered twice (there is only one)."),
                        player,
                        "tiles",
                        player=player,
                        tile=str(tile),
                    )
                else:
                    self.error(
                        "tile_two_hands",
                        N_("%(tile)s cannot be in two hands: %(first)s and %(player)s."),
                        player,
                        "tiles",
                        player=player,
                        tile=str(tile),
                        first=other,
                    )
                ok = False
            else:
                holders[tile] = player
                tiles.append(tile)
        if not ok:
            return None, None
        return hand_value(tiles, self.rules.blank_scoring), tuple(tiles)

    def check_bounds(self, pips: Mapping[str, int]) -> None:
        rules = self.rules
        params = {"set": rules.set_size, "engine": self.engine, "most": self.most}
        # A game stored without its deal (an old export) cannot say what is unlikely: its
        # warning bound is the whole set, so only the hard bound applies.
        dealt = rules.hand_size or tile_count(rules.set_size)
        hand_best = best_tiles_value(rules.set_size, dealt, rules.blank_scoring, self.engine_tile)
        for player, value in pips.items():
            if value > self.most:
                self.error(
                    "hand_too_big",
                    self.bound_message(whole_table=False),
                    player,
                    "pips",
                    player=player,
                    pips=value,
                    **params,
                )
            elif value > hand_best:
                self.warnings.append(
                    Problem(
                        "hand_unlikely",
                        N_(
                            "%(player)s: %(pips)s is more than the %(count)s best tiles are worth "
                            "(%(best)s). Check for a typo, unless %(player)s drew a lot."
                        ),
                        {
                            "player": player,
                            "pips": value,
                            "count": rules.hand_size,
                            "best": hand_best,
                        },
                        player=player,
                        field="pips",
                        severity="warning",
                    )
                )
        total = sum(pips.values())
        if total > self.most and all(value <= self.most for value in pips.values()):
            self.error(
                "hands_too_big",
                self.bound_message(whole_table=True),
                None,
                "pips",
                total=total,
                **params,
            )

    def penalties(self, pips: Mapping[str, int]) -> list[Penalty]:
        house = self.rules.house_rules
        enabled = {
            PenaltyKind.OPEN_TRAIN: house.open_train_points > 0,
            PenaltyKind.STRATEGIC_ERROR: house.strategic_error,
            PenaltyKind.ADJUSTMENT: house.adjustments,
        }
        highest = max(pips.values(), default=0)
        scored: list[Penalty] = []
        once: set[tuple[str, PenaltyKind]] = set()
        points: int | None  # an adjustment's points are None when what was typed is not a number
        for entry in self.entry.penalties:
            player = entry.player
            try:
                kind = PenaltyKind(entry.kind)
            except ValueError:
                self.error(
                    "penalty_kind",
                    N_("%(kind)s is not a kind of penalty."),
                    player,
                    "penalty",
                    kind=str(entry.kind)[:40],
                )
                continue
            if player not in self.game.players:
                self.error(
                    "penalty_player",
                    N_("%(name)s is not playing in this game."),
                    None,
                    "penalty",
                    name=str(player)[:40],
                )
                continue
            if not enabled[kind]:
                self.error(
                    "penalty_off",
                    N_("%(player)s: this game does not use the %(kind)s house rule."),
                    player,
                    "penalty",
                    player=player,
                    kind=kind.value.replace("_", "-"),
                )
                continue
            if kind is not PenaltyKind.ADJUSTMENT:
                if (player, kind) in once:
                    self.error(
                        "penalty_twice",
                        N_("%(player)s: the %(kind)s penalty is counted once a round."),
                        player,
                        "penalty",
                        player=player,
                        kind=kind.value.replace("_", "-"),
                    )
                    continue
                once.add((player, kind))
                points = house.open_train_points if kind is PenaltyKind.OPEN_TRAIN else highest
                scored.append(Penalty(player, kind, points, (entry.reason or "").strip()))
                continue
            points = parse_points(entry.points)
            reason = (entry.reason or "").strip()
            if points is None:
                self.error(
                    "adjustment_not_whole",
                    N_("%(player)s: an adjustment is a whole number, like -10 or 5."),
                    player,
                    "penalty",
                    player=player,
                )
            elif not reason:
                self.error(
                    "adjustment_reason",
                    N_("%(player)s: say why the score is adjusted."),
                    player,
                    "penalty",
                    player=player,
                )
            elif abs(points) > self.most:
                self.error(
                    "adjustment_big",
                    N_(
                        "%(player)s: an adjustment of %(points)s is more "
                        "than a round can be worth (%(most)s)."
                    ),
                    player,
                    "penalty",
                    player=player,
                    points=points,
                    most=self.most,
                )
            else:
                scored.append(Penalty(player, kind, points, reason))
        return scored


def check_round(game: GameSetup, round_number: int, entry: RoundEntry) -> RoundCheck:
    """Check an entry against the rules (RULES.md section 8) and score it if it is valid.

    Mexican Train: the player who went out scores 0 and the others their hand (RULES.md 4).
    Draw game: the winner of the hand scores the pips of the others (RULES.md 9).
    """
    checker = Checker(game, round_number, entry)
    for name in entry.hands:
        if name not in game.players:
            checker.error(
                "hand_unknown",
                N_("%(name)s is not playing in this game."),
                None,
                "players",
                name=str(name)[:40],
            )
    before = len(checker.errors)
    out = checker.out_player()
    out_readable = len(checker.errors) == before
    if out is not None and entry.blocked:
        checker.error(
            "out_and_blocked",
            N_("%(player)s went out, so the round was not blocked: clear one of the two."),
            out,
            "blocked",
            player=out,
        )
    elif out is None and not entry.blocked and out_readable:
        checker.error(
            "nobody_out",
            N_("Nobody went out: mark who went out, or mark the round blocked."),
            None,
            "out",
        )
    holders: dict[Tile, str] = {}
    pips: dict[str, int] = {}
    tiles: dict[str, tuple[Tile, ...] | None] = {}
    for player in game.players:
        value, held = checker.hand_pips(player, entry.hands.get(player), player == out, holders)
        if value is None:
            continue
        if player == out and held:
            checker.error(
                "out_with_tiles",
                N_("%(player)s went out, so their hand holds no tiles."),
                player,
                "tiles",
                player=player,
            )
            continue
        if player == out and value != 0:
            checker.error(
                "out_with_pips",
                N_("%(player)s went out, so their hand is empty (you entered %(pips)s)."),
                player,
                "pips",
                player=player,
                pips=value,
            )
            continue
        pips[player] = value
        tiles[player] = held
    checker.check_bounds(pips)
    penalties = checker.penalties(pips)
    if checker.errors:
        return RoundCheck(tuple(checker.errors), tuple(checker.warnings))
    if game.is_draw:
        scores = draw_hand_scores(pips, out)
        penalty_points = dict.fromkeys(game.players, 0)
    else:
        penalty_points = {player: 0 for player in game.players}
        for penalty in penalties:
            penalty_points[penalty.player] += penalty.points
        scores = {
            player: (0 if player == out else pips[player]) + penalty_points[player]
            for player in game.players
        }
    hands = tuple(
        HandResult(
            player,
            pips[player],
            penalty_points[player],
            scores[player],
            player == out,
            tiles[player],
        )
        for player in game.players
    )
    result = RoundResult(checker.engine, hands, out, bool(entry.blocked), tuple(penalties))
    return RoundCheck((), tuple(checker.warnings), result)


def draw_hand_scores(counts: Mapping[str, int], out: str | None) -> dict[str, int]:
    """Draw game: who scores what for one hand (Spanish seed, RULES.md section 9).

    The player who went out scores every pip left in the other hands. A blocked hand goes to
    the lowest count, who scores the sum of the differences; a shared lowest count scores
    nothing for anyone.
    """
    scores = dict.fromkeys(counts, 0)
    if out is not None:
        scores[out] = sum(value for player, value in counts.items() if player != out)
        return scores
    lowest = min(counts.values())
    winners = [player for player, value in counts.items() if value == lowest]
    if len(winners) == 1:
        scores[winners[0]] = sum(value - lowest for value in counts.values())
    return scores


def draw_next_opener(players: Sequence[str], last: RoundResult | None) -> str | None:
    """Draw game: the loser of the last hand (highest count) opens next; first seat breaks ties.

    None for the first hand: the holder of the highest double opens it (RULES.md section 9),
    which only the table knows. Players who left hold no hand and never open."""
    if last is None:
        return None
    held = [hand for hand in last.hands if not hand.missed and hand.player in players]
    if not held:
        return None
    highest = max(hand.pips for hand in held)
    return next(hand.player for hand in held if hand.pips == highest)


def team_round_score(result: RoundResult, team: Sequence[str]) -> int:
    """A team's round score: no pips if a partner went out, else both hands; penalties always."""
    hands = [result.hand(player) for player in team]
    pips = 0 if any(hand.went_out for hand in hands) else sum(hand.pips for hand in hands)
    return pips + sum(hand.penalty for hand in hands)
