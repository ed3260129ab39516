"""The API's bodies as pydantic models: each one validates a request or describes an answer, and
the OpenAPI document is generated from them (api/contract.py), so the two cannot disagree.

Only the shape is checked here (types, enums, lengths, bounds a JSON Schema can say); what a
round or a setup means is the rules core's to decide (`to_rules`, `to_entry` hand it over).
"""

from __future__ import annotations

import re
from datetime import date, datetime
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    RootModel,
    StringConstraints,
    create_model,
)

from scorekeeper import core
from scorekeeper.core.setup import MAX_NAME, PLAYER_LIMITS

# The one model of every JSON refusal ({"error": ...}), shared with the app's error handlers.
from scorekeeper.web.responses import Error as Error

# Numbers are stored in 32-bit integer columns (PostgreSQL INTEGER): nothing larger is taken.
MAX_INT = 2**31 - 1
PLAYERS_MIN = min(low for low, _ in PLAYER_LIMITS.values())
PLAYERS_MAX = max(high for _, high in PLAYER_LIMITS.values())
# The largest set is double-18: 190 tiles, engines 18-18 down to 0-0.
TOP_DOUBLE = max(core.SUPPORTED_SETS)
TILES_MAX = core.tile_count(TOP_DOUBLE)
PENALTIES_MAX = 50
REASON_MAX = 200


def _whole(value: Any) -> Any:
    """12.0 is the whole number 12 (JSON Schema says so too); 12.5, "12" and true are not."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


# Every integer of a request: exact, but written 12 or 12.0 alike.
Whole = BeforeValidator(_whole)


def _day(value: Any) -> Any:
    """A day as JSON writes it, "2025-01-10"; anything else (a number, "20250110", a day that
    does not exist) is left as it is, for the model to refuse."""
    if isinstance(value, str) and re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
        try:
            return date.fromisoformat(value)
        except ValueError:
            return value
    return value


# A day (JSON Schema format "date"), read from its ISO text only.
Day = Annotated[date, BeforeValidator(_day)]

# No text the API takes holds NUL (no database column stores it: json_body refuses it with 400
# before any model reads it); the document says so with these patterns.
NO_NUL = r"^[^\x00]*$"
# A name holds something besides spaces, and no NUL; the core trims and refuses blank names and
# names repeated (whatever their case and spaces).
NAME_PATTERN = r"^[^\x00]*[^\s\x00][^\x00]*$"
Name = Annotated[
    str,
    StringConstraints(min_length=1, max_length=MAX_NAME, pattern=NAME_PATTERN),
    Field(description="A player's name, as given when the game was created.", examples=["Ana"]),
]
Tile = Annotated[
    str,
    StringConstraints(min_length=1, max_length=7, pattern=NO_NUL),
    Field(description='A tile as "high-low", like "6-4".', examples=["6-4"]),
]
Pips = Annotated[int, Field(ge=0, le=MAX_INT), Whole]
Points = Annotated[int, Field(ge=-MAX_INT, le=MAX_INT), Whole]
GameType = Literal["mexican_train", "draw"]
BlankScoring = Literal["face", "blank_25", "double_blank_25", "double_blank_50"]
OrderName = Literal["descending", "ascending"]
PenaltyKind = Literal["open_train", "strategic_error", "adjustment"]
# The core's own lists, as JSON Schema enums (built at run time: to mypy, words and whole
# numbers).
if TYPE_CHECKING:
    DecidedBy = str
    SetSize = int
    Target = int
else:
    DecidedBy = Literal.__getitem__(tuple(rule.value for rule in core.DecidedBy))
    SetSize = Annotated[Literal.__getitem__(tuple(sorted(core.SUPPORTED_SETS))), Whole]
    Target = Annotated[Literal.__getitem__(tuple(core.DRAW_TARGETS)), Whole]


def _keys_are_names(schema: dict[str, Any]) -> None:
    """A map keyed by player names: say so with propertyNames (pydantic writes the key's pattern
    as patternProperties, which would let a key that is too long or empty through)."""
    ((_, value),) = schema.pop("patternProperties").items()
    schema["propertyNames"] = {"minLength": 1, "maxLength": MAX_NAME, "pattern": NAME_PATTERN}
    schema["additionalProperties"] = value


class Body(BaseModel):
    """A request body: exact JSON types (no "12" for 12, no 1 for true), no unknown fields."""

    model_config = ConfigDict(extra="forbid", strict=True)


class Answer(BaseModel):
    """An answer's body: every field the server sends, and nothing else. The views build each
    answer as its model (api/serialise.py) and send `model_dump(mode="json")`, so what is sent
    and what the document says are one definition."""

    model_config = ConfigDict(extra="forbid")


# --- requests ----------------------------------------------------------------------------


def _house_rule(rule: core.HouseRule, *, request: bool) -> Any:
    """A house rule as a pydantic field: its type and bounds, its default and words in a
    request; only its type in an answer (every rule is sent)."""
    if rule.is_switch:
        kind: Any = bool
    elif request:
        kind = Annotated[int, Field(ge=rule.words.low, le=rule.words.high), Whole]
    else:
        kind = int
    if not request:
        return (kind, ...)
    return (kind, Field(rule.default, description=rule.words.description))


# Each house rule the core declares (core.HOUSE_RULES), by its name.
HouseRules = create_model(
    "HouseRules",
    __base__=Body,
    __doc__="Optional penalties; all off unless chosen when the game is created.",
    **{rule.name: _house_rule(rule, request=True) for rule in core.HOUSE_RULES},
)


class RosterRef(Body):
    """A club's roster player, by id (the `player_id` of GET /clubs/{club_id}/ratings, the number
    in a roster player's page address): club games only."""

    model_config = ConfigDict(json_schema_extra={"examples": [{"id": 3}]})

    id: Annotated[int, Field(ge=1, le=MAX_INT), Whole]


class NewGame(Body):
    """POST /games: the players in seating order and the options (every one has a default)."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {"players": ["Ana", "Ben", "Cy"], "house_rules": {"open_train_points": 10}},
                {"players": ["Ana", "Ben", "Cy"], "game_type": "draw", "target": 50},
                {"club_id": 3, "players": [{"id": 3}, {"id": 5}, "Cy"]},
            ]
        }
    )

    players: list[Name | RosterRef] = Field(
        min_length=PLAYERS_MIN,
        max_length=PLAYERS_MAX,
        description=f"In seating order: {PLAYER_LIMITS[core.GameType.MEXICAN_TRAIN][0]} to "
        f"{PLAYER_LIMITS[core.GameType.MEXICAN_TRAIN][1]} names "
        f"({PLAYER_LIMITS[core.GameType.DRAW][0]} to {PLAYER_LIMITS[core.GameType.DRAW][1]} "
        "for the draw game), each different. In a club game (club_id) a name that is an active "
        'roster player\'s (any case) is that player, {"id": 3} is roster player 3 (an active '
        "one, else 422 not_on_roster), and any other name is a guest, who counts for no one's "
        "rating; a quick game takes names only.",
        # Two players of the same name are refused (by the core, with its rule's code; also
        # "Ana" and "ana ", which JSON Schema cannot say).
        json_schema_extra={"uniqueItems": True},
    )
    game_type: GameType = "mexican_train"
    set: SetSize = Field(core.GameRules().set_size, description="The double-N set.")
    blank_scoring: BlankScoring = "face"
    start_double: Annotated[int, Field(ge=0, le=TOP_DOUBLE), Whole] | None = Field(
        None,
        description="The first engine. Default: the set's top double "
        "(0 when ascending); at most the set's top double.",
    )
    rounds: Annotated[int, Field(ge=1, le=TOP_DOUBLE + 1), Whole] | None = Field(
        None, description="Default: down (or up) to 0-0."
    )
    order: OrderName = "descending"
    hand_size: Annotated[int, Field(ge=1, le=TILES_MAX), Whole] | None = Field(
        None, description="Tiles dealt to each. Default: by number of players."
    )
    teams: list[Annotated[list[Name], Field(min_length=2, max_length=2)]] = Field(
        default_factory=list,
        max_length=PLAYERS_MAX // 2,
        description="Partnerships (4, 6 or 8 players): pairs of names, every player in one "
        "(a roster player given by id: by the roster's name).",
    )
    target: Target = Field(core.GameRules().target, description="The draw game: points to win.")
    house_rules: HouseRules = Field(default_factory=HouseRules)
    club_id: Annotated[int, Field(ge=1, le=MAX_INT), Whole] | None = Field(
        None,
        description="Create the game in this club (a personal token of a scorer or owner of the "
        "club). Its players are roster players, by id or name, and guests.",
    )

    played_on: Day | None = Field(
        None,
        description="The day it was played, for a game entered after the fact (no later than "
        "tomorrow); it dates the game in every list and files a club game under that day's "
        "season. Default: today.",
        examples=["2025-01-10"],
    )

    def seated(self) -> list[str | int]:
        """The players as the club game service takes them: a name, or a roster id."""
        return [p.id if isinstance(p, RosterRef) else p for p in self.players]

    def to_rules(self) -> core.GameRules:
        """The options as the core takes them (it fills the defaults and checks the rules)."""
        return core.GameRules(
            game_type=core.GameType(self.game_type),
            set_size=self.set,
            blank_scoring=core.BlankScoring(self.blank_scoring),
            start_double=self.start_double,
            rounds=self.rounds,
            order=core.Order(self.order),
            hand_size=self.hand_size,
            target=self.target,
            house_rules=core.house_rules_from(self.model_dump()["house_rules"]),
        )


class PenaltyEntry(Body):
    """A penalty given in a round (only the house rules the game was created with)."""

    player: Name
    kind: PenaltyKind
    points: Points | None = Field(None, description="Adjustments only: signed points.")
    reason: str = Field(
        "", max_length=REASON_MAX, pattern=NO_NUL, description="Required for adjustments."
    )


class RoundEntry(Body):
    """POST or PUT .../rounds: who went out and what each hand held."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {"out": "Ana", "scores": {"Ben": 15, "Cy": 12}},
                {"out": "Ana", "scores": {"Ben": 15}, "hands": {"Cy": ["6-4", "3-2"]}},
            ]
        }
    )

    number: Annotated[int, Field(ge=1, le=MAX_INT), Whole] | None = Field(
        None,
        description="The round you mean. POST: if another client recorded it first, 409. "
        "PUT: must match the URL.",
    )
    out: Name | None = Field(None, description="Who went out (null: nobody).")
    blocked: bool = Field(False, description="Nobody could play; then out is null.")
    scores: dict[Name, Pips | None] = Field(
        default_factory=dict,
        max_length=PLAYERS_MAX,
        description="Pips left in each hand; the player who went out may be left out, and a "
        "player who left the game is not read (their score follows from the others').",
        json_schema_extra=_keys_are_names,
    )
    hands: dict[Name, Annotated[list[Tile], Field(max_length=TILES_MAX)]] = Field(
        default_factory=dict,
        max_length=PLAYERS_MAX,
        description='Tiles left in each hand, like ["6-4", "3-2"]; wins over scores.',
        json_schema_extra=_keys_are_names,
    )
    penalties: list[PenaltyEntry] = Field(default_factory=list, max_length=PENALTIES_MAX)
    confirm: bool = Field(False, description="Save even if the round has warnings.")

    def to_entry(self) -> core.RoundEntry:
        """The round as the core reads it (it decides whether the round makes sense)."""
        hands = {name: core.HandEntry(pips=pips) for name, pips in self.scores.items()}
        hands.update({name: core.HandEntry(tiles=tiles) for name, tiles in self.hands.items()})
        penalties = tuple(
            core.PenaltyEntry(p.player, p.kind, p.points, p.reason) for p in self.penalties
        )
        return core.RoundEntry(hands, self.out, self.blocked, penalties)


class SeatChange(Body):
    """POST .../leave or .../back: the player who leaves the table, or comes back to it."""

    model_config = ConfigDict(json_schema_extra={"examples": [{"player": "Cy"}]})

    player: Name


# --- answers -------------------------------------------------------------------------------


class Problem(Answer):
    """One thing wrong with a request: where, what, and a stable code."""

    player: str | None = Field(description="Whose hand it is about, if any.")
    field: str | None = Field(
        description="What part of the request is wrong: players, set, teams, pips, tiles, out, "
        "blocked, penalty, number, or the name of an unknown field..."
    )
    message: str = Field(description="What to fix, in the language asked for.")
    code: str = Field(
        description="Stable: a rule of the game (the core's code, like pips_negative or "
        "name_twice), or a shape error of the request, which starts with `request.` "
        "(request.unknown_field, request.missing, request.type, request.choice, "
        "request.too_small, request.too_large, request.too_short, request.too_long, "
        "request.pattern)."
    )


class Errors(Answer):
    """Nothing was saved: every field that breaks a rule or has the wrong shape."""

    errors: list[Problem] = Field(min_length=1)


class Warnings(Answer):
    """Nothing was saved: the values look wrong. Send the round again with "confirm": true."""

    warnings: list[Problem] = Field(min_length=1)


class Seat(Answer):
    """A club game's seat: the roster player in it, or a guest."""

    name: str
    player_id: int | None = Field(description="The roster player's id (null: a guest).")
    guest: bool = Field(
        description="No roster player: this seat counts for no one's rating or player page."
    )


class CreatedGame(Answer):
    """The answer to POST /games: keep the edit token to record scores."""

    id: int
    edit_token: str | None = Field(description="Bearer token to record scores (null: club).")
    view_token: str | None = Field(description="Bearer token to read the game (null: club).")
    engines: list[int]
    edit_url: str | None = Field(description="Browser link that grants edit rights (null: club).")
    view_url: str | None = Field(description="Read-only browser link to share (null: club).")
    club_id: int | None = Field(
        None,
        description="Club games only: members open the game with their personal tokens.",
        exclude_if=lambda value: value is None,  # a quick game's answer has no club_id key
    )
    seats: list[Seat] | None = Field(
        None,
        description="Club games only: each seat in seating order, roster player or guest.",
        exclude_if=lambda value: value is None,
    )
    table_token: str | None = Field(None, description="Players send hands with it (null: off).")
    table_url: str | None = Field(None, description="The players' link (null: off).")
    warnings: list[Problem] = Field(
        default_factory=list,
        description="Saved all the same, but worth a look: a set too small for the players "
        "(code set_too_small) names the set the rules suggest for that many.",
        exclude_if=lambda value: not value,  # no key when there is nothing to say
    )


_HANDS: Any = [
    {"round": 1, "player": "Ana", "pips": 9},
    {"round": 1, "player": "Cy", "tiles": ["3-4"]},
]


class HandSent(Body):
    """POST .../hands: a player's own hand for the current round, pips or tiles (not both)."""

    model_config = ConfigDict(json_schema_extra={"examples": _HANDS})

    round: Annotated[int, Field(ge=1, le=MAX_INT), Whole] = Field(description="The next_round.")
    player: Name
    pips: Pips | None = Field(None, description="Pips left in the hand (0: went out).")
    tiles: list[Tile] | None = Field(None, max_length=TILES_MAX, description="Or its tiles.")


class SentHand(Answer):
    """A hand a player sent for the current round: not counted until the scorer saves it."""

    round: int
    player: str
    pips: int = Field(description="As the rules count the tiles, when tiles were sent.")
    tiles: list[str] | None = Field(description="The tiles sent (null: a number was sent).")
    sent_at: datetime = Field(description="When it was sent (UTC).")


def _scorers(description: str) -> Any:  # a field only the game's scorers read
    return Field(None, description="Scorers only: " + description, exclude_if=lambda v: v is None)


class Penalty(Answer):
    """A scored penalty."""

    player: str
    kind: PenaltyKind
    points: int
    reason: str


class Hand(Answer):
    """One hand of a round."""

    player: str
    pips: int
    penalty: int
    score: int = Field(description="The round score, penalties included.")
    went_out: bool
    tiles: list[str] | None
    away: bool = Field(
        False,
        description="A round the player missed after leaving the game: scored the round's "
        "highest score (none in the draw game), no part in the tie-breaks. Sent only when true.",
        exclude_if=lambda value: not value,
    )


class Round(Answer):
    """One round, hand by hand."""

    number: int
    engine: int | None = Field(description="n for the double n-n; null: the draw game.")
    out: str | None
    blocked: bool
    hands: list[Hand]
    penalties: list[Penalty]


class RoundLine(Answer):
    """One round as a line of the score sheet."""

    number: int
    engine: int | None
    out: str | None
    blocked: bool
    scores: dict[str, int]
    pips: dict[str, int]
    penalties: list[Penalty]


class Standing(Answer):
    """One line of the standings, with the rule that decided its place."""

    place: int
    shared: bool
    name: str = Field(description='A player, or a team ("Ana & Cy").')
    total: int
    zero_rounds: int
    decided_by: DecidedBy
    left_after: int | None = Field(
        None,
        description="A player who left the game and has not come back: the last round they "
        "played (draw game: ranked after everyone who stayed, decided_by left). Sent only "
        "for such a player.",
        exclude_if=lambda value: value is None,
    )


HouseRulesChosen = create_model(
    "HouseRulesChosen",
    __base__=Answer,
    __doc__="The house rules a game uses.",
    **{rule.name: _house_rule(rule, request=False) for rule in core.HOUSE_RULES},
)


class Options(Answer):
    """The game's options, every default filled in."""

    set: int
    blank_scoring: BlankScoring
    start_double: int | None
    rounds: int | None
    order: OrderName
    hand_size: int | None
    target: int
    house_rules: HouseRulesChosen


class Game(Answer):
    """A whole game: players, options, rounds, standings and what comes next."""

    id: int
    game_type: GameType
    players: list[str]
    teams: list[list[str]]
    options: Options
    engines: list[int]
    rounds: list[RoundLine]
    standings: list[Standing] = Field(
        description="Teams in a partnership game, else players. Lowest total first; highest "
        "first in the draw game."
    )
    player_standings: list[Standing]
    finished: bool
    next_round: int | None
    next_engine: int | None
    next_opener: str | None = Field(
        description="Who opens the next round. Null when the game is over, and for the draw "
        "game's first hand: the player holding the highest double opens it."
    )
    can_play: bool = Field(
        True,
        description="False when all but one player have left: the game can only be ended.",
    )
    winner: str | None = Field(description="Once the game is over, if first place is not shared.")
    winners: list[str]
    table_token: str | None = _scorers("the players' token to send their hands.")
    table_url: str | None = _scorers("the players' link to send their own hands.")
    sent_hands: list[SentHand] | None = _scorers("the hands sent for the current round.")


class Stale(Answer):
    """Someone saved first: nothing was saved; the game as it is now."""

    error: str
    game: Game


def example_of(model: type[BaseModel]) -> Any:
    """The first example a model's schema gives (the document shows it; tests validate it)."""
    extra: Any = model.model_config.get("json_schema_extra")
    return extra["examples"][0] if isinstance(extra, dict) else None


# --- club ratings ---------------------------------------------------------------------------


class Rating(Answer):
    """A rated player of the club (docs: the club's "How ratings work" page)."""

    player: str = Field(description="The roster player's name.")
    player_id: int = Field(description="The roster player's id (the player page's number).")
    mu: float = Field(description="openskill's mu (Plackett-Luce), as the model gives it.")
    sigma: float = Field(description="openskill's sigma, as the model gives it.")
    rating: int = Field(description="The rating shown: round(1000 + 40 * (mu - 3 * sigma)).")
    games: int = Field(description="Finished games counted.")
    provisional: bool = Field(description="Fewer than 5 games counted.")


class Ratings(RootModel[list[Rating]]):
    """The club's rated players, best rating first."""


# --- a hand from a photo ------------------------------------------------------------------------


class PhotoUpload(BaseModel):
    """POST /games/{game_id}/photos: a photo of one hand (multipart/form-data). Not stored."""

    photo: bytes = Field(
        min_length=1,
        description="The photo: JPEG, PNG, WebP or HEIC, at most 15 MB (1600 px on its longest "
        "side is plenty, ~300 KB). Lay the tiles face up on a table, or photograph them held in "
        "a row.",
    )


class PhotoTile(Answer):
    """A tile found on the photo."""

    pips: list[Annotated[int, Field(ge=0, le=TOP_DOUBLE)]] = Field(
        min_length=2, max_length=2, description="Its two ends, 0 to the game's set."
    )
    confidence: float = Field(
        ge=0, le=1, description="How likely the tile is read right (docs/api.md: when to check it)."
    )
    corners: list[Annotated[list[float], Field(min_length=2, max_length=2)]] = Field(
        min_length=4,
        max_length=4,
        description="Its four corners as [x, y] in the photo's own pixels (as sent, turned "
        "upright by its EXIF orientation), clockwise, a short side first.",
    )


class PhotoReading(Answer):
    """What the photo shows. Nothing is saved: to record the hand, send its tiles in a round's
    `hands` (like ["6-4", "12-0"])."""

    tiles: list[PhotoTile] = Field(description="Every tile found, as read.")
    total: int = Field(ge=0, description="The pips on all the tiles found.")
    advice: list[str] = Field(
        description="What to do for a better photo (blurred, too dark, glare, a tile cut by "
        "the edge, no tile found), in the language asked for; empty when the photo is fine."
    )
