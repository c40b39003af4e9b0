"""Scorekeeper: a phone-first score pad for the card game Wizard."""

from __future__ import annotations

import contextlib
import os
import secrets
import sqlite3
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from flask import Flask, request
from flask.typing import ResponseReturnValue
from sqlalchemy import event
from werkzeug.exceptions import HTTPException

from scorekeeper import (
    accesslog,
    cli,
    compression,
    i18n,
    limits,
    live,
    passphrase,
    security,
    simulate,
    writers,
)
from scorekeeper.extensions import csrf, db, migrate

# templates/, static/ and instance/ live at the repository root, next to the package.
ROOT = Path(__file__).resolve().parent.parent


def create_app(
    test_config: Mapping[str, Any] | None = None,
    *,
    instance_path: str | os.PathLike[str] | None = None,
) -> Flask:
    """Build the Flask application.

    Configuration, later sources winning: built-in defaults, ``instance/config.py``
    (skipped when ``test_config`` is given), the ``SECRET_KEY``, ``DATABASE_URL`` and
    ``PAGE_SHARE_DIR`` environment variables, then ``test_config``. Without a configured
    secret key, one is generated once into ``instance/secret_key`` and reused.
    """
    instance = Path(instance_path) if instance_path is not None else ROOT / "instance"
    app = Flask(
        __name__,
        instance_path=str(instance.resolve()),
        template_folder=str(ROOT / "templates"),
        static_folder=str(ROOT / "static"),
    )
    Path(app.instance_path).mkdir(parents=True, exist_ok=True)

    app.config.from_mapping(
        SQLALCHEMY_DATABASE_URI=f"sqlite:///{Path(app.instance_path) / 'scorekeeper.sqlite'}",
    )
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
    if secret := os.environ.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = secret
    if url := os.environ.get("DATABASE_URL"):
        app.config["SQLALCHEMY_DATABASE_URI"] = _normalise_database_url(url)
    if folder := os.environ.get("PAGE_SHARE_DIR"):  # set by gunicorn.conf.py
        app.config["PAGE_SHARE_DIR"] = folder
    if test_config is not None:
        app.config.from_mapping(test_config)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _instance_secret_key(Path(app.instance_path))

    compression.init_app(app)  # first registered, so it runs last: after every header
    security.init_app(app)
    limits.init_app(app)  # before any other request hook: see limits.py
    accesslog.init_app(app)
    db.init_app(app)
    csrf.init_app(app)
    passphrase.init_app(app)
    i18n.init_app(app)
    migrate.init_app(app, db, directory=str(ROOT / "migrations"), render_as_batch=True)
    with app.app_context():
        if db.engine.dialect.name == "sqlite":
            event.listen(db.engine, "connect", _sqlite_pragmas)
            writers.watch(db.engine)
    live.init_app(app)

    from scorekeeper import models  # noqa: F401  (registers tables for Alembic)
    from scorekeeper.api import bp as api_bp
    from scorekeeper.web import bp as web_bp
    from scorekeeper.web.digital import bp as digital_bp
    from scorekeeper.web.resolver import bp as resolver_bp

    app.register_blueprint(web_bp)
    app.register_blueprint(api_bp)
    app.register_blueprint(resolver_bp)
    app.register_blueprint(digital_bp)
    _too_large_in_each_voice(app)
    cli.init_app(app)
    simulate.init_app(app)
    return app


def _too_large_in_each_voice(app: Flask) -> None:
    """A body over the size limit is refused before any view has the request, so the
    refusal is the app's: the API's JSON for the API, the web's page for the rest. Here,
    above both, so that neither of the two imports the other."""
    from scorekeeper.api.errors import http_error
    from scorekeeper.web.errors import too_large

    @app.errorhandler(413)
    def refuse(error: HTTPException) -> ResponseReturnValue:
        return http_error(error) if request.path.startswith("/api/") else too_large(error)


def _normalise_database_url(url: str) -> str:
    """Use the psycopg 3 driver for PostgreSQL URLs given without one."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url.removeprefix(prefix)
    return url


def _instance_secret_key(instance: Path) -> str:
    """Read ``instance/secret_key``, creating it (mode 0600) on first run."""
    path = instance / "secret_key"
    if not path.exists():
        # Write a private temp file, then hard-link it into place: link() never replaces
        # an existing file, so two workers starting at once agree on one key.
        fd, tmp = tempfile.mkstemp(dir=instance, prefix=".secret_key.")
        try:
            with os.fdopen(fd, "w") as f:
                f.write(secrets.token_hex(32) + "\n")
            os.chmod(tmp, 0o600)
            with contextlib.suppress(FileExistsError):
                os.link(tmp, path)
        finally:
            os.unlink(tmp)
    return path.read_text().strip()


def _sqlite_pragmas(dbapi_connection: sqlite3.Connection, _record: object) -> None:
    # WAL lets readers and one writer work at once (two gunicorn workers); SQLite leaves
    # foreign keys off unless asked; busy_timeout makes a writer wait instead of failing.
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.close()
