"""Game night pages: setup, the game page and its round sheet, share and edit links, print view.

Views are thin: read the form, call one service, flash, redirect. Scores come from the core
through the services; nothing here adds up a round.
"""

from __future__ import annotations

from flask import (
    Response,
    abort,
    flash,
    redirect,
    render_template,
    request,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _

from scorekeeper import core
from scorekeeper.access import (
    game_for_device,
    game_for_share,
    game_page_for_device,
    game_ref_for_device,
    image_source_for_share,
)
from scorekeeper.forms import SetupForm, new_write_key, write_key
from scorekeeper.games import bp, messages
from scorekeeper.games.forms import (
    RoundForm,
    entry_from_form,
    fill_form,
    round_fields,
    typed_fields,
)
from scorekeeper.games.parts import hands_part, history_part, results_part, share_html
from scorekeeper.games.presenters import (
    apply_problems,
    conflict_view,
    error_links,
    sheet_heading,
    sheet_of,
    tile_values,
)
from scorekeeper.i18n import prefer_locale, problem_text
from scorekeeper.models import Game, etag_of
from scorekeeper.services import games as game_service
from scorekeeper.services.clubs import club_locale
from scorekeeper.services.games import Snapshot, snapshot_of
from scorekeeper.web import limits
from scorekeeper.web.devices import current_device, known_device
from scorekeeper.web.etags import conditional, etag_for, page_etag

# The round form's place on the game page: after a save the page opens there, the message
# beside the next round's first field.
RECORD_ANCHOR = "record"

# Setting up ------------------------------------------------------------------------------------


@bp.route("/games/new", methods=["GET", "POST"])
@limits.new_games
def new() -> ResponseReturnValue:
    """Set up a game: four names and Start is enough."""
    form = SetupForm()
    if form.add_player.data and len(form.players) < (form.players.max_entries or 0):
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
    if warning := core.set_warning(snapshot_of(game).setup):  # a set too small for the table
        flash(problem_text(warning), "warning")
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


def _round_form(game: Game, snapshot: Snapshot, formdata=None) -> RoundForm:
    """The round sheet's form for this game's seats and house rules; it reads `formdata` (a
    POST) when given. The tiles on offer come with the page (`_round_sheet`)."""
    house = snapshot.setup.rules.house_rules
    fields = round_fields(
        snapshot.setup.players,
        open_train=house.open_train_points > 0,
        strategic=house.strategic_error,
        adjustments=house.adjustments,
    )
    return RoundForm(fields, formdata)


def _render_game(
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
        form = _round_form(game, snapshot)
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
        **_round_sheet(game, form, snapshot.setup, state.next_opener, state.next_engine),
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
        general=general or [],
        warnings=warnings or [],
        device=device,
        open_tiles=tiles_last and status == 200,
        one_grid=open_seat is None,
        open_seat=open_seat,
    )
    return page, status


def _round_sheet(game: Game, form, setup, opener, engine, number=None, snapshot=None) -> dict:
    """What the round sheet's template needs besides the messages: the form, the seats (and
    who is away: no hand asked; round `number`'s, or now), who opens (marked on their hand) and
    the tiles on offer around this round's engine."""
    players = setup.players
    return {
        "form": form,
        "game": game,
        "players": list(players),
        "away": snapshot.missed_seats(number) if snapshot else setup.away,
        "opener": opener,
        # Only a page with the round sheet offers tiles (a finished game's page has none).
        "tile_values": tile_values(game, engine) if form is not None else [],
        "error_links": error_links(form, players) if form is not None else [],
    }


@bp.get("/games/<id:game_id>")
def detail(game_id: int) -> ResponseReturnValue:
    """The game page: current round, the sheet, standings, charts, and (to scorers) the form."""
    game, access = game_page_for_device(game_id)
    return _render_game(game, access)


@bp.get("/games/<id:game_id>/live")
def live(game_id: int) -> ResponseReturnValue:
    """The game page's changing parts (current round, sheet, standings, charts), polled with
    If-None-Match by the scorers' phones: 304 while the game is unchanged."""
    # The ETag comes from one light query (the game's version and this phone's right): a poll
    # of an unchanged game loads nothing else.
    ref, access = game_ref_for_device(game_id)

    def render() -> str:
        game, _access = game_for_device(game_id)
        snapshot = snapshot_of(game)
        return render_template(
            "games/_game_live.html",
            game=game,
            state=snapshot.state,
            results_part=results_part(game, snapshot, access),
            access=access,
            editable=access == "edit",
        )

    return conditional(etag_for(etag_of(ref.id, ref.version), part="game", access=access), render)


@bp.post("/games/<id:game_id>/rounds")
@limits.round_writes
def record_round(game_id: int) -> ResponseReturnValue:
    """Save the next round, or show what is wrong next to the field (everything typed kept);
    a round another phone saved first is shown beside this one, for the scorer to choose."""
    game, access = game_for_device(game_id, edit=True)
    snapshot = snapshot_of(game)
    form = _round_form(game, snapshot, request.form)
    if (show_tiles := request.form.get("show_tiles")) is not None:
        # No script asked a hand's tiles: the sheet as typed, every hand's grid, nothing saved.
        return _render_game(game, access, form=form, open_seat=show_tiles[:3])[0]
    return _record(game, access, snapshot, form)


def _record(game: Game, access: str, snapshot: Snapshot, form) -> ResponseReturnValue:
    """Record the round the form holds as the round its `number` says (the next one)."""
    if not form.validate():
        return _render_game(game, access, form=form, status=400)
    players = snapshot.setup.players
    entry = entry_from_form(form, players)
    number = core.parse_points(form.number.data)
    try:
        outcome = game_service.record_round(
            game,
            entry,
            number=number,
            confirm=bool(form.confirm.data),
            device=current_device(),
            key=write_key(form.idempotency_key.data),
        )
    except game_service.GameOver:
        flash(_("The game is over: no more rounds can be recorded."), "error")
        return redirect(url_for("games.detail", game_id=game.id))
    except game_service.Busy:
        page, _status = _render_game(game, access, form=form, general=[messages.busy()], status=503)
        return page, 503, {"Retry-After": str(game_service.Busy.retry_after)}
    except game_service.StaleGame:
        return _stale(game.id, access, form, entry, number, editing=False)
    except game_service.KeyReused as reused:
        # Shown again for the scorer to check, with a key of its own, as the next round.
        form.idempotency_key.data = new_write_key()
        form.number.data = str(snapshot_of(game).state.next_round)
        message = messages.key_reused(reused.number)
        return _render_game(game, access, form=form, general=[message], status=422)
    if outcome.saved:
        flash(_("Round %(number)s saved.", number=outcome.number), "success")
        return redirect(url_for("games.detail", game_id=game.id, _anchor=RECORD_ANCHOR))
    general = apply_problems(form, outcome.check.errors, players)
    warnings = [problem_text(p) for p in outcome.check.warnings] if outcome.check.ok else []
    form.confirm.data = False
    return _render_game(game, access, form=form, general=general, warnings=warnings, status=422)


@bp.route("/games/<id:game_id>/rounds/<id:number>/edit", methods=["GET", "POST"])
@limits.round_writes
def edit_round(game_id: int, number: int) -> ResponseReturnValue:
    """Correct a recorded round; a change made meanwhile on another phone is shown, not lost."""
    game, access = game_for_device(game_id, edit=True)
    snapshot = snapshot_of(game)
    current = snapshot.result(number)
    if current is None:
        abort(404)
    if request.method == "GET":
        form = _round_form(game, snapshot)
        fill_form(form, game_service.entry_of(current), snapshot.setup.players)
        form.round_version.data = str(snapshot.round_version(number))
        return _render_edit(game, snapshot, number, form)
    form = _round_form(game, snapshot, request.form)
    return _edit(game, access, snapshot, number, form)


def _edit(game: Game, access: str, snapshot: Snapshot, number: int, form) -> ResponseReturnValue:
    """Replace round `number` with what the form holds, pinned to its `round_version`."""
    if not form.validate():
        return _render_edit(game, snapshot, number, form, status=400)
    players = snapshot.setup.players
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
    except game_service.Busy:
        page, _status = _render_edit(game, snapshot, number, form, general=[messages.busy()])
        return page, 503, {"Retry-After": str(game_service.Busy.retry_after)}
    except (game_service.StaleGame, LookupError):
        return _stale(game.id, access, form, entry, number, editing=True)
    if outcome.saved:
        flash(_("Round %(number)s corrected.", number=number), "success")
        return redirect(url_for("games.detail", game_id=game.id, _anchor="sheet"))
    general = apply_problems(form, outcome.check.errors, players)
    warnings = [problem_text(p) for p in outcome.check.warnings] if outcome.check.ok else []
    form.confirm.data = False
    return _render_edit(
        game, snapshot, number, form, general=general, warnings=warnings, status=422
    )


def _stale(
    game_id: int, access: str, form, entry: core.RoundEntry, number: int | None, *, editing: bool
) -> ResponseReturnValue:
    """Another phone got there first: show its round beside this one and let the scorer
    choose; nothing typed here moves to another round unless the scorer says so."""
    game = game_service.game_row(game_id)
    if game is None:  # removed on another phone meanwhile
        abort(404)
    conflict = game_service.conflict_of(game, number, entry) if number is not None else None
    if conflict is not None:
        page = render_template(
            "games/conflict.html",
            game=game,
            view=conflict_view(conflict, entry),
            typed=typed_fields(form),
            round_version=conflict.round_version,
            editing=editing,
        )
        return page, 409
    if editing:
        flash(_("Round %(number)s was removed from another phone.", number=number), "error")
        return redirect(url_for("games.detail", game_id=game_id))
    # No round of that number was saved: an undo, a correction or an end came first.
    fresh = snapshot_of(game).state
    if fresh.finished:
        message = _("The game was ended on another phone: nothing was saved.")
        return _render_game(game, access, general=[message], status=409)
    form.confirm.data = False
    if number in (None, fresh.next_round):
        message = _(
            "The game changed on another phone meanwhile: nothing was saved. "
            "What you typed is below: check it and save again."
        )
    else:
        message = _(
            "Another phone changed the game: the next round is round %(next)s, not %(number)s. "
            "Nothing was saved. What you typed is below, now for round %(next)s: "
            "check it before saving.",
            next=fresh.next_round,
            number=number,
        )
        form.number.data = str(fresh.next_round)
    return _render_game(game, access, form=form, general=[message], status=409)


@bp.post("/games/<id:game_id>/rounds/<id:number>/conflict")
@limits.round_writes
def resolve_conflict(game_id: int, number: int) -> ResponseReturnValue:
    """The scorer's choice after a conflict over round `number`: keep the saved round, replace
    it with what this phone typed (pinned to the saved round's version), or record what was
    typed as the next round. Each goes through the usual checks."""
    game, access = game_for_device(game_id, edit=True)
    choice = request.form.get("choice")
    snapshot = snapshot_of(game)
    saved = snapshot.result(number)
    if choice == "replace" and saved is not None:
        form = _round_form(game, snapshot, request.form)
        return _edit(game, access, snapshot, number, form)
    if choice == "next":
        form = _round_form(game, snapshot, request.form)
        return _record(game, access, snapshot, form)
    flash(
        _(
            "Round %(number)s stays as the other phone saved it; what you typed was not saved.",
            number=number,
        ),
        "success",
    )
    return redirect(url_for("games.detail", game_id=game_id, _anchor=RECORD_ANCHOR))


def _render_edit(
    game: Game,
    snapshot: Snapshot,
    number: int,
    form,
    *,
    general=None,
    warnings=None,
    status=200,
) -> tuple[str, int]:
    result = snapshot.result(number)
    assert result is not None
    return (
        render_template(
            "games/edit_round.html",
            **_round_sheet(game, form, snapshot.setup, None, result.engine, number, snapshot),
            state=snapshot.state,
            number=number,
            engine=result.engine,
            general=general or [],
            warnings=warnings or [],
        ),
        status,
    )


@bp.get("/games/<id:game_id>/history")
def history(game_id: int) -> ResponseReturnValue:
    """Every change to the game, newest first: round, player, old and new value, when, where."""
    game, _access = game_for_device(game_id, edit=True)
    return render_template(
        "games/history.html",
        game=game,
        history=game_service.history_of(game, limit=10_000),
        device=current_device(),
    )


# Undo, end and reopen: a second step before anything is taken back or ended --------------------


def _confirmed() -> bool:
    """The scorer pressed the confirmation page's button (a first POST only asks)."""
    return request.form.get("confirm") == "yes"


@bp.post("/games/<id:game_id>/undo")
@limits.round_writes
def undo(game_id: int) -> ResponseReturnValue:
    """Take back the last round (it stays in the history), once the scorer confirms."""
    game, _access = game_for_device(game_id, edit=True)
    number = core.parse_points(request.form.get("number"))
    if not _confirmed():
        snapshot = snapshot_of(game)
        if snapshot.results and number in (None, snapshot.numbers[-1]):
            return render_template(
                "games/confirm.html",
                game=game,
                kind="undo",
                number=snapshot.numbers[-1],
                result=snapshot.results[-1],
                finished=snapshot.state.finished,
            )
    try:
        undone = game_service.undo_last_round(game, device=current_device(), number=number)
    except LookupError:
        flash(_("There is no round to undo."), "error")
    except game_service.StaleGame:
        flash(_("The last round changed on another phone: nothing was undone."), "error")
    else:
        flash(_("Round %(number)s undone.", number=undone), "success")
        return redirect(url_for("games.detail", game_id=game_id, _anchor=RECORD_ANCHOR))
    return redirect(url_for("games.detail", game_id=game_id))


@bp.post("/games/<id:game_id>/end")
def end(game_id: int) -> ResponseReturnValue:
    """End the game now, as the table agreed, once the scorer confirms: the standings become
    final (a game ended by mistake can be reopened)."""
    game, _access = game_for_device(game_id, edit=True)
    snapshot = snapshot_of(game)
    if snapshot.state.finished:
        return redirect(url_for("games.detail", game_id=game_id, _anchor="standings"))
    if not _confirmed():
        return render_template(
            "games/confirm.html", game=game, kind="end", state=snapshot.state, finished=False
        )
    try:
        game_service.end_game(game, device=current_device())
    except game_service.StaleGame:
        flash(_("The game changed on another phone: it was not ended. Check it first."), "error")
        return redirect(url_for("games.detail", game_id=game_id))
    flash(_("The game is over. Here are the final standings."), "success")
    return redirect(url_for("games.detail", game_id=game_id, _anchor="standings"))


@bp.post("/games/<id:game_id>/reopen")
def reopen(game_id: int) -> ResponseReturnValue:
    """Play on after the game was ended by mistake (the history keeps both steps)."""
    game, _access = game_for_device(game_id, edit=True)
    try:
        game_service.reopen_game(game, device=current_device())
    except game_service.GameOver:
        flash(_("Every round is played: undo the last round to play it again."), "error")
    except game_service.StaleGame:
        flash(_("The game changed on another phone: it was not reopened."), "error")
    else:
        flash(_("The game is open again."), "success")
        return redirect(url_for("games.detail", game_id=game_id, _anchor=RECORD_ANCHOR))
    return redirect(url_for("games.detail", game_id=game_id))


# Links for the table ---------------------------------------------------------------------------


@bp.get("/e/<token>")
def claim(token: str) -> ResponseReturnValue:
    """An edit link: a page asking whether this phone should score the game (opening a link
    writes nothing, so a chat app's link preview cannot take edit rights); a phone that
    already scores it goes straight to the game."""
    game = _claimable(token)
    if game_service.device_access(known_device(), game) == "edit":
        return redirect(url_for("games.detail", game_id=game.id))
    return render_template("games/claim.html", game=game, players=snapshot_of(game).setup.players)


@bp.post("/e/<token>")
def claim_confirm(token: str) -> ResponseReturnValue:
    """The tap on the edit link's page: this phone may now score the game."""
    game = _claimable(token)
    game_service.remember(current_device(), game, can_edit=True)
    flash(_("You can now record rounds for this game on this phone."), "success")
    return redirect(url_for("games.detail", game_id=game.id))


def _claimable(token: str) -> Game:
    game = game_service.game_by_token(token, edit=True)
    if game is None or game.club_id is not None:  # club games are scored by the club's scorers
        abort(404)
    return game


def _share_page(token: str, template: str | None) -> Response:
    """The share page (`template`), or its live part alone (None): 304 while the game is
    unchanged (the phones watching poll it). Only reads: a phone keeps the game with a tap."""
    if template is None:
        # The live part, polled by every phone watching: its ETag comes from one light query,
        # and an unchanged game loads nothing else.
        ref = image_source_for_share(token)
        etag = etag_for(etag_of(ref.id, ref.version), part="share-live")
        return conditional(etag, lambda: share_html(game_for_share(token), token, None, False))
    game = game_for_share(token)
    # Whether to offer "keep this game": only on the full page, for a quick game this phone
    # does not have yet (the ETag says which, so a tap's redirect shows the page without it).
    offer_keep = game.club_id is None and game_service.device_access(known_device(), game) is None
    etag = page_etag(game.etag, page=template, offer_keep=offer_keep)
    return conditional(etag, lambda: share_html(game, token, template, offer_keep), page=True)


@bp.get("/s/<token>")
def share(token: str) -> ResponseReturnValue:
    """The read-only page anyone at the table can open; it refreshes itself. A quick game
    offers a button to keep it on this phone's home list (to watch; edit rights are not given)."""
    return _share_page(token, "games/share.html")


@bp.post("/s/<token>/keep")
def keep(token: str) -> ResponseReturnValue:
    """The tap on "Keep this game on my phone": the game goes on this phone's home list."""
    game = game_for_share(token)
    if game.club_id is not None:  # a club's members find its games on the club's page
        abort(404)
    device = current_device()
    if game_service.device_access(device, game) is None:
        game_service.remember(device, game, can_edit=False)
    flash(_("This game is now on your phone's home page."), "success")
    return redirect(url_for("games.share", token=token))


@bp.get("/s/<token>/live")
def share_live(token: str) -> ResponseReturnValue:
    """The live part of the share page, polled with If-None-Match (304 when nothing changed)."""
    return _share_page(token, None)


@bp.get("/games/<id:game_id>/print")
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
    prefer_locale(club_locale(game.club_id))
    snapshot = snapshot_of(game)
    state = snapshot.state
    sheet = sheet_of(snapshot)
    if blank:
        # A paper sheet: players and every engine filled in, no scores.
        sheet.rows, sheet.leaders, sheet.future_engines = [], set(), list(state.engines)
    return render_template(
        "games/print.html", game=game, state=state, sheet=sheet, blank=blank, token=token
    )
