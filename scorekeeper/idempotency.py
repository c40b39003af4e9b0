"""``Idempotency-Key`` on every write: a retry gets the first answer again.

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

**Whose key it is.** A key is the client's, not the server's: the same key from another
client is another request, never a replay of someone else's answer (which may hold a
scorer token). :func:`client_scope` says who the client is, by a secret only it holds:

- a page's write: the browser's signed session, by the CSRF secret Flask-WTF keeps there.
  It is random, made when the browser is first shown a form (so before its first write,
  and a retry whose answer and new cookie were lost still carries it), and every page
  write must present it anyway;
- an API write that checks a credential (``authorize``): the ``Authorization`` header it
  checked (a game's scorer token; a circle's token);
- an API write without one (setting up a game): nothing but the request itself. Two
  strangers sending the same bytes can't be told apart, by anyone: a remote address is
  shared behind every NAT and changes on every hop between Wi-Fi and mobile data (just
  when retries happen), and re-issuing a secret on a replay would hand a fresh one to
  whoever sent the key. So here the key *is* the client's secret, as a bearer token is:
  it must be long enough not to be guessed or claimed in advance (``ANONYMOUS_MIN``
  characters; a UUID is fine) and is treated like one below.

**Nothing kept in plain text.** The table holds only keyed hashes (HMAC with the app's
``SECRET_KEY``) of the client's secret (in ``scope``) and of the key, and the answer
sealed (:mod:`scorekeeper.sealing`) under a key derived from ``SECRET_KEY``, the client's
secret and the key. The
database alone reveals nothing, nor does it with ``SECRET_KEY``: only the client's own
retry brings back what opens its answer. A replay is the first answer itself, so a
retried setup makes the retrying phone the scorer of the one game with the same token.
(Storing the answer without its secret and issuing a new one on a replay would write on
every replay and leave stale whatever the first answer did show: after a double tap, the
seat links already on the host page.) A new ``SECRET_KEY`` orphans the kept answers: a
retry then writes afresh, and the rows go after a day.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps
from typing import Any

from flask import Response, current_app, flash, g, request, session
from flask.typing import ResponseReturnValue
from werkzeug.exceptions import BadRequest

from scorekeeper import transaction, writers
from scorekeeper.i18n import _, _l
from scorekeeper.sealing import joined, secret_key
from scorekeeper.security import csrf_token
from scorekeeper.services import idempotency
from scorekeeper.services.errors import Conflict, Rejected

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
# A key that is its client's only secret: 16 characters of a UUID or token already make
# it unguessable, while counters and names ("1", "new-game") are refused.
ANONYMOUS_MIN = 16
# The client's part of a stored scope: 22 base64 characters, 132 bits of a keyed hash.
_TAG_CHARS = 22
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
        except (ValueError, RecursionError):  # not JSON, or nested too deep to read
            parts.append(data.hex())
    text = json.dumps(parts, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    # Bytes for any text the client sent, a lone surrogate too (the view refuses it).
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _digest(stream: Any) -> str:
    """The SHA-256 of an uploaded file, read from the start and rewound for the view."""
    stream.seek(0)
    digest = hashlib.sha256()
    while chunk := stream.read(1 << 16):
        digest.update(chunk)
    stream.seek(0)
    return digest.hexdigest()


@dataclass(frozen=True, slots=True)
class Client:
    """Who sent a write, for its kept answers: ``secret`` is something only this client
    holds (never stored; see :func:`client_scope`)."""

    secret: bytes

    @property
    def tag(self) -> str:
        """The client as stored: a keyed hash of its secret."""
        return _mac(b"client", self.secret)[:_TAG_CHARS]

    def slot(self, name: str, key: str) -> Slot:
        """Where this client's answer under ``key`` is kept, within ``name`` (e.g. the
        blueprint and the game)."""
        room = idempotency.KEY_MAX - _TAG_CHARS - 1
        secret = joined(self.secret, key)
        return Slot(f"{name[:room]}/{self.tag}", _mac(b"key", key.encode()), secret)


@dataclass(frozen=True, slots=True)
class Slot:
    """A kept answer's place: the stored scope and key, and the secret (never stored) that
    its seal's key is derived from."""

    scope: str
    key: str
    secret: bytes


def client_scope(page: bool, checked: bool, key: str) -> Client:
    """The client that sent this write (see the module's docstring for why each).

    ``page``: a page's write (a browser with a session); else the API's. ``checked``: the
    view checked the request's ``Authorization`` before anything else.

    :raises BadRequest: for an API write without a checked credential whose key is too
        short to be its secret.
    """
    if page:
        csrf_token()  # made with the first form shown; here for a session without one
        name = current_app.config.get("WTF_CSRF_FIELD_NAME", "csrf_token")
        return Client(b"session\0" + str(session[name]).encode())
    credential = request.headers.get("Authorization", "")
    if checked and credential.strip():
        return Client(b"authorization\0" + credential.encode())
    # No credential, or one nobody checked (anyone may send "Bearer null"): the key alone.
    if len(key) < ANONYMOUS_MIN:
        raise _too_short()
    return Client(b"key\0" + key.encode())


def _too_short() -> BadRequest:
    return BadRequest(
        _(
            "On this request the %(header)s alone shows that a retry is yours: send a "
            "random key of at least %(least)s characters, e.g. a UUID.",
            header=HEADER,
            least=ANONYMOUS_MIN,
        )
    )


def _mac(purpose: bytes, value: bytes) -> str:
    digest = hmac.digest(secret_key(), joined(b"idempotency " + purpose, value), "sha256")
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def _scope(kwargs: dict[str, Any], scope: str | None) -> str:
    name = scope or kwargs.get("public_id") or kwargs.get("game_id") or "new-game"
    return f"{request.blueprint}:{name}"


def remember(**values: str) -> None:
    """Keep ``values`` with this request's answer for the view's ``replayed`` hook (e.g. the
    game and scorer token a new game's answer put in the session); never sent."""
    kept: dict[str, str] = g.setdefault("idempotency_remembered", {})
    kept.update(values)


def _replay(kept: idempotency.Answer) -> tuple[Response, dict[str, str]]:
    """The kept answer, and the values kept with it (see :func:`remember`)."""
    response = Response(kept.body, status=kept.status)
    private: dict[str, str] = {}
    for name, value in kept.headers.items():
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


def _raising_conflicts(rejected: transaction.Rejects | None) -> transaction.Rejects | None:
    """``rejected`` for a write's first try without the write turn: a :class:`Conflict`
    goes on to be tried again in turn (the change that came in between may be one the
    write would simply have followed), any other refusal is answered as usual."""
    if rejected is None:
        return None

    def answer(exc: Rejected, **view_args: Any) -> ResponseReturnValue:
        if isinstance(exc, Conflict):
            raise exc
        return rejected(exc, **view_args)

    return answer


def idempotent(
    refuse: Refuse,
    authorize: Callable[..., object] | None = None,
    form: bool = True,
    scope: str | None = None,
    replayed: Callable[..., object] | None = None,
    rejected: transaction.Rejects | None = None,
    checked: bool = False,
    long_keys: bool = False,
) -> Callable[[Callable[..., Any]], Any]:
    """Make a write view idempotent under its ``Idempotency-Key``.

    Keys are unique per client (:func:`client_scope`) within a scope, per blueprint:
    ``scope`` when given (e.g. "players"), else the game of the URL, else "new-game".
    ``authorize(**view_args)`` raises (403 …) for a client that may not make the write: a
    kept answer goes only to whoever may make it, and an API client is then known by the
    credential it checked. ``refuse(message, **view_args)`` answers a key reused for
    another request (422). ``form``: a page's write (the browser is known by its session);
    also read the key from the form field of a page without JavaScript (such a page's
    flashed messages are kept and flashed again on a replay). Without it, the API's.
    ``replayed(remembered, **view_args)`` runs on a replay with what the view passed to
    :func:`remember`, to put back in the session what the first answer put there.

    The write, with or without a key, is one transaction that the decorator commits or
    rolls back (:func:`scorekeeper.transaction.run`); ``rejected(exc, **view_args)``
    answers a service's :class:`Rejected` after the rollback.
    ``checked``: the view checks every change against the version of what it read (a
    game's writes), so it may read without the write turn (SQLite,
    :func:`writers.turn_at_first_write`); a :class:`Conflict` (someone else's change
    came in between, or really a stale version) on that first try is not answered (not
    even by ``rejected``): the write is done once more holding the turn throughout, and
    that try answers, as the writes one after the other would.
    ``long_keys``: every key has at least ``ANONYMOUS_MIN`` characters, with a credential
    or without (one rule for a write that may be made either way, as its document says).
    """

    def decorator(view: Callable[..., ResponseReturnValue]) -> Callable[..., ResponseReturnValue]:
        @wraps(view)
        def wrapper(**kwargs: Any) -> ResponseReturnValue:
            if checked:
                with writers.turn_at_first_write() as unlocked:
                    try:
                        return answer(
                            kwargs, _raising_conflicts(rejected) if unlocked else rejected
                        )
                    except Conflict:
                        if not unlocked:
                            raise
                        # Maybe a change made while this one read (rolled back by
                        # transaction.run): once again, in turn.
            with writers.turn():
                return answer(kwargs, rejected)

        def answer(
            kwargs: dict[str, Any], rejected: transaction.Rejects | None
        ) -> ResponseReturnValue:
            key = request_key(form)
            if key is None:
                return transaction.run(view, kwargs, rejected)
            if long_keys and len(key) < ANONYMOUS_MIN:
                raise _too_short()
            if authorize is not None:
                authorize(**kwargs)
            client = client_scope(page=form, checked=authorize is not None, key=key)
            slot, print_ = client.slot(_scope(kwargs, scope), key), fingerprint()

            def answer_kept() -> ResponseReturnValue | None:
                row = idempotency.find(slot.scope, slot.key)
                if row is None:
                    return None
                kept = idempotency.answer(row, slot.secret)
                if row.fingerprint != print_ or kept is None:
                    return refuse(str(REUSED), **kwargs)
                response, private = _replay(kept)
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

            def keep(response: Response) -> None:
                private = dict(g.pop("idempotency_remembered", {}))
                if form and (flashes := _flashed_since(flashed)):
                    private[_FLASHES] = json.dumps(flashes)
                headers = _kept_headers(response)
                headers.update({PRIVATE + name: value for name, value in private.items()})
                idempotency.keep(
                    slot.scope,
                    slot.key,
                    print_,
                    response.status_code,
                    headers,
                    response.get_data(),
                    slot.secret,
                )

            # The same request sent twice at once: the first one's answer is kept.
            return transaction.run(view, kwargs, rejected, twin=answer_kept, keep=keep)

        return wrapper

    return decorator
