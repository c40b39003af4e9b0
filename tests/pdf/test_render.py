"""HTML → PDF without the network: only files in the static folder are ever read."""

from __future__ import annotations

import logging
import socket
from pathlib import Path

import pytest

from scorekeeper import ROOT
from scorekeeper.pdf import LocalFetcher, html_to_pdf
from tests.pdf.support import pdfinfo, pdftext

STATIC = ROOT / "static"


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:9/x.png",
        "https://example.com/font.woff2",
        "ftp://example.com/x.css",
        "data:text/css,p{color:red}",
        "file:///etc/passwd",
        (STATIC / ".." / "instance" / "secret_key").as_uri(),
        "file://example.com" + str(STATIC / "css" / "print.css"),
        (STATIC / "css").as_uri(),  # a folder, not a file
    ],
)
def test_fetcher_refuses_anything_but_static_files(url: str) -> None:
    with pytest.raises(ValueError, match="Refused to fetch"):
        LocalFetcher(STATIC).fetch(url)


def test_fetcher_serves_static_files() -> None:
    response = LocalFetcher(STATIC).fetch((STATIC / "css" / "print.css").as_uri())
    assert response.content_type == "text/css"
    assert b"table.pad" in response.read()
    response.close()


def test_rendering_never_touches_the_network(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    attempts: list[object] = []

    def no_connect(self: socket.socket, address: object) -> None:
        attempts.append(address)
        raise OSError("no network in tests")

    monkeypatch.setattr(socket.socket, "connect", no_connect)
    html = """<!doctype html><html><head>
      <link rel="stylesheet" href="https://example.com/evil.css">
      <link rel="stylesheet" href="../instance/config.py">
      <style>
        @import url("http://example.com/more.css");
        @font-face { font-family: X; src: url("https://example.com/x.woff2"); }
        body { background: url("file:///etc/hostname"); font-family: X, sans-serif; }
      </style></head>
      <body><p>Score pad</p><img src="http://127.0.0.1:9/track.png"></body></html>"""
    with caplog.at_level(logging.WARNING, logger="weasyprint"):
        data = html_to_pdf(html, STATIC)
    assert attempts == []
    assert pdfinfo(data)["Pages"] == "1"
    assert "Score pad" in pdftext(data)
    refused = [r.getMessage() for r in caplog.records if "Refused to fetch" in r.getMessage()]
    assert len(refused) >= 5, [r.getMessage() for r in caplog.records]


def test_relative_urls_resolve_in_the_static_folder(tmp_path: Path) -> None:
    (tmp_path / "css").mkdir()
    (tmp_path / "css" / "x.css").write_text("p { font-size: 30pt }")
    html = '<link rel="stylesheet" href="css/x.css"><p>Big</p>'
    assert "Big" in pdftext(html_to_pdf(html, tmp_path))
