"""The project's flask commands."""

from sqlalchemy import inspect

from scorekeeper.extensions import db


def test_init_db_upgrades_database(runner, app):
    result = runner.invoke(args=["init-db"])
    assert result.exit_code == 0, result.output
    assert "Database is up to date." in result.output
    with app.app_context():
        # Alembic records the head it reached, even before the first table exists.
        assert "alembic_version" in inspect(db.engine).get_table_names()


def test_init_db_help_comes_from_docstring(runner):
    result = runner.invoke(args=["init-db", "--help"])
    assert result.exit_code == 0
    assert "latest migration" in result.output
