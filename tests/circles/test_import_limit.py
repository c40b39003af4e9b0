"""A history file over the size limit is refused on the import page itself, in words."""

import io
import re

from flask import Flask
from sqlalchemy import func, select

from scorekeeper.extensions import db
from scorekeeper.models import Game
from tests.circles.support import Phone


def test_a_file_over_the_limit_is_refused_on_the_import_page(app: Flask, anna: Phone) -> None:
    app.config["MAX_CONTENT_LENGTH"] = 64 * 1024
    circle = anna.make_circle()
    big = io.BytesIO(b'{"format": "x", "games": [' + b" " * (100 * 1024) + b"]}")
    response = anna.client.post(
        f"/circles/{circle}/import",
        data={"file": (big, "history.json")},
        content_type="multipart/form-data",
    )
    assert response.status_code == 413
    body = response.get_data(as_text=True)
    # The import page again, with the limit in words and its form to try another file.
    assert re.search(r"Nothing was imported\. The file is larger than 64\s+KB", body)
    assert 'enctype="multipart/form-data"' in body
    with app.app_context():
        assert db.session.scalar(select(func.count(Game.id))) == 0
