"""The web pages: thin views that parse the request, call a service and render."""

from flask import Blueprint

from scorekeeper.security import csrf_token

bp = Blueprint("web", __name__)
# Every form's CSRF token, for all pages: it replaces Flask-WTF's own template global, and
# its context processor, which would otherwise put Flask-WTF's function into every page
# (a session a page starts then kept a 40-character secret, not the 22 of ours).
bp.add_app_template_global(csrf_token, "csrf_token")


@bp.app_context_processor
def _csrf_token() -> dict[str, object]:
    return {"csrf_token": csrf_token}


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
