"""Logs never carry a secret: scorer, seat, table and circle links are masked in
gunicorn's access and error logs, and in what the app logs itself.

``bin/serve`` turns gunicorn's access log on, and a seat's phone polls its own link every
second: before, the log held every seat link and every scorer link that was opened.
"""

from __future__ import annotations

import datetime
import logging
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import requests
from flask import Flask, request
from gunicorn.config import Config  # type: ignore[import-untyped]

from scorekeeper import create_app
from scorekeeper.accesslog import MASK, Logger, mask
from scorekeeper.engine import RuleSet
from scorekeeper.extensions import db
from scorekeeper.services import digital as digital_service
from scorekeeper.services import games as game_service
from tests.robustness.servers import Server, migrate

CIRCLE_KEY = "circleKEY-abcdefghijklmnop"
# The access log as bin/serve writes it, plus request headers that hold secrets.
LOG_FORMAT = (
    '%(h)s %(t)s "%(r)s" %(s)s %(b)s "%(f)s" "%(a)s" %(U)s %(q)s '
    "auth=%({authorization}i)s pass=%({x-passphrase}i)s raw=%({raw_uri}e)s"
)


@pytest.mark.parametrize(
    ("line", "masked"),
    [
        ("GET /games/g1/score/SECRET1 HTTP/1.1", f"GET /games/g1/score/{MASK} HTTP/1.1"),
        ("/digital/t1/s/SECRET2/live", f"/digital/t1/s/{MASK}/live"),
        ("/digital/t1/t/SECRET3/act?x=1", f"/digital/t1/t/{MASK}/act?x=1"),
        ("/c/circle1/SECRET4", f"/c/circle1/{MASK}"),
        ("next=%2Fgames%2Fg1%2Fscore%2FSECRET5%2Fx", f"next=%2Fgames%2Fg1%2Fscore%2F{MASK}%2Fx"),
        # Written otherwise, and still taken by the app: logged decoded, masked.
        ("GET /games/g1/scor%65/SECRET6 HTTP/1.1", f"GET /games/g1/score/{MASK} HTTP/1.1"),
        ("/%67ames/g1/score/SECRET7", f"/games/g1/score/{MASK}"),
        ("/%63/circle1/SECRET8", f"/c/circle1/{MASK}"),
        ("/digital/t1/%73/SECRET9", f"/digital/t1/s/{MASK}"),
        ("/games/g1//score/SECRET10", f"/games/g1/score/{MASK}"),
        ("/c/circle1//SECRET11", f"/c/circle1/{MASK}"),
        ("/digital/t1/s//SECRET12/live", f"/digital/t1/s/{MASK}/live"),
        ("next=%252Fgames%252Fg1%252Fscore%252FSECRET13", f"next=/games/g1/score/{MASK}"),
        # Decoded, but no line of its own: control characters stay encoded.
        (
            'GET /games/g1/scor%65/X%0A10.0.0.1 - - "GET /admin" 200 HTTP/1.1',
            f'GET /games/g1/score/{MASK} - - "GET /admin" 200 HTTP/1.1',
        ),
        ("/games/g1/scor%65/X%0D%1B[2J", f"/games/g1/score/{MASK}"),
        ("/games/g1/qr.svg", "/games/g1/qr.svg"),
        ("/games/g1/score-qr.svg", "/games/g1/score-qr.svg"),
    ],
)
def test_mask_hides_the_secret_part_only(line: str, masked: str) -> None:
    assert mask(line) == masked


@dataclass
class Secrets:
    game: str
    scorer: str
    table_id: str
    table: str
    seats: list[str]

    def all(self) -> list[str]:
        return [self.scorer, self.table, *self.seats, CIRCLE_KEY]


@pytest.fixture
def served(tmp_path: Path, database_url: str) -> Iterator[tuple[Server, Secrets, Path]]:
    instance = tmp_path / "served"
    instance.mkdir()
    migrate(database_url, instance)
    app = create_app(
        {"SECRET_KEY": "shared-secret-for-tests", "SQLALCHEMY_DATABASE_URI": database_url},
        instance_path=instance,
    )
    with app.app_context():
        game, scorer = game_service.create_game(["Ann", "Ben", "Cat"], 0, RuleSet())
        made = digital_service.create_table(
            ["Ann", "Ben", "Cat"], ["person", "person", "bot"], 0, RuleSet(), seed=3
        )
        secrets = Secrets(
            game.public_id,
            scorer,
            made.game.public_id,
            made.table_token,
            [t for t in made.seat_tokens if t],
        )
        db.session.commit()
        db.session.remove()
        db.engine.dispose()
    access_log = tmp_path / "access.log"
    running = Server(
        database_url,
        instance,
        workers=1,
        env={
            "ACCESS_LOG": str(access_log),
            "GUNICORN_CMD_ARGS": f"--access-logformat '{LOG_FORMAT}'",
        },
    )
    try:
        yield running.start(), secrets, access_log
    finally:
        running.stop()


def test_the_access_log_masks_every_link_secret(
    served: tuple[Server, Secrets, Path],
) -> None:
    server, secrets, access_log = served
    base = server.base
    session = requests.Session()
    hx = {"HX-Request": "true"}
    visits = [
        (f"/games/{secrets.game}/score/{secrets.scorer}", {}),
        (f"/digital/{secrets.table_id}/t/{secrets.table}", {}),
        (f"/digital/{secrets.table_id}/t/{secrets.table}/live", hx),
        (f"/c/some-circle/{CIRCLE_KEY}", {}),
        (f"/passphrase?next=/games/{secrets.game}/score/{secrets.scorer}", {}),
    ]
    for seat in secrets.seats:
        visits += [
            (f"/digital/{secrets.table_id}/s/{seat}", {}),
            (f"/digital/{secrets.table_id}/s/{seat}/live", hx),
            (f"/digital/{secrets.table_id}/s/{seat}/live", hx),
        ]
    for path, headers in visits:
        answer = session.get(base + path, headers=headers, allow_redirects=False, timeout=10)
        assert answer.status_code < 500, path
    api = requests.get(
        f"{base}/api/v1/games/{secrets.game}",
        headers={"Authorization": f"Bearer {secrets.scorer}", "X-Passphrase": CIRCLE_KEY},
        timeout=10,
    )
    assert api.status_code < 500
    server.stop()  # gunicorn has written and closed its logs when it is gone
    logged = access_log.read_text() + server.log()
    assert logged.count(" HTTP/1.1") >= len(visits) + 1
    for secret in secrets.all():
        assert secret not in logged
    assert f"/games/{secrets.game}/score/{MASK}" in logged
    assert f"/digital/{secrets.table_id}/s/{MASK}/live" in logged
    assert f"/c/some-circle/{MASK}" in logged


def test_the_apps_own_log_masks_a_failed_requests_path(
    app: Flask, caplog: pytest.LogCaptureFixture
) -> None:
    token = "scorerTOKEN-abcdefghijkl"

    def fail(public_id: str, token: str) -> str:
        raise RuntimeError(f"failed at {request.path}")

    app.add_url_rule("/games/<public_id>/score/<token>/fail", view_func=fail)
    app.testing = False
    app.config["PROPAGATE_EXCEPTIONS"] = False
    with caplog.at_level(logging.ERROR, logger="scorekeeper"):
        answer = app.test_client().get(f"/games/g1/score/{token}/fail")
    assert answer.status_code == 500
    assert caplog.records, "Flask logs the failed request"
    text = caplog.text + "".join(r.exc_text or "" for r in caplog.records)
    assert token not in text
    assert f"/games/g1/score/{MASK}/fail" in text


def test_an_access_line_holds_only_what_its_format_writes_and_no_secret_header() -> None:
    """The log record's arguments go to every handler a deployment configures (a JSON
    formatter may write them all): only the atoms the format writes are in them, masked,
    and a header that is a secret itself is masked in each of gunicorn's spellings."""
    line_format = (
        '%(h)s "%(r)s" %(s)s %({Authorization}i)s %({http_authorization}e)s '
        "%({set-cookie}o)s %({http_cookie}e)s %({referer}i)s"
    )
    cfg = Config()
    cfg.set("access_log_format", line_format)
    logger = Logger(cfg)
    scorer_link = "/games/g1/score/TOKENtokenTOKEN12"
    response = type(
        "Response",
        (),
        {"status": "200 OK", "headers": [("Set-Cookie", "session=SESSIONsecret")], "sent": 10},
    )()
    request_ = type(
        "Request",
        (),
        {
            "headers": [
                ("Authorization", "Bearer TOKENtokenTOKEN12"),
                ("Referer", "http://x" + scorer_link),
                ("Cookie", "session=SESSIONsecret"),
            ]
        },
    )()
    environ = {
        "REQUEST_METHOD": "GET",
        "RAW_URI": scorer_link,
        "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": "10.0.0.1",
        "HTTP_AUTHORIZATION": "Bearer TOKENtokenTOKEN12",
        "HTTP_COOKIE": "session=SESSIONsecret",
        "HTTP_REFERER": "http://x" + scorer_link,
        "PATH_INFO": scorer_link,
    }
    atoms = logger.atoms(response, request_, environ, datetime.timedelta(milliseconds=3))
    assert set(atoms) == {
        "h",
        "r",
        "s",
        "{authorization}i",
        "{http_authorization}e",
        "{set-cookie}o",
        "{http_cookie}e",
        "{referer}i",
    }
    text = " ".join(str(value) for value in atoms.values())
    assert "TOKENtokenTOKEN12" not in text and "SESSIONsecret" not in text
    assert atoms["{http_authorization}e"] == MASK and atoms["{set-cookie}o"] == MASK
    assert atoms["r"] == f"GET /games/g1/score/{MASK} HTTP/1.1"
