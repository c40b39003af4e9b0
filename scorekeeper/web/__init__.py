"""The web pages: thin views that parse the request, call a service and render."""

from flask import Blueprint

bp = Blueprint("web", __name__)

# The view modules attach their routes to `bp` on import.
from scorekeeper.web import (  # noqa: E402, F401
    again,
    circles,
    errors,
    filters,
    games,
    health,
    history,
    home,
    language,
    pads,
    picture,
    pwa,
    setup,
    story,
)
