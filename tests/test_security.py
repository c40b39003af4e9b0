"""Security headers and cookie flags every response carries (issue: ready for real use)."""

import re
from pathlib import Path

from flask import Flask, session
from flask.testing import FlaskClient

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


def test_session_cookie_is_secure_over_https(app: Flask, client: FlaskClient) -> None:
    cookie = _session_cookie(app, client, base_url="https://localhost")
    assert "Secure" in cookie
    assert "HttpOnly" in cookie
