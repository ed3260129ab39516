"""What the club document's schema cannot say: every reference points at something in the
document (users, roster refs, seasons, club nights, seats), and nothing is there twice."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from scorekeeper.core import N_
from scorekeeper.services.accounts import normalise_email
from scorekeeper.services.import_schema import problem


def _unique(values: Iterable[Any], path: str, what: str) -> None:
    """Refuse a value there twice; `what` is the field as the file names it (ref, seat...)."""
    seen: set[Any] = set()
    for value in values:
        if value in seen:
            raise problem(
                path, N_("%(field)s %(value)s appears twice"), field=what, value=repr(value)
            )
        seen.add(value)


def check_references(doc: Mapping[str, Any]) -> None:
    """Every reference points at something in the document, and nothing is there twice."""
    emails = {normalise_email(user["email"]) for user in doc["users"]}
    _unique((normalise_email(user["email"]) for user in doc["users"]), "users", "email")

    def known_user(email: str | None, path: str) -> None:
        if email is not None and normalise_email(email) not in emails:
            raise problem(path, N_("%(value)s is not in users"), value=repr(email))

    for index, member in enumerate(doc["members"]):
        known_user(member["user"], f"members[{index}].user")
    _unique((normalise_email(m["user"]) for m in doc["members"]), "members", "user")
    for index, invite in enumerate(doc["invites"]):
        known_user(invite["created_by"], f"invites[{index}].created_by")

    refs = {player["ref"] for player in doc["roster"]}
    _unique((player["ref"] for player in doc["roster"]), "roster", "ref")
    for index, player in enumerate(doc["roster"]):
        path = f"roster[{index}]"
        known_user(player["user"], f"{path}.user")
        merged = player["merged_into"]
        if merged is not None and (merged not in refs or merged == player["ref"]):
            raise problem(
                f"{path}.merged_into", N_("%(value)s is not another roster ref"), value=str(merged)
            )

    if not any(member["role"] == "owner" for member in doc["members"]):
        raise problem("members", N_("no member is the club's owner: a club needs one"))
    for index, season in enumerate(doc["seasons"]):
        if season["ends_on"] < season["starts_on"]:
            raise problem(
                f"seasons[{index}].ends_on",
                N_("%(value)s is before the season starts"),
                value=season["ends_on"].isoformat(),
            )

    seasons = {season["ref"] for season in doc["seasons"]}
    _unique((season["ref"] for season in doc["seasons"]), "seasons", "ref")
    nights = {night["ref"] for night in doc["club_nights"]}
    _unique((night["ref"] for night in doc["club_nights"]), "club_nights", "ref")
    for index, night in enumerate(doc["club_nights"]):
        if night["season"] is not None and night["season"] not in seasons:
            raise problem(
                f"club_nights[{index}].season",
                N_("%(value)s is not a ref"),
                value=str(night["season"]),
            )

    for g, game in enumerate(doc["games"]):
        path = f"games[{g}]"
        if game["season"] is not None and game["season"] not in seasons:
            raise problem(
                f"{path}.season", N_("%(value)s is not a season ref"), value=str(game["season"])
            )
        if game["club_night"] is not None and game["club_night"] not in nights:
            raise problem(
                f"{path}.club_night",
                N_("%(value)s is not a club night ref"),
                value=str(game["club_night"]),
            )
        _check_game_references(game, path, refs)

    tokens = [doc["club"]["public_token"]]
    tokens += [invite["token"] for invite in doc["invites"]]
    tokens += [t for game in doc["games"] for t in (game["edit_token"], game["view_token"])]
    _unique(tokens, "", "token")


def _check_game_references(game: Mapping[str, Any], path: str, roster: set[int]) -> None:
    """A game's seats, roster refs and round numbers: each where it should be, once."""
    seats = {player["seat"] for player in game["players"]}
    _unique((p["seat"] for p in game["players"]), f"{path}.players", "seat")
    for p, player in enumerate(game["players"]):
        if player["roster"] is not None and player["roster"] not in roster:
            raise problem(
                f"{path}.players[{p}].roster",
                N_("%(value)s is not a ref"),
                value=str(player["roster"]),
            )
    _unique((r["number"] for r in game["rounds"]), f"{path}.rounds", "number")
    for r, row in enumerate(game["rounds"]):
        where_round = f"{path}.rounds[{r}]"
        if row["number"] != r + 1:
            # Rounds are recorded one after the other and only the last is undone.
            raise problem(
                f"{where_round}.number",
                N_("expected round %(number)s: rounds go 1, 2, 3... in order"),
                number=r + 1,
            )
        if row["out_seat"] is not None and row["out_seat"] not in seats:
            raise problem(
                f"{where_round}.out_seat",
                N_("no player sits at seat %(seat)s"),
                seat=str(row["out_seat"]),
            )
        _unique((h["seat"] for h in row["hands"]), f"{where_round}.hands", "seat")
        for part in ("hands", "penalties"):
            for i, item in enumerate(row[part]):
                if item["seat"] not in seats:
                    raise problem(f"{where_round}.{part}[{i}].seat", N_("no player sits there"))
