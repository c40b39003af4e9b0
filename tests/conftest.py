import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner
from flask_migrate import upgrade
from sqlalchemy import create_engine, text

from scorekeeper import create_app
from scorekeeper.extensions import db

# bin/test runs the suite twice: on SQLite files, then on a throwaway PostgreSQL server
# whose URL it passes here.
TEST_DATABASE_URL = os.environ.get("TEST_DATABASE_URL")


@pytest.fixture
def database_url(tmp_path: Path) -> str:
    """An empty database for one test: a new SQLite file, or a wiped PostgreSQL schema."""
    if not TEST_DATABASE_URL:
        return f"sqlite:///{tmp_path / 'test.sqlite'}"
    engine = create_engine(TEST_DATABASE_URL)
    with engine.begin() as conn:
        conn.execute(text("DROP SCHEMA public CASCADE"))
        conn.execute(text("CREATE SCHEMA public"))
    engine.dispose()
    return TEST_DATABASE_URL


@pytest.fixture
def app(tmp_path: Path, database_url: str) -> Iterator[Flask]:
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "SQLALCHEMY_DATABASE_URI": database_url,
        },
        instance_path=tmp_path / "instance",
    )
    with app.app_context():
        # Build the schema from the migrations, not db.create_all(), so every test run
        # exercises the real migrations.
        upgrade()
    yield app
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def runner(app: Flask) -> FlaskCliRunner:
    return app.test_cli_runner()
