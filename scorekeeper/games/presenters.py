"""Shaping a game for its pages: the score sheet's figures, tile choices, errors beside fields,
a round two phones saved side by side.

Presentation only: every figure here was computed by the core (through the services). The
markup is in the templates (templates/games/_macros.html).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from flask_wtf import FlaskForm

from scorekeeper import core
from scorekeeper.i18n import problem_text
from scorekeeper.models import Game
from scorekeeper.services.games import Conflict, Snapshot


class Cell(NamedTuple):
    """One player's box in one round of the sheet (a tuple: the sheet's template unpacks each
    of the hundred-odd boxes of a game in one step rather than reading its fields one by one)."""

    score: int
    pips: int
    penalty: int
    went_out: bool
    tiles: str | None
    # A round the player missed (they joined late): scored by the club's late-arrival rule.
    late: bool = False
    # A round the player missed after leaving the game: the round's highest (RULES.md 11).
    away: bool = False


@dataclass
class SheetRow:
    """One round of the sheet: its engine and each player's box."""

    number: int
    engine: int | None
    # How the sheet names the round: its engine ("12-12"), or its number in the draw game.
    label: str
    cells: list[Cell]
    blocked: bool
    out: str | None
    opener: str | None
    penalties: list[core.Penalty] = field(default_factory=list)


@dataclass
class Sheet:
    """The score sheet as the game page, share page and print view draw it."""

    players: list[str]
    short: list[str]
    rows: list[SheetRow]
    totals: list[int]
    places: list[int]
    zero_rounds: list[int]
    leaders: set[int]
    standings: list[core.Standing]
    team_standings: list[core.Standing]
    future_engines: list[int]
    higher_wins: bool
    running: dict[str, list[int]]
    # The same running totals round by round (a row of the chart's table: one total a seat).
    running_rows: list[list[int]]
    # The late-arrival rules ("highest", "average", "zero") behind the sheet's late cells.
    late_rules: list[str] = field(default_factory=list)
    # (short, full) for each name the column headings had to shorten: the key under the sheet.
    key: list[tuple[str, str]] = field(default_factory=list)
    # Whether any round carries a penalty (+10, +30…): the sheet then explains the marks.
    penalties: bool = False
    # A partnership game: the Place and Zeros rows are the teams'.
    teams: bool = False
    # Whether any box is a round missed after leaving (the sheet then explains the mark).
    away: bool = False
    # Who has left and not come back, with the last round they played, in seat order.
    left: list[tuple[str, int]] = field(default_factory=list)

    @property
    def leading(self) -> list[str]:
        """The names in first place, in seat order."""
        return [self.players[seat] for seat in sorted(self.leaders)]


# How many letters of a name a column heading shows, by the number of players: at 360 px the
# round column takes ~62 px and the players share the rest (~7-10 px a letter at 12-15 px);
# from 9 players the sheet scrolls sideways and four letters are shown.
HEADING_LETTERS = {1: 24, 2: 16, 3: 11, 4: 7, 5: 6, 6: 5, 7: 4, 8: 4}
FEWEST_LETTERS = 4
# Cut short, a name must not become one of these (checked without case or accents).
AVOIDED = frozenset({"anal", "anus", "ass", "cul", "culo", "fag", "nazi", "piss", "poo", "poop"})


def heading_letters(players: int) -> int:
    """The letters of a name that fit a column heading of a sheet of `players` at 360 px."""
    return HEADING_LETTERS.get(players, FEWEST_LETTERS)


def _plain(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFD", text.lower()) if c.isalnum())


def _cut(name: str, width: int) -> str:
    """The first `width` letters of a name's first word (a whole short name stays whole),
    one fewer if the cut makes an avoided word."""
    word = name.split()[0] if name.split() else name
    short = name if len(name) <= width else word[:width]
    while _plain(short) in AVOIDED and len(short) > 1:
        short = short[:-1]
    return short


def _told_apart(name: str, others: Sequence[str], width: int) -> str:
    """A heading of at most `width` letters for `name` that its namesakes' prefixes do not
    share: the first word's start and the last word's initial ("María J" -> "MarJ"), else the
    start and the first letter where it differs ("Carla", "Carlos" -> "Cara", "Caro")."""
    words = name.split()
    if len(words) > 1:
        return words[0][: width - 1] + words[-1][0]
    for index, letter in enumerate(name):
        candidate = name[: width - 1] + letter
        if (
            index >= width - 1
            and all(len(other) <= index or other[index] != letter for other in others)
            and _plain(candidate) not in AVOIDED
        ):
            return candidate
    return name[:width]


def abbreviate(names: Sequence[str], width: int = 4) -> list[str]:
    """Column headings of at most `width` letters (a longer one is clipped at 360 px), all
    different and readable: 'Anabel' -> 'Anab', 'Carla' and 'Carlos' -> 'Cara' and 'Caro'."""
    short = [_cut(name, width) for name in names]
    for _ in range(2):
        clashes = {s for s in short if short.count(s) > 1}
        if not clashes:
            return short
        short = [
            _told_apart(
                name, [n for n, o in zip(names, short, strict=True) if o == s and n != name], width
            )
            if s in clashes
            else s
            for name, s in zip(names, short, strict=True)
        ]
    # Still the same (two "María J"s): numbered, in seat order, past every heading taken.
    taken = {s for s in short if short.count(s) == 1}
    numbered = []
    for s in short:
        if short.count(s) > 1:
            number = 1
            while (s[: max(1, width - len(str(number)))] + str(number)) in taken:
                number += 1
            s = s[: max(1, width - len(str(number)))] + str(number)
            taken.add(s)
        numbered.append(s)
    return numbered


def sheet_of(snapshot: Snapshot) -> Sheet:
    """The sheet of one version of a game (its snapshot)."""
    setup, state, results = snapshot.setup, snapshot.state, snapshot.results
    players = list(setup.players)
    rows = []
    for number, result, late_flags in zip(snapshot.numbers, results, snapshot.late, strict=True):
        cells = [
            Cell(
                hand.score,
                hand.pips,
                hand.penalty,
                hand.went_out,
                " ".join(str(t) for t in hand.tiles) if hand.tiles else None,
                is_late,
                hand.away,
            )
            for hand, is_late in zip(result.hands, late_flags, strict=True)
        ]
        gone = frozenset(hand.player for hand in result.hands if hand.away)
        opener = None if setup.is_draw else core.seat_opener(players, number, gone)
        rows.append(
            SheetRow(
                number,
                result.engine,
                str(number) if result.engine is None else f"{result.engine}-{result.engine}",
                cells,
                result.blocked,
                result.out,
                opener,
                list(result.penalties),
            )
        )
    by_name = {line.name: line for line in state.standings}
    totals = [by_name[name].total for name in players]
    # Partnerships are ranked as teams: each player's Place and Zeros are their team's (the
    # standings list the teams), while the sheet's scores and totals stay each player's own.
    ranked = dict(by_name)
    if state.team_standings:
        by_team = {line.name: line for line in state.team_standings}
        ranked.update(
            {member: by_team[setup.team_name(team)] for team in setup.teams for member in team}
        )
    places = [ranked[name].place for name in players]
    zeros = [ranked[name].zero_rounds for name in players]
    leaders = {seat for seat, place in enumerate(places) if place == 1} if results else set()
    scores = core.round_scores(setup, list(results))
    short = abbreviate(players, heading_letters(len(players)))
    running = {name: core.running_totals(values) for name, values in scores.items()}
    return Sheet(
        players=players,
        short=short,
        rows=rows,
        totals=totals,
        places=places,
        zero_rounds=zeros,
        leaders=leaders,
        standings=list(state.standings),
        team_standings=list(state.team_standings),
        future_engines=list(state.engines[len(results) :]),
        higher_wins=setup.is_draw,
        running=running,
        running_rows=[list(row) for row in zip(*(running[name] for name in players), strict=True)],
        late_rules=[rule.value for rule in snapshot.late_rules] if snapshot.any_late else [],
        key=[(s, name) for s, name in zip(short, players, strict=True) if s != name],
        penalties=any(cell.penalty for row in rows for cell in row.cells),
        teams=bool(state.team_standings),
        away=any(cell.away for row in rows for cell in row.cells),
        left=[(name, after) for name, after in setup.left_after],
    )


@dataclass(frozen=True)
class SheetHeading:
    """What the game page says of its sheet around the kept parts (parts.py has the sheet
    itself): who plays, how rounds are named, the last round (to undo) and who has left. Cheap
    to work out on every view, where the whole Sheet is not."""

    players: list[str]
    higher_wins: bool
    teams: bool
    left: list[tuple[str, int]]
    last_round: int | None


def sheet_heading(snapshot: Snapshot) -> SheetHeading:
    """The sheet's heading facts of one version of a game (the same as its Sheet's)."""
    setup = snapshot.setup
    return SheetHeading(
        players=list(setup.players),
        higher_wins=setup.is_draw,
        teams=bool(snapshot.state.team_standings),
        left=list(setup.left_after),
        last_round=snapshot.numbers[-1] if snapshot.numbers else None,
    )


def tile_choices(set_size: int, engine: int | None) -> list[str]:
    """Every tile a hand can hold this round: the set without the engine, highest first."""
    return [str(tile) for tile in _tiles_on_offer(set_size, engine)]


class TileChoice(NamedTuple):
    """A tile on offer in the picker: its place (checkbox ids count them), its name ("12-11"),
    its worth, its two ends as drawn."""

    place: int
    text: str
    value: int
    high: int
    low: int


def tile_values(game: Game, engine: int | None) -> list[TileChoice]:
    """The tiles on offer (as `tile_choices`), each with what it is worth under the game's
    blank option (the picker adds them up)."""
    blank = core.BlankScoring(game.blank_scoring)
    return [
        TileChoice(index, str(tile), core.tile_value(tile, blank), tile.high, tile.low)
        for index, tile in enumerate(_tiles_on_offer(game.set_size, engine))
    ]


def _tiles_on_offer(set_size: int, engine: int | None) -> list[core.Tile]:
    engine_tile = core.double(engine) if engine is not None else None
    tiles = [t for t in core.tiles_in_set(set_size) if t != engine_tile]
    return sorted(tiles, key=lambda t: (t.high, t.low), reverse=True)


def apply_problems(
    form: FlaskForm, problems: Sequence[core.Problem], players: Sequence[str]
) -> list[str]:
    """Put each core problem next to its field; return those that belong to the whole round."""
    general: list[str] = []
    for problem in problems:
        text = problem_text(problem)
        name = _field_for(form, problem, players)
        if name is None:
            general.append(text)
        else:
            form[name].errors = [*form[name].errors, text]
    return general


def error_links(form: FlaskForm, players: Sequence[str]) -> list[tuple[str, str]]:
    """The round sheet's field errors as (element id, message) pairs, in the order of the
    form, for the summary at its top to link each message to its field."""
    links = [("out-0", error) for error in form.out.errors]
    for seat, name in enumerate(players):
        for field_name, target in (
            (f"pips_{seat}", f"pips_{seat}"),
            (f"tiles_{seat}", f"hand_{seat}"),
            (f"adjust_{seat}", f"adjust_{seat}"),
        ):
            if field_name in form:
                links += [(target, _named(name, error)) for error in form[field_name].errors]
    return links


def _named(name: str, message: str) -> str:
    return message if name in message else f"{name}: {message}"


def _field_for(form: FlaskForm, problem: core.Problem, players: Sequence[str]) -> str | None:
    if problem.player not in players:
        return "out" if problem.field in ("out", "blocked") else None
    seat = players.index(problem.player)
    if problem.field == "penalty":
        return f"adjust_{seat}" if f"adjust_{seat}" in form else f"pips_{seat}"
    if problem.field in ("out", "blocked"):
        return "out"
    if problem.field == "tiles" or form[f"mode_{seat}"].data == "tiles":
        return f"tiles_{seat}"
    return f"pips_{seat}"


@dataclass
class ConflictRow:
    """One player in a conflict: their hand as saved and as this phone typed it (scored by the
    core when the typed round is valid, else as typed), and whether the two differ."""

    player: str
    saved: core.HandResult
    yours: core.HandResult | None
    typed: str
    differs: bool


@dataclass
class ConflictView:
    """A round two phones saved, as the conflict page shows it."""

    number: int
    rows: list[ConflictRow]
    saved_blocked: bool
    yours_blocked: bool
    problems: list[str]
    next_round: int | None


def conflict_view(conflict: Conflict, entry: core.RoundEntry) -> ConflictView:
    """Both sides of a conflict, player by player, the differences marked."""
    mine = conflict.yours.result
    rows = []
    for saved in conflict.saved.hands:
        yours = mine.hand(saved.player) if mine and saved.player in mine.scores else None
        typed = _typed(entry, saved.player)
        if saved.missed:  # away or not yet joined: nothing typed for them on either phone
            differs = False
        elif yours is None:
            differs = typed != ("" if saved.went_out else str(saved.pips))
        else:
            differs = (saved.went_out, saved.pips, saved.penalty, saved.score) != (
                yours.went_out,
                yours.pips,
                yours.penalty,
                yours.score,
            ) or (
                saved.tiles is not None
                and yours.tiles is not None
                and set(saved.tiles) != set(yours.tiles)
            )
        rows.append(ConflictRow(saved.player, saved, yours, typed, differs))
    problems = [problem_text(p) for p in conflict.yours.errors]
    blocked = bool(entry.blocked)
    return ConflictView(
        conflict.number, rows, conflict.saved.blocked, blocked, problems, conflict.next_round
    )


def _typed(entry: core.RoundEntry, player: str) -> str:
    hand = entry.hands.get(player)
    if hand is None:
        return ""
    if hand.tiles is not None:
        return " ".join(str(tile) for tile in hand.tiles)
    return str(hand.pips or "").strip()
