"""Writing games: create one, record, correct and undo rounds, end it and reopen it.

Every score comes from `scorekeeper.core`; these functions store what the core decided and keep
the history. Each reads the game as it stands from its snapshot, checks the change with the
core, writes it pinned to the version it read (versions.py: another phone's change in between
raises StaleGame, nothing is saved) and commits or rolls back.

Under contention on PostgreSQL a write can still lose a deadlock or a serialization check (the
server picks a victim): `game_write` runs it again, a few times, from a fresh read; past that
it raises Busy, which the views answer with 503 and Retry-After (nothing saved, nothing lost).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import selectinload

from scorekeeper import core
from scorekeeper.extensions import db
from scorekeeper.models import Change, DeviceGame, Game, Player, Round, RoundWrite, Season, utcnow
from scorekeeper.services.games import late, mapping
from scorekeeper.services.games.snapshot import Snapshot, snapshot_of
from scorekeeper.services.games.unit import commit, current, game_write
from scorekeeper.services.games.versions import StaleGame
from scorekeeper.services.unit import unit_of_work

# The history line of a game played on after it had ended (games/__init__.py words it).
REOPENED = "reopened"


class GameOver(Exception):
    """A round was recorded after the game ended."""


class KeyReused(Exception):
    """A write's key was already used for another round (`number`): nothing was saved, and the
    round sent is not a repeat of it (the client must keep it and make a new key)."""

    def __init__(self, number: int) -> None:
        super().__init__(number)
        self.number = number


@dataclass
class SaveOutcome:
    """What happened to a round that was sent: saved, or why not (errors, unconfirmed warnings)."""

    check: core.RoundCheck
    round: Round | None = None
    needs_confirmation: bool = False
    changes: list[Change] = field(default_factory=list)
    # Once saved: the round's number and the game's new version.
    number: int | None = None
    version: int | None = None
    # A repeat of a write already made with the same key: nothing was saved this time.
    repeated: bool = False

    @property
    def saved(self) -> bool:
        return self.round is not None or self.repeated


# Creating a game and remembering it on a device -----------------------------------------------


def create_game(
    players: Sequence[object],
    rules: core.GameRules,
    teams: Sequence[Sequence[str]] = (),
    **where: object,
) -> Game:
    """Create a game from a table's choices; raises core.RuleError if they break the rules.

    `where`: as add_game (device, club, roster entries, season, night, table)."""
    with unit_of_work():
        game = add_game(players, rules, teams, **where)  # type: ignore[arg-type]
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
    played_on: date | None = None,
) -> Game:
    """create_game without the commit: for a use case that makes several games in one
    transaction (a club night's tables). The caller commits or rolls back.

    A club game gets `club_id` (the club's members see it, not the device) and, per seat, the
    roster entry that player is (None for a guest). `played_on`: the day it was played (a club
    night's date, or a day given when it is entered after the fact; None: today). `season_id`:
    None files it by its day; another season than its day's is a choice by hand (it then
    counts in that season only, see services.seasons)."""
    setup = core.new_game(players, rules, teams)
    day, moment = when_played(played_on)
    by_date = season_on(club_id, day)
    game = Game(
        **mapping.rule_columns(setup.rules),
        created_by=device,
        club_id=club_id,
        played_on=day,
        played_at=moment,
        season_id=season_id if season_id is not None else by_date,
        # A season other than the one its day gives was chosen by hand: it counts there only.
        season_by_hand=season_id is not None and season_id != by_date,
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


def when_played(day: date | None) -> tuple[date, datetime | None]:
    """A game's played_on and played_at: the moment only when it is entered live (today, UTC);
    a game entered after the fact keeps its day, with no made-up time."""
    now = utcnow()
    if day is None or day == now.date():
        return now.date(), now
    return day, None


def in_the_future(day: date) -> bool:
    """True for a day no game can have been played on yet: a day ahead of UTC is still today
    somewhere, later than that is a typing slip (the setup form and the API refuse it)."""
    return day > utcnow().date() + timedelta(days=1)


def season_on(club_id: int | None, day: date) -> int | None:
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
    try:
        with unit_of_work():
            row = db.session.execute(
                select(DeviceGame).where(DeviceGame.device == device, DeviceGame.game_id == game.id)
            ).scalar_one_or_none()
            if row is None:
                db.session.add(DeviceGame(device=device, game_id=game.id, can_edit=can_edit))
            else:
                row.can_edit = row.can_edit or can_edit
                row.opened_at = utcnow()
    except IntegrityError:  # the same device opened it twice at once: one row is enough
        pass


# Rounds ----------------------------------------------------------------------------------------


@game_write  # the one unit: _record_round below is its body, not a unit of its own
def record_round(
    game: Game,
    entry: core.RoundEntry,
    *,
    number: int | None = None,
    confirm: bool = False,
    device: str | None = None,
    expected_version: int | None = None,
    key: str | None = None,
) -> SaveOutcome:
    """Record the next round. `number` is the round the scorer was looking at: if another
    phone recorded it first, StaleGame is raised and nothing is saved.

    `key`: the client's own name for this write (a queued offline round, an API retry). A
    write whose key this game already stored with the same round saves nothing and answers as
    the first did (`repeated`), even when both copies arrive at once; with another round it
    raises KeyReused (nothing saved)."""
    digest = mapping.entry_digest(entry) if key else None
    if key:
        first = repeat_of(game, key, digest)
        if first is not None:
            return first
    try:
        return _record_round(
            game,
            entry,
            number=number,
            confirm=confirm,
            device=device,
            expected_version=expected_version,
            key=key,
            digest=digest,
        )
    except (StaleGame, IntegrityError):
        # Lost a race: to the same write sent twice (then it is a repeat) or to another phone.
        # Read what won afresh; else game_write answers StaleGame, nothing saved.
        db.session.rollback()
        first = repeat_of(game, key, digest) if key else None
        if first is None:
            raise
        return first


def repeat_of(game: Game, key: str, digest: str | None = None) -> SaveOutcome | None:
    """The first answer to a round write with this key, if the game has one; KeyReused if that
    write sent another round than the one named by `digest`."""
    write = db.session.get(RoundWrite, (game.id, key))
    if write is None:
        return None
    if digest is not None and write.body_digest not in (None, digest):
        raise KeyReused(write.round_number)
    db.session.refresh(game)
    snapshot = snapshot_of(game)
    result = snapshot.result(write.round_number)
    return SaveOutcome(
        core.RoundCheck(result=result),
        number=write.round_number,
        version=snapshot.version,
        repeated=True,
    )


def _record_round(
    game: Game,
    entry: core.RoundEntry,
    *,
    number: int | None,
    confirm: bool,
    device: str | None,
    expected_version: int | None,
    key: str | None,
    digest: str | None,
) -> SaveOutcome:
    snapshot = current(game, expected_version)
    next_number = snapshot.state.rounds_played + 1
    if number is not None and number < next_number:
        # Checked before the end: the phone that lost the race for the last round is shown
        # the round that was saved, not just "the game is over".
        raise StaleGame(game, number)
    if snapshot.state.finished:
        raise GameOver()
    if number is not None and number != next_number:
        raise StaleGame(game, number)
    check = core.check_round(snapshot.setup, next_number, entry)
    if not check.ok or (check.warnings and not confirm):
        return SaveOutcome(check, needs_confirmation=check.ok)
    assert check.result is not None
    row = Round(game_id=game.id, number=next_number)
    mapping.store_result(row, check.result, snapshot.seat_of)
    db.session.add(row)
    if key:
        db.session.add(
            RoundWrite(game_id=game.id, key=key, round_number=next_number, body_digest=digest)
        )
    changes = [
        Change(
            game_id=game.id,
            action="recorded",
            round_number=next_number,
            player=hand.player,
            new_value=mapping.describe_hand(hand),
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
    _finish_if_over(game, snapshot, [*snapshot.results, check.result])
    version = commit(game)
    return SaveOutcome(check, row, changes=changes, number=next_number, version=version)


@game_write
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
    snapshot = current(game, expected_version)
    before = snapshot.result(number)
    if before is None:
        raise LookupError(number)
    if round_version is not None and snapshot.round_version(number) != round_version:
        raise StaleGame(game, number)
    setup, entry = late.as_played(snapshot, number, entry)
    check = core.check_round(setup, number, entry)
    if not check.ok or (check.warnings and not confirm):
        return SaveOutcome(check, needs_confirmation=check.ok)
    assert check.result is not None
    row = _round_row(game, number)
    row.version += 1
    row.updated_at = utcnow()
    mapping.store_result(row, check.result, snapshot.seat_of)
    changes = late.rescore(game, snapshot, row, device)
    before_hands = [hand for hand in before.hands if hand.player in setup.players]
    for old, new in zip(before_hands, check.result.hands, strict=True):
        old_text, new_text = mapping.describe_hand(old), mapping.describe_hand(new)
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
    names = {seat: name for name, seat in snapshot.seat_of.items()}
    results = list(snapshot.results)
    results[snapshot.numbers.index(number)] = mapping.result_of(row, names)
    _finish_if_over(game, snapshot, results)
    version = commit(game)
    return SaveOutcome(check, row, changes=changes, number=number, version=version)


@game_write
def undo_last_round(
    game: Game,
    *,
    device: str | None = None,
    expected_version: int | None = None,
    number: int | None = None,
) -> int:
    """Remove the last recorded round (kept in the history); returns its number.

    `number` is the round the scorer meant to undo: if it is no longer the last, StaleGame."""
    snapshot = current(game, expected_version)
    if not snapshot.results:
        raise LookupError("no round to undo")
    undone, result = snapshot.numbers[-1], snapshot.results[-1]
    if number is not None and undone != number:
        raise StaleGame(game, number)
    db.session.add_all(
        Change(
            game_id=game.id,
            action="undone",
            round_number=undone,
            player=hand.player,
            old_value=mapping.describe_hand(hand),
            device=device,
        )
        for hand in result.hands
    )
    db.session.delete(_round_row(game, undone))
    if game.ended_early:
        # Taking a round back means the table plays on: an early end no longer holds.
        game.ended_early = False
        db.session.add(Change(game_id=game.id, action=REOPENED, device=device))
    for player in game.players:
        # A late arrival who joined after the undone round plays it when it is recorded again.
        player.joined_round = min(player.joined_round, undone)
        # A player who left stays gone after the round they left after (RULES.md section 11):
        # if that is the round undone, it asks for their hand again when it is entered again.
    _finish_if_over(game, snapshot, list(snapshot.results[:-1]))
    commit(game)
    return undone


@game_write
def end_game(game: Game, *, device: str | None = None) -> None:
    """End the game now, as the table agreed; the standings are final from here."""
    if game.ended_early or game.finished_at is not None:
        return
    snapshot = current(game)
    game.ended_early = True
    game.finished_at = utcnow()
    state = core.game_state(snapshot.setup, list(snapshot.results), ended_early=True)
    store_final_figures(game, state)
    db.session.add(Change(game_id=game.id, action="ended", device=device))
    commit(game)


@game_write
def reopen_game(game: Game, *, device: str | None = None) -> None:
    """Reopen a game the table ended by mistake: play goes on from the next round, the final
    figures are cleared and the history says so. Raises GameOver when its rounds themselves
    finish the game (undo the last round instead); a game in play is left as it is."""
    if not game.ended_early and game.finished_at is None:
        return
    snapshot = current(game)
    if core.game_state(snapshot.setup, list(snapshot.results), ended_early=False).finished:
        raise GameOver()
    game.ended_early = False
    game.finished_at = None
    store_final_figures(game, None)
    db.session.add(Change(game_id=game.id, action=REOPENED, device=device))
    commit(game)


def _round_row(game: Game, number: int) -> Round:
    """Round `number` of the game as an object, with its hands and penalties, to change it.

    Read in the write's own transaction, which on PostgreSQL sees commits made since the
    snapshot: a round another phone undid meanwhile is a lost race (StaleGame), not an error."""
    row = db.session.execute(
        select(Round)
        .where(Round.game_id == game.id, Round.number == number)
        .options(selectinload(Round.hands), selectinload(Round.penalties))
    ).scalar_one_or_none()
    if row is None:
        raise StaleGame(game, number)
    return row


def _finish_if_over(
    game: Game, before: Snapshot, results: Sequence[core.RoundResult]
) -> core.GameState:
    """Mark the game finished (or not) once its rounds are `results`, and keep each seat's
    final figures in step; the game's new state."""
    state = core.game_state(before.setup, list(results), ended_early=game.ended_early)
    if state.finished and game.finished_at is None:
        game.finished_at = utcnow()
    elif not state.finished:
        game.finished_at = None
    if state.finished or before.state.finished:
        store_final_figures(game, state)
    return state


def store_final_figures(game: Game, state: core.GameState | None) -> None:
    """Keep each seat's final figures (the core's standings) on it, or clear them (None, or a
    game not finished)."""
    figures = mapping.final_figures(state)
    for player in game.players:
        mine = figures.get(player.name, {})
        for name in mapping.FIGURES:
            setattr(player, name, mine.get(name))
