"""Application factory: builds the Flask app from named register_* steps."""

import functools
import os
import secrets
from collections.abc import Mapping
from typing import Any

from flask import Flask


def create_app(
    test_config: Mapping[str, Any] | None = None, instance_path: str | None = None
) -> Flask:
    """Create and configure the scorekeeper app (tests may give their own instance folder)."""
    app = Flask(
        __name__,
        instance_path=instance_path,
        instance_relative_config=True,
        template_folder="../templates",
        static_folder="../static",
    )
    os.makedirs(app.instance_path, exist_ok=True)
    register_config(app, test_config)
    register_extensions(app)
    register_blueprints(app)
    register_errorhandlers(app)
    register_cli(app)
    return app


def register_config(app: Flask, test_config: Mapping[str, Any] | None) -> None:
    """Load layered config; make or read the secret key, refusing a guessable one; check the
    public address mails link to."""
    from scorekeeper.config import ensure_public_url, ensure_secret_key, load_config

    load_config(app, test_config)
    ensure_secret_key(app)
    ensure_public_url(app)


def register_extensions(app: Flask) -> None:
    """Bind the unbound extensions to this app."""
    from flask_babel import Babel, get_locale
    from flask_babel import lazy_gettext as _l

    from scorekeeper import figures, i18n, models  # noqa: F401  (models: tables)
    from scorekeeper.extensions import csrf, db, login_manager, migrate
    from scorekeeper.i18n import LANGUAGE_NAMES, select_locale
    from scorekeeper.infra import logs, mail, sqlite
    from scorekeeper.services.accounts import load_user
    from scorekeeper.web import (
        answers,
        compression,
        converters,
        devices,
        health,
        limits,
        polls,
        security,
        static_files,
        styles,
    )

    converters.init_app(app)  # before the blueprints add routes that use it
    db.init_app(app)
    sqlite.init_app(app)
    security.init_app(app)
    styles.init_app(app)
    compression.init_app(app)
    static_files.init_app(app)  # after compression: its hook runs first
    logs.init_app(app)
    # An absolute directory lets `flask db ...` run from any working directory.
    migrations_dir = os.path.join(os.path.dirname(app.root_path), "migrations")
    migrate.init_app(app, db, directory=migrations_dir)
    csrf.init_app(app)
    devices.init_app(app)
    limits.init_app(app)
    mail.init_app(app)
    login_manager.init_app(app)
    login_manager.user_loader(load_user)
    login_manager.login_view = "accounts.sign_in"
    login_manager.login_message = _l("Sign in to see that page.")
    # The flashed message goes into the session, which holds plain text: translate it now.
    login_manager.localize_callback = str
    # One Babel per app: Flask-Babel keeps loaded catalogues on its instance, by language only,
    # so two apps in one process (the tests) with other catalogues must not share one.
    Babel(app, locale_selector=select_locale)
    i18n.init_app(app)
    figures.init_app(app)
    app.jinja_env.globals["get_locale"] = get_locale
    app.jinja_env.globals["language_names"] = LANGUAGE_NAMES
    # A name for one rendering of a page's messages (a cached copy shown again has the same).
    app.jinja_env.globals["once_id"] = functools.partial(secrets.token_urlsafe, 9)
    # Read answers kept whole, unchanged live polls, then (outermost) a load balancer's probe:
    # answered before Flask.
    app.wsgi_app = answers.answer_kept(app, app.wsgi_app)  # type: ignore[method-assign, assignment]
    app.wsgi_app = polls.answer_polls(app, app.wsgi_app)  # type: ignore[method-assign, assignment]
    app.wsgi_app = health.answer_probes(app.wsgi_app)  # type: ignore[method-assign, assignment]


def register_blueprints(app: Flask) -> None:
    """Attach one blueprint per feature area."""
    from scorekeeper.accounts import bp as accounts_bp
    from scorekeeper.api import bp as api_bp
    from scorekeeper.clubs import bp as clubs_bp
    from scorekeeper.extensions import csrf
    from scorekeeper.games import bp as games_bp
    from scorekeeper.main.views import bp as main_bp
    from scorekeeper.nights import bp as nights_bp
    from scorekeeper.players import bp as players_bp
    from scorekeeper.pwa import bp as pwa_bp
    from scorekeeper.ratings import bp as ratings_bp
    from scorekeeper.seasons import bp as seasons_bp

    app.register_blueprint(main_bp)
    app.register_blueprint(games_bp)
    app.register_blueprint(players_bp)
    app.register_blueprint(accounts_bp)
    app.register_blueprint(clubs_bp)
    app.register_blueprint(nights_bp)
    app.register_blueprint(seasons_bp)
    app.register_blueprint(api_bp)
    app.register_blueprint(pwa_bp)
    app.register_blueprint(ratings_bp)
    csrf.exempt(api_bp)  # the API authenticates with bearer tokens, not cookies


def register_errorhandlers(app: Flask) -> None:
    """Attach the app-wide HTML/JSON error pages."""
    from scorekeeper.errors.handlers import bp as errors_bp

    app.register_blueprint(errors_bp)


def register_cli(app: Flask) -> None:
    """Add the project's flask commands (the `db` group comes from Flask-Migrate)."""
    from scorekeeper import cli

    for command in (
        cli.init_db_command,
        cli.export_club_command,
        cli.import_club_command,
        cli.set_password_command,
        cli.count_pips_command,
    ):
        app.cli.add_command(command)
