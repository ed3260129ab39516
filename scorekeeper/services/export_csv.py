"""A club as CSV: one row per player per round of every club game, for a spreadsheet.

A report, not a backup: it cannot be imported (the JSON of export_json.py can).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence

from sqlalchemy import select

from scorekeeper.extensions import db
from scorekeeper.models import ClubNight, Penalty, RosterPlayer
from scorekeeper.services.export_json import club_games, club_roster, load_club
from scorekeeper.services.seasons import seasons_counting, seasons_of

CSV_HEADER = (
    "club",
    "game_id",
    "game_date",
    "night",
    "table",
    "season",
    "game_type",
    "round",
    "engine",
    "player",
    "roster_name",
    "pips",
    "tiles",
    "penalties",
    "penalty_detail",
    "score",
    "went_out",
    "blocked",
    "late",
    "away",
)


def spreadsheet_safe(text: str) -> str:
    """Text a spreadsheet will not run as a formula (a name typed as '=1+1', say)."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def _penalty_detail(penalties: Iterable[Penalty]) -> str:
    return "; ".join(
        f"{p.kind} {p.points:+d}" + (f" ({p.reason})" if p.reason else "") for p in penalties
    )


def _current_names(roster: Sequence[RosterPlayer]) -> dict[int, str]:
    """Each roster entry's name now: a merged entry goes by the entry it was merged into."""
    by_id = {player.id: player for player in roster}
    names: dict[int, str] = {}
    for player in roster:
        current, seen = player, {player.id}
        while current.merged_into_id in by_id and current.merged_into_id not in seen:
            current = by_id[current.merged_into_id]
            seen.add(current.id)
        names[player.id] = current.display_name
    return names


def _night_label(night: ClubNight) -> str:
    """A club night as a spreadsheet reads it: its name, or its date when it has none."""
    return spreadsheet_safe(night.name) if night.name else night.played_on.isoformat()


def export_club_csv(club_id: int) -> str:
    """One row per player per round of every club game, with a header; LookupError if unknown.

    game_date is the day the game was played (its club night's date); season names every
    season that counts the game ("; " between them); late says a late arrival's missed round
    (scored by the club's late rule, never a zero round); away, a round missed after leaving
    the game (the round's highest score, never a zero round)."""
    club = load_club(club_id)
    names = _current_names(club_roster(club_id))
    nights = {
        night.id: _night_label(night)
        for night in db.session.scalars(select(ClubNight).where(ClubNight.club_id == club_id))
    }
    seasons = sorted(seasons_of(club), key=lambda season: (season.starts_on, season.id))
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(CSV_HEADER)
    club_name = spreadsheet_safe(club.name)
    for game in club_games(club_id):
        seats = {player.seat: player for player in game.players}
        season_names = "; ".join(
            spreadsheet_safe(season.name) for season in seasons_counting(game, seasons)
        )
        for row in game.round_rows:
            for hand in row.hands:
                player = seats.get(hand.seat)
                roster_id = player.roster_player_id if player else None
                writer.writerow(
                    (
                        club_name,
                        game.id,
                        game.played_on.isoformat(),
                        nights.get(game.club_night_id, "") if game.club_night_id else "",
                        game.table_number or "",
                        season_names,
                        game.game_type,
                        row.number,
                        f"{row.engine}-{row.engine}" if row.engine is not None else "",
                        spreadsheet_safe(player.name if player else ""),
                        spreadsheet_safe(names.get(roster_id, "") if roster_id else ""),
                        hand.pips,
                        hand.tiles or "",
                        hand.penalty,
                        _penalty_detail(p for p in row.penalties if p.seat == hand.seat),
                        hand.score,
                        "yes" if hand.went_out else "no",
                        "yes" if row.blocked else "no",
                        "yes" if hand.late else "no",
                        "yes" if hand.away else "no",
                    )
                )
    return out.getvalue()
