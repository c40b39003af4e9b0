"""Text answers are gzipped when the client accepts it, and only then."""

import gzip

from flask.testing import FlaskClient

GZ = {"Accept-Encoding": "gzip, deflate, br"}


def test_page_css_js_and_json_are_gzipped(client: FlaskClient) -> None:
    game = client.post("/api/v1/games", json={"players": ["Ann", "Ben", "Cat"]}).get_json()
    for path in (
        "/",
        f"/games/{game['id']}",
        "/static/css/app.css",
        "/static/js/htmx-2.0.11.min.js",
        "/api/v1/openapi.json",
    ):
        plain = client.get(path)
        packed = client.get(path, headers=GZ)
        assert packed.status_code == 200, path
        assert packed.headers["Content-Encoding"] == "gzip", path
        assert "Accept-Encoding" in packed.headers["Vary"], path
        assert int(packed.headers["Content-Length"]) == len(packed.data) < len(plain.data)
        if path.startswith("/static"):
            assert gzip.decompress(packed.data) == plain.data
            assert packed.headers["ETag"].startswith('W/"'), path
        plain.close()
        packed.close()


def test_no_gzip_unless_asked_or_refused(client: FlaskClient) -> None:
    assert "Content-Encoding" not in client.get("/").headers
    refused = client.get("/", headers={"Accept-Encoding": "gzip;q=0, identity"})
    assert "Content-Encoding" not in refused.headers


def test_small_and_non_text_answers_stay_as_they_are(client: FlaskClient) -> None:
    small = client.get("/healthz", headers=GZ)
    assert "Content-Encoding" not in small.headers
