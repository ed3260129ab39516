"""Game setup: the options a table chooses, the player list, teams, and the setup helper."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from .house import COMMON_OPEN_TRAIN_POINTS as COMMON_OPEN_TRAIN_POINTS
from .house import HouseRules, house_problems
from .problems import N_, Problem, RuleError
from .tiles import DEFAULT_SET, BlankScoring, check_set, tile_count


class GameType(StrEnum):
    """Mexican Train (lowest total wins) or the draw game of the Spanish rules (first to target)."""

    MEXICAN_TRAIN = "mexican_train"
    DRAW = "draw"


class Order(StrEnum):
    """Whether the engine counts down from the starting double or up from it."""

    DESCENDING = "descending"
    ASCENDING = "ascending"


MAX_NAME = 40
PLAYER_LIMITS: dict[GameType, tuple[int, int]] = {
    GameType.MEXICAN_TRAIN: (2, 14),
    GameType.DRAW: (2, 5),
}
TEAM_SIZES = (4, 6, 8)
DRAW_SET = 6
DRAW_TARGETS = (50, 100)


@dataclass(frozen=True)
class GameRules:
    """The options chosen when a game is created; None means "the default for this game"."""

    game_type: GameType = GameType.MEXICAN_TRAIN
    set_size: int = DEFAULT_SET
    blank_scoring: BlankScoring = BlankScoring.FACE
    start_double: int | None = None
    rounds: int | None = None
    order: Order = Order.DESCENDING
    hand_size: int | None = None
    target: int = 100
    house_rules: HouseRules = field(default_factory=HouseRules)


@dataclass(frozen=True)
class Recommendation:
    """The setup helper's suggestion for a number of players."""

    set_size: int
    hand_size: int


# Hindi seed: players (from, to) -> set and tiles dealt to each player.
RECOMMENDED: tuple[tuple[int, int, int, int], ...] = (
    (2, 3, 9, 8),
    (4, 6, 12, 12),
    (7, 8, 12, 10),
    (9, 12, 15, 11),
    (13, 14, 18, 11),
)
# Other published counts for a double-12 set (Wikipedia's table): Galt 1994.
ALTERNATIVES: tuple[tuple[str, int, int, int, int], ...] = (
    ("Galt 1994", 2, 4, 12, 15),
    ("Galt 1994", 5, 6, 12, 12),
    ("Galt 1994", 7, 8, 12, 11),
)


def draw_hand_size(players: int) -> int:
    """Tiles each player takes in the draw game: 8 minus the players, 7 each for two."""
    return 7 if players == 2 else 8 - players


def recommend(players: int, game_type: GameType = GameType.MEXICAN_TRAIN) -> Recommendation:
    """The set and hand size the rules suggest for this many players."""
    if game_type == GameType.DRAW:
        return Recommendation(DRAW_SET, draw_hand_size(max(2, min(players, 5))))
    count = max(RECOMMENDED[0][0], min(players, RECOMMENDED[-1][1]))
    return next(
        Recommendation(set_size, hand_size)
        for low, high, set_size, hand_size in RECOMMENDED
        if low <= count <= high
    )


def hand_size_choices(players: int, set_size: int) -> list[tuple[int, str]]:
    """Published hand sizes for this many players and set: (tiles, source), recommended first."""
    choices: list[tuple[int, str]] = []
    best = recommend(players)
    if best.set_size == set_size:
        choices.append((best.hand_size, "Recommended"))
    for source, low, high, alt_set, hand_size in ALTERNATIVES:
        if alt_set == set_size and low <= players <= high:
            choices.append((hand_size, source))
    return choices


@dataclass(frozen=True)
class GameSetup:
    """A valid game: its players in seating order, its resolved rules, and its teams."""

    players: tuple[str, ...]
    rules: GameRules
    teams: tuple[tuple[str, str], ...] = ()
    # The players who have left and not come back, each with the last round they played
    # (RULES.md section 11): the next rounds are scored without them.
    left_after: tuple[tuple[str, int], ...] = ()

    @property
    def is_draw(self) -> bool:
        return self.rules.game_type == GameType.DRAW

    @property
    def away(self) -> frozenset[str]:
        """The players who have left the game (and not come back)."""
        return frozenset(name for name, _ in self.left_after)

    def away_in(self, round_number: int) -> frozenset[str]:
        """The players who have left before round `round_number`. A leave stays after the round
        it followed: if that round is deleted and entered again, the leaver plays it."""
        return frozenset(name for name, after in self.left_after if after < round_number)

    def present_in(self, round_number: int) -> tuple[str, ...]:
        """The players at the table for round `round_number`, in seating order."""
        away = self.away_in(round_number)
        return tuple(name for name in self.players if name not in away)

    @property
    def present(self) -> tuple[str, ...]:
        """The players still at the table, in seating order."""
        away = self.away
        return tuple(name for name in self.players if name not in away)

    def team_name(self, team: tuple[str, str]) -> str:
        """A team's display name: both partners' names."""
        return " & ".join(team)


def clean_name(raw: object) -> str:
    """A player's name as stored: surrounding and repeated spaces removed."""
    return " ".join(str(raw).split()) if raw is not None else ""


def _check_players(names: Sequence[str], game_type: GameType) -> list[Problem]:
    problems: list[Problem] = []
    low, high = PLAYER_LIMITS[game_type]
    if not low <= len(names) <= high:
        problems.append(
            Problem(
                "player_count",
                N_("This game needs %(low)s to %(high)s players (you have %(count)s)."),
                {"low": low, "high": high, "count": len(names)},
                field="players",
            )
        )
    seen: set[str] = set()
    for index, name in enumerate(names):
        if not name:
            problems.append(
                Problem(
                    "name_empty",
                    N_("Player %(number)s needs a name."),
                    {"number": index + 1},
                    field=f"players-{index}",
                )
            )
        elif len(name) > MAX_NAME:
            problems.append(
                Problem(
                    "name_long",
                    N_("%(name)s: a name can be at most %(max)s characters."),
                    {"name": name[:MAX_NAME] + "…", "max": MAX_NAME},
                    field=f"players-{index}",
                )
            )
        elif name.casefold() in seen:
            problems.append(
                Problem(
                    "name_twice",
                    N_("%(name)s is in the list twice: give each player a different name."),
                    {"name": name},
                    field=f"players-{index}",
                )
            )
        seen.add(name.casefold())
    return problems


def _check_teams(
    teams: Sequence[Sequence[str]], names: Sequence[str]
) -> tuple[list[Problem], tuple[tuple[str, str], ...]]:
    if not teams:
        return [], ()
    problems: list[Problem] = []
    if len(names) not in TEAM_SIZES:
        problems.append(
            Problem(
                "teams_size",
                N_("Partnerships need 4, 6 or 8 players (you have %(count)s)."),
                {"count": len(names)},
                field="teams",
            )
        )
        return problems, ()
    by_key = {name.casefold(): name for name in names}
    placed: list[str] = []
    resolved: list[tuple[str, str]] = []
    for team in teams:
        members = [by_key.get(clean_name(m).casefold()) for m in team]
        if len(members) != 2 or None in members:
            problems.append(
                Problem(
                    "team_shape",
                    N_("Each team is two players of this game (got %(team)s)."),
                    {"team": ", ".join(clean_name(m) for m in team)},
                    field="teams",
                )
            )
            continue
        first, second = members[0] or "", members[1] or ""
        for member in (first, second):
            if member in placed:
                problems.append(
                    Problem(
                        "team_twice",
                        N_("%(name)s is in two teams."),
                        {"name": member},
                        field="teams",
                    )
                )
            placed.append(member)
        resolved.append((first, second))
    missing = [name for name in names if name not in placed]
    if missing and not problems:
        problems.append(
            Problem(
                "team_missing",
                N_("Every player needs a partner: %(names)s have none."),
                {"names": ", ".join(missing)},
                field="teams",
            )
        )
    return problems, tuple(resolved)


def _resolve_rules(rules: GameRules, players: int) -> tuple[list[Problem], GameRules]:
    problems: list[Problem] = []
    if rules.game_type == GameType.DRAW:
        if rules.target not in DRAW_TARGETS:
            problems.append(
                Problem(
                    "target",
                    N_("The draw game is played to 50 or 100 points."),
                    field="target",
                )
            )
        # The default always fits a valid table; only a chosen hand size needs checking.
        hand_size = draw_hand_size(players) if rules.hand_size is None else rules.hand_size
        resolved = replace(
            rules,
            set_size=DRAW_SET,
            blank_scoring=BlankScoring.FACE,
            start_double=None,
            rounds=None,
            hand_size=hand_size,
            house_rules=HouseRules(),
        )
        if rules.hand_size is not None:
            problem = _draw_hand_size_problem(hand_size, players)
            if problem is not None:
                problems.append(problem)
        return problems, resolved

    try:
        check_set(rules.set_size)
    except RuleError as error:
        return error.problems, rules
    top = rules.set_size
    ascending = rules.order == Order.ASCENDING
    start = rules.start_double
    if start is None:
        start = 0 if ascending else top
    if not 0 <= start <= top:
        problems.append(
            Problem(
                "start_double",
                N_("The starting double must be a double of the set: 0-0 to %(top)s-%(top)s."),
                {"top": top},
                field="start_double",
            )
        )
        start = 0 if ascending else top
    available = top - start + 1 if ascending else start + 1
    rounds = rules.rounds if rules.rounds is not None else available
    if not 1 <= rounds <= available:
        problems.append(
            Problem(
                "rounds",
                N_("From %(start)s-%(start)s the game can have 1 to %(available)s rounds."),
                {"start": start, "available": available},
                field="rounds",
            )
        )
        rounds = available
    if rules.hand_size is None:
        # The recommended count may not fit a smaller set: deal what the boneyard allows.
        # With a valid number of players this always fits, so only a chosen size is checked.
        hand_size = min(recommend(players).hand_size, (tile_count(top) - 1) // max(players, 1))
    else:
        hand_size = rules.hand_size
        if hand_size < 1 or hand_size * players > tile_count(top) - 1:
            problems.append(_hand_size_problem(hand_size, players, tile_count(top) - 1))
    problems.extend(house_problems(rules.house_rules))
    resolved = replace(rules, start_double=start, rounds=rounds, hand_size=hand_size)
    return problems, resolved


def _draw_hand_size_problem(hand_size: int, players: int) -> Problem | None:
    tiles = tile_count(DRAW_SET)
    if hand_size < 1 or hand_size * players > tiles:
        return _hand_size_problem(hand_size, players, tiles)
    # The boneyard keeps one tile, two with two players (Spanish seed). The set's 28 tiles are
    # even, so two players always leave an even count: only a deal of the whole set breaks it.
    if hand_size * players == tiles:
        return Problem(
            "hand_size_boneyard",
            N_(
                "With %(players)s players and %(hand)s tiles each, no tile is left to draw"
                " from: deal at most %(most)s each."
            ),
            {"players": players, "hand": hand_size, "most": hand_size - 1},
            field="hand_size",
        )
    return None


def _hand_size_problem(hand_size: int, players: int, tiles: int) -> Problem:
    return Problem(
        "hand_size",
        N_("%(players)s players cannot each be dealt %(hand)s tiles from %(tiles)s."),
        {"players": players, "hand": hand_size, "tiles": tiles},
        field="hand_size",
    )


_CHOICES: tuple[tuple[str, type[StrEnum]], ...] = (
    ("game_type", GameType),
    ("blank_scoring", BlankScoring),
    ("order", Order),
)


def _check_choices(rules: GameRules) -> tuple[list[Problem], GameRules]:
    """Turn options given as text (a form, a database column) into their enums."""
    problems: list[Problem] = []
    # Each option's own enum (StrEnum): Any, as mypy checks replace() field by field.
    chosen: dict[str, Any] = {}
    for option, choices in _CHOICES:
        raw = getattr(rules, option)
        try:
            chosen[option] = choices(raw)
        except ValueError:
            problems.append(
                Problem(
                    "option_unknown",
                    N_("%(value)s is not one of the choices for %(option)s."),
                    {"value": str(raw)[:40], "option": option.replace("_", " ")},
                    field=option,
                )
            )
    return problems, replace(rules, **chosen)


def new_game(
    players: Sequence[object],
    rules: GameRules | None = None,
    teams: Sequence[Sequence[str]] = (),
) -> GameSetup:
    """Check a table's players, options and teams; return the game with every default filled in."""
    choice_problems, rules = _check_choices(rules or GameRules())
    if choice_problems:
        raise RuleError(choice_problems)
    names = [clean_name(name) for name in players]
    problems = _check_players(names, rules.game_type)
    rule_problems, resolved = _resolve_rules(rules, len(names))
    problems += rule_problems
    if teams and rules.game_type == GameType.DRAW:
        problems.append(
            Problem("teams_draw", N_("The draw game is played without teams."), field="teams")
        )
        teams = ()
    if rules.game_type == GameType.DRAW and rules.house_rules != HouseRules():
        problems.append(
            Problem(
                "house_rules_draw",
                N_("The draw game has no house-rule penalties: turn them off."),
                field="house_rules",
            )
        )
    team_problems, resolved_teams = _check_teams(teams, names) if not problems else ([], ())
    problems += team_problems
    if problems:
        raise RuleError(problems)
    return GameSetup(tuple(names), resolved, resolved_teams)


def set_warning(setup: GameSetup) -> Problem | None:
    """A warning when the set is too small to deal this table the recommended hand (RULES.md
    section 7, Hindi seed): 14 players on a double-6 set get 1 tile each. It names the set the
    seed's table gives for that many players. None when the set is big enough, or in the draw
    game (its set is fixed)."""
    if setup.is_draw:
        return None
    players = len(setup.players)
    best = recommend(players)
    dealt = (tile_count(setup.rules.set_size) - 1) // max(players, 1)
    if dealt >= best.hand_size or setup.rules.set_size >= best.set_size:
        return None
    return Problem(
        "set_too_small",
        N_(
            "A double-%(set)s set is too small for %(players)s players: its %(tiles)s tiles "
            "cannot deal %(hand)s each. The rules suggest a double-%(suggested)s set for "
            "%(players)s players."
        ),
        {
            "set": setup.rules.set_size,
            "players": players,
            "tiles": tile_count(setup.rules.set_size),
            "suggested": best.set_size,
            "hand": best.hand_size,
        },
        field="set",
        severity="warning",
    )
