"""Flask command-line commands for this project (the `db` group comes from Flask-Migrate).

What they print is translated into the shell's language (LANGUAGE, LC_ALL, LC_MESSAGES or
LANG, as scorekeeper.i18n reads them); their --help stays English."""

import json
from typing import BinaryIO

import click
import flask_migrate
from flask.cli import with_appcontext
from flask_babel import gettext as _
from flask_babel import ngettext

from scorekeeper.i18n import problem_text
from scorekeeper.services import accounts as account_service
from scorekeeper.services import export_csv, export_json, importer


@click.command("init-db")
@with_appcontext
def init_db_command() -> None:
    """Create or upgrade the database tables to the latest migration."""
    flask_migrate.upgrade()
    click.echo(_("Database is up to date."))


@click.command("export-club")
@click.argument("club_id", type=int)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["json", "csv"]),
    default="json",
    show_default=True,
    help="json: everything, lossless (import-club reads it). csv: one row per player per round.",
)
@click.option(
    "--output",
    "-o",
    type=click.Path(dir_okay=False, writable=True),
    help="Write to this file instead of standard output.",
)
@with_appcontext
def export_club_command(club_id: int, fmt: str, output: str | None) -> None:
    """Export club CLUB_ID: members, invites, roster, games, rounds and history.

    The JSON holds the club's link tokens (public page, game links, invites) but no
    passwords or API tokens: keep the file private. See docs/export.md.
    """
    try:
        if fmt == "json":
            text = export_json.dumps(export_json.export_club_json(club_id))
        else:
            text = export_csv.export_club_csv(club_id)
    except LookupError as error:
        raise click.ClickException(str(error)) from None
    if output is None:
        click.echo(text, nl=False)
        return
    # newline="": the CSV already ends its lines with \r\n (RFC 4180); write them as they are.
    with open(output, "w", encoding="utf-8", newline="") as file:
        file.write(text)
    click.echo(
        _("Wrote club %(id)s as %(format)s to %(file)s.", id=club_id, format=fmt, file=output),
        err=True,
    )


# What import-club reports: each count key and its words (looked up when the command runs).
_COUNTED = {
    "members": lambda n: ngettext("%(num)s member", "%(num)s members", n),
    "invites": lambda n: ngettext("%(num)s invite", "%(num)s invites", n),
    "roster": lambda n: ngettext("%(num)s roster player", "%(num)s roster players", n),
    "seasons": lambda n: ngettext("%(num)s season", "%(num)s seasons", n),
    "club_nights": lambda n: ngettext("%(num)s club night", "%(num)s club nights", n),
    "games": lambda n: ngettext("%(num)s game", "%(num)s games", n),
    "rounds": lambda n: ngettext("%(num)s round", "%(num)s rounds", n),
    "history": lambda n: ngettext("%(num)s history entry", "%(num)s history entries", n),
}


@click.command("import-club")
@click.argument("file", type=click.File("rb"))
@with_appcontext
def import_club_command(file: BinaryIO) -> None:
    """Import a club from FILE (the JSON of export-club; - reads standard input).

    The club, its members, invites, roster, games and history are created in one
    transaction: on any problem nothing is imported. Members without an account here get
    one without a password: they sign in after `set-password EMAIL`. A file larger than
    the setting IMPORT_MAX_BYTES (20 MB) is refused unread.
    """
    try:
        data = importer.read_document(file)
    except importer.ImportProblem as error:
        raise click.ClickException(f"{file.name}: {problem_text(error)}") from None
    try:
        report = importer.import_club(data)
    except importer.ImportProblem as error:
        raise click.ClickException(problem_text(error)) from None
    except ValueError as error:
        raise click.ClickException(str(error)) from None
    summary = ", ".join(words(report.counts[key]) for key, words in _COUNTED.items())
    click.echo(
        _(
            "Imported club %(id)s (%(name)s): %(summary)s.",
            id=report.club.id,
            name=report.club.name,
            summary=summary,
        )
    )
    if report.new_users:
        click.echo(
            _(
                "New accounts without a password (flask --app scorekeeper set-password EMAIL): "
                "%(emails)s",
                emails=", ".join(report.new_users),
            )
        )


@click.command("set-password")
@click.argument("email")
@with_appcontext
def set_password_command(email: str) -> None:
    """Set the password of the account EMAIL (asked twice, not shown).

    Accounts imported with import-club have no password until this is run. Every other
    session of the account is signed out.
    """
    password = click.prompt(_("New password"), hide_input=True, confirmation_prompt=True)
    try:
        user = account_service.set_password(email, password)
    except (LookupError, ValueError) as error:
        raise click.ClickException(str(error.args[0])) from None
    click.echo(_("Password set for %(email)s.", email=user.email))


@click.command("count-pips")
@click.argument("photos", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False))
@click.option("--set", "set_max", type=int, default=12, show_default=True, help="Double-N set.")
@with_appcontext
def count_pips_command(photos: tuple[str, ...], set_max: int) -> None:
    """Read the tiles on photos of hands: one JSON line per photo (tiles, total, advice)."""
    from scorekeeper.services import photos as photo_service

    for path in photos:
        with open(path, "rb") as file:
            data = file.read()
        # The API's answer (or its refusal's words), with the photo's path first; a file on
        # this machine may be larger than an upload.
        try:
            reading = photo_service.read_hand(
                data, set_max=set_max, max_bytes=None, in_process=True
            )
        except photo_service.PhotoRefused as refusal:
            click.echo(json.dumps({"photo": path, "error": refusal.message}))
            continue
        click.echo(json.dumps({"photo": path, **photo_service.answer(reading)}))
