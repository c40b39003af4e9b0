"""``Idempotency-Key`` on every write: a retried request gets the first answer again.

A phone that lost the answer to a tap (Wi-Fi gone at the table) sends the same request
again with the same key. The first time, the write and its answer are committed together
(see :mod:`scorekeeper.services.idempotency`); a retry finds the answer and gets it back
without writing again. The same key on another request is refused (422). A refused
request (4xx) keeps no key: its retry is looked at afresh.

The pages' forms carry the key as the hidden field ``idempotency_key`` (made when the
form is rendered) or, with htmx, as the header (made per tap by ``app.js``).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable
from functools import wraps
from typing import Any

from flask import Response, current_app, request
from flask.typing import ResponseReturnValue
from sqlalchemy.exc import IntegrityError
from werkzeug.exceptions import BadRequest

from scorekeeper.extensions import db
from scorekeeper.models import IdempotencyKey
from scorekeeper.services import idempotency
from scorekeeper.services.errors import Conflict

HEADER = "Idempotency-Key"
FORM_FIELD = "idempotency_key"
REUSED = "This idempotency key was used for another request: send a new key with each new entry."
REPLAYED = "Idempotent-Replayed"
# What a replay needs besides status and body; the session cookie and security headers
# are added again by the app on the way out.
KEPT = {"content-type", "location", "etag", "vary", "cache-control"}
# Form fields that authenticate or label a request rather than say what it does.
NOT_CONTENT = {"csrf_token", FORM_FIELD}
_VALID = re.compile(rf"[\x21-\x7e]{{1,{idempotency.KEY_MAX}}}")

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
            f"{HEADER} must be 1 to {idempotency.KEY_MAX} visible ASCII characters, e.g. a UUID."
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
    else:
        data = request.get_data()
        try:
            parts.append(json.loads(data))
        except ValueError:
            parts.append(data.hex())
    text = json.dumps(parts, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def _scope(kwargs: dict[str, Any]) -> str:
    game = kwargs.get("public_id") or kwargs.get("game_id")
    return f"{request.blueprint}:{game or 'new-game'}"[: idempotency.KEY_MAX]


def _replay(row: IdempotencyKey) -> Response:
    response = Response(row.body, status=row.status)
    for name, value in row.headers.items():
        response.headers[name] = value
    response.headers[REPLAYED] = "true"
    return response


def _kept_headers(response: Response) -> dict[str, str]:
    return {
        name: value
        for name, value in response.headers.items()
        if name.lower() in KEPT or name.lower().startswith("hx-")
    }


def idempotent(
    refuse: Refuse, authorize: Callable[..., object] | None = None, form: bool = True
) -> Callable[[Callable[..., Any]], Any]:
    """Make a write view idempotent under its ``Idempotency-Key`` (scope: its game).

    ``authorize(**view_args)`` raises (403 …) for a client that may not make the write:
    a kept answer goes only to whoever may make it. ``refuse(message, **view_args)``
    answers a key reused for another request (422). ``form``: also read the key from the
    form field of a page without JavaScript.
    """

    def decorator(view: Callable[..., ResponseReturnValue]) -> Callable[..., ResponseReturnValue]:
        @wraps(view)
        def wrapper(**kwargs: Any) -> ResponseReturnValue:
            key = request_key(form)
            if key is None:
                return view(**kwargs)
            if authorize is not None:
                authorize(**kwargs)
            scope, print_ = _scope(kwargs), fingerprint()

            def answer_kept() -> ResponseReturnValue | None:
                row = idempotency.find(scope, key)
                if row is None:
                    return None
                if row.fingerprint != print_:
                    return refuse(REUSED, **kwargs)
                return _replay(row)

            kept = answer_kept()
            if kept is not None:
                return kept
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
            idempotency.keep(
                scope,
                key,
                print_,
                response.status_code,
                _kept_headers(response),
                response.get_data(),
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
