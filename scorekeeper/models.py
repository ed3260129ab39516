"""Database tables: games, their players, rounds, hands, penalties, history and devices.

Tables only: no scoring maths here. A round's stored scores are what the rules core
computed when the round was saved (kept so standings across games can be summed in SQL).
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import UTC, date, datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import Boolean, Column, Float, ForeignKey, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

# Base is defined beside db in extensions.py so this module can import db without a cycle.
from scorekeeper import core
from scorekeeper.extensions import Base, db

# mypy cannot take an instance's attribute (db.Model) as a base class: it checks the tables
# against Base, whose metadata and registry db.Model is built from.
if TYPE_CHECKING:
    Model = Base
else:
    Model = db.Model

__all__ = [
    "Base",
    "db",
    "Game",
    "Player",
    "Round",
    "Hand",
    "Penalty",
    "Change",
    "SentHand",
    "DeviceGame",
    "User",
    "ApiToken",
    "SignInAttempt",
    "UserSession",
    "Club",
    "Membership",
    "Invite",
    "RosterPlayer",
    "ClubEvent",
]

ROLES = ("viewer", "scorer", "owner")
# The table arguments of a table whose ids links, caches or exports name: SQLite hands out an id
# once, never again after its row is deleted (as PostgreSQL's sequences do). Migration 0013 made
# these tables so; a later migration that rebuilds one passes them again (SQLite's reflection
# does not read them back; tests/test_migrations.py checks).
AUTOINCREMENT = {"sqlite_autoincrement": True}


def utcnow() -> datetime:
    """Now, in UTC, without tzinfo (SQLite and PostgreSQL store it the same way)."""
    return datetime.now(UTC).replace(tzinfo=None)


def new_token() -> str:
    """An unguessable token for share and edit links (128 bits, URL-safe)."""
    return secrets.token_urlsafe(16)


class HouseRuleColumns:
    """A column for each house rule the core declares (core.HOUSE_RULES), named as the rule:
    a game's chosen rules and a club's defaults."""


def house_rule_column(rule: core.HouseRule) -> Column[Any]:
    """The column of one house rule, as a table declares it and `flask db migrate` writes it:
    not null, with its declared default on the server too (as text: '0' is false and zero in
    SQLite and PostgreSQL alike), so the migration adding a new rule's column upgrades a
    database that already holds games and clubs without a hand edit."""
    return Column(
        rule.name,
        Boolean if rule.is_switch else Integer,
        nullable=False,
        default=rule.default,
        server_default=str(int(rule.default)),
    )


for _rule in core.HOUSE_RULES:
    setattr(HouseRuleColumns, _rule.name, house_rule_column(_rule))


class Game(HouseRuleColumns, Model):
    """One game at one table, with the options chosen when it was created."""

    __tablename__ = "games"
    __table_args__ = AUTOINCREMENT

    id: Mapped[int] = mapped_column(primary_key=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)
    # When the game was played: the day (a club night's date for its tables, or the day given
    # when a game is entered after the fact) and, only when it was entered live, the moment
    # (UTC). Every list, month, chart and export dates a game by these, never by created_at.
    played_on: Mapped[date] = mapped_column(default=lambda: utcnow().date(), index=True)
    played_at: Mapped[datetime | None]
    game_type: Mapped[str] = mapped_column(String(20), default="mexican_train")
    set_size: Mapped[int] = mapped_column(default=12)
    blank_scoring: Mapped[str] = mapped_column(String(20), default="face")
    start_double: Mapped[int | None]
    rounds: Mapped[int | None]
    order: Mapped[str] = mapped_column(String(12), default="descending")
    hand_size: Mapped[int | None]
    target: Mapped[int] = mapped_column(default=100)
    ended_early: Mapped[bool] = mapped_column(default=False)
    finished_at: Mapped[datetime | None]
    # Bumped on every change: the ETag of pages, API answers and charts.
    version: Mapped[int] = mapped_column(default=1)
    edit_token: Mapped[str] = mapped_column(String(64), unique=True, default=new_token)
    view_token: Mapped[str] = mapped_column(String(64), unique=True, default=new_token)
    # The table link's token (issue 33): each player's phone sends its own hand with it. Null
    # only in a database whose upgrade has not filled it yet (migration 0015 fills every game).
    table_token: Mapped[str | None] = mapped_column(
        String(64), unique=True, index=True, default=new_token
    )
    created_by: Mapped[str | None] = mapped_column(String(64))
    # A club game is seen by the club's members (and scored by its scorers); None: a quick game.
    club_id: Mapped[int | None] = mapped_column(
        ForeignKey("clubs.id", ondelete="CASCADE"), index=True
    )
    # The season a club game is filed under (the latest-starting one covering its date) and
    # whether it was moved there by hand. A game counts in every season whose dates cover
    # played_on, unless it was moved by hand: then in that season only (docs/decisions.md).
    season_id: Mapped[int | None] = mapped_column(
        ForeignKey("seasons.id", ondelete="SET NULL"), index=True
    )
    season_by_hand: Mapped[bool] = mapped_column(default=False)
    # Its club night and the table it was played at that night.
    club_night_id: Mapped[int | None] = mapped_column(
        ForeignKey("club_nights.id", ondelete="SET NULL"), index=True
    )
    table_number: Mapped[int | None]

    players: Mapped[list[Player]] = relationship(
        back_populates="game", order_by="Player.seat", cascade="all, delete-orphan"
    )
    round_rows: Mapped[list[Round]] = relationship(
        back_populates="game", order_by="Round.number", cascade="all, delete-orphan"
    )

    @property
    def etag(self) -> str:
        return etag_of(self.id, self.version, self.view_token)


def game_key(view_token: str) -> str:
    """What tells a game from every other game that had or will have its id (a deleted game's,
    a recreated database's): a hash of its share token, which is random and never another
    game's. Every cache key and ETag of a game carries it (the hash keeps the token out of
    them: a club game's members never see its token)."""
    return hashlib.blake2b(view_token.encode(), digest_size=6, person=b"game-key").hexdigest()


def etag_of(game_id: int, version: int, view_token: str) -> str:
    """The ETag of one version of a game (pages, API answers): its id, version and key."""
    return f"g{game_id}v{version}-{game_key(view_token)}"


class Player(Model):
    """A seat at a game's table; `team` pairs partners (same number, same team)."""

    __tablename__ = "players"
    __table_args__ = (UniqueConstraint("game_id", "seat"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int]
    name: Mapped[str] = mapped_column(String(40))
    team: Mapped[int | None]
    # The club's roster entry this seat was (None for quick games and guests).
    roster_player_id: Mapped[int | None] = mapped_column(
        ForeignKey("roster_players.id", ondelete="SET NULL"), index=True
    )
    # A late arrival joins at this round; the rounds before are scored by the club's late rule.
    joined_round: Mapped[int] = mapped_column(default=1)
    # A player who left: the last round they played (None while at the table). The rounds they
    # miss take the round's highest score (RULES.md section 11); coming back clears it.
    left_after: Mapped[int | None]
    # Final figures, written by the services from the core when the game finishes (None
    # before): what season standings and player pages sum in SQL.
    place: Mapped[int | None]
    place_shared: Mapped[int | None]
    total: Mapped[int | None]
    rounds_played: Mapped[int | None]
    zero_rounds: Mapped[int | None]

    game: Mapped[Game] = relationship(back_populates="players")


class Round(Model):
    """One recorded round (or draw-game hand); `number` is unique within its game."""

    __tablename__ = "rounds"
    __table_args__ = (UniqueConstraint("game_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    number: Mapped[int]
    engine: Mapped[int | None]
    out_seat: Mapped[int | None]
    blocked: Mapped[bool] = mapped_column(default=False)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)
    # Bumped on each edit, so a stale edit from another phone is caught, never applied.
    version: Mapped[int] = mapped_column(default=1)

    game: Mapped[Game] = relationship(back_populates="round_rows")
    hands: Mapped[list[Hand]] = relationship(
        back_populates="round", order_by="Hand.seat", cascade="all, delete-orphan"
    )
    penalties: Mapped[list[Penalty]] = relationship(
        back_populates="round", order_by="Penalty.id", cascade="all, delete-orphan"
    )


class RoundWrite(Model):
    """A client-made key of a round write (form or API): a repeat of the same write (a phone
    sending its queued round again after the network came back) answers as the first did. The
    key is bound to the round it was first sent with (`body_digest`): the same key with another
    round is refused, never taken for a repeat."""

    __tablename__ = "round_writes"

    game_id: Mapped[int] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    round_number: Mapped[int]
    body_digest: Mapped[str | None] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(default=utcnow, index=True)


class Hand(Model):
    """What one player held at the end of a round, and the round score the core gave it."""

    __tablename__ = "hands"
    __table_args__ = (UniqueConstraint("round_id", "seat"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("rounds.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int]
    pips: Mapped[int]
    # The tiles as entered ("6-4 3-2"), or None when the hand was entered as a number.
    tiles: Mapped[str | None] = mapped_column(Text)
    penalty: Mapped[int] = mapped_column(default=0)
    score: Mapped[int]
    went_out: Mapped[bool] = mapped_column(default=False)
    # True for a round a late arrival missed: scored by the club's rule, shown as such.
    late: Mapped[bool] = mapped_column(default=False)
    # True for a round missed after leaving the game: scored the round's highest (RULES.md 11).
    away: Mapped[bool] = mapped_column(default=False)

    round: Mapped[Round] = relationship(back_populates="hands")


class Penalty(Model):
    """A house-rule penalty of a round: open train, strategic error or signed adjustment."""

    __tablename__ = "penalties"

    id: Mapped[int] = mapped_column(primary_key=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("rounds.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int]
    kind: Mapped[str] = mapped_column(String(20))
    points: Mapped[int]
    reason: Mapped[str] = mapped_column(String(200), default="")

    round: Mapped[Round] = relationship(back_populates="penalties")


class SentHand(Model):
    """A hand a player sent from their own phone for the current round (the table link): shown
    on the scorer's round form, never counted until the scorer saves the round. Not a game's
    row for versions.py: sending one leaves the game's version (and the scorer's form) alone."""

    __tablename__ = "sent_hands"
    __table_args__ = (UniqueConstraint("game_id", "round_number", "seat"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    round_number: Mapped[int]
    seat: Mapped[int]
    pips: Mapped[int]
    # The tiles as sent ("6-4 3-2"), or None when the hand was sent as a number.
    tiles: Mapped[str | None] = mapped_column(Text)
    sent_at: Mapped[datetime] = mapped_column(default=utcnow)


class Change(Model):
    """The history of a game: every value recorded, changed or removed, when and from where."""

    __tablename__ = "changes"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    at: Mapped[datetime] = mapped_column(default=utcnow)
    action: Mapped[str] = mapped_column(String(20))
    round_number: Mapped[int | None]
    player: Mapped[str | None] = mapped_column(String(40))
    old_value: Mapped[str | None] = mapped_column(String(400))
    new_value: Mapped[str | None] = mapped_column(String(400))
    device: Mapped[str | None] = mapped_column(String(64))


class DeviceGame(Model):
    """A game this device (browser) created or opened, and whether it may score it."""

    __tablename__ = "device_games"
    __table_args__ = (UniqueConstraint("device", "game_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    device: Mapped[str] = mapped_column(String(64), index=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    can_edit: Mapped[bool] = mapped_column(default=False)
    opened_at: Mapped[datetime] = mapped_column(default=utcnow)


# Accounts and clubs --------------------------------------------------------------------------


class User(Model):
    """An account: a person who signs in (no account is needed for a quick game)."""

    __tablename__ = "users"
    __table_args__ = AUTOINCREMENT

    id: Mapped[int] = mapped_column(primary_key=True)
    email: Mapped[str] = mapped_column(String(254), unique=True)
    name: Mapped[str] = mapped_column(String(80))
    # None for an account imported from another instance until its owner sets a password.
    password_hash: Mapped[str | None] = mapped_column(String(255))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    # Changing the password bumps this, which signs out every other session of the account.
    session_version: Mapped[int] = mapped_column(default=1)
    # The language the account reads in (a code of config.SUPPORTED_LOCALES); None: the phone's.
    locale: Mapped[str | None] = mapped_column(String(8))
    # When the owner followed the confirmation link sent to `email` (None: not confirmed yet;
    # changing the email clears it). Invites and ownership transfers need a confirmed address.
    email_verified_at: Mapped[datetime | None]

    memberships: Mapped[list[Membership]] = relationship(
        back_populates="user", cascade="all, delete-orphan"
    )

    # Flask-Login's user protocol.
    is_active = True
    is_anonymous = False

    @property
    def is_authenticated(self) -> bool:
        return True

    def get_id(self) -> str:
        return f"{self.id}:{self.session_version}"


class ApiToken(Model):
    """A personal API token; only its SHA-256 is stored, and it can be revoked."""

    __tablename__ = "api_tokens"
    __table_args__ = AUTOINCREMENT

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(80), default="")
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    last_used_at: Mapped[datetime | None]
    revoked_at: Mapped[datetime | None]


class UserSession(Model):
    """One signed-in browser: only the SHA-256 of the random key its session cookie holds.
    Signing out deletes the row, so a copy of the cookie stops working."""

    __tablename__ = "user_sessions"

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    key_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow, index=True)


class SignInAttempt(Model):
    """A failed sign-in, kept a short while to slow down password guessing."""

    __tablename__ = "sign_in_attempts"

    id: Mapped[int] = mapped_column(primary_key=True)
    email: Mapped[str] = mapped_column(String(254), index=True)
    address: Mapped[str] = mapped_column(String(64), index=True)
    at: Mapped[datetime] = mapped_column(default=utcnow, index=True)


class Club(HouseRuleColumns, Model):
    """A club: its members, roster, games and default rules."""

    __tablename__ = "clubs"
    __table_args__ = AUTOINCREMENT

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(80))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    # Off by default: a club's records are private to its members.
    public: Mapped[bool] = mapped_column(default=False)
    public_token: Mapped[str] = mapped_column(String(64), unique=True, default=new_token)
    # The language of its public and print pages for a visitor who chose none; None: the phone's.
    locale: Mapped[str | None] = mapped_column(String(8))
    # Default rules, prefilled when a member sets up a club game.
    set_size: Mapped[int] = mapped_column(default=12)
    blank_scoring: Mapped[str] = mapped_column(String(20), default="face")
    rounds: Mapped[int | None]
    order: Mapped[str] = mapped_column(String(12), default="descending")
    # How a late arrival's missed rounds are scored: "highest", "average" or "zero".
    late_rule: Mapped[str] = mapped_column(String(10), default="highest")
    # Whether the club's games have table links (players send their own hands); on by default.
    table_links: Mapped[bool] = mapped_column(default=True, server_default="1")

    memberships: Mapped[list[Membership]] = relationship(
        back_populates="club", cascade="all, delete-orphan"
    )
    roster: Mapped[list[RosterPlayer]] = relationship(
        back_populates="club", order_by="RosterPlayer.display_name", cascade="all, delete-orphan"
    )


class Membership(Model):
    """A user's place in a club: owner, scorer or viewer."""

    __tablename__ = "memberships"
    __table_args__ = (UniqueConstraint("club_id", "user_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    club_id: Mapped[int] = mapped_column(ForeignKey("clubs.id", ondelete="CASCADE"), index=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    role: Mapped[str] = mapped_column(String(10))
    joined_at: Mapped[datetime] = mapped_column(default=utcnow)

    club: Mapped[Club] = relationship(back_populates="memberships")
    user: Mapped[User] = relationship(back_populates="memberships")


class Invite(Model):
    """An invitation link to join a club with a role; it expires and can be revoked."""

    __tablename__ = "invites"
    __table_args__ = AUTOINCREMENT

    id: Mapped[int] = mapped_column(primary_key=True)
    club_id: Mapped[int] = mapped_column(ForeignKey("clubs.id", ondelete="CASCADE"), index=True)
    token: Mapped[str] = mapped_column(String(64), unique=True, default=new_token)
    role: Mapped[str] = mapped_column(String(10), default="viewer")
    created_by: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    expires_at: Mapped[datetime]
    revoked_at: Mapped[datetime | None]


class RosterPlayer(Model):
    """A person on a club's roster: the same player from game to game."""

    __tablename__ = "roster_players"
    __table_args__ = AUTOINCREMENT

    id: Mapped[int] = mapped_column(primary_key=True)
    club_id: Mapped[int] = mapped_column(ForeignKey("clubs.id", ondelete="CASCADE"), index=True)
    display_name: Mapped[str] = mapped_column(String(40))
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    archived: Mapped[bool] = mapped_column(default=False)
    # Set when this entry was merged into another (the same person entered twice).
    merged_into_id: Mapped[int | None] = mapped_column(
        ForeignKey("roster_players.id", ondelete="SET NULL")
    )
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    club: Mapped[Club] = relationship(back_populates="roster")


# Seasons and club nights -----------------------------------------------------------------------


class Season(Model):
    """A club's season: its dates, default rules and how its standings are computed."""

    __tablename__ = "seasons"
    __table_args__ = AUTOINCREMENT

    id: Mapped[int] = mapped_column(primary_key=True)
    club_id: Mapped[int] = mapped_column(ForeignKey("clubs.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(80))
    starts_on: Mapped[date]
    ends_on: Mapped[date]
    # "games_won", "placement_points" or "average" (scorekeeper.core.season.SeasonMethod).
    method: Mapped[str] = mapped_column(String(20), default="placement_points")
    min_games: Mapped[int] = mapped_column(default=3)
    # Points for 1st, 2nd, ... as "3,2,1,0"; empty: one point per player finished ahead of.
    points_table: Mapped[str] = mapped_column(String(120), default="")
    # Default rules for the season's games (None: the club's defaults).
    set_size: Mapped[int | None]
    blank_scoring: Mapped[str | None] = mapped_column(String(20))
    rounds: Mapped[int | None]
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class ClubNight(Model):
    """A club night: several tables playing at once, each table a game."""

    __tablename__ = "club_nights"
    __table_args__ = AUTOINCREMENT

    id: Mapped[int] = mapped_column(primary_key=True)
    club_id: Mapped[int] = mapped_column(ForeignKey("clubs.id", ondelete="CASCADE"), index=True)
    season_id: Mapped[int | None] = mapped_column(
        ForeignKey("seasons.id", ondelete="SET NULL"), index=True
    )
    name: Mapped[str] = mapped_column(String(80), default="")
    played_on: Mapped[date]
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class ClubEvent(Model):
    """A line of the club's history: who did what to the club's records, and when (a season
    or a club night deleted...). The name is kept as it was, should the account go."""

    __tablename__ = "club_events"

    id: Mapped[int] = mapped_column(primary_key=True)
    club_id: Mapped[int] = mapped_column(ForeignKey("clubs.id", ondelete="CASCADE"), index=True)
    at: Mapped[datetime] = mapped_column(default=utcnow)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    user_name: Mapped[str] = mapped_column(String(80))
    # What happened ("season_deleted", "night_deleted"), and what it was about, in words.
    action: Mapped[str] = mapped_column(String(30))
    detail: Mapped[str] = mapped_column(String(200), default="")


class RateLimitCount(Model):
    """One rate-limit counter (Flask-Limiter's fixed window), kept in the database so every
    process of every app server counts together (scorekeeper/web/limit_store.py)."""

    __tablename__ = "rate_limit_counts"

    name: Mapped[str] = mapped_column(String(600), primary_key=True)
    hits: Mapped[int]
    # Unix time the window ends (a float: Flask-Limiter's own clock).
    expires_at: Mapped[float] = mapped_column(Float, index=True)


class KeptRatings(Model):
    """A club's ratings as last replayed (services/ratings.py): derived data, one row per club,
    named by the ratings mark it was replayed at and replaced when the mark moves."""

    __tablename__ = "kept_ratings"

    club_id: Mapped[int] = mapped_column(
        ForeignKey("clubs.id", ondelete="CASCADE"), primary_key=True
    )
    # What the replay read, cheaply (ratings.ratings_mark): a row at another mark is never read.
    mark: Mapped[str] = mapped_column(String(200))
    # JSON: each rated player's figures for the Ratings page, CSV and API (read alone).
    lines: Mapped[str] = mapped_column(Text)
    # JSON: the whole replay, game by game, for a player's chart and page, seasons and nights.
    replay: Mapped[str] = mapped_column(Text)
    computed_at: Mapped[datetime] = mapped_column(default=utcnow)
