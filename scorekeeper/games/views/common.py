"""What several of the games blueprint's modules share: the game page with its round sheet
(`render_game`), the sheet's form (`round_form`) and where a save opens the page."""

from __future__ import annotations

from flask import render_template, url_for
from flask_login import current_user

from scorekeeper.access import table_token_of
from scorekeeper.forms import MoveToClubForm, new_write_key
from scorekeeper.games.forms import RoundForm, round_fields
from scorekeeper.games.parts import hands_part, history_part, results_part
from scorekeeper.games.presenters import error_links, sheet_heading, tile_values
from scorekeeper.models import Game
from scorekeeper.services.clubs import clubs_to_move_into
from scorekeeper.services.games import Snapshot, snapshot_of
from scorekeeper.web.devices import current_device

# The round form's place on the game page: after a save the page opens there, the message
# beside the next round's first field.
RECORD_ANCHOR = "record"


def round_form(game: Game, snapshot: Snapshot, formdata=None) -> RoundForm:
    """The round sheet's form for this game's seats and house rules; it reads `formdata` (a
    POST) when given. The tiles on offer come with the page (`round_sheet`)."""
    house = snapshot.setup.rules.house_rules
    fields = round_fields(
        snapshot.setup.players,
        open_train=house.open_train_points > 0,
        strategic=house.strategic_error,
        adjustments=house.adjustments,
    )
    return RoundForm(fields, formdata)


def render_game(
    game: Game,
    access: str,
    *,
    form=None,
    general: list[str] | None = None,
    warnings: list[str] | None = None,
    status: int = 200,
    open_seat: str | None = None,
) -> tuple[str, int]:
    """The game page (`open_seat`: no script asked that hand's tiles: every hand's grid)."""
    snapshot = snapshot_of(game)
    state = snapshot.state
    editable = access == "edit"
    hands = None
    if form is None and editable and not state.finished and state.can_play:
        form = round_form(game, snapshot)
        form.number.data = str(state.next_round)
        form.idempotency_key.data = new_write_key()
        # A fresh sheet's hands (empty fields, tile pickers) are the same for every view of
        # this version: rendered once and kept (a sheet sent back with errors is not).
        hands = hands_part(game, snapshot, form)
    # The table counted tiles last round: round.js opens each hand's tile picker again (the
    # form itself still starts on numbers, so it reads the same without the script).
    tiles_last = bool(snapshot.results) and any(h.tiles for h in snapshot.results[-1].hands)
    device = current_device()
    history = snapshot.latest_changes if editable else ()
    page = render_template(
        "games/detail.html",
        **round_sheet(
            game, form, snapshot.setup, state.next_opener, state.next_engine, state.next_round
        ),
        state=state,
        # The sheet itself is in the kept results part: the page says only its heading facts.
        sheet=sheet_heading(snapshot),
        results_part=results_part(game, snapshot, access),
        snapshot=snapshot,
        access=access,
        editable=editable,
        history=history,
        history_part=history_part(snapshot, device) if history else "",
        hands_part=hands,
        move=move_to_club_form(game) if editable else None,
        general=general or [],
        warnings=warnings or [],
        device=device,
        open_tiles=tiles_last and status == 200,
        one_grid=open_seat is None,
        open_seat=open_seat,
        # A finished game has no hands to send: no table link.
        table_url=table_url(game) if editable and not state.finished else None,
    )
    return page, status


def table_url(game: Game) -> str | None:
    """The absolute table link of a game (players send their own hands), or None when its
    table link is off."""
    token = table_token_of(game)
    return None if token is None else url_for("games.table", token=token, _external=True)


def round_sheet(game: Game, form, setup, opener, engine, number=None, snapshot=None) -> dict:
    """What the round sheet's template needs besides the messages: the form, the seats (and
    who is away: no hand asked; round `number`'s, or now), who opens (marked on their hand) and
    the tiles on offer around this round's engine."""
    players = setup.players
    return {
        "form": form,
        "game": game,
        "players": list(players),
        "away": snapshot.missed_seats(number) if snapshot else setup.away_in(number or 0),
        "opener": opener,
        # Only a page with the round sheet offers tiles (a finished game's page has none).
        "tile_values": tile_values(game, engine) if form is not None else [],
        "error_links": error_links(form, players) if form is not None else [],
    }


def move_to_club_form(game: Game) -> MoveToClubForm | None:
    """The "Move to a club" form for a quick game, or None: only for a signed-in person who
    scores in at least one club (the game page shows it to this game's scorers only)."""
    if game.club_id is not None or not current_user.is_authenticated:
        return None
    clubs = clubs_to_move_into(current_user)
    if not clubs:
        return None
    form = MoveToClubForm(formdata=None)
    form.club_id.choices = [(club.id, club.name) for club in clubs]
    return form
