"""The typeface of names and figures (static/fonts/ledger/, made by bin/make-font): named by
app.css at its current version, so it is cached for a year and precached for an evening
offline; every letter of the seven languages in it, figures all of one width, within 10 KB;
its own name, and its licence beside it."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

from babel.messages.pofile import read_po
from flask import Flask
from flask.testing import FlaskClient
from fontTools.ttLib import TTFont

from scorekeeper.web.pwa import YEAR, file_version

ROOT = Path(__file__).resolve().parents[2]
FONT = ROOT / "static" / "fonts" / "ledger" / "ledger-bold.woff2"
CATALOGS = sorted((ROOT / "scorekeeper" / "translations").glob("*/LC_MESSAGES/messages.po"))
# Letters of en de fr es it nl pl that names hold, whether a catalog uses them or not.
NAME_LETTERS = (
    "ÄÖÜäöüß"  # de
    "ÀÂÆÇÈÉÊËÎÏÔŒÙÛŸàâæçèéêëîïôœùûÿ"  # fr
    "ÁÍÑÓÚáíñóú"  # es
    "ÌÒìò"  # it
    "ĄĆĘŁŃŚŹŻąćęłńśźż"  # pl
)


def test_app_css_names_the_typeface_by_its_current_version(app: Flask) -> None:
    css = (ROOT / "static" / "css" / "app.css").read_text(encoding="utf-8")
    named = re.findall(r'url\("\.\./(fonts/[^"?]+)\?v=(\w+)"\) format\("woff2"\)', css)
    with app.test_request_context():
        assert named == [("fonts/ledger/ledger-bold.woff2", file_version(named[0][0]))]
    assert "font-display: swap;" in css


def test_the_typeface_is_kept_for_a_year_and_precached(client: FlaskClient, app: Flask) -> None:
    with app.test_request_context():
        version = file_version("fonts/ledger/ledger-bold.woff2")
    address = f"/static/fonts/ledger/ledger-bold.woff2?v={version}"
    response = client.get(address)
    assert response.status_code == 200
    assert response.mimetype == "font/woff2"
    assert response.headers["Cache-Control"] == f"public, max-age={YEAR}, immutable"
    assert response.data == FONT.read_bytes()
    response.close()
    worker = client.get("/sw.js").get_data(as_text=True)
    assert f'"{address}"' in worker
    assert "OFL.txt" not in worker  # the licence stays on the server
    licence = client.get("/static/fonts/ledger/OFL.txt")
    assert licence.status_code == 200
    licence.close()


def test_every_letter_of_the_seven_languages_and_figures_of_one_width() -> None:
    font = TTFont(FONT)
    cmap = font.getBestCmap()
    letters = set(NAME_LETTERS) | set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
    for path in CATALOGS:
        with path.open("rb") as f:
            for message in read_po(f):
                strings = message.string if isinstance(message.string, tuple) else (message.string,)
                letters |= {c for text in strings for c in text if c.isalpha()}
    missing = sorted(c for c in letters if ord(c) not in cmap)
    assert not missing, [f"{c} {unicodedata.name(c)}" for c in missing]
    for c in "0123456789+−-–.,:·%()’'\u00a0\u00ad\u202f":
        assert ord(c) in cmap, unicodedata.name(c)
    widths = {font["hmtx"][cmap[ord(d)]][0] for d in "0123456789"}
    assert len(widths) == 1  # tabular: totals line up
    assert len(FONT.read_bytes()) <= 10 * 1024


def test_the_typeface_goes_by_its_own_name_with_its_licence_beside_it() -> None:
    """Charis SIL's Reserved Font Names stay off the subset (OFL 1.1, section 3)."""
    names = TTFont(FONT)["name"]
    for name_id in (1, 3, 4, 6, 16, 17):
        name = names.getDebugName(name_id) or ""
        assert "Charis" not in name and "SIL" not in name, (name_id, name)
    assert names.getDebugName(1) == "Scorekeeper Ledger"
    licence = (FONT.parent / "OFL.txt").read_text(encoding="utf-8")
    assert "SIL OPEN FONT LICENSE Version 1.1" in licence
    assert 'Reserved Font Names "Charis" and "SIL"' in licence
