"""Text answers are compressed (Brotli first, else gzip) when the client takes it, and
only then; what comes back decompresses to exactly the plain answer."""

import gzip

import brotli
import pytest
from flask.testing import FlaskClient

BR = {"Accept-Encoding": "gzip, deflate, br, zstd"}  # what Chromium sends over HTTPS
GZ = {"Accept-Encoding": "gzip, deflate"}  # what it sends over plain HTTP
DECODE = {"br": brotli.decompress, "gzip": gzip.decompress}


@pytest.mark.parametrize(("headers", "coding"), [(BR, "br"), (GZ, "gzip")])
def test_pages_css_js_and_json_are_compressed(
    client: FlaskClient, headers: dict[str, str], coding: str
) -> None:
    game = client.post("/api/v1/games", json={"players": ["Ann", "Ben", "Cat"]}).get_json()
    for path in (
        "/",
        f"/games/{game['id']}",
        "/static/css/app.css",
        "/static/js/htmx-2.0.11.min.js",
        "/api/v1/openapi.json",
    ):
        plain = client.get(path)
        packed = client.get(path, headers=headers)
        assert packed.status_code == 200, path
        assert packed.headers["Content-Encoding"] == coding, path
        assert "Accept-Encoding" in packed.headers["Vary"], path
        assert int(packed.headers["Content-Length"]) == len(packed.data) < len(plain.data)
        if path.startswith("/static") or path.startswith("/games"):
            assert DECODE[coding](packed.data) == plain.data, path
        if path.startswith("/static"):
            assert packed.headers["ETag"].startswith('W/"'), path
        plain.close()
        packed.close()


def test_brotli_is_smaller_than_gzip_for_the_big_script(client: FlaskClient) -> None:
    path = "/static/js/htmx-2.0.11.min.js"
    br, gz = client.get(path, headers=BR), client.get(path, headers=GZ)
    assert len(br.data) < len(gz.data) * 0.95
    br.close()
    gz.close()


def test_nothing_compressed_unless_asked_or_refused(client: FlaskClient) -> None:
    assert "Content-Encoding" not in client.get("/").headers
    refused = client.get("/", headers={"Accept-Encoding": "gzip;q=0, br;q=0, identity"})
    assert "Content-Encoding" not in refused.headers
    only_gzip = client.get("/", headers={"Accept-Encoding": "br;q=0, gzip"})
    assert only_gzip.headers["Content-Encoding"] == "gzip"
    anything = client.get("/", headers={"Accept-Encoding": "*"})
    assert anything.headers["Content-Encoding"] == "br"
    not_br = client.get("/", headers={"Accept-Encoding": "br;q=0, *"})
    assert not_br.headers["Content-Encoding"] == "gzip"
    nothing_else = client.get("/", headers={"Accept-Encoding": "identity, *;q=0"})
    assert "Content-Encoding" not in nothing_else.headers


def test_small_and_non_text_answers_stay_as_they_are(client: FlaskClient) -> None:
    small = client.get("/healthz", headers=BR)
    assert "Content-Encoding" not in small.headers


def test_kept_static_files_are_smaller_than_zlibs_best_gzip(client: FlaskClient) -> None:
    # Phones reaching the table's laptop over plain HTTP get gzip only: the kept static
    # files are Zopfli-packed, still plain gzip, and smaller than zlib's level 9.
    for path in ("/static/js/htmx-2.0.11.min.js", "/static/css/app.css", "/static/js/app.js"):
        plain, packed = client.get(path), client.get(path, headers=GZ)
        assert gzip.decompress(packed.data) == plain.data, path
        assert len(packed.data) < len(gzip.compress(plain.data, compresslevel=9, mtime=0)), path
        plain.close()
        packed.close()


def test_a_huge_page_is_not_compressed_at_the_slow_best_levels() -> None:
    # Zopfli took 5 s of a worker on a 2 MB game page an attacker had bloated.
    from scorekeeper.compression import BEST_MAX, compress

    small = b"<p>Ann 20</p>" * 1000
    huge = bytes(range(32, 127)) * (BEST_MAX // 95 + 1)
    assert len(compress(small, "gzip", best=True)) < len(compress(small, "gzip"))
    assert compress(huge, "gzip", best=True) == compress(huge, "gzip")
    assert compress(huge, "br", best=True) == compress(huge, "br")
    assert gzip.decompress(compress(huge, "gzip", best=True)) == huge
    assert brotli.decompress(compress(huge, "br", best=True)) == huge
