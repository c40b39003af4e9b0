import stat
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner
from sqlalchemy import text

from scorekeeper import create_app
from scorekeeper.extensions import db


def test_home_page(client: FlaskClient) -> None:
    response = client.get("/")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert "<h1>Scorekeeper</h1>" in html
    assert "The score pad for Wizard" in html
    assert "/static/js/page.js" in html  # htmx and app.js
    assert "/static/css/app.css" in html


def test_static_files_served(client: FlaskClient) -> None:
    for path in ("/static/css/app.css", "/static/js/page.js", "/static/js/htmx-2.0.11.min.js"):
        response = client.get(path)
        assert response.status_code == 200, path
        response.close()


def test_healthz(client: FlaskClient) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.mimetype == "text/plain"
    assert response.get_data(as_text=True) == "ok"


def test_not_found_page_is_friendly(client: FlaskClient) -> None:
    response = client.get("/no-such-page")
    assert response.status_code == 404
    html = response.get_data(as_text=True)
    assert "Page not found" in html
    assert 'href="/"' in html  # a way back


def test_server_error_rolls_back_and_apologises(app: Flask) -> None:
    app.config["PROPAGATE_EXCEPTIONS"] = False
    with app.app_context():
        db.session.execute(text("create table scratch (x integer)"))
        db.session.commit()
    open_transaction_at_teardown = []

    @app.get("/boom")
    def boom() -> str:
        db.session.execute(text("insert into scratch values (1)"))
        raise RuntimeError("boom")

    @app.teardown_request
    def record(_exc: BaseException | None) -> None:
        open_transaction_at_teardown.append(db.session().in_transaction())

    response = app.test_client().get("/boom")
    assert response.status_code == 500
    html = response.get_data(as_text=True)
    assert "Something went wrong" in html
    assert "RuntimeError" not in html
    assert open_transaction_at_teardown == [False]  # the handler rolled back
    with app.app_context():
        assert db.session.execute(text("select count(*) from scratch")).scalar() == 0


def test_secret_key_file_created_private_and_stable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("SECRET_KEY", raising=False)
    instance = tmp_path / "instance"
    config = {"SQLALCHEMY_DATABASE_URI": "sqlite://"}

    first = create_app(config, instance_path=instance)
    key_file = instance / "secret_key"
    assert key_file.is_file()
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    assert len(first.config["SECRET_KEY"]) == 64

    second = create_app(config, instance_path=instance)
    assert second.config["SECRET_KEY"] == first.config["SECRET_KEY"]
    assert sorted(p.name for p in instance.iterdir()) == ["secret_key"]  # no temp files left


def test_configured_secret_key_writes_no_file(tmp_path: Path) -> None:
    app = create_app(
        {"SECRET_KEY": "given", "SQLALCHEMY_DATABASE_URI": "sqlite://"},
        instance_path=tmp_path,
    )
    assert app.config["SECRET_KEY"] == "given"
    assert not (tmp_path / "secret_key").exists()


def test_default_database_is_sqlite_in_instance(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("DATABASE_URL", raising=False)
    app = create_app({"SECRET_KEY": "x"}, instance_path=tmp_path)
    assert app.config["SQLALCHEMY_DATABASE_URI"] == f"sqlite:///{tmp_path / 'scorekeeper.sqlite'}"


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("sqlite:///{tmp}/other.sqlite", "sqlite:///{tmp}/other.sqlite"),
        ("postgresql://u@db/s", "postgresql+psycopg://u@db/s"),
        ("postgres://u@db/s", "postgresql+psycopg://u@db/s"),
        ("postgresql+psycopg://u@db/s", "postgresql+psycopg://u@db/s"),
    ],
)
def test_database_url_honoured(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, url: str, expected: str
) -> None:
    monkeypatch.setenv("DATABASE_URL", url.format(tmp=tmp_path))
    app = create_app({"SECRET_KEY": "x"}, instance_path=tmp_path)
    assert app.config["SQLALCHEMY_DATABASE_URI"] == expected.format(tmp=tmp_path)
    with app.app_context():
        assert db.engine.url.render_as_string(hide_password=False) == expected.format(tmp=tmp_path)


def test_sqlite_pragmas(tmp_path: Path) -> None:
    # Always on SQLite, also in the PostgreSQL pass of the suite: it is the default database.
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "t",
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'p.sqlite'}",
        },
        instance_path=tmp_path / "instance",
    )
    with app.app_context():
        assert db.session.execute(text("pragma journal_mode")).scalar() == "wal"
        assert db.session.execute(text("pragma foreign_keys")).scalar() == 1
        assert db.session.execute(text("pragma busy_timeout")).scalar() == 5000


def test_migrations_match_models(runner: FlaskCliRunner) -> None:
    # The app fixture already upgraded to head: a second upgrade is a no-op, and
    # autogenerate finds nothing in the models that a migration does not create.
    result = runner.invoke(args=["db", "upgrade"])
    assert result.exit_code == 0, result.output
    result = runner.invoke(args=["db", "check"])
    assert result.exit_code == 0, result.output
