"""Game use cases: create a game, record/edit/undo rounds, end it, and read its state.

Every score comes from `scorekeeper.core`; this module stores what the core decided and
keeps the history. It owns the transactions: each public function commits or rolls back.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import date, datetime
from typing import Any

from sqlalchemy import Row, and_, bindparam, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import selectinload

from scorekeeper import core
from scorekeeper.extensions import db
from scorekeeper.models import (
    Change,
    Club,
    DeviceGame,
    Game,
    Hand,
    Penalty,
    Player,
    Round,
    Season,
    utcnow,
)


class StaleGame(Exception):
    """The game changed since the page (or API client) read it: nothing was saved."""

    def __init__(self, game: Game, round_number: int | None = None):
        self.game = game
        self.round_number = round_number
        super().__init__(f"game {game.id} changed (round {round_number})")


class GameOver(Exception):
    """A round was recorded after the game ended."""


@dataclass
class SaveOutcome:
    """What happened to a round that was sent: saved, or why not (errors, unconfirmed warnings)."""

    check: core.RoundCheck
    round: Round | None = None
    needs_confirmation: bool = False
    changes: list[Change] = field(default_factory=list)
    # Once saved: the round's number and the game's new version (read them here: the rows
    # expire at commit, and reading them again would reload the game).
    number: int | None = None
    version: int | None = None

    @property
    def saved(self) -> bool:
        return self.round is not None


# Reading a game -------------------------------------------------------------------------


def load_game(game_id: int) -> Game | None:
    """A game with its players, rounds, hands and penalties, in a fixed number of queries."""
    return db.session.execute(
        select(Game).where(Game.id == game_id).options(*_FULL)
    ).scalar_one_or_none()


# What load_game reads besides the game's row.
_FULL = (
    selectinload(Game.players),
    selectinload(Game.round_rows).selectinload(Round.hands),
    selectinload(Game.round_rows).selectinload(Round.penalties),
)
# A device's right to a game, joined to the game (None where the device never opened it).
_THIS_DEVICE = and_(DeviceGame.game_id == Game.id, DeviceGame.device == bindparam("device"))
# game_for_device's query, built once (it runs for every page of a game).
_GAME_FOR_DEVICE = (
    select(Game, DeviceGame.can_edit)
    .outerjoin(DeviceGame, _THIS_DEVICE)
    .where(Game.id == bindparam("game_id"))
)
_GAME_FOR_DEVICE_FULL = _GAME_FOR_DEVICE.options(*_FULL)
# game_ref's queries: plain columns, no objects.
_REF = (
    select(Game.id, Game.version, Game.view_token, Game.club_id, DeviceGame.can_edit)
    .select_from(Game)
    .outerjoin(DeviceGame, _THIS_DEVICE)
)
_REF_FOR_DEVICE = _REF.where(Game.id == bindparam("game_id"))
_REF_BY_TOKEN = _REF.where(Game.view_token == bindparam("view_token"))


def _right(device: str | None, can_edit: bool | None) -> str | None:
    """'edit', 'view' or None, from a device's row for a game (None: it has none)."""
    if not device or can_edit is None:
        return None
    return "edit" if can_edit else "view"


def game_for_device(
    game_id: int, device: str | None, *, full: bool = True
) -> tuple[Game | None, str | None]:
    """The game (`full`: with players, rounds, hands and penalties, as load_game; else its row
    only) and what this device may do with it (as device_access), read together."""
    query = _GAME_FOR_DEVICE_FULL if full else _GAME_FOR_DEVICE
    row = db.session.execute(query, {"game_id": game_id, "device": device or ""}).one_or_none()
    if row is None:
        return None, None
    game, can_edit = row
    return game, _right(device, can_edit)


@dataclass(frozen=True)
class GameRef:
    """Which game and version, and whose: enough to serve a cached image of it (its charts
    and QR code), read without the game's row object."""

    id: int
    version: int
    view_token: str
    club_id: int | None


def game_ref(
    *, device: str | None = None, game_id: int | None = None, view_token: str | None = None
) -> tuple[GameRef | None, str | None]:
    """The game with this id (and what `device` may do with it, as device_access) or this share
    token (then no device right: None), in one light query outside the session."""
    if game_id is not None:
        query, params = _REF_FOR_DEVICE, {"game_id": game_id, "device": device or ""}
    else:
        query, params = _REF_BY_TOKEN, {"view_token": view_token or "", "device": ""}
    with db.engine.connect() as connection:
        row = connection.execute(query, params).first()
    if row is None:
        return None, None
    return GameRef(row.id, row.version, row.view_token, row.club_id), _right(device, row.can_edit)


def game_row(game_id: int) -> Game | None:
    """Only the game's own row; its players and rounds load when first touched."""
    return db.session.get(Game, game_id)


def game_by_token(token: str, *, edit: bool, full: bool = True) -> Game | None:
    """The game a share link (view) or edit link points to."""
    column = Game.edit_token if edit else Game.view_token
    if not full:
        return db.session.execute(select(Game).where(column == token)).scalar_one_or_none()
    game_id = db.session.execute(select(Game.id).where(column == token)).scalar_one_or_none()
    return load_game(game_id) if game_id is not None else None


def rules_of(game: Game) -> core.GameRules:
    """The game's stored options as the core's GameRules."""
    return core.GameRules(
        game_type=core.GameType(game.game_type),
        set_size=game.set_size,
        blank_scoring=core.BlankScoring(game.blank_scoring),
        start_double=game.start_double,
        rounds=game.rounds,
        order=core.Order(game.order),
        hand_size=game.hand_size,
        target=game.target,
        house_rules=core.HouseRules(
            open_train_points=game.open_train_points,
            strategic_error=game.strategic_error,
            adjustments=game.adjustments,
        ),
    )


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
        "open_train_points": rules.house_rules.open_train_points,
        "strategic_error": rules.house_rules.strategic_error,
        "adjustments": rules.house_rules.adjustments,
    }


def setup_of(game: Game, players: Sequence[Any] | None = None) -> core.GameSetup:
    """The game as the core sees it: players in seating order, rules, teams.

    `players`: its seats already read (as rows: anything with seat, name and team)."""
    seats = game.players if players is None else players
    names = tuple(player.name for player in seats)
    teams: dict[int, list[str]] = {}
    for player in seats:
        if player.team is not None:
            teams.setdefault(player.team, []).append(player.name)
    pairs = tuple((pair[0], pair[1]) for _, pair in sorted(teams.items()) if len(pair) == 2)
    return core.GameSetup(names, rules_of(game), pairs)


def result_of(game: Game, row: Round, names: dict[int, str] | None = None) -> core.RoundResult:
    """A stored round as the core's RoundResult (the scores the core gave it when saved).

    `row`: the Round, or the same read as plain rows; `names`: the players' names by seat."""
    if names is None:
        names = {player.seat: player.name for player in game.players}
    hands = tuple(
        core.HandResult(
            player=names[hand.seat],
            pips=hand.pips,
            penalty=hand.penalty,
            score=hand.score,
            went_out=hand.went_out,
            tiles=tuple(core.parse_tile(t) for t in hand.tiles.split()) if hand.tiles else None,
        )
        for hand in row.hands
    )
    penalties = tuple(
        core.Penalty(names[p.seat], core.PenaltyKind(p.kind), p.points, p.reason)
        for p in row.penalties
    )
    out = names.get(row.out_seat) if row.out_seat is not None else None
    return core.RoundResult(row.engine, hands, out, row.blocked, penalties)


def results_of(game: Game) -> list[core.RoundResult]:
    """Every recorded round of the game, in order."""
    names = {player.seat: player.name for player in game.players}
    return [result_of(game, row, names) for row in game.round_rows]


def state_of(game: Game, results: list[core.RoundResult] | None = None) -> core.GameState:
    """Where the game stands: next round, engine, opener, standings, finished.

    `results` are the game's `results_of` when the caller already has them (read once a request).
    """
    if results is None:
        results = results_of(game)
    return core.game_state(setup_of(game), results, ended_early=game.ended_early)


def entry_of(game: Game, row: Round) -> core.RoundEntry:
    """A stored round as an entry, to prefill the edit form."""
    names = {player.seat: player.name for player in game.players}
    hands = {
        names[hand.seat]: core.HandEntry(
            pips=hand.pips, tiles=hand.tiles.split() if hand.tiles is not None else None
        )
        for hand in row.hands
    }
    penalties = [
        core.PenaltyEntry(names[p.seat], p.kind, p.points, p.reason) for p in row.penalties
    ]
    out = names.get(row.out_seat) if row.out_seat is not None else None
    return core.RoundEntry(hands, out, row.blocked, penalties)


def history_of(game: Game, limit: int = 200) -> list[Row]:
    """The game's history, newest first: plain rows with a Change's fields (to read, not edit)."""
    return list(db.session.execute(_HISTORY, {"game_id": game.id, "limit": limit}))


_HISTORY = (
    select(Change.__table__)
    .where(Change.__table__.c.game_id == bindparam("game_id"))
    .order_by(Change.__table__.c.id.desc())
    .limit(bindparam("limit"))
)


# Creating a game and remembering it on a device -----------------------------------------------


def create_game(
    players: Sequence[object],
    rules: core.GameRules,
    teams: Sequence[Sequence[str]] = (),
    *,
    device: str | None = None,
    club_id: int | None = None,
    roster_ids: Sequence[int | None] | None = None,
    season_id: int | None = None,
    club_night_id: int | None = None,
    table_number: int | None = None,
) -> Game:
    """Create a game from a table's choices; raises core.RuleError if they break the rules.

    A club game gets `club_id` (the club's members see it, not the device) and, per seat, the
    roster entry that player is (None for a guest)."""
    game = add_game(
        players,
        rules,
        teams,
        device=device,
        club_id=club_id,
        roster_ids=roster_ids,
        season_id=season_id,
        club_night_id=club_night_id,
        table_number=table_number,
    )
    db.session.commit()
    return game


def add_game(
    players: Sequence[object],
    rules: core.GameRules,
    teams: Sequence[Sequence[str]] = (),
    *,
    device: str | None = None,
    club_id: int | None = None,
    roster_ids: Sequence[int | None] | None = None,
    season_id: int | None = None,
    club_night_id: int | None = None,
    table_number: int | None = None,
) -> Game:
    """create_game without the commit: for a use case that makes several games in one
    transaction (a club night's tables). The caller commits or rolls back."""
    setup = core.new_game(players, rules, teams)
    game = Game(
        **rule_columns(setup.rules),
        created_by=device,
        club_id=club_id,
        season_id=season_id if season_id is not None else _season_on(club_id, utcnow().date()),
        club_night_id=club_night_id,
        table_number=table_number,
    )
    team_of = {name: index for index, team in enumerate(setup.teams, 1) for name in team}
    roster = list(roster_ids or [])
    game.players = [
        Player(
            seat=seat,
            name=name,
            team=team_of.get(name),
            roster_player_id=roster[seat] if seat < len(roster) else None,
        )
        for seat, name in enumerate(setup.players)
    ]
    db.session.add(game)
    db.session.flush()
    db.session.add(
        Change(game_id=game.id, action="created", new_value=", ".join(setup.players), device=device)
    )
    if device and club_id is None:
        db.session.add(DeviceGame(device=device, game_id=game.id, can_edit=True))
    return game


def _season_on(club_id: int | None, day: date) -> int | None:
    """The club's season whose dates include `day` (the latest-starting one if they overlap)."""
    if club_id is None:
        return None
    return db.session.execute(
        select(Season.id)
        .where(Season.club_id == club_id, Season.starts_on <= day, Season.ends_on >= day)
        .order_by(Season.starts_on.desc(), Season.id.desc())
        .limit(1)
    ).scalar_one_or_none()


def remember(device: str, game: Game, *, can_edit: bool) -> None:
    """Put the game on this device's list; edit rights, once given, stay."""
    row = db.session.execute(
        select(DeviceGame).where(DeviceGame.device == device, DeviceGame.game_id == game.id)
    ).scalar_one_or_none()
    if row is None:
        db.session.add(DeviceGame(device=device, game_id=game.id, can_edit=can_edit))
    else:
        row.can_edit = row.can_edit or can_edit
        row.opened_at = utcnow()
    try:
        db.session.commit()
    except IntegrityError:  # the same device opened it twice at once: one row is enough
        db.session.rollback()


def device_access(device: str | None, game: Game) -> str | None:
    """'edit', 'view' or None: what this device may do with the game."""
    if not device:
        return None
    can_edit = db.session.execute(
        select(DeviceGame.can_edit).where(
            DeviceGame.device == device, DeviceGame.game_id == game.id
        )
    ).scalar_one_or_none()
    return _right(device, can_edit)


@dataclass(frozen=True)
class DeviceGameLine:
    """One game of a device's list: who plays, what, when it last changed, and this device's
    right (read as plain columns: the home page lists up to 50)."""

    id: int
    players: tuple[str, ...]
    game_type: str
    set_size: int
    target: int
    updated_at: datetime
    finished: bool
    can_edit: bool


def games_of_device(device: str | None, limit: int = 50) -> list[DeviceGameLine]:
    """The games this device created or opened, newest first, with its edit right."""
    if not device:
        return []
    games, devices = Game.__table__.c, DeviceGame.__table__.c
    rows = db.session.execute(
        select(
            games.id,
            games.game_type,
            games.set_size,
            games.target,
            games.updated_at,
            games.finished_at,
            devices.can_edit,
        )
        .join_from(Game.__table__, DeviceGame.__table__, devices.game_id == games.id)
        .where(devices.device == device)
        .order_by(games.updated_at.desc(), games.id.desc())
        .limit(limit)
    ).all()
    names: dict[int, list[str]] = {row.id: [] for row in rows}
    if names:
        seats = Player.__table__.c
        for game_id, name in db.session.execute(
            select(seats.game_id, seats.name)
            .where(seats.game_id.in_(list(names)))
            .order_by(seats.game_id, seats.seat)
        ):
            names[game_id].append(name)
    return [
        DeviceGameLine(
            row.id,
            tuple(names[row.id]),
            row.game_type,
            row.set_size,
            row.target,
            row.updated_at,
            row.finished_at is not None,
            bool(row.can_edit),
        )
        for row in rows
    ]


# Recording rounds ------------------------------------------------------------------------------


def describe_hand(result: core.HandResult) -> str:
    """One hand as the history shows it: 'out', '15' or '15 (6-4 3-2)', with penalties."""
    text = "out" if result.went_out else str(result.pips)
    if result.tiles:
        text += " (" + " ".join(str(t) for t in result.tiles) + ")"
    if result.penalty:
        text += f" {result.penalty:+d}"
    # Change.old_value/new_value hold 400 characters (enforced by PostgreSQL): cut long hands.
    return text if len(text) <= 400 else text[:399] + "…"


def _bump_version(game: Game, expected: int | None) -> int:
    """Move the game to its next version and return it, or raise StaleGame if another save
    got there first."""
    condition = [Game.id == game.id]
    if expected is not None:
        condition.append(Game.version == expected)
    version = db.session.execute(
        update(Game)
        .where(*condition)
        .values(version=Game.version + 1, updated_at=utcnow())
        .returning(Game.version)
        .execution_options(synchronize_session=False)
    ).scalar_one_or_none()
    if version is None:
        db.session.rollback()
        raise StaleGame(game)
    return version


def _store(game: Game, row: Round, result: core.RoundResult) -> None:
    """Write a scored round onto its row, updating hands in place (seat is unique per round)."""
    seat_of = {player.name: player.seat for player in game.players}
    row.engine = result.engine
    row.out_seat = seat_of[result.out] if result.out else None
    row.blocked = result.blocked
    existing = {hand.seat: hand for hand in row.hands}
    for result_hand in result.hands:
        hand = existing.get(seat_of[result_hand.player])
        if hand is None:
            hand = Hand(seat=seat_of[result_hand.player])
            row.hands.append(hand)
        hand.pips = result_hand.pips
        hand.tiles = (
            " ".join(str(t) for t in result_hand.tiles) if result_hand.tiles is not None else None
        )
        hand.penalty = result_hand.penalty
        hand.score = result_hand.score
        hand.went_out = result_hand.went_out
    row.penalties.clear()
    row.penalties.extend(
        Penalty(seat=seat_of[p.player], kind=p.kind.value, points=p.points, reason=p.reason[:200])
        for p in result.penalties
    )


def _finish_if_over(game: Game) -> None:
    """Mark the game finished (or not) and keep each seat's final figures in step.

    The figures (place, total, rounds, zero rounds) are the core's standings, stored so that
    season standings and player pages can be summed in SQL without replaying rounds."""
    state = state_of(game)
    if state.finished and game.finished_at is None:
        game.finished_at = utcnow()
    elif not state.finished:
        game.finished_at = None
    _store_final_figures(game, state if state.finished else None)


def _store_final_figures(game: Game, state: core.GameState | None) -> None:
    lines = {line.name: line for line in state.standings} if state else {}
    shared: dict[int, int] = {}
    for line in lines.values():
        shared[line.place] = shared.get(line.place, 0) + 1
    for player in game.players:
        line = lines.get(player.name)
        player.place = line.place if line else None
        player.place_shared = shared[line.place] if line else None
        player.total = line.total if line else None
        player.rounds_played = len(line.rounds) if line else None
        player.zero_rounds = line.zero_rounds if line else None


def record_round(
    game: Game,
    entry: core.RoundEntry,
    *,
    number: int | None = None,
    confirm: bool = False,
    device: str | None = None,
    expected_version: int | None = None,
) -> SaveOutcome:
    """Record the next round. `number` is the round the scorer was looking at: if another
    phone recorded it first, StaleGame is raised and nothing is saved."""
    state = state_of(game)
    if state.finished:
        raise GameOver()
    next_number = state.rounds_played + 1
    if number is not None and number != next_number:
        raise StaleGame(game, number)
    check = core.check_round(setup_of(game), next_number, entry)
    if not check.ok or (check.warnings and not confirm):
        return SaveOutcome(check, needs_confirmation=check.ok)
    assert check.result is not None
    version = _bump_version(game, expected_version)
    row = Round(game_id=game.id, number=next_number)
    _store(game, row, check.result)
    game.round_rows.append(row)  # the game as it now stands, without reading it back
    changes = [
        Change(
            game_id=game.id,
            action="recorded",
            round_number=next_number,
            player=hand.player,
            new_value=describe_hand(hand),
            device=device,
        )
        for hand in check.result.hands
    ]
    if check.result.blocked:
        changes.append(
            Change(
                game_id=game.id,
                action="recorded",
                round_number=next_number,
                new_value="blocked",
                device=device,
            )
        )
    db.session.add_all(changes)
    try:
        db.session.flush()
    except IntegrityError:  # the same round number was saved by another phone a moment ago
        db.session.rollback()
        raise StaleGame(game, next_number) from None
    if _seats(game.id) != len(check.result.hands):  # a late arrival joined meanwhile
        db.session.rollback()
        raise StaleGame(game, next_number)
    _finish_if_over(game)
    db.session.commit()
    return SaveOutcome(check, row, changes=changes, number=next_number, version=version)


def _seats(game_id: int) -> int:
    """How many seats the game has now (committed, or added by this transaction)."""
    return db.session.execute(
        select(func.count()).select_from(Player).where(Player.game_id == game_id)
    ).scalar_one()


def edit_round(
    game: Game,
    number: int,
    entry: core.RoundEntry,
    *,
    round_version: int | None = None,
    confirm: bool = False,
    device: str | None = None,
    expected_version: int | None = None,
) -> SaveOutcome:
    """Correct a recorded round. A stale round_version (someone else edited it since this
    phone loaded it) raises StaleGame; nothing is overwritten silently."""
    row = next((r for r in game.round_rows if r.number == number), None)
    if row is None:
        raise LookupError(number)
    if round_version is not None and row.version != round_version:
        raise StaleGame(game, number)
    setup, entry = _as_played(game, row, entry)
    check = core.check_round(setup, number, entry)
    if not check.ok or (check.warnings and not confirm):
        return SaveOutcome(check, needs_confirmation=check.ok)
    assert check.result is not None
    before = result_of(game, row)
    before_hands = [hand for hand in before.hands if hand.player in setup.players]
    done = db.session.execute(
        update(Round)
        .where(Round.id == row.id, Round.version == row.version)
        .values(version=Round.version + 1, updated_at=utcnow())
        .execution_options(synchronize_session=False)
    )
    if done.rowcount != 1:
        db.session.rollback()
        raise StaleGame(game, number)
    _bump_version(game, expected_version)
    db.session.refresh(row)
    _store(game, row, check.result)
    changes = _rescore_late(game, row, device)
    for old, new in zip(before_hands, check.result.hands, strict=True):
        old_text, new_text = describe_hand(old), describe_hand(new)
        if old_text != new_text:
            changes.append(
                Change(
                    game_id=game.id,
                    action="edited",
                    round_number=number,
                    player=new.player,
                    old_value=old_text,
                    new_value=new_text,
                    device=device,
                )
            )
    if before.blocked != check.result.blocked:
        changes.append(
            Change(
                game_id=game.id,
                action="edited",
                round_number=number,
                old_value="blocked" if before.blocked else "not blocked",
                new_value="blocked" if check.result.blocked else "not blocked",
                device=device,
            )
        )
    db.session.add_all(changes)
    db.session.flush()
    db.session.refresh(game)
    _finish_if_over(game)
    db.session.commit()
    return SaveOutcome(check, row, changes=changes)


def undo_last_round(
    game: Game,
    *,
    device: str | None = None,
    expected_version: int | None = None,
    number: int | None = None,
) -> int:
    """Remove the last recorded round (kept in the history); returns its number.

    `number` is the round the scorer meant to undo: if it is no longer the last, StaleGame."""
    if not game.round_rows:
        raise LookupError("no round to undo")
    row = game.round_rows[-1]
    undone = row.number
    if number is not None and undone != number:
        raise StaleGame(game, number)
    result = result_of(game, row)
    _bump_version(game, expected_version)
    db.session.add_all(
        Change(
            game_id=game.id,
            action="undone",
            round_number=row.number,
            player=hand.player,
            old_value=describe_hand(hand),
            device=device,
        )
        for hand in result.hands
    )
    db.session.delete(row)
    for player in game.players:
        # A late arrival who joined after the undone round plays it when it is recorded again.
        player.joined_round = min(player.joined_round, undone)
    db.session.flush()
    db.session.refresh(game)
    _finish_if_over(game)
    db.session.commit()
    return undone


def end_game(game: Game, *, device: str | None = None) -> None:
    """End the game now, as the table agreed; the standings are final from here."""
    if game.ended_early or game.finished_at is not None:
        return
    _bump_version(game, None)
    db.session.refresh(game)
    game.ended_early = True
    game.finished_at = utcnow()
    _store_final_figures(game, state_of(game))
    db.session.add(Change(game_id=game.id, action="ended", device=device))
    db.session.commit()


# Late arrivals ---------------------------------------------------------------------------------

JOINED_LATE = "joined late"


def join_late(
    game: Game,
    name: str,
    rule: core.LateRule,
    *,
    roster_id: int | None = None,
    device: str | None = None,
) -> Player:
    """Seat a late arrival at the next round. Each round already played gets a hand for them,
    marked late, scored by `rule` from the others' scores of that round (core.late_scores);
    from then on they are a seat like any other.

    Refused (core.RuleError) for a finished, draw or partnership game (late_join_problem), or
    a name the game already has; StaleGame if the game changed meanwhile."""
    state = state_of(game)
    problem = late_join_problem(game, state)
    if problem is not None:
        raise core.RuleError(problem)
    setup = setup_of(game)
    try:
        joined = core.new_game([*setup.players, name], rules_of(game))
    except core.RuleError as error:
        # The core numbers the players; the only new one is the late arrival's name field.
        raise core.RuleError(
            [
                replace(p, field="name") if (p.field or "").startswith("players") else p
                for p in error.problems
            ]
        ) from None
    clean = joined.players[-1]
    missed = [[hand.score for hand in row.hands if not hand.late] for row in game.round_rows]
    scores = core.late_scores(core.LateRule(rule), missed)
    _bump_version(game, game.version)
    seat = max((player.seat for player in game.players), default=-1) + 1
    player = Player(
        game_id=game.id,
        seat=seat,
        name=clean,
        roster_player_id=roster_id,
        joined_round=state.rounds_played + 1,
    )
    db.session.add(player)
    for row, score in zip(game.round_rows, scores, strict=True):
        row.hands.append(Hand(seat=seat, pips=0, penalty=0, score=score, late=True))
    db.session.add(
        Change(
            game_id=game.id,
            action=JOINED_LATE,
            round_number=player.joined_round,
            player=clean,
            new_value=f"{JOINED_LATE} ({core.LateRule(rule).value})",
            device=device,
        )
    )
    try:
        db.session.flush()
    except IntegrityError:  # a round or another late arrival took the seat a moment ago
        db.session.rollback()
        raise StaleGame(game) from None
    db.session.refresh(game)
    _finish_if_over(game)
    db.session.commit()
    return player


def late_join_problem(game: Game, state: core.GameState | None = None) -> core.Problem | None:
    """Why nobody can join this game late (finished, draw game, partnerships), or None."""
    state = state or state_of(game)
    if state.finished:
        return core.Problem(
            "late_finished", core.N_("The game is over: nobody can join it any more.")
        )
    if game.game_type == core.GameType.DRAW.value:
        return core.Problem(
            "late_draw",
            core.N_(
                "A late player cannot join a draw game: its hands are won, so there is no "
                "round score to give for the hands they missed."
            ),
        )
    if any(player.team is not None for player in game.players):
        return core.Problem(
            "late_teams",
            core.N_("A late player cannot join a partnership game: the teams are set."),
        )
    return None


def late_rules_of(game: Game) -> dict[str, core.LateRule]:
    """The rule each late arrival's missed rounds are scored by: the club's rule when they
    joined (kept in the history), by player name."""
    rows = db.session.execute(
        select(Change.player, Change.new_value)
        .where(Change.game_id == game.id, Change.action == JOINED_LATE)
        .order_by(Change.id)
    ).all()
    rules: dict[str, core.LateRule] = {}
    for player, value in rows:
        word = (value or "").rstrip(")").rsplit("(", 1)[-1]
        if player and word in {rule.value for rule in core.LateRule}:
            rules[player] = core.LateRule(word)
    return rules


def late_rules_used(
    game: Game, late_seats: set[int], players: Sequence[Any]
) -> list[core.LateRule]:
    """The rules the late hands of these seats were scored by (for the sheet's legend), in rule
    order. `players`: the game's seats (anything with seat and name)."""
    if not late_seats:
        return []
    recorded = late_rules_of(game)
    used = {
        recorded.get(player.name) or _club_late_rule(game)
        for player in players
        if player.seat in late_seats
    }
    return [rule for rule in core.LateRule if rule in used]


def _club_late_rule(game: Game) -> core.LateRule:
    club = db.session.get(Club, game.club_id) if game.club_id is not None else None
    try:
        return core.LateRule(club.late_rule if club is not None else "highest")
    except ValueError:
        return core.LateRule.HIGHEST


def _as_played(
    game: Game, row: Round, entry: core.RoundEntry
) -> tuple[core.GameSetup, core.RoundEntry]:
    """The table as it played this round: without the late arrivals who missed it (whatever
    the entry says for them is left out: their score follows from the others')."""
    setup = setup_of(game)
    late = {hand.seat for hand in row.hands if hand.late}
    if not late:
        return setup, entry
    away = {player.name for player in game.players if player.seat in late}
    present = tuple(name for name in setup.players if name not in away)
    teams = tuple(team for team in setup.teams if not away & set(team))
    hands = {name: hand for name, hand in entry.hands.items() if name not in away}
    return core.GameSetup(present, setup.rules, teams), replace(entry, hands=hands)


def _rescore_late(game: Game, row: Round, device: str | None) -> list[Change]:
    """After an edit, score the round's late hands again from the others' new scores."""
    late = [hand for hand in row.hands if hand.late]
    if not late:
        return []
    rules = late_rules_of(game)
    others = [hand.score for hand in row.hands if not hand.late]
    names = {player.seat: player.name for player in game.players}
    changes = []
    for hand in late:
        name = names[hand.seat]
        (score,) = core.late_scores(rules.get(name) or _club_late_rule(game), [others])
        if score != hand.score:
            changes.append(
                Change(
                    game_id=game.id,
                    action="edited",
                    round_number=row.number,
                    player=name,
                    old_value=f"{hand.score} ({JOINED_LATE})",
                    new_value=f"{score} ({JOINED_LATE})",
                    device=device,
                )
            )
            hand.score = score
    return changes


def count_games() -> int:
    """How many games the database holds (the benchmark reports it)."""
    return db.session.execute(select(func.count(Game.id))).scalar_one()
