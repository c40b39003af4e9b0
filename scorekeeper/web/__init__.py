"""The web pages: thin views that parse the request, call a service and render."""

from flask import Blueprint

from scorekeeper.security import csrf_token

bp = Blueprint("web", __name__)
# Every form's CSRF token, for all pages (it replaces Flask-WTF's own template global).
bp.add_app_template_global(csrf_token, "csrf_token")

# The view modules attach their routes to `bp` on import.
from scorekeeper.web import (  # noqa: E402, F401
    again,
    circles,
    errors,
    filters,
    fragments,
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
