"""Late arrivals at a club night's game: seating them, and scoring the rounds they missed.

A late arrival gets a hand, marked late, for each round already played, scored by the club's
rule at the time (core.late_scores) from the others' scores of that round; the rule is kept in
the game's history. Correcting such a round scores their hand again from the new scores.
"""

from __future__ import annotations

from dataclasses import replace

from sqlalchemy import select

from scorekeeper import core
from scorekeeper.extensions import db
from scorekeeper.models import Change, Game, Hand, Player, Round
from scorekeeper.services.games import mapping
from scorekeeper.services.games import snapshot as snapshots
from scorekeeper.services.games.snapshot import JOINED_LATE, Snapshot
from scorekeeper.services.games.unit import commit, current, game_write
from scorekeeper.services.games.versions import StaleGame


@game_write
def join_late(
    game: Game,
    name: str,
    rule: core.LateRule,
    *,
    roster_id: int | None = None,
    device: str | None = None,
) -> Player:
    """Seat a late arrival at the next round; from then on they are a seat like any other.

    Refused (core.RuleError) for a finished, draw or partnership game (late_join_problem), or
    a name the game already has; StaleGame if the game changed meanwhile."""
    snapshot = current(game)
    problem = late_join_problem(snapshot)
    if problem is not None:
        raise core.RuleError(problem)
    try:
        joined = core.new_game([*snapshot.setup.players, name], snapshot.setup.rules)
    except core.RuleError as error:
        # The core numbers the players; the only new one is the late arrival's name field.
        raise core.RuleError(
            [
                replace(p, field="name") if (p.field or "").startswith("players") else p
                for p in error.problems
            ]
        ) from None
    clean = joined.players[-1]
    missed = [
        [
            hand.score
            for hand, late in zip(result.hands, flags, strict=True)
            if not late and not hand.away
        ]
        for result, flags in zip(snapshot.results, snapshot.late, strict=True)
    ]
    scores = core.late_scores(core.LateRule(rule), missed)
    seat = max(snapshot.seat_numbers, default=-1) + 1
    player = Player(
        game_id=game.id,
        seat=seat,
        name=clean,
        roster_player_id=roster_id,
        joined_round=snapshot.state.rounds_played + 1,
    )
    db.session.add(player)
    rounds = db.session.scalars(
        select(Round).where(Round.game_id == game.id).order_by(Round.number)
    ).all()
    if [row.number for row in rounds] != list(snapshot.numbers):
        raise StaleGame(game)  # rounds saved or undone since the snapshot (PostgreSQL)
    db.session.add_all(
        Hand(round_id=row.id, seat=seat, pips=0, penalty=0, score=score, late=True)
        for row, score in zip(rounds, scores, strict=True)
    )
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
    commit(game)
    return player


def late_join_problem(snapshot: Snapshot) -> core.Problem | None:
    """Why nobody can join this game late (finished, draw game, partnerships), or None."""
    if snapshot.state.finished:
        return core.Problem(
            "late_finished", core.N_("The game is over: nobody can join it any more.")
        )
    if snapshot.setup.is_draw:
        return core.Problem(
            "late_draw",
            core.N_(
                "A late player cannot join a draw game: its hands are won, so there is no "
                "round score to give for the hands they missed."
            ),
        )
    if snapshot.setup.teams:
        return core.Problem(
            "late_teams",
            core.N_("A late player cannot join a partnership game: the teams are set."),
        )
    return None


def as_played(
    snapshot: Snapshot, number: int, entry: core.RoundEntry
) -> tuple[core.GameSetup, core.RoundEntry]:
    """The table as it played round `number`: without the late arrivals and the leavers who
    missed it."""
    return mapping.as_played(snapshot.setup, snapshot.missed_seats(number), entry)


def rescore(game: Game, snapshot: Snapshot, row: Round, device: str | None) -> list[Change]:
    """After an edit, score the round's missed hands again from the others' new scores: a late
    arrival's by the club's rule, a leaver's the round's highest (RULES.md sections 10, 11)."""
    late = [hand for hand in row.hands if hand.late]
    away = [hand for hand in row.hands if hand.away and not hand.late]
    if not late and not away:
        return []
    played = [hand for hand in row.hands if not hand.late and not hand.away]
    names = {seat: name for name, seat in snapshot.seat_of.items()}
    new_scores: dict[int, int] = {}
    if late:
        with snapshots.committed() as connection:
            recorded = snapshots.late_rules_recorded(connection, game.id)
            club_rule = snapshots.club_late_rule(connection, game.club_id)
        others = [hand.score for hand in played]
        for hand in late:
            (new_scores[hand.seat],) = core.late_scores(
                recorded.get(names[hand.seat]) or club_rule, [others]
            )
    if away:
        highest = core.missed_score(mapping.result_of(row, names), snapshot.setup.is_draw)
        new_scores.update({hand.seat: highest for hand in away})
    changes = []
    for hand in [*late, *away]:
        score = new_scores[hand.seat]
        if score != hand.score:
            word = JOINED_LATE if hand.late else "away"
            changes.append(
                Change(
                    game_id=game.id,
                    action="edited",
                    round_number=row.number,
                    player=names[hand.seat],
                    old_value=f"{hand.score} ({word})",
                    new_value=f"{score} ({word})",
                    device=device,
                )
            )
            hand.score = score
    return changes
