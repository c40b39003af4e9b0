"""Databases for the tests.

bin/test runs the suite twice: on SQLite files, then on a throwaway PostgreSQL server whose
URL it passes here in TEST_DATABASE_URL, with `--database-only`: that pass runs only the
tests marked `database` (set here on every test using the `database_url` or
`migrated_database_url` fixture, `app` included, or reading TEST_DATABASE_URL itself);
the others touch no database and have run already. Nor does it run the browser tests
again: they drive the pages, whose every read and write the web, API and robustness tests
make on PostgreSQL too, and a browser adds nothing that depends on the database.

The real migrations build the newest schema once per test session into a template: a
SQLite file, or a PostgreSQL template database. Each test that uses `app` then gets a
pristine copy of it, quicker than migrating anew: a copy of the file of its own, or on
PostgreSQL the worker's one copy of the template database, emptied of every row and its
sequences restarted after each test (a quarter of a millisecond, where making and dropping
a database took 100 to 250).
`tests/robustness/test_migrations.py` still migrates an empty database from 0001.
"""

import os
import shutil
from collections.abc import Callable, Iterator
from functools import cache
from importlib.metadata import version
from itertools import count
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner
from flask_migrate import upgrade
from jinja2 import BytecodeCache
from jinja2.bccache import Bucket
from sqlalchemy import Connection, Engine, create_engine, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError
from werkzeug.routing.rules import Rule

from scorekeeper import create_app
from scorekeeper.extensions import db

TEST_DATABASE_URL = os.environ.get("TEST_DATABASE_URL")
# Database names carry the pytest-xdist worker (bin/test runs the suite with `-n`).
WORKER = os.environ.get("PYTEST_XDIST_WORKER", "main")
DATABASE_FIXTURES = frozenset({"database_url", "migrated_database_url"})
_DESELECTED = pytest.StashKey[bool]()


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--database-only",
        action="store_true",
        help="only the tests marked `database`, browser aside (bin/test's PostgreSQL pass)",
    )


@cache
def _reads_test_database_url(path: Path) -> bool:
    return "TEST_DATABASE_URL" in path.read_text(encoding="utf-8")


def _uses_database(item: pytest.Item) -> bool:
    if DATABASE_FIXTURES.intersection(getattr(item, "fixturenames", ())):
        return True
    return item.path.suffix == ".py" and _reads_test_database_url(item.path)


@pytest.hookimpl(trylast=True)  # after tests/browser/conftest.py has marked its tests
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if _uses_database(item):
            item.add_marker(pytest.mark.database)
    if config.getoption("database_only"):
        keep = [
            item
            for item in items
            if item.get_closest_marker("database") and not item.get_closest_marker("browser")
        ]
        if len(keep) < len(items):
            config.hook.pytest_deselected(items=[i for i in items if i not in keep])
            items[:] = keep
            config.stash[_DESELECTED] = True


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: object) -> None:
    # Under pytest-xdist the workers collect and deselect; each tells the controller.
    if getattr(node, "workeroutput", {}).get("database_deselected"):
        node.config.stash[_DESELECTED] = True


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:
        workeroutput["database_deselected"] = session.config.stash.get(_DESELECTED, False)
    # `bin/test tests/engine`: no database test among those asked for is no failure of the
    # PostgreSQL pass (a selection that is empty for any other reason still is).
    if exitstatus == pytest.ExitCode.NO_TESTS_COLLECTED and session.config.stash.get(
        _DESELECTED, False
    ):
        session.exitstatus = pytest.ExitCode.OK


def _migrate(url: str, instance: Path) -> None:
    """Build the newest schema with the real migrations, as `flask db upgrade` does."""
    app = create_app(
        {"TESTING": True, "SECRET_KEY": "test", "SQLALCHEMY_DATABASE_URI": url},
        instance_path=instance,
    )
    with app.app_context():
        upgrade()
        db.session.remove()
        db.engine.dispose()


# What a test could change in a database's schema, in one value: the tables, indexes,
# sequences and views with their columns, and the migration it is stamped with.
SCHEMA_FINGERPRINT = text(
    "SELECT md5(string_agg(c.relname || ':' || c.relkind::text"
    " || ':' || coalesce(a.attname::text, '') || ':' || coalesce(a.atttypid::text, '')"
    " || ':' || coalesce(a.attnotnull::text, ''),"
    " ',' ORDER BY c.relname, a.attnum)) || (SELECT string_agg(version_num, ',')"
    " FROM alembic_version)"
    " FROM pg_class c LEFT JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0"
    " AND NOT a.attisdropped WHERE c.relnamespace = 'public'::regnamespace"
)


class Postgres:
    """Databases for the tests on the PostgreSQL server of TEST_DATABASE_URL: the worker's
    kept copy of the schema template, emptied after each test (`kept_copy`, `empty`), and
    for the tests that migrate themselves a new database each (`create`, `drop`)."""

    def __init__(self, url: str, worker: str) -> None:
        self.url = make_url(url)
        self.prefix = f"{self.url.database}_{worker}"
        self.numbers = count(1)
        self.engine = create_engine(self.url, isolation_level="AUTOCOMMIT")
        self.conn: Connection = self.engine.connect()
        version = int(self.conn.execute(text("SHOW server_version_num")).scalar_one())
        # FORCE: end any connection a test left open. FILE_COPY copies the files and then
        # checkpoints, quicker than logging every page when the server doesn't fsync.
        self.force = " WITH (FORCE)" if version >= 130000 else ""
        fsync = self.conn.execute(text("SHOW fsync")).scalar_one()
        self.strategy = " STRATEGY FILE_COPY" if version >= 150000 and fsync == "off" else ""
        self.template = f"{self.prefix}_template"
        self.kept_name = f"{self.prefix}_kept"
        self.kept: Engine | None = None
        self.emptying = ""
        self.schema = ""

    def build_template(self, instance: Path) -> None:
        self.drop(self.template)
        self.conn.execute(text(f'CREATE DATABASE "{self.template}" TEMPLATE template0'))
        _migrate(self.url_of(self.template), instance)

    def create(self, template: str) -> str:
        name = f"{self.prefix}_{next(self.numbers)}"
        self.drop(name)
        self.conn.execute(text(f'CREATE DATABASE "{name}" TEMPLATE "{template}"{self.strategy}'))
        return name

    def drop(self, name: str) -> None:
        self.conn.execute(text(f'DROP DATABASE IF EXISTS "{name}"{self.force}'))

    def kept_copy(self, template: str) -> str:
        """The name of this worker's copy of ``template``, made on first use: hand it back
        with `empty` after each test."""
        name = self.kept_name
        if self.kept is None:
            self.drop(name)
            self.conn.execute(
                text(f'CREATE DATABASE "{name}" TEMPLATE "{template}"{self.strategy}')
            )
            self.kept = create_engine(self.url_of(name), isolation_level="AUTOCOMMIT")
            with self.kept.connect() as conn:
                tables = conn.scalars(
                    text(
                        "SELECT tablename FROM pg_tables WHERE schemaname = 'public'"
                        " AND tablename <> 'alembic_version'"
                    )
                ).all()
                sequences = conn.scalars(
                    text("SELECT sequencename FROM pg_sequences WHERE schemaname = 'public'")
                ).all()
                self.schema = conn.execute(SCHEMA_FINGERPRINT).scalar_one()
            # Every row out (foreign keys unchecked meanwhile: every table is emptied) and
            # every sequence back at 1, as in a new copy. A test that left a lock behind
            # gets its copy dropped (see `empty`) rather than a wait.
            self.emptying = "".join(
                [
                    "SET lock_timeout = '5s'; SET session_replication_role = replica;",
                    *(f'DELETE FROM "{t}";' for t in tables),
                    *(f"SELECT setval('\"{s}\"', 1, false);" for s in sequences),
                    "SET session_replication_role = DEFAULT;",
                ]
            )
        return name

    def empty(self) -> None:
        """The kept copy as the template made it again (no rows, sequences at 1); dropped
        instead, to be made anew, if that can't be done or if the test changed its schema
        (a table of its own, a migration stamped)."""
        assert self.kept is not None
        try:
            with self.kept.connect() as conn:
                conn.exec_driver_sql(self.emptying)
                if conn.execute(SCHEMA_FINGERPRINT).scalar_one() == self.schema:
                    return
        except DBAPIError:
            pass
        self.kept.dispose()
        self.kept = None
        self.drop(self.kept_name)

    def url_of(self, name: str) -> str:
        return self.url.set(database=name).render_as_string(hide_password=False)

    def close(self) -> None:
        if self.kept is not None:
            self.kept.dispose()
        self.drop(self.kept_name)
        self.drop(self.template)
        self.conn.close()
        self.engine.dispose()


@pytest.fixture(scope="session")
def _postgres() -> Iterator[Postgres | None]:
    if not TEST_DATABASE_URL:
        yield None
        return
    postgres = Postgres(TEST_DATABASE_URL, WORKER)
    try:
        yield postgres
    finally:
        postgres.close()


@pytest.fixture(scope="session")
def _schema_template(
    tmp_path_factory: pytest.TempPathFactory, _postgres: Postgres | None
) -> str | Path:
    """The newest schema, built once by the real migrations: a SQLite file to copy, or
    the name of a PostgreSQL template database."""
    instance = tmp_path_factory.mktemp("template-instance")
    if _postgres is not None:
        _postgres.build_template(instance)
        return _postgres.template
    path = tmp_path_factory.mktemp("template") / "template.sqlite"
    _migrate(f"sqlite:///{path}", instance)
    # The last connection closed has checkpointed the write-ahead log into the file.
    assert not path.with_name(path.name + "-wal").exists()
    return path


@pytest.fixture
def database_url(tmp_path: Path, _postgres: Postgres | None) -> Iterator[str]:
    """An empty database of this test's own: a new SQLite file, or a new PostgreSQL
    database."""
    if _postgres is None:
        yield f"sqlite:///{tmp_path / 'test.sqlite'}"
        return
    name = _postgres.create("template0")
    yield _postgres.url_of(name)
    _postgres.drop(name)


@pytest.fixture
def migrated_database_url(
    tmp_path: Path, _postgres: Postgres | None, _schema_template: str | Path
) -> Iterator[str]:
    """A database at the newest schema with no rows but what the migrations put there,
    for this test alone: a copy of the session's template (on PostgreSQL the worker's kept
    copy, emptied after the test)."""
    if _postgres is None:
        assert isinstance(_schema_template, Path)
        path = tmp_path / "app.sqlite"
        shutil.copyfile(_schema_template, path)
        yield f"sqlite:///{path}"
        return
    assert isinstance(_schema_template, str)
    name = _postgres.kept_copy(_schema_template)
    yield _postgres.url_of(name)
    _postgres.empty()


class _CompiledTemplates(BytecodeCache):
    """The templates as Jinja compiled them, shared by every app this process makes: a new
    app would otherwise parse and compile each template it renders again (about 80 ms for
    a game page). Every app made here is configured alike, and Jinja checks each one
    against its source's checksum before using it."""

    def __init__(self) -> None:
        self.codes: dict[str, bytes] = {}

    def load_bytecode(self, bucket: Bucket) -> None:
        code = self.codes.get(bucket.key)
        if code is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket: Bucket) -> None:
        self.codes[bucket.key] = bucket.bytecode_to_string()


COMPILED_TEMPLATES = _CompiledTemplates()


_compile_builder = Rule._compile_builder
_URL_BUILDERS: dict[tuple[object, ...], Callable[..., tuple[str, str]]] = {}


def _compiled_url_builder(
    rule: Rule, append_unknown: bool = True
) -> Callable[..., tuple[str, str]]:
    """The URL builder werkzeug writes for ``rule``, shared by every app this process makes.
    Each app binds its ~90 routes anew, and werkzeug writes two functions per route as
    Python syntax trees and compiles them: two thirds of the 29 ms of CPU making an app
    costs, paid again for every test (11 ms an app with them shared). A builder's code
    depends only on the route's parsed parts (``_trace``: its text and where its
    variables stand) and the names of its defaults, and it takes the rule it builds for
    as its first argument: one function serves the same route in every app. A route with
    a default for one of its variables (whose converter writes that default into the
    code) is compiled anew, as werkzeug does. Read from werkzeug 3.1's
    ``Rule._compile_builder``; another version is left alone."""
    defaults = rule.defaults or {}
    if any(dynamic and part in defaults for dynamic, part in rule._trace):
        return _compile_builder(rule, append_unknown)
    key = (append_unknown, rule.rule, tuple(rule._trace), tuple(defaults))
    builder = _URL_BUILDERS.get(key)
    if builder is None:
        builder = _URL_BUILDERS[key] = _compile_builder(rule, append_unknown)
    return builder


if version("werkzeug").startswith("3.1."):
    Rule._compile_builder = _compiled_url_builder  # type: ignore[method-assign]


@pytest.fixture
def app(tmp_path: Path, migrated_database_url: str) -> Iterator[Flask]:
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "SQLALCHEMY_DATABASE_URI": migrated_database_url,
        },
        instance_path=tmp_path / "instance",
    )
    app.jinja_env.bytecode_cache = COMPILED_TEMPLATES
    yield app
    with app.app_context():
        db.session.remove()
        # Every connection the app took went back to its pool (none held by a response
        # left unread, a generator or a failed request).
        held = db.engine.pool.checkedout()  # type: ignore[attr-defined]
        db.engine.dispose()
    assert held == 0, f"{held} database connection(s) still checked out after the test"


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def runner(app: Flask) -> FlaskCliRunner:
    return app.test_cli_runner()
