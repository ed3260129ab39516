"""Recording and correcting rounds, and a conflict with another phone's round."""

from __future__ import annotations

from flask import abort, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _

from scorekeeper import core
from scorekeeper.access import game_for_device
from scorekeeper.forms import new_write_key, write_key
from scorekeeper.games import bp, messages
from scorekeeper.games.forms import entry_from_form, fill_form, typed_fields
from scorekeeper.games.presenters import apply_problems, conflict_view
from scorekeeper.games.views.common import RECORD_ANCHOR, render_game, round_form, round_sheet
from scorekeeper.i18n import problem_text
from scorekeeper.models import Game
from scorekeeper.services import games as game_service
from scorekeeper.services.games import Snapshot, snapshot_of
from scorekeeper.web import limits
from scorekeeper.web.devices import current_device


@bp.post("/games/<id:game_id>/rounds")
@limits.round_writes
def record_round(game_id: int) -> ResponseReturnValue:
    """Save the next round, or show what is wrong next to the field (everything typed kept);
    a round another phone saved first is shown beside this one, for the scorer to choose."""
    game, access = game_for_device(game_id, edit=True)
    snapshot = snapshot_of(game)
    form = round_form(game, snapshot, request.form)
    if (show_tiles := request.form.get("show_tiles")) is not None:
        # No script asked a hand's tiles: the sheet as typed, every hand's grid, nothing saved.
        return render_game(game, access, form=form, open_seat=show_tiles[:3])[0]
    return _record(game, access, snapshot, form)


def _record(game: Game, access: str, snapshot: Snapshot, form) -> ResponseReturnValue:
    """Record the round the form holds as the round its `number` says (the next one)."""
    if not form.validate():
        return render_game(game, access, form=form, status=400)
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
        page, _status = render_game(game, access, form=form, general=[messages.busy()], status=503)
        return page, 503, {"Retry-After": str(game_service.Busy.retry_after)}
    except game_service.StaleGame:
        return _stale(game.id, access, form, entry, number, editing=False)
    except game_service.KeyReused as reused:
        # Shown again for the scorer to check, with a key of its own, as the next round.
        form.idempotency_key.data = new_write_key()
        form.number.data = str(snapshot_of(game).state.next_round)
        message = messages.key_reused(reused.number)
        return render_game(game, access, form=form, general=[message], status=422)
    if outcome.saved:
        flash(_("Round %(number)s saved.", number=outcome.number), "success")
        return redirect(url_for("games.detail", game_id=game.id, _anchor=RECORD_ANCHOR))
    general = apply_problems(form, outcome.check.errors, players)
    warnings = [problem_text(p) for p in outcome.check.warnings] if outcome.check.ok else []
    form.confirm.data = False
    return render_game(game, access, form=form, general=general, warnings=warnings, status=422)


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
        form = round_form(game, snapshot)
        fill_form(form, game_service.entry_of(current), snapshot.setup.players)
        form.round_version.data = str(snapshot.round_version(number))
        return _render_edit(game, snapshot, number, form)
    form = round_form(game, snapshot, request.form)
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
        return render_game(game, access, general=[message], status=409)
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
    return render_game(game, access, form=form, general=[message], status=409)


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
        form = round_form(game, snapshot, request.form)
        return _edit(game, access, snapshot, number, form)
    if choice == "next":
        form = round_form(game, snapshot, request.form)
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
            **round_sheet(game, form, snapshot.setup, None, result.engine, number, snapshot),
            state=snapshot.state,
            number=number,
            engine=result.engine,
            general=general or [],
            warnings=warnings or [],
        ),
        status,
    )
