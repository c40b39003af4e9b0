"""Digital play tests: CSRF checks off (one test turns them back on)."""

import pytest
from flask import Flask


@pytest.fixture
def app(app: Flask) -> Flask:
    app.config["WTF_CSRF_ENABLED"] = False
    return app
