"""The JSON API v1: the same services as the pages, JSON in and out, at ``/api/v1``.

Clients change a game with its scorer token and reach a circle's games, players and
records with its circle token (both ``Authorization: Bearer …``), so the blueprint is
exempt from the pages' CSRF protection. ``GET /api/v1/openapi.json``
describes every endpoint; ``openapi.py`` holds that document.
"""

from flask import Blueprint

from scorekeeper.extensions import csrf

bp = Blueprint("api", __name__, url_prefix="/api/v1")
csrf.exempt(bp)

# The modules attach their routes and error handlers to `bp` on import.
from scorekeeper.api import circles, errors, games, openapi  # noqa: E402, F401
