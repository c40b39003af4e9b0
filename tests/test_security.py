"""Security headers and cookie flags every response carries (issue: ready for real use)."""

import re
from pathlib import Path

import pytest
from flask import Flask, session
from flask.testing import FlaskClient

from scorekeeper import create_app
from scorekeeper.security import HEADERS

TEMPLATES = Path(__file__).resolve().parent.parent / "templates"


def test_every_page_sends_the_security_headers(client: FlaskClient) -> None:
    for path in ("/", "/healthz", "/no-such-page"):
        response = client.get(path)
        for name, value in HEADERS.items():
            assert response.headers[name] == value, (path, name)
    csp = client.get("/").headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp
    assert "'unsafe-inline'" not in csp.split("script-src")[1].split(";")[0]
    assert "frame-ancestors 'none'" in csp


def test_page_only_headers_go_with_pages_svg_and_the_worker_only(client: FlaskClient) -> None:
    """Scripts, style sheets, PNGs and htmx fragments live under their page's policy;
    what a browser may show or run on its own (pages, SVG, the service worker) gets the
    whole set."""
    game = client.post("/api/v1/games", json={"players": ["Ann", "Ben", "Cat"]}).get_json()
    whole = [
        ("/", {}),
        (f"/games/{game['id']}", {}),
        (f"/games/{game['id']}", {"HX-Request": "true", "HX-History-Restore-Request": "true"}),
        ("/sw.js", {}),
        ("/static/icons/icon.svg", {}),
        ("/no-such-page", {}),
    ]
    lighter = [
        ("/static/css/app.css", {}),
        ("/static/js/app.js", {}),
        ("/static/icons/icon-192.png", {}),
        (f"/games/{game['id']}/live?v=0", {"HX-Request": "true"}),
    ]
    for path, headers in whole + lighter:
        response = client.get(path, headers=headers)
        assert response.status_code in (200, 404), path
        assert response.headers["X-Content-Type-Options"] == "nosniff", path
        assert response.headers["Referrer-Policy"] == "no-referrer", path
        for name in ("Content-Security-Policy", "X-Frame-Options"):
            assert (name in response.headers) == ((path, headers) in whole), (path, name)
        response.close()


def test_no_template_has_an_inline_script() -> None:
    templates = list(TEMPLATES.rglob("*.html"))
    assert templates
    for path in templates:
        text = path.read_text()
        for tag in re.findall(r"<script\b[^>]*>", text):
            assert "src=" in tag, f"inline script in {path.name}: {tag}"
        assert not re.search(r"\son[a-z]+\s*=", text), f"inline event handler in {path.name}"


def _session_cookie(app: Flask, client: FlaskClient, **kwargs: object) -> str:
    @app.get("/_set-session")
    def set_session() -> str:
        session["x"] = 1
        return "ok"

    response = client.get("/_set-session", **kwargs)  # type: ignore[arg-type]
    return response.headers["Set-Cookie"]


def test_session_cookie_is_httponly_and_lax_over_http(app: Flask, client: FlaskClient) -> None:
    cookie = _session_cookie(app, client)
    assert "HttpOnly" in cookie
    assert "SameSite=Lax" in cookie
    assert "Secure" not in cookie


@pytest.mark.parametrize("path", ["/", "/games/new", "/circles/new"])
def test_a_page_that_starts_the_session_keeps_the_short_csrf_secret(
    app: Flask, client: FlaskClient, path: str
) -> None:
    # The forms' secret is 22 characters whoever makes it first (a page's template or a
    # scorer link): the session cookie every request of this browser carries is shorter.
    response = client.get(path)
    assert response.status_code == 200 and "Set-Cookie" in response.headers
    with client.session_transaction() as kept:
        secret = kept["csrf_token"]
    assert re.fullmatch(r"[\w-]{22}", secret), secret
    body = response.get_data(as_text=True)
    [token] = set(re.findall(r'"X-CSRFToken": "([^"]+)"', body))
    with app.test_request_context():
        from flask_wtf.csrf import validate_csrf

        session["csrf_token"] = secret
        validate_csrf(token)  # the page's token stands for that secret


def test_session_cookie_is_secure_over_https(app: Flask, client: FlaskClient) -> None:
    cookie = _session_cookie(app, client, base_url="https://localhost")
    assert "Secure" in cookie
    assert "HttpOnly" in cookie


def _hsts_app(tmp_path: Path, database_url: str, **config: object) -> Flask:
    return create_app(
        {"TESTING": True, "SECRET_KEY": "test", "SQLALCHEMY_DATABASE_URI": database_url, **config},
        instance_path=tmp_path / "hsts",
    )


def test_no_hsts_unless_asked_for(client: FlaskClient) -> None:
    # Off by default: a server on a home network over plain HTTP, or one whose proxy
    # sends the header itself (README: the nginx example).
    for base in ("http://localhost", "https://localhost"):
        assert "Strict-Transport-Security" not in client.get("/", base_url=base).headers


@pytest.mark.parametrize("setting", [31536000, "31536000"])
def test_hsts_when_asked_for_and_over_https_only(
    tmp_path: Path, database_url: str, setting: object
) -> None:
    client = _hsts_app(tmp_path, database_url, HSTS_MAX_AGE=setting).test_client()
    for path in ("/", "/healthz", "/static/css/app.css", "/no-such-page"):
        secure = client.get(path, base_url="https://localhost")
        assert secure.headers["Strict-Transport-Security"] == "max-age=31536000", path
    # Over plain HTTP a browser ignores it (RFC 6797): it is not sent.
    assert "Strict-Transport-Security" not in client.get("/").headers


def test_hsts_from_the_environment(
    tmp_path: Path, database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HSTS_MAX_AGE", "600")
    client = _hsts_app(tmp_path, database_url).test_client()
    answer = client.get("/healthz", base_url="https://localhost")
    assert answer.headers["Strict-Transport-Security"] == "max-age=600"


@pytest.mark.parametrize("bad", ["a year", "-1", "1.5", True])
def test_an_hsts_setting_that_is_no_number_of_seconds_is_refused_at_start(
    tmp_path: Path, database_url: str, bad: object
) -> None:
    with pytest.raises(ValueError, match="HSTS_MAX_AGE"):
        _hsts_app(tmp_path, database_url, HSTS_MAX_AGE=bad)
