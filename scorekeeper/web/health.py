"""A trivial endpoint for liveness checks and as a baseline in load tests."""

from flask import Response

from scorekeeper.web import bp


@bp.get("/healthz")
def healthz() -> Response:
    """Answer "ok" without touching the database or templates."""
    return Response("ok", mimetype="text/plain")
