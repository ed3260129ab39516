"""Game night pages: setup, the game page and its round sheet, share and edit links, print view.

Views are thin: read the form, call one service, flash, redirect. Scores come from the core
through the services; nothing here adds up a round.
"""

from __future__ import annotations

from collections.abc import Sequence

from flask import (
    Response,
    abort,
    flash,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _

from scorekeeper import core
from scorekeeper.access import game_for_device, game_for_share
from scorekeeper.devices import current_device
from scorekeeper.forms import SetupForm
from scorekeeper.games import bp
from scorekeeper.games.forms import entry_from_form, fill_form, round_form_class
from scorekeeper.games.presenters import (
    apply_problems,
    sheet_of,
    tile_choices,
    tile_values,
)
from scorekeeper.i18n import problem_text
from scorekeeper.models import Game
from scorekeeper.services import games as game_service
from scorekeeper.services.games import Snapshot, snapshot_of

# The game page shows the latest changes; the history page shows them all.
HISTORY_LINES = 10

# Setting up ------------------------------------------------------------------------------------


@bp.route("/games/new", methods=["GET", "POST"])
def new() -> ResponseReturnValue:
    """Set up a game: four names and Start is enough."""
    form = SetupForm()
    if form.add_player.data and len(form.players) < form.players.max_entries:
        form.players.append_entry()
        return _render_setup(form)
    if not form.validate_on_submit():
        expired = "csrf_token" in form.errors
        general = [_("The form expired: please press Start again.")] if expired else []
        return _render_setup(form, general, 400 if form.is_submitted() else 200)
    if form.show_typed_number_errors():
        return _render_setup(form, status=422)
    try:
        game = game_service.create_game(
            form.player_names(), form.rules(), form.teams(), device=current_device()
        )
    except core.RuleError as error:
        return _render_setup(form, form.show_problems(error.problems), 422)
    # The draw game has hands, not rounds: its page says "Hand 1".
    draw = game.game_type == "draw"
    flash(_("Game on! Hand 1 is ready.") if draw else _("Game on! Round 1 is ready."), "success")
    return redirect(url_for("games.detail", game_id=game.id))


def _render_setup(
    form: SetupForm, general: list[str] | None = None, status: int = 200
) -> ResponseReturnValue:
    return (
        render_template(
            "games/new.html",
            form=form,
            general=general or [],
            recommend_table=[list(row) for row in core.setup.RECOMMENDED],
        ),
        status,
    )


# The game page ---------------------------------------------------------------------------------


def _round_form(game: Game, snapshot: Snapshot, engine: int | None, formdata=None):
    """The round sheet's form for this game's seats and house rules, with the tiles on offer
    around `engine`; it reads `formdata` (a POST) when given."""
    form_class = round_form_class(
        tuple(snapshot.setup.players),
        tuple(tile_choices(snapshot.setup.rules.set_size, engine)),
        open_train=game.open_train_points > 0,
        strategic=game.strategic_error,
        adjustments=game.adjustments,
    )
    return form_class(formdata=formdata)


def _render_game(
    game: Game,
    access: str,
    *,
    form=None,
    general: list[str] | None = None,
    warnings: list[str] | None = None,
    status: int = 200,
) -> ResponseReturnValue:
    snapshot = snapshot_of(game)
    state = snapshot.state
    editable = access == "edit"
    if form is None and editable and not state.finished:
        form = _round_form(game, snapshot, state.next_engine)
        form.number.data = str(state.next_round)
    device = current_device()
    history = game_service.history_of(game, limit=HISTORY_LINES) if editable else []
    page = render_template(
        "games/detail.html",
        **_round_sheet(game, form, snapshot.setup.players, state.next_opener, state.next_engine),
        state=state,
        sheet=sheet_of(snapshot),
        snapshot=snapshot,
        access=access,
        editable=editable,
        history=history,
        general=general or [],
        warnings=warnings or [],
        device=device,
    )
    return page, status


def _round_sheet(
    game: Game, form, players: Sequence[str], opener: str | None, engine: int | None
) -> dict:
    """What the round sheet's template needs besides the messages: the form, the seats, who
    opens (marked on their hand) and the tiles on offer around this round's engine."""
    return {
        "form": form,
        "game": game,
        "players": list(players),
        "opener": opener,
        "tile_values": tile_values(game, engine),
    }


@bp.get("/games/<int:game_id>")
def detail(game_id: int) -> ResponseReturnValue:
    """The game page: current round, the sheet, standings, charts, and (to scorers) the form."""
    game, access = game_for_device(game_id)
    return _render_game(game, access)


@bp.post("/games/<int:game_id>/rounds")
def record_round(game_id: int) -> ResponseReturnValue:
    """Save the next round, or show what is wrong next to the field (everything typed kept)."""
    game, access = game_for_device(game_id, edit=True)
    snapshot = snapshot_of(game)
    form = _round_form(game, snapshot, snapshot.state.next_engine, request.form)
    if not form.validate():
        return _render_game(game, access, form=form, status=400)
    players = snapshot.setup.players
    entry = entry_from_form(form, players)
    number = core.parse_points(form.number.data)
    try:
        outcome = game_service.record_round(
            game, entry, number=number, confirm=bool(form.confirm.data), device=current_device()
        )
    except game_service.GameOver:
        flash(_("The game is over: no more rounds can be recorded."), "error")
        return redirect(url_for("games.detail", game_id=game.id))
    except game_service.StaleGame:
        game = game_service.game_row(game_id)
        fresh = snapshot_of(game).state
        message = _(
            "Round %(number)s was just saved from another phone: its scores are in the sheet. "
            "What you typed is still below, not saved.",
            number=number or fresh.rounds_played,
        )
        if fresh.finished:
            return _render_game(game, access, general=[message], status=409)
        form.number.data = str(fresh.next_round)
        form.confirm.data = False
        return _render_game(game, access, form=form, general=[message], status=409)
    if outcome.saved:
        flash(_("Round %(number)s saved.", number=outcome.number), "success")
        return redirect(url_for("games.detail", game_id=game_id, _anchor="sheet"))
    general = apply_problems(form, outcome.check.errors, players)
    warnings = [problem_text(p) for p in outcome.check.warnings] if outcome.check.ok else []
    form.confirm.data = False
    return _render_game(game, access, form=form, general=general, warnings=warnings, status=422)


@bp.route("/games/<int:game_id>/rounds/<int:number>/edit", methods=["GET", "POST"])
def edit_round(game_id: int, number: int) -> ResponseReturnValue:
    """Correct a recorded round; a change made meanwhile on another phone is shown, not lost."""
    game, access = game_for_device(game_id, edit=True)
    snapshot = snapshot_of(game)
    current = snapshot.result(number)
    if current is None:
        abort(404)
    players = snapshot.setup.players
    if request.method == "GET":
        form = _round_form(game, snapshot, current.engine)
        fill_form(form, game_service.entry_of(current), players)
        form.round_version.data = str(snapshot.round_version(number))
        return _render_edit(game, snapshot, number, form)
    form = _round_form(game, snapshot, current.engine, request.form)
    if not form.validate():
        return _render_edit(game, snapshot, number, form, status=400)
    entry = entry_from_form(form, players)
    try:
        outcome = game_service.edit_round(
            game,
            number,
            entry,
            round_version=core.parse_points(form.round_version.data),
            confirm=bool(form.confirm.data),
            device=current_device(),
        )
    except game_service.StaleGame:
        game = game_service.game_row(game_id)
        snapshot = snapshot_of(game)
        if snapshot.result(number) is None:
            flash(_("Round %(number)s was removed from another phone.", number=number), "error")
            return redirect(url_for("games.detail", game_id=game_id))
        form.round_version.data = str(snapshot.round_version(number))
        form.confirm.data = False
        message = _(
            "Round %(number)s was changed from another phone while you were editing. "
            "Its saved values are shown above; what you typed is below, not saved. "
            "Save again to replace them.",
            number=number,
        )
        return _render_edit(
            game, snapshot, number, form, general=[message], status=409, now_saved=True
        )
    if outcome.saved:
        flash(_("Round %(number)s corrected.", number=number), "success")
        return redirect(url_for("games.detail", game_id=game.id, _anchor="sheet"))
    general = apply_problems(form, outcome.check.errors, players)
    warnings = [problem_text(p) for p in outcome.check.warnings] if outcome.check.ok else []
    form.confirm.data = False
    return _render_edit(
        game, snapshot, number, form, general=general, warnings=warnings, status=422
    )


def _render_edit(
    game: Game,
    snapshot: Snapshot,
    number: int,
    form,
    *,
    general=None,
    warnings=None,
    status=200,
    now_saved=False,
) -> ResponseReturnValue:
    result = snapshot.result(number)
    assert result is not None
    return (
        render_template(
            "games/edit_round.html",
            **_round_sheet(game, form, snapshot.setup.players, None, result.engine),
            state=snapshot.state,
            number=number,
            engine=result.engine,
            general=general or [],
            warnings=warnings or [],
            saved=result if now_saved else None,
        ),
        status,
    )


@bp.get("/games/<int:game_id>/history")
def history(game_id: int) -> ResponseReturnValue:
    """Every change to the game, newest first: round, player, old and new value, when, where."""
    game, _access = game_for_device(game_id, edit=True)
    return render_template(
        "games/history.html",
        game=game,
        history=game_service.history_of(game, limit=10_000),
        device=current_device(),
    )


@bp.post("/games/<int:game_id>/undo")
def undo(game_id: int) -> ResponseReturnValue:
    """Take back the last round (it stays in the history)."""
    game, _access = game_for_device(game_id, edit=True)
    number = core.parse_points(request.form.get("number"))
    try:
        undone = game_service.undo_last_round(game, device=current_device(), number=number)
    except LookupError:
        flash(_("There is no round to undo."), "error")
    except game_service.StaleGame:
        flash(_("The last round changed on another phone: nothing was undone."), "error")
    else:
        flash(_("Round %(number)s undone.", number=undone), "success")
    return redirect(url_for("games.detail", game_id=game_id))


@bp.post("/games/<int:game_id>/end")
def end(game_id: int) -> ResponseReturnValue:
    """End the game now, as the table agreed: the standings become final."""
    game, _access = game_for_device(game_id, edit=True)
    game_service.end_game(game, device=current_device())
    flash(_("The game is over. Here are the final standings."), "success")
    return redirect(url_for("games.detail", game_id=game_id, _anchor="standings"))


# Links for the table ---------------------------------------------------------------------------


@bp.get("/e/<token>")
def claim(token: str) -> ResponseReturnValue:
    """An edit link: this phone may now score the game."""
    game = game_service.game_by_token(token, edit=True)
    if game is None or game.club_id is not None:  # club games are scored by the club's scorers
        abort(404)
    game_service.remember(current_device(), game, can_edit=True)
    flash(_("You can now record rounds for this game on this phone."), "success")
    return redirect(url_for("games.detail", game_id=game.id))


def _share_page(token: str, template: str | None, *, remember: bool = False) -> Response:
    """The share page (`template`), or its live part alone (None): 304 while the game is
    unchanged (the phones watching poll it)."""
    game = game_for_share(token)
    if remember and game.club_id is None:
        device = current_device()
        if game_service.device_access(device, game) is None:
            game_service.remember(device, game, can_edit=False)
    etag = f"{game.etag}-{(template or 'live').rsplit('/', 1)[-1]}"
    if request.if_none_match.contains_weak(etag):
        response = Response(status=304)
    else:
        snapshot = snapshot_of(game)
        page = render_template(
            template or "games/_live.html",
            game=game,
            players=snapshot.setup.players,
            state=snapshot.state,
            sheet=sheet_of(snapshot),
            access="view",
            token=token,
        )
        response = make_response(page)
    response.set_etag(etag)
    response.headers["Cache-Control"] = "private, no-cache"
    return response


@bp.get("/s/<token>")
def share(token: str) -> ResponseReturnValue:
    """The read-only page anyone at the table can open; it refreshes itself. A quick game
    opened here goes on this phone's home list (to watch; edit rights are not given)."""
    return _share_page(token, "games/share.html", remember=True)


@bp.get("/s/<token>/live")
def share_live(token: str) -> ResponseReturnValue:
    """The live part of the share page, polled with If-None-Match (304 when nothing changed)."""
    return _share_page(token, None)


@bp.get("/games/<int:game_id>/print")
def print_view(game_id: int) -> ResponseReturnValue:
    """One page for the fridge door: standings, sheet and chart; ?blank=1 for a paper sheet."""
    game, _access = game_for_device(game_id)
    return _print(game)


@bp.get("/s/<token>/print")
def share_print(token: str) -> ResponseReturnValue:
    """The print view, from the share link."""
    return _print(game_for_share(token), token=token)


def _print(game: Game, token: str | None = None) -> ResponseReturnValue:
    blank = request.args.get("blank") == "1"
    snapshot = snapshot_of(game)
    state = snapshot.state
    sheet = sheet_of(snapshot)
    if blank:
        # A paper sheet: players and every engine filled in, no scores.
        sheet.rows, sheet.leaders, sheet.future_engines = [], set(), list(state.engines)
    return render_template(
        "games/print.html", game=game, state=state, sheet=sheet, blank=blank, token=token
    )
