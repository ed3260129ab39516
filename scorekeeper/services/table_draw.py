"""Fair tables for a club night: who sits at which table, drawn from a seed so a draw can be
repeated, in one of four ways:

- balanced: table average skills as close as possible (a snake draft by skill, then swaps
  between tables while they bring the averages closer);
- fresh: the fewest pairs who shared a table in the club's last 3 nights (swaps while they
  lower that count);
- random: today's shuffle (services.nights.shuffle_tables);
- top: the strongest together (table 1 the highest skills, and so on).

The figure a draw goes by is each player's skill (services.ratings.skill: mu on the rating's
scale, a guest's a newcomer's), the one a night's chances come from and its page shows first;
not the cautious rating, which would seat every newcomer with the weakest.

Tables have 3 to 8 seats, their sizes as equal as possible (random keeps the shuffle's 2 to 8).
The draw itself is pure (no database); `draw_for_night` reads the ratings and recent nights.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import date
from itertools import combinations

from sqlalchemy import select

from scorekeeper import core
from scorekeeper.core import N_
from scorekeeper.extensions import db
from scorekeeper.models import Club, ClubNight, Game, Player, Round
from scorekeeper.services import ratings as rating_service
from scorekeeper.services.nights import MAX_TABLES, NightError, Seat, shuffle_tables

METHODS = ("balanced", "fresh", "random", "top")
SEATS = (3, 8)
RECENT_NIGHTS = 3
MAX_SEED = 999_999
# Swap passes of the local search: each pass tries every pair of players at different tables.
MAX_PASSES = 20


@dataclass(frozen=True)
class Person:
    """A player here tonight, as the draw sees them: a key (their form field), a skill."""

    key: str
    skill: int
    name: str = ""


@dataclass(frozen=True)
class DrawnTable:
    """One table of a draw and the figures that explain it."""

    number: int
    people: tuple[Person, ...]
    repeats: int  # pairs at this table who shared one in the club's last nights

    @property
    def average(self) -> float:
        return sum(p.skill for p in self.people) / len(self.people)

    @property
    def high(self) -> int:
        return max(p.skill for p in self.people)

    @property
    def low(self) -> int:
        return min(p.skill for p in self.people)


@dataclass(frozen=True)
class Draw:
    """A whole draw: the method, the seed that repeats it, its tables."""

    method: str
    seed: int
    tables: tuple[DrawnTable, ...]

    @property
    def spread(self) -> float:
        """The gap between the highest and lowest table average skill."""
        averages = [table.average for table in self.tables]
        return max(averages) - min(averages) if averages else 0.0

    @property
    def repeats(self) -> int:
        return sum(table.repeats for table in self.tables)

    def table_of(self) -> dict[str, int]:
        """Each person's key -> their table number."""
        return {p.key: table.number for table in self.tables for p in table.people}


def _refuse(code: str, template: str, **params: object) -> NightError:
    return NightError(core.Problem(code, template, params, field="tables"))


def sizes(count: int, tables: int, low: int = SEATS[0], high: int = SEATS[1]) -> list[int]:
    """Table sizes as equal as possible (the first tables take the extra seats); NightError if
    `count` players cannot fill `tables` tables of `low` to `high` seats."""
    if not isinstance(tables, int) or isinstance(tables, bool) or not 1 <= tables <= MAX_TABLES:
        raise _refuse("night_tables", N_("Choose 1 to %(max)s tables."), max=MAX_TABLES)
    if not low * tables <= count <= high * tables:
        raise _refuse(
            "draw_count",
            N_("%(count)s players cannot sit at %(tables)s tables of %(low)s to %(high)s players."),
            count=count,
            tables=tables,
            low=low,
            high=high,
        )
    base, extra = divmod(count, tables)
    return [base + (1 if number < extra else 0) for number in range(tables)]


def pair(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a <= b else (b, a)


def _repeats(group: Sequence[Person], recent: set[tuple[str, str]]) -> int:
    return sum(pair(a.key, b.key) in recent for a, b in combinations(group, 2))


def _deal(order: Sequence[Person], counts: Sequence[int]) -> list[list[Person]]:
    groups: list[list[Person]] = []
    start = 0
    for count in counts:
        groups.append(list(order[start : start + count]))
        start += count
    return groups


def _by_rating(people: Sequence[Person], rng: random.Random) -> list[Person]:
    """Strongest first; equal skills in the seed's order."""
    order = list(people)
    rng.shuffle(order)
    return sorted(order, key=lambda p: -p.skill)


def _snake(order: Sequence[Person], counts: Sequence[int]) -> list[list[Person]]:
    """Deal strongest first: 1, 2, ..., n, n, ..., 2, 1, ... skipping full tables."""
    groups: list[list[Person]] = [[] for _ in counts]
    forward = list(range(len(counts)))
    turn = 0
    people = list(order)
    while people:
        sweep = forward if turn % 2 == 0 else forward[::-1]
        for index in sweep:
            if people and len(groups[index]) < counts[index]:
                groups[index].append(people.pop(0))
        turn += 1
    return groups


def _improve(
    groups: list[list[Person]],
    cost: Callable[[list[list[Person]]], float],
    rng: random.Random,
) -> list[list[Person]]:
    """Swap two people at different tables while a swap lowers `cost(groups)`."""
    best = cost(groups)
    slots = [(t, i) for t, group in enumerate(groups) for i in range(len(group))]
    for _pass in range(MAX_PASSES):
        rng.shuffle(slots)
        improved = False
        for (t1, i1), (t2, i2) in combinations(slots, 2):
            if t1 == t2:
                continue
            groups[t1][i1], groups[t2][i2] = groups[t2][i2], groups[t1][i1]
            now = cost(groups)
            if now < best - 1e-9:
                best, improved = now, True
            else:
                groups[t1][i1], groups[t2][i2] = groups[t2][i2], groups[t1][i1]
        if not improved or best <= 0:
            break
    return groups


def draw(
    people: Sequence[Person],
    tables: int,
    method: str,
    seed: int,
    recent: set[tuple[str, str]] | None = None,
) -> Draw:
    """Seat `people` at `tables` tables by `method`; the same inputs and seed give the same
    draw. `recent`: pairs of keys who shared a table lately (for "fresh", and shown by all)."""
    if method not in METHODS:
        raise _refuse("draw_method", N_("Choose how the seats are drawn."))
    recent = recent or set()
    rng = random.Random(seed)
    low = 2 if method == "random" else SEATS[0]
    counts = sizes(len(people), tables, low=low)
    if method == "random":
        order = list(people)
        rng.shuffle(order)  # as services.nights.shuffle_tables deals: round the tables
        groups: list[list[Person]] = [order[n::tables] for n in range(tables)]
    elif method == "top":
        groups = _deal(_by_rating(people, rng), counts)
    elif method == "balanced":
        total = sum(p.skill for p in people) / max(1, len(people))

        def spread(gs: list[list[Person]]) -> float:
            return sum((sum(p.skill for p in g) / len(g) - total) ** 2 for g in gs)

        groups = _improve(_snake(_by_rating(people, rng), counts), spread, rng)
    else:
        order = list(people)
        rng.shuffle(order)

        def repeats(gs: list[list[Person]]) -> float:
            return float(sum(_repeats(g, recent) for g in gs))

        groups = _improve(_deal(order, counts), repeats, rng)
    drawn = tuple(
        DrawnTable(number, tuple(group), _repeats(group, recent))
        for number, group in enumerate(groups, 1)
    )
    return Draw(method, seed, drawn)


def new_seed(rng: random.Random, avoid: int | None = None) -> int:
    """A seed to show on the page (short enough to read out), other than `avoid`."""
    while True:
        seed = rng.randint(1, MAX_SEED)
        if seed != avoid:
            return seed


# The club's side: ratings and recent nights -----------------------------------------------------


def recent_pairs(club: Club, before: date, nights: int = RECENT_NIGHTS) -> set[tuple[str, str]]:
    """Pairs of roster ids (as "r<id>") who played at one table in the club's last `nights`
    nights played before `before`. A night is played when one of its tables recorded a round,
    and only such tables count: a night started and never played (or a table that never
    played) put nobody together."""
    played = select(Round.game_id)
    night_ids = list(
        db.session.execute(
            select(ClubNight.id)
            .where(
                ClubNight.club_id == club.id,
                ClubNight.played_on < before,
                select(Game.id)
                .where(Game.club_night_id == ClubNight.id, Game.id.in_(played))
                .exists(),
            )
            .order_by(ClubNight.played_on.desc(), ClubNight.id.desc())
            .limit(nights)
        ).scalars()
    )
    if not night_ids:
        return set()
    rows = db.session.execute(
        select(Player.game_id, Player.roster_player_id)
        .join(Game, Game.id == Player.game_id)
        .where(
            Game.club_night_id.in_(night_ids),
            Game.id.in_(played),
            Player.roster_player_id.is_not(None),
        )
    ).all()
    tables: dict[int, list[str]] = {}
    for game_id, roster_id in rows:
        tables.setdefault(game_id, []).append(f"r{roster_id}")
    return {pair(a, b) for keys in tables.values() for a, b in combinations(keys, 2)}


def draw_for_night(
    club: Club, day: date, seats: Sequence[Seat], tables: int, method: str, seed: int
) -> tuple[Draw, list[Seat]]:
    """Draw tonight's tables from the club's ratings (each player's skill after every finished
    game played by `day`, as the night's chances will count them) and its last nights; the
    seats come back with their tables. Random is today's shuffle, from the same seed."""
    if method == "random":
        shuffled = shuffle_tables(seats, tables, random.Random(seed))
    replayed = rating_service.club_replay(club)
    cut = rating_service.Cut(day)  # the night's games will come after every game of its day
    people = [
        Person(
            _key(seat),
            rating_service.skill(rating_service.standing(replayed, seat.roster_id, cut)[0]),
            seat.name,
        )
        for seat in seats
    ]
    recent = recent_pairs(club, day)
    if method == "random":
        by_key = {_key(seat): seat.table for seat in shuffled}
        groups: dict[int, list[Person]] = {}
        for person in people:
            groups.setdefault(by_key[person.key] or 0, []).append(person)
        result = Draw(
            method,
            seed,
            tuple(
                DrawnTable(number, tuple(group), _repeats(group, recent))
                for number, group in sorted(groups.items())
            ),
        )
        return result, shuffled
    result = draw(people, tables, method, seed, recent)
    table_of = result.table_of()
    return result, [replace(seat, table=table_of[_key(seat)]) for seat in seats]


def _key(seat: Seat) -> str:
    """The draw's name for a seat: its roster id (what recent pairs are kept by), else its field."""
    return f"r{seat.roster_id}" if seat.roster_id is not None else f"g:{seat.key or seat.name}"
