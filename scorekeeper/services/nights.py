"""Club night use cases: start a night at several tables, read every table's live state, seat a
late arrival, and the club's rule for the rounds a late arrival missed.

Each public function that changes something commits, or raises NightError (a core.RuleError)
and changes nothing. Scores come from the core through services.games.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from typing import NoReturn

from sqlalchemy import select
from sqlalchemy.orm import selectinload

from scorekeeper import core
from scorekeeper.core import N_
from scorekeeper.extensions import db
from scorekeeper.models import Club, ClubNight, Game, Player, RosterPlayer, Season, etag_of
from scorekeeper.services import clubs as club_service
from scorekeeper.services import games as game_service
from scorekeeper.services import roster as roster_service
from scorekeeper.services.unit import unit_of_work

MAX_TABLES = 12
# Shuffled tables are kept to sizes that play well; a table set by hand follows the core's limits.
SHUFFLE_SIZES = (2, 8)
MAX_NIGHT_NAME = 80


class NightError(core.RuleError):
    """What was asked of a club night cannot be done; the problems say why."""


def _refuse(code: str, template: str, field: str | None = None, **params: object) -> NoReturn:
    raise NightError(core.Problem(code, template, params, field=field))


@dataclass(frozen=True)
class Seat:
    """A player who is here tonight: a roster entry or a guest, and the table chosen (if any).

    `key` names the form field the player came from, so a problem can be shown beside it."""

    name: str
    roster_id: int | None = None
    table: int | None = None
    key: str | None = None


# Starting a night ------------------------------------------------------------------------------


def _check_tables(tables: object) -> int:
    if not isinstance(tables, int) or isinstance(tables, bool) or not 1 <= tables <= MAX_TABLES:
        _refuse(
            "night_tables",
            N_("Choose 1 to %(max)s tables."),
            "tables",
            max=MAX_TABLES,
        )
    return tables


def shuffle_tables(seats: Sequence[Seat], tables: int, rng: random.Random) -> list[Seat]:
    """Seat everyone at random, the tables as even as they can be (sizes differ by one at most,
    each 2 to 8 players). Pass a seeded random.Random for a repeatable draw."""
    tables = _check_tables(tables)
    low, high = SHUFFLE_SIZES
    if not low * tables <= len(seats) <= high * tables:
        _refuse(
            "night_shuffle_count",
            N_(
                "%(count)s players cannot be shuffled onto %(tables)s tables of %(low)s to "
                "%(high)s players."
            ),
            "tables",
            count=len(seats),
            tables=tables,
            low=low,
            high=high,
        )
    order = list(seats)
    rng.shuffle(order)
    return [replace(seat, table=index % tables + 1) for index, seat in enumerate(order)]


def _resolve_seats(club: Club, seats: Sequence[Seat]) -> list[Seat]:
    """Each seat as its roster entry (a guest typed with a roster name is that player), each
    person once."""
    roster = roster_service.active_roster(club)
    by_id = {entry.id: entry for entry in roster}
    by_name = {entry.display_name.casefold(): entry for entry in roster}
    resolved: list[Seat] = []
    problems: list[core.Problem] = []
    seen: dict[str, Seat] = {}
    for seat in seats:
        if seat.roster_id is not None:
            entry = by_id.get(seat.roster_id)
            if entry is None:
                problems.append(
                    core.Problem(
                        "night_not_roster",
                        N_("That player is not on the club's active roster."),
                        field=seat.key,
                    )
                )
                continue
        else:
            entry = by_name.get(core.clean_name(seat.name).casefold())
        name = entry.display_name if entry is not None else core.clean_name(seat.name)
        seat = replace(seat, name=name, roster_id=entry.id if entry is not None else None)
        if name.casefold() in seen:
            problems.append(
                core.Problem(
                    "night_twice",
                    N_("%(name)s is in the list twice: a player sits at one table only."),
                    {"name": name},
                    field=seat.key,
                )
            )
            continue
        seen[name.casefold()] = seat
        resolved.append(seat)
    if problems:
        raise NightError(problems)
    return resolved


def _group(seats: Sequence[Seat], tables: int) -> dict[int, list[Seat]]:
    """The players of each table, in the order given (that is the seating order)."""
    problems: list[core.Problem] = []
    groups: dict[int, list[Seat]] = {number: [] for number in range(1, tables + 1)}
    for seat in seats:
        if seat.table is None:
            problems.append(
                core.Problem(
                    "night_no_table",
                    N_("%(name)s: choose a table (or shuffle the tables)."),
                    {"name": seat.name},
                    field=seat.key,
                )
            )
        elif seat.table not in groups:
            problems.append(
                core.Problem(
                    "night_table_unknown",
                    N_("%(name)s: there is no table %(table)s tonight (%(tables)s tables)."),
                    {"name": seat.name, "table": seat.table, "tables": tables},
                    field=seat.key,
                )
            )
        else:
            groups[seat.table].append(seat)
    if not problems:
        for number, group in groups.items():
            if len(group) < 2:
                problems.append(
                    core.Problem(
                        "night_table_small",
                        N_("Table %(table)s needs at least 2 players (it has %(count)s)."),
                        {"table": number, "count": len(group)},
                        field=f"table-{number}",
                    )
                )
    if problems:
        raise NightError(problems)
    return groups


def night_rules(club: Club, season: Season | None) -> core.GameRules:
    """The club's default rules, with what the season sets (domino set, blanks, rounds)."""
    rules = club_service.default_rules(club)
    if season is None:
        return rules
    return replace(
        rules,
        set_size=season.set_size if season.set_size is not None else rules.set_size,
        blank_scoring=(
            core.BlankScoring(season.blank_scoring)
            if season.blank_scoring in {b.value for b in core.BlankScoring}
            else rules.blank_scoring
        ),
        rounds=season.rounds if season.rounds is not None else rules.rounds,
    )


def season_for(club: Club, day: date) -> Season | None:
    """The club's season whose dates include `day`, or None."""
    season_id = game_service.season_on(club.id, day)  # the rule club games are filed by
    return db.session.get(Season, season_id) if season_id is not None else None


@unit_of_work()
def start_night(
    club: Club,
    *,
    played_on: date,
    name: str,
    tables: int,
    seats: Sequence[Seat],
    rng: random.Random | None = None,
    device: str | None = None,
) -> ClubNight:
    """Start a club night: one club game per table, all in one transaction.

    With `rng` the tables are shuffled (the tables chosen in `seats` are ignored); otherwise
    every seat needs its table. Each table needs 2 players or more and each person sits at one
    table. The games count for the season whose dates include `played_on`, with its rules."""
    tables = _check_tables(tables)
    clean = core.clean_name(name)
    if len(clean) > MAX_NIGHT_NAME:
        _refuse(
            "night_name_long",
            N_("A night's name can be at most %(max)s characters."),
            "name",
            max=MAX_NIGHT_NAME,
        )
    if not seats:
        _refuse("night_nobody", N_("Tick the players who are here tonight."), "players")
    chosen = _resolve_seats(club, seats)
    if rng is not None:
        chosen = shuffle_tables(chosen, tables, rng)
    groups = _group(chosen, tables)
    season = season_for(club, played_on)
    rules = night_rules(club, season)
    night = ClubNight(
        club_id=club.id,
        season_id=season.id if season is not None else None,
        name=clean,
        played_on=played_on,
    )
    db.session.add(night)
    db.session.flush()
    problems: list[core.Problem] = []
    for number, group in groups.items():
        try:
            game = game_service.add_game(
                [seat.name for seat in group],
                rules,
                device=device,
                club_id=club.id,
                roster_ids=[seat.roster_id for seat in group],
                season_id=night.season_id,
                club_night_id=night.id,
                table_number=number,
                played_on=night.played_on,  # the night dates its tables
            )
        except core.RuleError as error:
            problems += [replace(p, field=f"table-{number}") for p in error.problems]
            continue
        game.season_id = night.season_id  # the night's date decides, even with no season
    if problems:
        raise NightError(problems)
    return night


# Reading nights --------------------------------------------------------------------------------


def get_night(club: Club, night_id: int) -> ClubNight | None:
    """One of the club's nights, or None."""
    night = db.session.get(ClubNight, night_id)
    return night if night is not None and night.club_id == club.id else None


@dataclass
class NightLine:
    """A line of a club's nights list."""

    night: ClubNight
    tables: int
    finished: int


def nights_of(club: Club, limit: int = 100) -> list[NightLine]:
    """The club's nights, newest first, with how many tables have finished."""
    nights = list(
        db.session.execute(
            select(ClubNight)
            .where(ClubNight.club_id == club.id)
            .order_by(ClubNight.played_on.desc(), ClubNight.id.desc())
            .limit(limit)
        ).scalars()
    )
    counts: dict[int, list[int]] = {night.id: [0, 0] for night in nights}
    if nights:
        rows = db.session.execute(
            select(Game.club_night_id, Game.finished_at).where(Game.club_night_id.in_(list(counts)))
        ).all()
        for night_id, finished_at in rows:
            assert night_id is not None  # the games of these nights only
            counts[night_id][0] += 1
            counts[night_id][1] += finished_at is not None
    return [NightLine(night, *counts[night.id]) for night in nights]


@dataclass
class TableLine:
    """One table of a night as its page shows it."""

    number: int
    game: Game
    state: core.GameState
    players: list[str]
    late: set[str] = field(default_factory=set)
    # The rules this table's late arrivals' missed rounds were scored by (kept with the game
    # when they joined; the club's rule may have changed since).
    late_rules: tuple[core.LateRule, ...] = ()

    @property
    def finished(self) -> bool:
        return self.state.finished

    @property
    def leaders(self) -> list[str]:
        """Who is first so far (nobody before the first round)."""
        if not self.state.rounds_played:
            return []
        lines = self.state.team_standings or self.state.standings
        return [line.name for line in lines if line.place == 1]


@dataclass
class NightView:
    """A night with every table's live state."""

    night: ClubNight
    tables: list[TableLine]

    @property
    def finished(self) -> bool:
        """True when every table's game is over."""
        return bool(self.tables) and all(table.finished for table in self.tables)

    @property
    def rounds_recorded(self) -> bool:
        """True once any table recorded a round (deleting the night then loses scores)."""
        return any(table.state.rounds_played for table in self.tables)

    @property
    def late_rules(self) -> list[tuple[int, core.LateRule]]:
        """(table, rule) for each rule the night's late arrivals were scored by."""
        return [(table.number, rule) for table in self.tables for rule in table.late_rules]


def _games_of(night: ClubNight) -> list[Game]:
    return list(
        db.session.execute(
            select(Game)
            .where(Game.club_night_id == night.id)
            .order_by(Game.table_number, Game.id)
            .options(selectinload(Game.players))
        ).scalars()
    )


def night_view(night: ClubNight) -> NightView:
    """Every table of the night: players, the round being played, standings so far."""
    tables = []
    for game in _games_of(night):
        snapshot = game_service.snapshot_of(game)
        tables.append(
            TableLine(
                number=game.table_number or 0,
                game=game,
                state=snapshot.state,
                players=[player.name for player in game.players],
                late={player.name for player in game.players if player.joined_round > 1},
                late_rules=snapshot.late_rules,
            )
        )
    return NightView(night, tables)


def night_version(night: ClubNight) -> str:
    """A short fingerprint of every table's game and version: the ETag of the night's live
    part (each game named by its key too, models.etag_of: another game with its id differs)."""
    rows = db.session.execute(
        select(Game.id, Game.version, Game.view_token)
        .where(Game.club_night_id == night.id)
        .order_by(Game.id)
    ).all()
    text = ",".join(etag_of(*row) for row in rows)
    return hashlib.sha256(f"{night.id}:{text}".encode()).hexdigest()[:16]


# Late arrivals ---------------------------------------------------------------------------------


def late_rule(club: Club) -> core.LateRule:
    """The club's rule for the rounds a late arrival missed."""
    try:
        return core.LateRule(club.late_rule)
    except ValueError:
        return core.LateRule.HIGHEST


@unit_of_work()
def set_late_rule(club: Club, rule: object) -> None:
    """Choose how a late arrival's missed rounds are scored: highest, average or zero."""
    try:
        chosen = core.LateRule(str(rule))
    except ValueError:
        _refuse(
            "late_rule_unknown",
            N_("Choose how a late arrival's missed rounds are scored."),
            "rule",
        )
    club.late_rule = chosen.value


def late_candidates(club: Club, game: Game) -> list[RosterPlayer]:
    """The active roster players not already at this game's table."""
    seated = {player.roster_player_id for player in game.players}
    return [entry for entry in roster_service.active_roster(club) if entry.id not in seated]


def add_late_player(
    club: Club,
    game: Game,
    *,
    roster_id: int | None = None,
    guest: str | None = None,
    device: str | None = None,
) -> Player:
    """A late arrival joins the game at its next round: a roster player or a guest (a guest
    typed with a roster name is that player). Their missed rounds are scored by the club's
    rule; see services.games.join_late."""
    if game.club_id != club.id:
        _refuse("late_other_club", N_("This game belongs to another club."))
    seated = {player.roster_player_id for player in game.players}
    if roster_id is not None:
        entry = roster_service.roster_entry(club, roster_id)
        if entry is None or entry.archived or entry.merged_into_id is not None:
            _refuse(
                "night_not_roster", N_("That player is not on the club's active roster."), "roster"
            )
    else:
        name = core.clean_name(guest)
        if not name:
            _refuse(
                "late_nobody",
                N_("Choose a player from the roster, or type a guest's name."),
                "roster",
            )
        by_name = {e.display_name.casefold(): e for e in roster_service.active_roster(club)}
        entry = by_name.get(name.casefold())
    if entry is not None and entry.id in seated:
        _refuse(
            "late_seated",
            N_("%(name)s is already playing in this game."),
            "roster",
            name=entry.display_name,
        )
    name = entry.display_name if entry is not None else core.clean_name(guest)
    try:
        return game_service.join_late(
            game,
            name,
            late_rule(club),
            roster_id=entry.id if entry is not None else None,
            device=device,
        )
    except core.RuleError as error:
        raise NightError(error.problems) from None
