"""``Idempotency-Key`` on every write: a retried request gets the first answer again.

A phone that lost the answer to a tap (Wi-Fi gone at the table) sends the same request
again with the same key. The first time, the write and its answer are committed together
(see :mod:`scorekeeper.services.idempotency`); a retry finds the answer and gets it back
without writing again. The same key on another request is refused (422). A refused
request (4xx) keeps no key: its retry is looked at afresh.

The pages' forms carry the key as the hidden field ``idempotency_key`` (made when the
form is rendered) or, with htmx, as the header (made per tap by ``app.js``).

What the first answer left in the browser's session rather than in its body (a flashed
message, the scorer's rights to a game just set up) is kept with the answer too, but never
sent: a replay flashes the message again and, through the view's ``replayed`` hook, grants
again what was granted — the retry is usually there because the first answer, cookie and
all, never arrived.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable
from functools import wraps
from typing import Any

from flask import Response, current_app, flash, g, request, session
from flask.typing import ResponseReturnValue
from sqlalchemy.exc import IntegrityError
from werkzeug.exceptions import BadRequest

from scorekeeper import writers
from scorekeeper.extensions import db
from scorekeeper.i18n import _, _l
from scorekeeper.models import IdempotencyKey
from scorekeeper.services import idempotency
from scorekeeper.services.errors import Conflict

HEADER = "Idempotency-Key"
FORM_FIELD = "idempotency_key"
REUSED = _l(
    "This idempotency key was used for another request: send a new key with each new entry."
)
REPLAYED = "Idempotent-Replayed"
# What a replay needs besides status and body; the session cookie and security headers
# are added again by the app on the way out.
KEPT = {"content-type", "location", "etag", "vary", "cache-control"}
# Form fields that authenticate or label a request rather than say what it does.
NOT_CONTENT = {"csrf_token", FORM_FIELD}
_VALID = re.compile(rf"[\x21-\x7e]{{1,{idempotency.KEY_MAX}}}")
# Kept values that are not headers start with a character no header name has.
PRIVATE = "@"
_FLASHES = "flashes"

Refuse = Callable[..., ResponseReturnValue]


def request_key(form: bool) -> str | None:
    """The request's key (header, else with ``form`` the hidden field), or ``None``.

    :raises BadRequest: for a key that is empty, too long or not visible ASCII.
    """
    key = request.headers.get(HEADER)
    if key is None and form and request.mimetype in _FORMS:
        key = request.form.get(FORM_FIELD) or None
    if key is not None and not _VALID.fullmatch(key):
        raise BadRequest(
            _(
                "%(header)s must be 1 to %(most)s visible ASCII characters, e.g. a UUID.",
                header=HEADER,
                most=idempotency.KEY_MAX,
            )
        )
    return key


_FORMS = ("application/x-www-form-urlencoded", "multipart/form-data")


def fingerprint() -> str:
    """What the request asks for: method, path, the headers that change its meaning and
    its body (a form's fields in order, without the CSRF token; JSON canonically)."""
    parts: list[Any] = [
        request.method,
        request.full_path,
        request.headers.get("HX-Request") == "true",
        request.headers.get("If-Match"),
    ]
    if request.mimetype in _FORMS:
        parts.append(
            sorted((k, v) for k, v in request.form.items(multi=True) if k not in NOT_CONTENT)
        )
        # An upload is part of what is asked: the same key with another file is refused.
        parts.append(
            sorted((k, f.filename, _digest(f.stream)) for k, f in request.files.items(multi=True))
        )
    else:
        data = request.get_data()
        try:
            parts.append(json.loads(data))
        except ValueError:
            parts.append(data.hex())
    text = json.dumps(parts, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def _digest(stream: Any) -> str:
    """The SHA-256 of an uploaded file, read from the start and rewound for the view."""
    stream.seek(0)
    digest = hashlib.sha256()
    while chunk := stream.read(1 << 16):
        digest.update(chunk)
    stream.seek(0)
    return digest.hexdigest()


def _scope(kwargs: dict[str, Any], scope: str | None) -> str:
    name = scope or kwargs.get("public_id") or kwargs.get("game_id") or "new-game"
    return f"{request.blueprint}:{name}"[: idempotency.KEY_MAX]


def remember(**values: str) -> None:
    """Keep ``values`` with this request's answer for the view's ``replayed`` hook (e.g. the
    game and scorer token a new game's answer put in the session); never sent."""
    kept: dict[str, str] = g.setdefault("idempotency_remembered", {})
    kept.update(values)


def _replay(row: IdempotencyKey) -> tuple[Response, dict[str, str]]:
    """The kept answer, and the values kept with it (see :func:`remember`)."""
    response = Response(row.body, status=row.status)
    private: dict[str, str] = {}
    for name, value in row.headers.items():
        if name.startswith(PRIVATE):
            private[name.removeprefix(PRIVATE)] = value
        else:
            response.headers[name] = value
    response.headers[REPLAYED] = "true"
    return response, private


def _flashed_since(count: int) -> list[list[str]]:
    """The messages flashed by the view (after the first ``count``), as [category, text]."""
    return [[str(c), str(m)] for c, m in session.get("_flashes", [])[count:]]


def _kept_headers(response: Response) -> dict[str, str]:
    return {
        name: value
        for name, value in response.headers.items()
        if name.lower() in KEPT or name.lower().startswith("hx-")
    }


def idempotent(
    refuse: Refuse,
    authorize: Callable[..., object] | None = None,
    form: bool = True,
    scope: str | None = None,
    replayed: Callable[..., object] | None = None,
) -> Callable[[Callable[..., Any]], Any]:
    """Make a write view idempotent under its ``Idempotency-Key``.

    Keys are unique within a scope, per blueprint: ``scope`` when given (e.g. "players"),
    else the game of the URL, else "new-game". ``authorize(**view_args)`` raises (403 …) for a
    client that may not make the write: a kept answer goes only to whoever may make it.
    ``refuse(message, **view_args)`` answers a key reused for another request (422).
    ``form``: also read the key from the form field of a page without JavaScript (such a
    page's flashed messages are kept and flashed again on a replay).
    ``replayed(remembered, **view_args)`` runs on a replay with what the view passed to
    :func:`remember`, to put back in the session what the first answer put there.
    """

    def decorator(view: Callable[..., ResponseReturnValue]) -> Callable[..., ResponseReturnValue]:
        @wraps(view)
        def wrapper(**kwargs: Any) -> ResponseReturnValue:
            with writers.turn():
                return run(**kwargs)

        def run(**kwargs: Any) -> ResponseReturnValue:
            key = request_key(form)
            if key is None:
                return view(**kwargs)
            if authorize is not None:
                authorize(**kwargs)
            scope_, print_ = _scope(kwargs, scope), fingerprint()

            def answer_kept() -> ResponseReturnValue | None:
                row = idempotency.find(scope_, key)
                if row is None:
                    return None
                if row.fingerprint != print_:
                    return refuse(str(REUSED), **kwargs)
                response, private = _replay(row)
                for category, message in json.loads(private.pop(_FLASHES, "[]")):
                    flash(message, category)
                if replayed is not None:
                    replayed(private, **kwargs)
                return response

            kept = answer_kept()
            if kept is not None:
                return kept
            flashed = len(session.get("_flashes", [])) if form else 0
            g.pop("idempotency_remembered", None)
            try:
                with idempotency.deferred_commit():
                    response = current_app.make_response(view(**kwargs))
            except Conflict:
                # The same request, sent twice at once: the first one's answer is kept.
                db.session.rollback()
                kept = answer_kept()
                if kept is not None:
                    return kept
                raise
            except BaseException:
                db.session.rollback()
                raise
            if response.status_code >= 400:
                db.session.rollback()
                if response.status_code == 409:
                    kept = answer_kept()
                    if kept is not None:
                        return kept
                return response
            private = dict(g.pop("idempotency_remembered", {}))
            if form and (flashes := _flashed_since(flashed)):
                private[_FLASHES] = json.dumps(flashes)
            headers = _kept_headers(response)
            headers.update({PRIVATE + name: value for name, value in private.items()})
            idempotency.keep(
                scope_, key, print_, response.status_code, headers, response.get_data()
            )
            try:
                db.session.commit()
            except IntegrityError:
                db.session.rollback()
                kept = answer_kept()
                if kept is not None:
                    return kept
                raise
            return response

        return wrapper

    return decorator
