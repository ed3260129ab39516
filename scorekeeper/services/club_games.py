"""Club game use cases: the club's games list, a new club game (the one way, for the form and
the API alike), guests linked to the roster afterwards, a quick game moved into a club.

Players are named as the club's roster has them (services.roster).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from datetime import date

from sqlalchemy import select
from sqlalchemy.orm import selectinload

from scorekeeper import core
from scorekeeper.core import N_
from scorekeeper.extensions import db
from scorekeeper.models import Club, Game, Player, RosterPlayer
from scorekeeper.services import games as game_service
from scorekeeper.services import roster as roster_service
from scorekeeper.services.clubs import refuse
from scorekeeper.services.roster import MAX_NAME
from scorekeeper.services.unit import unit_of_work


@dataclass
class ClubGame:
    """A line of a club's games list: the game, its status, and names as the roster has them."""

    game: Game
    finished: bool
    rounds_played: int
    players: list[str]
    winners: list[str] = field(default_factory=list)
    # The seats no roster player sat in (their games count for no one's rating).
    guests: list[str] = field(default_factory=list)


def games_of_club(club: Club, limit: int = 200) -> list[ClubGame]:
    """The club's games, newest first, with status and winner (roster players by current name)."""
    games = db.session.execute(
        select(Game)
        .where(Game.club_id == club.id)
        .order_by(Game.played_on.desc(), Game.id.desc())
        .limit(limit)
        .options(selectinload(Game.players))
    ).scalars()
    current = roster_service.roster_names(club)
    lines = []
    for game in games:
        snapshot = game_service.snapshot_of(game)
        state = snapshot.state
        name_of = {
            p.name: current.get(p.roster_player_id, p.name) if p.roster_player_id else p.name
            for p in game.players
        }
        teams = {
            " & ".join(team): " & ".join(name_of[n] for n in team) for team in snapshot.setup.teams
        }
        lines.append(
            ClubGame(
                game=game,
                finished=state.finished,
                rounds_played=state.rounds_played,
                players=[name_of[p.name] for p in game.players],
                winners=[name_of.get(w) or teams.get(w, w) for w in state.winners],
                guests=[p.name for p in game.players if p.roster_player_id is None],
            )
        )
    return lines


def create_club_game(
    club: Club,
    players: Sequence[str | int],
    rules: core.GameRules,
    teams: Sequence[Sequence[str]] = (),
    *,
    device: str | None = None,
    played_on: date | None = None,
) -> Game:
    """A club game, from the web form or the API. Each player is a name or a roster id (an int,
    from the API): a name matching an active roster player (any case) is that player, spelt as
    the roster has it; any other name is a guest; an id must be an active roster player's.
    Raises core.RuleError like create_game (ClubError, code not_on_roster, for an unknown id).
    `played_on`: the day a game entered after the fact was played (None: now); it is dated and
    filed under a season by that day."""
    active = roster_service.active_roster(club)
    by_name = {entry.display_name.casefold(): entry for entry in active}
    by_id = {entry.id: entry for entry in active}
    names: list[str] = []
    roster_ids: list[int | None] = []
    for raw in players:
        if isinstance(raw, int):
            entry = by_id.get(raw)
            if entry is None:
                refuse(
                    "not_on_roster",
                    N_("No active player of this club's roster has the id %(id)s."),
                    "players",
                    id=str(raw),
                )
            names.append(entry.display_name)
            roster_ids.append(entry.id)
            continue
        name = core.clean_name(raw)
        found = by_name.get(name.casefold())
        names.append(found.display_name if found is not None else name)
        roster_ids.append(found.id if found is not None else None)
    spelt = {name.casefold(): name for name in names}
    teams = [[spelt.get(core.clean_name(m).casefold(), m) for m in team] for team in teams]
    return game_service.create_game(
        names,
        rules,
        teams,
        device=device,
        club_id=club.id,
        roster_ids=roster_ids,
        played_on=played_on,
    )


@dataclass(frozen=True)
class GuestLink:
    """A guest seat of a club game whose name is an active roster player's: linking makes the
    seat that player (the name on the sheet stays as it was typed)."""

    game: Game
    seat: Player
    entry: RosterPlayer


def guest_links(club: Club) -> list[GuestLink]:
    """What "link these guests to the roster" would link, newest game first: each guest seat of
    the club's games whose name is an active roster player's (any case), unless that player
    already has another seat in the game."""
    by_name = {entry.display_name.casefold(): entry for entry in roster_service.active_roster(club)}
    if not by_name:
        return []
    games = db.session.execute(
        select(Game)
        .where(Game.club_id == club.id, Game.players.any(Player.roster_player_id.is_(None)))
        .order_by(Game.played_on.desc(), Game.id.desc())
        .options(selectinload(Game.players))
    ).scalars()
    links: list[GuestLink] = []
    for game in games:
        seated = {p.roster_player_id for p in game.players}
        for seat in sorted(game.players, key=lambda p: p.seat):
            entry = by_name.get(seat.name.casefold())
            if seat.roster_player_id is None and entry is not None and entry.id not in seated:
                seated.add(entry.id)
                links.append(GuestLink(game, seat, entry))
    return links


@unit_of_work()
def link_guests(club: Club, seat_ids: Collection[int]) -> list[GuestLink]:
    """Link the guest seats the owner was shown (`seat_ids`, from guest_links) to their roster
    players, in one transaction; a seat no longer linkable is left as it is. Each game touched
    moves to a new version (services/games/versions.py), so its pages, the club's ratings and
    player pages count it at once. Returns what was linked."""
    links = [link for link in guest_links(club) if link.seat.id in seat_ids]
    for link in links:
        link.seat.roster_player_id = link.entry.id
    return links


@dataclass
class MovedGame:
    """A quick game moved into a club: which players matched the roster, which were added."""

    game: Game
    matched: list[str]
    added: list[str]


@unit_of_work()
def move_game_to_club(game: Game, club: Club) -> MovedGame:
    """Make a quick game a club game. Each player is matched to a roster entry by name (any
    case; an active entry first, else an archived one); the others become new roster entries."""
    if game.club_id is not None:
        refuse("game_in_club", N_("This game already belongs to a club."))
    by_name: dict[str, RosterPlayer] = {}
    entry: RosterPlayer | None
    for entry in sorted(roster_service.roster_of(club), key=lambda e: (e.archived, -e.id)):
        by_name.setdefault(entry.display_name.casefold(), entry)
    matched: list[str] = []
    added: list[str] = []
    for player in game.players:
        entry = by_name.get(player.name.casefold())
        if entry is None:
            entry = RosterPlayer(club_id=club.id, display_name=player.name[:MAX_NAME])
            db.session.add(entry)
            db.session.flush()
            by_name[player.name.casefold()] = entry
            added.append(player.name)
        else:
            matched.append(player.name)
        player.roster_player_id = entry.id
    game.club_id = club.id
    # Who may see it changed: the game moves to a new version (services/games/versions.py).
    return MovedGame(game, matched, added)
