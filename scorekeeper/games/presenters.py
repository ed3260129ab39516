"""Shaping a game for its pages: the score sheet grid, tile choices, errors beside fields.

Presentation only: every figure here was computed by the core (through the services).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from flask import url_for
from flask_babel import gettext
from flask_wtf import FlaskForm
from markupsafe import Markup, escape

from scorekeeper import core
from scorekeeper.i18n import problem_text
from scorekeeper.models import Game
from scorekeeper.services.games import Snapshot


@dataclass
class Cell:
    """One player's box in one round of the sheet."""

    score: int
    pips: int
    penalty: int
    went_out: bool
    tiles: str | None
    # A round the player missed (they joined late): scored by the club's late-arrival rule.
    late: bool = False


@dataclass
class SheetRow:
    """One round of the sheet: its engine and each player's box."""

    number: int
    engine: int | None
    cells: list[Cell]
    blocked: bool
    out: str | None
    opener: str | None
    penalties: list[core.Penalty] = field(default_factory=list)


@dataclass
class Sheet:
    """The score sheet as the game page, share page and print view draw it."""

    players: list[str]
    short: list[str]
    rows: list[SheetRow]
    totals: list[int]
    places: list[int]
    zero_rounds: list[int]
    leaders: set[int]
    standings: list[core.Standing]
    team_standings: list[core.Standing]
    future_engines: list[int]
    higher_wins: bool
    running: dict[str, list[int]]
    # The late-arrival rules ("highest", "average", "zero") behind the sheet's late cells.
    late_rules: list[str] = field(default_factory=list)


def abbreviate(names: Sequence[str], width: int = 4) -> list[str]:
    """Short column headings that stay distinct: 'Anabel' -> 'Anab' (longer where needed)."""
    short = [name[:width] for name in names]
    for size in range(width + 1, 41):
        clashes = {s for s in short if short.count(s) > 1}
        if not clashes:
            break
        short = [
            name[:size] if name[: size - 1] in clashes else s
            for name, s in zip(names, short, strict=True)
        ]
    return short


def sheet_of(snapshot: Snapshot) -> Sheet:
    """The sheet of one version of a game (its snapshot)."""
    setup, state, results = snapshot.setup, snapshot.state, snapshot.results
    players = list(setup.players)
    rows = []
    for number, result, late_flags in zip(snapshot.numbers, results, snapshot.late, strict=True):
        cells = [
            Cell(
                hand.score,
                hand.pips,
                hand.penalty,
                hand.went_out,
                " ".join(str(t) for t in hand.tiles) if hand.tiles else None,
                is_late,
            )
            for hand, is_late in zip(result.hands, late_flags, strict=True)
        ]
        opener = None if setup.is_draw else core.opener(players, number)
        rows.append(
            SheetRow(
                number,
                result.engine,
                cells,
                result.blocked,
                result.out,
                opener,
                list(result.penalties),
            )
        )
    by_name = {line.name: line for line in state.standings}
    totals = [by_name[name].total for name in players]
    places = [by_name[name].place for name in players]
    zeros = [by_name[name].zero_rounds for name in players]
    leaders = {seat for seat, place in enumerate(places) if place == 1} if results else set()
    scores = core.round_scores(setup, list(results))
    return Sheet(
        players=players,
        short=abbreviate(players),
        rows=rows,
        totals=totals,
        places=places,
        zero_rounds=zeros,
        leaders=leaders,
        standings=list(state.standings),
        team_standings=list(state.team_standings),
        future_engines=list(state.engines[len(results) :]),
        higher_wins=setup.is_draw,
        running={name: core.running_totals(values) for name, values in scores.items()},
        late_rules=[rule.value for rule in snapshot.late_rules] if snapshot.any_late else [],
    )


def sheet_rows(sheet: Sheet, editable: bool, game_id: int) -> Markup:
    """The score sheet's rounds, one <tr> each: the engine (a link to correct the round, for a
    scorer), then each player's score, went-out mark, penalty and late mark. Built directly
    like hand_fields: a 13-round, 8-player sheet is over a hundred cells."""
    # Translations are trusted markup, as in the templates.
    went_out = Markup(gettext("went out"))
    blocked = (
        f'<span class="tag" title="{Markup(gettext("Blocked"))}">'
        f"{Markup(gettext('blocked'))}</span>"
    )
    late_title = Markup(gettext("Joined late: scored by the club's rule"))
    late_text = Markup(gettext("(joined late)"))
    higher_wins = sheet.higher_wins
    rows = []
    for row in sheet.rows:
        label = f"{row.engine}-{row.engine}" if row.engine is not None else str(row.number)
        if editable:
            href = escape(url_for("games.edit_round", game_id=game_id, number=row.number))
            aria = Markup(gettext("Edit round %(n)s", n=row.number))
            label = f'<a class="edit-round" href="{href}" aria-label="{aria}">{label} ✎</a>'
        parts = [
            f'<tr id="round-{row.number}"><th scope="row" class="col-round">{label}'
            f"{' ' + blocked if row.blocked else ''}</th>"
        ]
        for cell in row.cells:
            classes = (
                ("went-out" if cell.went_out else "")
                + (" has-penalty" if cell.penalty else "")
                + (" late" if cell.late else "")
            )
            title = ""
            if cell.tiles:
                title = f' title="{escape(cell.tiles)}"'
            elif cell.late:
                title = f' title="{late_title}"'
            if cell.went_out and not cell.penalty and not higher_wins:
                content = f'<span aria-label="{went_out}">0✓</span>'
            elif cell.late:
                content = (
                    f'{cell.score}<span class="late-mark" aria-hidden="true">*</span>'
                    f'<span class="visually-hidden"> {late_text}</span>'
                )
            else:
                content = str(cell.score)
            if cell.penalty:
                content += f'<small class="penalty">{cell.penalty:+d}</small>'
            parts.append(f'<td class="{classes}"{title}>{content}</td>')
        parts.append("</tr>")
        rows.append("".join(parts))
    return Markup("\n".join(rows))


def tile_choices(set_size: int, engine: int | None) -> list[str]:
    """Every tile a hand can hold this round: the set without the engine, highest first."""
    engine_tile = core.double(engine) if engine is not None else None
    tiles = [t for t in core.tiles_in_set(set_size) if t != engine_tile]
    return [str(t) for t in sorted(tiles, key=lambda t: (t.high, t.low), reverse=True)]


def tile_values(game: Game, engine: int | None) -> dict[str, int]:
    """What each tile on offer is worth under the game's blank option (the picker adds them)."""
    return _tile_values(game.set_size, engine, game.blank_scoring)


@lru_cache(maxsize=128)
def _tile_values(set_size: int, engine: int | None, blank_scoring: str) -> dict[str, int]:
    blank = core.BlankScoring(blank_scoring)
    return {
        text: core.tile_value(core.parse_tile(text), blank)
        for text in tile_choices(set_size, engine)
    }


def tile_grid(name: str, values: dict[str, int], checked: Sequence[str] | None) -> Markup:
    """The tile checkboxes of one hand (hundreds of them: built directly, not widget by widget)."""
    if not checked:  # an empty hand's grid is the same on every request: built once
        return _empty_tile_grid(name, tuple(values.items()))
    return _tile_grid(name, values.items(), checked)


@lru_cache(maxsize=512)
def _empty_tile_grid(name: str, values: tuple[tuple[str, int], ...]) -> Markup:
    return _tile_grid(name, values, ())


def _tile_grid(name: str, values, checked: Sequence[str]) -> Markup:
    chosen = set(checked)
    field = escape(name)
    items = []
    for index, (text, value) in enumerate(values):
        high, low = text.split("-")
        mark = " checked" if text in chosen else ""
        items.append(
            f'<li><label class="tile" data-value="{value}"><input class="tile-check" '
            f'id="{field}-{index}" name="{field}" type="checkbox" value="{text}"{mark}>'
            f'<span class="tile-face"><span>{high}</span><span>{low}</span></span></label></li>'
        )
    return Markup('<ul class="tile-grid">' + "".join(items) + "</ul>")


def hand_fields(
    form: FlaskForm,
    players: Sequence[str],
    opener: str | None,
    values: dict[str, int],
    open_train_points: int,
) -> Markup:
    """The round sheet's block for each hand: exactly the HTML the WTForms widgets write (names,
    ids, values, checked, errors), built directly like `tile_grid` (eight players of widgets
    cost more than the rest of the page). The form object still reads the POST."""
    opens = Markup(gettext("opens"))
    pips_word = Markup(gettext("pips"))
    went_out = Markup(gettext("Went out"))
    pips_label = Markup(gettext("Pips left in %(name)s's hand"))
    mode_label = Markup(gettext("Enter %(name)s's hand as"))
    tap_label = Markup(gettext("Tap the tiles in %(name)s's hand"))
    out = form["out"]
    out_name = escape(out.name)
    out_data = out.data
    blocks = []
    for seat, name in enumerate(players):
        pips = form[f"pips_{seat}"]
        mode = form[f"mode_{seat}"]
        tiles = form[f"tiles_{seat}"]
        pips_id = escape(pips.id)
        named = {"name": name}
        error_class = " field-error" if pips.errors or tiles.errors else ""
        tag = f' <span class="tag">{opens}</span>' if opener == name else ""
        aria = f' aria-describedby="{pips_id}-error" aria-invalid="true"' if pips.errors else ""
        checked_out = "checked" if out_data == str(seat) else ""
        parts = [
            f'<fieldset class="hand{error_class}" data-seat="{seat}">\n'
            f"    <legend>{escape(name)}{tag}</legend>\n"
            f'    <div class="hand-main">\n'
            f'      <label class="visually-hidden" for="{pips_id}">{pips_label % named}</label>\n'
            f'      <input{aria} autocomplete="off" class="pips" id="{pips_id}" inputmode="numeric"'
            f' maxlength="20" name="{escape(pips.name)}" pattern="[0-9]*"'
            f' placeholder="{pips_word}" type="text" value="{escape(pips._value())}">\n'
            f'      <label class="out-toggle">\n'
            f'        <input type="radio" name="{out_name}" value="{seat}" {checked_out}>\n'
            f"        <span>{went_out}</span>\n"
            f"      </label>\n"
            f"    </div>\n"
        ]
        if pips.errors:
            parts.append(f'    <p class="error" id="{pips_id}-error">{_joined(pips.errors)}</p>\n')
        mode_id, mode_name = escape(mode.id), escape(mode.name)
        choices = "".join(
            f'<label class="mode-choice"><input{" checked" if choice.value == mode.data else ""}'
            f' id="{mode_id}-{index}" name="{mode_name}" type="radio"'
            f' value="{escape(choice.value)}"> {escape(choice.label)}</label>'
            for index, choice in enumerate(mode.choices)
        )
        is_open = " open" if mode.data == "tiles" or tiles.errors else ""
        parts.append(
            f'    <div class="mode" role="radiogroup" aria-label="{mode_label % named}">\n'
            f"      {choices}\n"
            f"    </div>\n"
            f'    <details class="tile-picker"{is_open}>\n'
            f"      <summary>{tap_label % named}"
            f' <output class="hand-value" aria-live="polite"></output></summary>\n'
            f"      {tile_grid(tiles.name, values, tiles.data)}\n"
            f"    </details>\n"
        )
        if tiles.errors:
            parts.append(
                f'    <p class="error" id="{escape(tiles.id)}-error">{_joined(tiles.errors)}</p>\n'
            )
        open_train = form[f"open_train_{seat}"] if f"open_train_{seat}" in form else None
        strategic = form[f"strategic_{seat}"] if f"strategic_{seat}" in form else None
        adjust = form[f"adjust_{seat}"] if f"adjust_{seat}" in form else None
        if open_train is not None or strategic is not None or adjust is not None:
            parts.append('    <div class="penalties">\n')
            if open_train is not None:
                text = Markup(gettext("Train still open (+%(n)s)")) % {"n": open_train_points}
                parts.append(f"      {_checkbox(open_train, text)}\n")
            if strategic is not None:
                parts.append(f"      {_checkbox(strategic, escape(strategic.label.text))}\n")
            if adjust is not None:
                reason = form[f"reason_{seat}"]
                adjust_id, reason_id = escape(adjust.id), escape(reason.id)
                invalid = ' aria-invalid="true"' if adjust.errors else ""
                parts.append(
                    f'        <div class="adjust">\n'
                    f'          <label for="{adjust_id}">{escape(adjust.label.text)}</label>\n'
                    f'          <input{invalid} autocomplete="off" class="adjust-points"'
                    f' id="{adjust_id}" inputmode="text" maxlength="20"'
                    f' name="{escape(adjust.name)}" type="text"'
                    f' value="{escape(adjust._value())}">\n'
                    f'          <label for="{reason_id}">{escape(reason.label.text)}</label>\n'
                    f'          <input autocomplete="off" id="{reason_id}" maxlength="200"'
                    f' name="{escape(reason.name)}" type="text"'
                    f' value="{escape(reason._value())}">\n'
                    f"        </div>\n"
                )
                if adjust.errors:
                    parts.append(
                        f'        <p class="error" id="{adjust_id}-error">'
                        f"{_joined(adjust.errors)}</p>\n"
                    )
            parts.append("    </div>\n")
        parts.append("  </fieldset>\n")
        blocks.append("".join(parts))
    return Markup("  ".join(blocks))


def _checkbox(field, text: Markup) -> str:
    checked = " checked" if field.data else ""
    return (
        f'<label class="check"><input{checked} id="{escape(field.id)}" name="{escape(field.name)}"'
        f' type="checkbox" value="{escape(field._value())}"> {text}</label>'
    )


def _joined(errors: Sequence[str]) -> Markup:
    return Markup(" ").join(errors)


def apply_problems(
    form: FlaskForm, problems: Sequence[core.Problem], players: Sequence[str]
) -> list[str]:
    """Put each core problem next to its field; return those that belong to the whole round."""
    general: list[str] = []
    for problem in problems:
        text = problem_text(problem)
        name = _field_for(form, problem, players)
        if name is None:
            general.append(text)
        else:
            form[name].errors = [*form[name].errors, text]
    return general


def _field_for(form: FlaskForm, problem: core.Problem, players: Sequence[str]) -> str | None:
    if problem.player not in players:
        return "out" if problem.field in ("out", "blocked") else None
    seat = players.index(problem.player)
    if problem.field == "penalty":
        return f"adjust_{seat}" if f"adjust_{seat}" in form else f"pips_{seat}"
    if problem.field in ("out", "blocked"):
        return "out"
    if problem.field == "tiles" or form[f"mode_{seat}"].data == "tiles":
        return f"tiles_{seat}"
    return f"pips_{seat}"
