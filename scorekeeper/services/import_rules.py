"""An imported game through the rules: each round checked and scored by the core, as a save.

A file's scores are what the core decided when each round was saved; one that disagrees with
the core now was changed or damaged, and refuses the import (ImportProblem) with a message
naming the game, the round, the player and the field.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from scorekeeper import core
from scorekeeper.core import N_
from scorekeeper.extensions import db
from scorekeeper.models import Club, Game, Hand, Penalty, Round
from scorekeeper.services import games as game_service
from scorekeeper.services.games import mapping
from scorekeeper.services.games.snapshot import late_rules_recorded
from scorekeeper.services.import_schema import ImportProblem, Phrase

# A core problem's field, as the file names it (a round's part) and in words.
_PARTS = {
    "pips": ("hands", "pips"),
    "tiles": ("hands", "tiles"),
    "players": ("hands", None),
    "penalty": ("penalties", None),
    "out": ("out_seat", None),
    "blocked": ("blocked", None),
}
_HAND_FIELDS = ("pips", "penalty", "score", "went_out")
# A refusal: the place in the file, then the game (and round, and player) in words.
_AT = N_("%(place)s (%(at)s): %(reason)s")


class _Round:
    """One round of the file being checked: where it is, to name it in a refusal."""

    def __init__(self, game: Game, row: Round, where: str, number: int):
        self.game, self.row, self.where, self.number = game, row, where, number
        self.names = {player.seat: player.name for player in game.players}

    def refuse(
        self, path: str, reason: Phrase | core.Problem, player: str | None = None
    ) -> ImportProblem:
        """The refusal: the place in the file, then the game, round and player in words."""
        at = {"game": self.number, "round": self.row.number}
        if player:
            title = Phrase(
                N_("game %(game)s, round %(round)s, %(player)s"), {**at, "player": player}
            )
        else:
            title = Phrase(N_("game %(game)s, round %(round)s"), at)
        return ImportProblem(_AT, place=f"{self.where}{path}", at=title, reason=reason)

    def index(self, part: str, player: str | None) -> int | None:
        """Where the player's hand (or first penalty) is in this round of the file."""
        items: Sequence[Hand | Penalty] = self.row.hands if part == "hands" else self.row.penalties
        seat = next((seat for seat, name in self.names.items() if name == player), None)
        return next((i for i, item in enumerate(items) if item.seat == seat), None)

    def broken(self, problem: core.Problem) -> ImportProblem:
        """A rule the round breaks, at the part of the file the core says is wrong."""
        part, field = _PARTS.get(problem.field or "", (None, None))
        path = ""
        if part in ("hands", "penalties"):
            index = self.index(part, problem.player)
            path = f".{part}" + (f"[{index}]" if index is not None else "")
            path += f".{field}" if field and index is not None else ""
        elif part:
            path = f".{part}"
        return self.refuse(path, problem, problem.player)

    def disagrees(self, path: str, stored: object, scored: object, player: str | None) -> None:
        """Refuse a stored value that is not what the core makes of the round."""
        if stored != scored:
            said = N_(
                "the file says %(stored)s but the rules make it %(scored)s: the file was changed "
                "or damaged. Nothing was imported."
            )
            raise self.refuse(
                path, Phrase(said, {"stored": _json(stored), "scored": _json(scored)}), player
            )


def _json(value: object) -> str:
    """A value as the file writes it (true, not True)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return "null" if value is None else str(value)


def _entry(game: Game, row: Round, names: dict[int, str]) -> core.RoundEntry:
    """The round as the scorer entered it; everyone the file marks out is marked out (the core
    refuses two)."""
    entry = mapping.entry_of(mapping.result_of(row, names))
    out = [names[row.out_seat]] if row.out_seat is not None else []
    out += [
        names[hand.seat]
        for hand in row.hands
        if hand.went_out and not (hand.late or hand.away) and hand.seat != row.out_seat
    ]
    return replace(entry, out=out or None)


def _check_round(
    checking: _Round, late_rules: dict[str, core.LateRule], club_rule: core.LateRule
) -> None:
    """Check and score one round as edit_round does; the hands get the core's scores (a late
    arrival's missed hand by the club's rule, a leaver's the round's highest)."""
    game, row, names = checking.game, checking.row, checking.names
    away = {names[hand.seat] for hand in row.hands if hand.late or hand.away}
    setup, entry = mapping.as_played(
        mapping.setup_of(game, game.players), away, _entry(game, row, names)
    )
    check = core.check_round(setup, row.number, entry)
    if check.errors:  # warnings (unlikely hands) were confirmed when the round was saved
        raise checking.broken(check.errors[0])
    assert check.result is not None
    result = check.result
    checking.disagrees(".engine", row.engine, result.engine, None)
    out_seat = next((seat for seat, name in names.items() if name == result.out), None)
    checking.disagrees(".out_seat", row.out_seat, out_seat, None)
    scored = {hand.player: hand for hand in result.hands}
    others = [hand.score for hand in result.hands]
    highest = core.missed_score(result, setup.is_draw)
    for index, hand in enumerate(row.hands):
        name = names[hand.seat]
        if hand.late:
            rule = late_rules.get(name) or club_rule
            (score,) = core.late_scores(rule, [others])
            values: tuple[object, ...] = (0, 0, score, False)
        elif hand.away:
            values = (0, 0, highest, False)
        else:
            line = scored[name]
            values = (line.pips, line.penalty, line.score, line.went_out)
        for field, value in zip(_HAND_FIELDS, values, strict=True):
            checking.disagrees(f".hands[{index}].{field}", getattr(hand, field), value, name)
            setattr(hand, field, value)
    for index, (stored, penalty) in enumerate(zip(row.penalties, result.penalties, strict=True)):
        checking.disagrees(f".penalties[{index}].points", stored.points, penalty.points, None)


def check_game_rules(game: Game, club: Club, index: int) -> None:
    """Check every round of the file's game `index` (flushed, with its history) as a save
    would, store the core's scores and each seat's final figures; ImportProblem if the file
    breaks a rule."""
    where, number = f"games[{index}]", index + 1
    title = Phrase(N_("game %(game)s"), {"game": number})
    names = [player.name for player in game.players]
    setup = mapping.setup_of(game, game.players)
    try:
        core.new_game(names, setup.rules, setup.teams)
    except core.RuleError as error:
        raise ImportProblem(_AT, place=where, at=title, reason=tuple(error.problems)) from None
    late = any(hand.late for row in game.round_rows for hand in row.hands)
    late_rules = late_rules_recorded(db.session(), game.id) if late else {}
    club_rule = core.LateRule(club.late_rule)
    for r, row in enumerate(game.round_rows):
        _check_round(_Round(game, row, f"{where}.rounds[{r}]", number), late_rules, club_rule)
    seats = {player.seat: player.name for player in game.players}
    results = [mapping.result_of(row, seats) for row in game.round_rows]
    state = core.game_state(setup, results, ended_early=game.ended_early)
    if state.finished != (game.finished_at is not None):
        if game.finished_at is not None:
            said = N_(
                "the file says the game is finished, but by its rounds and rules it is not. "
                "Nothing was imported."
            )
        else:
            said = N_(
                "the file says the game is not finished, but by its rounds and rules it is. "
                "Nothing was imported."
            )
        raise ImportProblem(_AT, place=f"{where}.finished_at", at=title, reason=Phrase(said))
    game_service.store_final_figures(game, state)
