"""Flask command-line commands for this project (the `db` group comes from Flask-Migrate)."""

import click
import flask_migrate
from flask.cli import with_appcontext


@click.command("init-db")
@with_appcontext
def init_db_command() -> None:
    """Create or upgrade the database tables to the latest migration."""
    flask_migrate.upgrade()
    click.echo("Database is up to date.")
