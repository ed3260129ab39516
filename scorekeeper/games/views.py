"""Game night pages: setup, the game page and its round sheet, share and edit links, print view.

Views are thin: read the form, call one service, flash, redirect. Scores come from the core
through the services; nothing here adds up a round.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache

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
from flask_babel import get_locale
from flask_babel import gettext as _
from markupsafe import Markup
from werkzeug.datastructures import MultiDict

from scorekeeper import core
from scorekeeper.devices import current_device
from scorekeeper.games import bp
from scorekeeper.games.access import game_for_device, game_for_share
from scorekeeper.games.forms import SetupForm, entry_from_form, fill_form, round_form_class
from scorekeeper.games.presenters import (
    Sheet,
    apply_problems,
    html_cache,
    sheet_of,
    tile_choices,
    tile_values,
)
from scorekeeper.i18n import problem_text
from scorekeeper.models import Game
from scorekeeper.services import games as game_service
from scorekeeper.services.snapshots import Snapshot, snapshot_of

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
    flash(_("Game on! Round 1 is ready."), "success")
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


# A round sheet's form class depends only on the seats, the tiles on offer and the house rules:
# built once for each, not on every request (eight players' tile pickers are ~700 choices).
_round_form_class = lru_cache(maxsize=256)(round_form_class)


def _round_form(
    game: Game,
    formdata: MultiDict | None = None,
    engine: int | None = None,
    setup: core.GameSetup | None = None,
):
    setup = setup or game_service.setup_of(game)
    form_class = _round_form_class(
        tuple(setup.players),
        tuple(tile_choices(setup.rules.set_size, engine)),
        open_train=game.open_train_points > 0,
        strategic=game.strategic_error,
        adjustments=game.adjustments,
    )
    if formdata is None:
        return form_class(formdata=None)
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
    sheet = sheet_of(snapshot)
    editable = access == "edit"
    round_fields = None
    if form is None and editable and not state.finished:
        # The empty round sheet is the same for every scorer of this version: built once.
        round_fields = _version_part(
            snapshot,
            _version_key(game, "round sheet"),
            lambda: render_template(
                "games/_round_fields.html",
                **_next_round_sheet(game, snapshot, _empty_round_form(game, snapshot)),
                general=[],
                warnings=[],
            ),
        )
    device = current_device()
    page = render_template(
        "games/detail.html",
        results_html=_results_html(game, snapshot, sheet, editable=editable),
        round_fields=round_fields,
        history_html=_history_html(game, snapshot, device) if editable else None,
        **_next_round_sheet(game, snapshot, form),
        state=state,
        sheet=sheet,
        access=access,
        general=general or [],
        warnings=warnings or [],
        device=device,
    )
    return page, status


def _empty_round_form(game: Game, snapshot: Snapshot):
    state = snapshot.state
    form = _round_form(game, engine=state.next_engine, setup=snapshot.setup)
    form.number.data = str(state.next_round)
    return form


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


def _next_round_sheet(game: Game, snapshot: Snapshot, form) -> dict:
    """The round sheet of the next round to record."""
    state = snapshot.state
    return _round_sheet(game, form, snapshot.setup.players, state.next_opener, state.next_engine)


def _version_part(snapshot: Snapshot, key: tuple, render: Callable[[], str]) -> Markup:
    """A part of a game's page that is the same for every reader of one version: rendered
    once and kept, when the snapshot it shows is certainly that version (else just rendered)."""
    if not snapshot.kept:
        return Markup(render())
    return html_cache().get(key, render)


def _version_key(game: Game, *parts: object) -> tuple:
    """A cache key for a part of a game's page: that version of that game, in this language."""
    # A recreated database reuses ids and versions, never share tokens.
    return (game.id, game.view_token, game.version, str(get_locale()), request.script_root, *parts)


def _history_html(game: Game, snapshot: Snapshot, device: str):
    """The latest changes (every change bumps the version), as this device sees them."""

    def render() -> str:
        history = game_service.history_of(game, limit=HISTORY_LINES)
        return (
            render_template("games/_history.html", history=history, device=device)
            if history
            else ""
        )

    return _version_part(snapshot, _version_key(game, "history", device), render)


def _results_html(game: Game, snapshot: Snapshot, sheet: Sheet, *, editable: bool):
    """The sheet, standings and charts: rendered once for each version of the game (and
    language, edit rights, late-arrival legend), then reused for every request."""
    key = _version_key(
        game,
        game.club_id,
        game.finished_at is not None,
        tuple(sheet.late_rules),
        editable,
    )
    return _version_part(
        snapshot,
        key,
        lambda: render_template(
            "games/_results.html", game=game, state=snapshot.state, sheet=sheet, editable=editable
        ),
    )


@bp.get("/games/<int:game_id>")
def detail(game_id: int) -> ResponseReturnValue:
    """The game page: current round, the sheet, standings, charts, and (to scorers) the form."""
    game, access = game_for_device(game_id, full=False)
    return _render_game(game, access)


@bp.post("/games/<int:game_id>/rounds")
def record_round(game_id: int) -> ResponseReturnValue:
    """Save the next round, or show what is wrong next to the field (everything typed kept)."""
    game, access = game_for_device(game_id, edit=True)
    state = game_service.state_of(game)
    form = _round_form(game, request.form, engine=state.next_engine)
    if not form.validate():
        return _render_game(game, access, form=form, status=400)
    setup = game_service.setup_of(game)
    entry = entry_from_form(form, setup.players)
    number = core.parse_points(form.number.data)
    try:
        outcome = game_service.record_round(
            game, entry, number=number, confirm=bool(form.confirm.data), device=current_device()
        )
    except game_service.GameOver:
        flash(_("The game is over: no more rounds can be recorded."), "error")
        return redirect(url_for("games.detail", game_id=game.id))
    except game_service.StaleGame:
        game = game_service.load_game(game_id)
        fresh = game_service.state_of(game)
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
    general = apply_problems(form, outcome.check.errors, setup.players)
    warnings = [problem_text(p) for p in outcome.check.warnings] if outcome.check.ok else []
    form.confirm.data = False
    return _render_game(game, access, form=form, general=general, warnings=warnings, status=422)


@bp.route("/games/<int:game_id>/rounds/<int:number>/edit", methods=["GET", "POST"])
def edit_round(game_id: int, number: int) -> ResponseReturnValue:
    """Correct a recorded round; a change made meanwhile on another phone is shown, not lost."""
    game, access = game_for_device(game_id, edit=True)
    row = next((r for r in game.round_rows if r.number == number), None)
    if row is None:
        abort(404)
    setup = game_service.setup_of(game)
    state = game_service.state_of(game)
    current = game_service.entry_of(game, row)
    if request.method == "GET":
        form = _round_form(game, engine=row.engine)
        fill_form(form, current, setup.players)
        form.round_version.data = str(row.version)
        return _render_edit(game, state, row, form)
    form = _round_form(game, request.form, engine=row.engine)
    if not form.validate():
        return _render_edit(game, state, row, form, status=400)
    entry = entry_from_form(form, setup.players)
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
        game = game_service.load_game(game_id)
        row = next((r for r in game.round_rows if r.number == number), None)
        if row is None:
            flash(_("Round %(number)s was removed from another phone.", number=number), "error")
            return redirect(url_for("games.detail", game_id=game_id))
        form.round_version.data = str(row.version)
        form.confirm.data = False
        message = _(
            "Round %(number)s was changed from another phone while you were editing. "
            "Its saved values are shown above; what you typed is below, not saved. "
            "Save again to replace them.",
            number=number,
        )
        return _render_edit(
            game,
            game_service.state_of(game),
            row,
            form,
            general=[message],
            status=409,
            now_saved=True,
        )
    if outcome.saved:
        flash(_("Round %(number)s corrected.", number=number), "success")
        return redirect(url_for("games.detail", game_id=game.id, _anchor="sheet"))
    general = apply_problems(form, outcome.check.errors, setup.players)
    warnings = [problem_text(p) for p in outcome.check.warnings] if outcome.check.ok else []
    form.confirm.data = False
    return _render_edit(game, state, row, form, general=general, warnings=warnings, status=422)


def _render_edit(
    game, state, row, form, *, general=None, warnings=None, status=200, now_saved=False
) -> ResponseReturnValue:
    saved = game_service.result_of(game, row) if now_saved else None
    return (
        render_template(
            "games/edit_round.html",
            **_round_sheet(game, form, game_service.setup_of(game).players, None, row.engine),
            state=state,
            row=row,
            general=general or [],
            warnings=warnings or [],
            saved=saved,
        ),
        status,
    )


@bp.get("/games/<int:game_id>/history")
def history(game_id: int) -> ResponseReturnValue:
    """Every change to the game, newest first: round, player, old and new value, when, where."""
    game, _access = game_for_device(game_id, edit=True, full=False)
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
    unchanged, and the live part rendered once per version for every phone watching."""
    game = game_for_share(token, full=False)
    if remember and game.club_id is None:
        device = current_device()
        if game_service.device_access(device, game) is None:
            game_service.remember(device, game, can_edit=False)
    etag = f"{game.etag}-{(template or 'live').rsplit('/', 1)[-1]}"
    if request.if_none_match.contains_weak(etag):
        response = Response(status=304)
    else:
        snapshot = snapshot_of(game)

        def live() -> str:
            return render_template(
                "games/_live.html",
                game=game,
                state=snapshot.state,
                sheet=sheet_of(snapshot),
                access="view",
                token=token,
            )

        live_html = _version_part(snapshot, _version_key(game, "live"), live)
        if template is None:
            response = make_response(live_html)
        else:
            players = snapshot.setup.players
            page = render_template(
                template, game=game, players=players, live_html=live_html, token=token
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
    game, _access = game_for_device(game_id, full=False)
    return _print(game)


@bp.get("/s/<token>/print")
def share_print(token: str) -> ResponseReturnValue:
    """The print view, from the share link."""
    return _print(game_for_share(token, full=False), token=token)


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
