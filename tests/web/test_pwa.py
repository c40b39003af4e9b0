"""The installable app as the server sends it: manifest, icons, service worker, and
static files that are cached for good once fetched by their versioned address."""

from __future__ import annotations

import io
import json
import re
import shutil
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import pytest
from flask import Flask
from flask.testing import FlaskClient
from PIL import Image
from werkzeug.test import TestResponse

YEAR = "public, max-age=31536000, immutable"


def get(client: FlaskClient, url: str) -> TestResponse:
    """GET, read and close (a static file's response holds the file open until then)."""
    response = client.get(url)
    response.get_data()
    response.close()
    return response


def linked(client: FlaskClient, rel: str, path: str = "/") -> list[str]:
    """The href of every <link rel=...> on a page."""
    body = get(client, path).get_data(as_text=True)
    return re.findall(rf'<link rel="{rel}" href="([^"]+)"', body)


def test_every_page_links_manifest_icons_and_theme_colours(client: FlaskClient) -> None:
    # A circle (this browser holds its link, having made it), for its pages.
    made = client.post("/circles", data={"name": "Friends"})
    assert made.status_code == 303
    circle = urlsplit(made.headers["Location"]).path
    pages = ("/", "/games/new", "/circles/new", circle, f"{circle}/games", "/pads")
    for path in (*pages, "/no/such/page"):
        body = get(client, path).get_data(as_text=True)
        assert len(linked(client, "manifest", path)) == 1, path
        assert 'rel="apple-touch-icon"' in body
        # The bar takes each look's card colour: paper by day, baize by night.
        assert 'name="theme-color" content="#fffdf6" media="(prefers-color-scheme: light)"' in body
        assert 'name="theme-color" content="#15412f" media="(prefers-color-scheme: dark)"' in body
        assert '<meta name="service-worker" content="/sw.js">' in body
    # A look chosen in the footer: its colour alone.
    client.get("/theme/dark")
    body = get(client, "/").get_data(as_text=True)
    assert '<meta name="theme-color" content="#15412f">' in body
    assert "prefers-color-scheme" not in body


def test_manifest_is_valid_and_its_icons_exist(client: FlaskClient) -> None:
    [href] = linked(client, "manifest")
    response = get(client, href)
    assert response.status_code == 200
    assert response.mimetype == "application/manifest+json"
    manifest = json.loads(response.get_data(as_text=True))
    base = "http://localhost" + href
    assert manifest["name"] and manifest["short_name"] == "Scorekeeper"
    assert urlsplit(urljoin(base, manifest["start_url"])).path == "/"
    assert urlsplit(urljoin(base, manifest["scope"])).path == "/"
    assert manifest["display"] == "standalone"
    assert re.fullmatch(r"#[0-9a-f]{6}", manifest["theme_color"])
    assert re.fullmatch(r"#[0-9a-f]{6}", manifest["background_color"])
    kinds = set()
    for icon in manifest["icons"]:
        got = get(client, urlsplit(urljoin(base, icon["src"])).path)
        assert got.status_code == 200, icon
        assert got.mimetype == icon["type"]
        if icon["type"] == "image/png":
            size = Image.open(io.BytesIO(got.data)).size
            assert f"{size[0]}x{size[1]}" == icon["sizes"]
        kinds.add((icon["purpose"], icon["sizes"]))
    for purpose in ("any", "maskable"):
        assert {(purpose, "192x192"), (purpose, "512x512")} <= kinds
    assert ("any", "any") in kinds  # the SVG


def test_favicon_and_touch_icon(client: FlaskClient) -> None:
    response = get(client, "/favicon.ico")
    assert response.status_code == 200
    assert response.mimetype in ("image/vnd.microsoft.icon", "image/x-icon")
    [touch] = linked(client, "apple-touch-icon")
    assert Image.open(io.BytesIO(get(client, touch).data)).size == (180, 180)


def test_service_worker_is_served_from_the_root_uncached(client: FlaskClient) -> None:
    response = get(client, "/sw.js")
    assert response.status_code == 200
    assert response.mimetype == "text/javascript"
    assert response.headers["Cache-Control"] == "no-cache"
    assert response.headers["Service-Worker-Allowed"] == "/"
    body = response.get_data(as_text=True)
    precache = json.loads(re.search(r"var PRECACHE = (.*);", body).group(1))
    # Exactly what the pages load, by the same versioned addresses.
    page = get(client, "/").get_data(as_text=True)
    for url in re.findall(r'(?:href|src)="(/static/[^"]+)"', page):
        assert url.replace("&amp;", "&") in precache, url
    assert all("?v=" in url for url in precache)
    assert not any("print.css" in url or "sw.js" in url for url in precache)
    assert not any("picture.css" in url for url in precache)  # WeasyPrint's alone
    assert any("/static/js/share.js?v=" in url for url in precache)  # the picture's share


def test_static_files_by_their_current_version_are_cached_for_a_year(
    client: FlaskClient,
) -> None:
    [css] = re.findall(r'href="(/static/css/app\.css\?v=\w+)"', get(client, "/").get_data(True))
    assert get(client, css).headers["Cache-Control"] == YEAR
    # Without the version, or with an old one: ask the server again every time.
    assert get(client, "/static/css/app.css").headers["Cache-Control"] == "no-cache"
    assert get(client, "/static/css/app.css?v=0ld").headers["Cache-Control"] == "no-cache"


@pytest.fixture
def own_static(app: Flask, tmp_path: Path) -> Path:
    """The app serving a copy of static/ that a test may change."""
    copy = tmp_path / "static"
    shutil.copytree(str(app.static_folder), copy)
    app.static_folder = str(copy)
    return copy


def test_a_changed_file_gets_a_new_address_and_a_new_worker(
    client: FlaskClient, own_static: Path
) -> None:
    def versions() -> tuple[str, str]:
        page = get(client, "/").get_data(as_text=True)
        css = re.search(r'href="(/static/css/app\.css\?v=\w+)"', page).group(1)
        worker = get(client, "/sw.js").get_data(as_text=True)
        return css, re.search(r'var VERSION = "(\w+)"', worker).group(1)

    css, worker = versions()
    with (own_static / "css" / "app.css").open("a") as f:
        f.write("\n/* changed */\n")
    new_css, new_worker = versions()
    assert new_css != css and new_worker != worker
    assert get(client, new_css).headers["Cache-Control"] == YEAR
    assert get(client, css).headers["Cache-Control"] == "no-cache"  # the old address


@pytest.mark.parametrize("name", ["js/app.js", "css/app.css", "js/digital.js", "css/history.css"])
def test_our_scripts_and_styles_go_out_minified(client: FlaskClient, app: Flask, name: str) -> None:
    source = (Path(app.static_folder or "static") / name).read_text()
    assert "/*" in source or "//" in source  # the file as written has comments
    url = (
        next(u for u in linked(client, "stylesheet") if name in u)
        if name == "css/app.css"
        else f"/static/{name}"
    )
    served = get(client, url)
    body = served.get_data(as_text=True)
    assert served.status_code == 200
    assert len(body) < len(source) * 0.9
    assert "/*" not in body and "\n  " not in body
    # Every name the file defines is still there (nothing renamed, nothing dropped).
    words = set(
        re.findall(r"[A-Za-z_][\w-]{3,}", re.sub(r"/\*.*?\*/|//[^\n]*", "", source, flags=re.S))
    )
    assert words <= set(re.findall(r"[A-Za-z_][\w-]{3,}", body))
    again = client.get(url, headers={"If-None-Match": served.headers["ETag"]})
    assert again.status_code == 304
    again.close()


def test_every_page_runs_htmx_and_then_app_js_from_one_file(
    client: FlaskClient, own_static: Path
) -> None:
    # One request for both: a first load spares a request's headers and cookie.
    def bundle() -> tuple[str, bytes]:
        [url] = _scripts(client)
        assert re.fullmatch(r"/static/js/page\.js\?v=\w+", url), url
        served = get(client, url)
        assert served.status_code == 200 and served.mimetype == "text/javascript"
        assert served.headers["Cache-Control"] == YEAR
        return url, served.data

    url, body = bundle()
    htmx = get(client, "/static/js/htmx-2.0.11.min.js").data
    app_js = get(client, "/static/js/app.js").data  # minified
    assert body == htmx + b"\n" + app_js
    # Either part changed, the bundle gets a new address.
    with (own_static / "js" / "app.js").open("a") as f:
        f.write("\n// changed\n;\n")
    new_url, new_body = bundle()
    assert new_url != url and new_body.startswith(htmx) and new_body != body
    assert get(client, url).headers["Cache-Control"] == "no-cache"  # the old address


def test_the_typeface_comes_with_no_header_a_page_part_does_not_need(client: FlaskClient) -> None:
    # Its own request of a first load, with the name to save it under, its date and its
    # ranges, cost some 150 bytes more: tagged by its version, as the scripts are.
    css = get(client, linked(client, "stylesheet")[0]).get_data(as_text=True)
    [url] = re.findall(r'url\("?\.\./(fonts/[^")]+)', css)
    font = get(client, f"/static/{url}")
    assert font.status_code == 200 and font.mimetype == "font/woff2"
    assert font.headers["Cache-Control"] == YEAR
    version = url.split("?v=")[1]
    assert font.headers["ETag"] == f'"{version}"'
    for name in ("Last-Modified", "Content-Disposition", "Accept-Ranges"):
        assert name not in font.headers, name
    asked_again = client.get(f"/static/{url}", headers={"If-None-Match": f'"{version}"'})
    assert asked_again.status_code == 304
    asked_again.close()
    part = client.get(f"/static/{url}", headers={"Range": "bytes=0-3"})
    assert part.status_code == 206 and part.data == font.data[:4]  # wOF2
    part.close()
    assert get(client, "/static/fonts/ledger/none.woff2").status_code == 404


def test_third_party_minified_files_go_out_as_they_are(client: FlaskClient, app: Flask) -> None:
    name = "js/htmx-2.0.11.min.js"
    served = get(client, f"/static/{name}")
    assert served.data == (Path(app.static_folder or "static") / name).read_bytes()


def _scripts(client: FlaskClient) -> list[str]:
    return re.findall(r'<script src="([^"]+)"', get(client, "/").get_data(as_text=True))


@pytest.mark.parametrize(
    "path",
    [
        "/static/../scorekeeper/__init__.py",
        "/static/../pyproject.toml",
        "/static/js/../../tests/conftest.py",
        "/static/..%2f..%2fetc/passwd",
        "/static/%2e%2e/%2e%2e/tmp/outside.js",
        "/static/../../../../../../tmp/outside.js",
    ],
)
def test_nothing_outside_static_is_served(client: FlaskClient, path: str) -> None:
    outside = Path("/tmp/outside.js")
    outside.write_text("var secret = 1; // not for the web\n")
    try:
        response = get(client, path)
        assert response.status_code == 404, path
        assert b"secret" not in response.data
    finally:
        outside.unlink()


def test_the_tab_icon_comes_with_the_page(client: FlaskClient, app: Flask) -> None:
    from urllib.parse import unquote

    body = get(client, "/").get_data(as_text=True)
    found = re.search(
        r'<link rel="icon" href="data:image/svg\+xml,([^"]+)" type="image/svg\+xml">', body
    )
    assert found
    svg = unquote(html_unescape(found.group(1)))
    source = (Path(app.static_folder or "static") / "icons/icon.svg").read_text()
    assert svg == " ".join(source.split()).replace('"', "'")
    assert "#" not in html_unescape(found.group(1))  # a "#" would end the URI


def html_unescape(text: str) -> str:
    import html

    return html.unescape(text)
