"""Who may change a game, and small helpers the page views share (htmx, QR codes)."""

from __future__ import annotations

import base64
import hmac
import io
import time
from functools import lru_cache

import segno
from flask import abort, g, make_response, redirect, request, session, url_for
from markupsafe import Markup
from werkzeug.wrappers import Response as BaseResponse

from scorekeeper.extensions import db
from scorekeeper.idempotency import remember
from scorekeeper.models import Circle, Game
from scorekeeper.sealing import secret_key
from scorekeeper.security import csrf_token
from scorekeeper.services import circles as circle_service
from scorekeeper.services import games as game_service

# The session (a signed cookie) lists the games this browser keeps score of, newest
# last, as [public_id, credential]. The credential is the scorer token for the newest
# games (the "share scoring" link needs it) and a short tag of it for the older ones, so
# the cookie stays under 4 KB. Either is checked against the game's scorer token as
# stored now: once a member of the circle takes the scoring over (a new token), the
# browsers that kept score before are followers again. Entries from before tags have no
# credential: the signed cookie shows they were granted, so they count while nobody has
# taken the game's scoring over.
SCORING = "scoring"
MAX_SCORED = 80  # the cookie, with a few circles, stays some 700 bytes under 4 KB
MAX_TOKENS = 10
TAG = "#"  # a tag's first character; a token never has it
# 36 bits of a keyed hash. The cookie is signed, so a tag can't be made up or moved to
# another game; it only has to tell the token as it stands from the ones before it.
_TAG_CHARS = 6


def _scoring() -> list[list[str]]:
    value = session.get(SCORING)
    if not isinstance(value, list):
        return []
    return [e for e in value if isinstance(e, list) and len(e) == 2 and _strings(e)]


def _strings(entry: list[object]) -> bool:
    return all(isinstance(part, str) for part in entry)


def credential_tag(token_hash: str) -> str:
    """The short stand-in for a scorer token kept for the older games: a keyed hash of the
    token's stored hash, so the cookie (signed, not encrypted) shows neither."""
    mac = hmac.digest(secret_key(), b"scorer\0" + token_hash.encode(), "sha256")
    return TAG + base64.urlsafe_b64encode(mac).decode()[:_TAG_CHARS]


def grant_scorer(public_id: str, token: str) -> None:
    """Let this browser keep score of the game from now on (while ``token`` is its scorer
    token)."""
    entries = [e for e in _scoring() if e[0] != public_id]
    entries.append([public_id, token])
    entries = entries[-MAX_SCORED:]
    for entry in entries[:-MAX_TOKENS]:
        if entry[1] and not entry[1].startswith(TAG):
            entry[1] = credential_tag(game_service.token_hash(entry[1]))
    session[SCORING] = entries
    # The forms' token too: the page this answer leads to then finds the session complete
    # and sends no cookie of its own (one Set-Cookie, not two, on opening a scorer link).
    csrf_token()


def open_as_scorer(public_id: str, token: str, welcome: bool = True) -> BaseResponse:
    """The answer to a new game started here (the setup form, play again): this browser
    keeps its score, the token is kept with the answer (a retry whose first answer got lost
    makes the retrying browser the scorer again), and the game opens with its welcome (the
    follow card) or, without, ready for the first bid."""
    grant_scorer(public_id, token)
    remember(game=public_id, token=token)
    target = url_for("web.game", public_id=public_id, welcome=1 if welcome else None)
    if is_htmx():
        response = make_response("", 204)
        response.headers["HX-Redirect"] = target
        return response
    return redirect(target, 303)


WELCOMED = "welcomed"  # session: circle id → when this phone last showed its follow card
EVENING = 12 * 3600  # seconds: a games night, give or take


def first_of_the_evening(circle_id: str | None) -> bool:
    """Whether a new game in this circle is this phone's first of the evening, so that its
    follow card (the QR code for the other phones) is offered; the later games of the
    evening open ready for the first bid. A game in no circle always is: its welcome
    says its scorer link is the only key."""
    if circle_id is None:
        return True
    now = int(time.time())
    kept = session.get(WELCOMED)
    seen = {
        k: v
        for k, v in (kept.items() if isinstance(kept, dict) else [])
        if isinstance(v, int) and 0 <= now - v < EVENING
    }
    first = circle_id not in seen
    if first:
        seen[circle_id] = now
    session[WELCOMED] = dict(list(seen.items())[-5:])
    return first


def grant_again(remembered: dict[str, str], **_: object) -> None:
    """A replayed start of a game: the retry is there because the first answer, session
    cookie and all, got lost, so the retrying browser becomes the scorer again."""
    if "game" in remembered:
        grant_scorer(remembered["game"], remembered.get("token", ""))


def is_scorer(public_id: str, token_hash: str | None = None) -> bool:
    """Whether this browser keeps score of the game: it holds the game's scorer token as
    stored now (``token_hash``, else read), or the tag of it (or an entry from before
    tags, and nobody took the scoring over)."""
    entry = next((e for e in _scoring() if e[0] == public_id), None)
    if entry is None:
        return False
    if token_hash is None or not entry[1]:
        state = game_service.scoring_states([public_id]).get(public_id)
        return state is not None and _fits(entry[1], *state)
    return _fits(entry[1], token_hash, False)


def _fits(credential: str, token_hash: str, taken_over: bool) -> bool:
    """Whether a browser's ``credential`` for a game is good with its scorer token as
    stored now (``token_hash``), and whether its scoring was ever taken over."""
    if not credential:
        return not taken_over
    if credential.startswith(TAG):
        return hmac.compare_digest(credential, credential_tag(token_hash))
    return hmac.compare_digest(game_service.token_hash(credential), token_hash)


def scores(game: Game) -> bool:
    """Whether this browser keeps score of ``game`` (loaded)."""
    return is_scorer(game.public_id, game.scorer_token_hash)


def scorer_token(public_id: str) -> str | None:
    """The scorer token this browser holds for a game it keeps score of, when it still
    has it (the newest games); ask :func:`is_scorer` first."""
    return next(
        (e[1] for e in _scoring() if e[0] == public_id and e[1] and not e[1].startswith(TAG)),
        None,
    )


def scored_ids() -> set[str]:
    """The games this browser keeps score of (checked as :func:`is_scorer` does, in one
    query for them all)."""
    entries = _scoring()
    states = game_service.scoring_states([e[0] for e in entries])
    return {
        public_id
        for public_id, credential in entries
        if public_id in states and _fits(credential, *states[public_id])
    }


def load_game(public_id: str) -> Game:
    """The game, or the friendly 404 page; loaded once per request (a write's check of
    the scorer and the write itself share it)."""
    loaded: dict[str, Game] = g.setdefault("games", {})
    game = loaded.get(public_id)
    if game is None:
        game = loaded[public_id] = game_service.get_game(public_id)
    return game


def require_scorer(game: Game) -> None:
    """Refuse (403) a change from a browser that only views the game."""
    if not scores(game):
        abort(403)


def is_htmx() -> bool:
    """An htmx request wants a fragment, unless it restores history (then: the page)."""
    return (
        request.headers.get("HX-Request") == "true"
        and request.headers.get("HX-History-Restore-Request") != "true"
    )


@lru_cache(maxsize=256)
def qr_image(url: str) -> bytes:
    """The QR code of ``url`` as an SVG file (for an ``<img>``), dark on light."""
    code = segno.make(url, error="m")
    out = io.BytesIO()
    code.save(out, kind="svg", scale=1, border=2, dark="#000", light="#fff", xmldecl=False)
    return out.getvalue()


@lru_cache(maxsize=256)
def qr_svg(url: str) -> Markup:
    """The QR code of ``url`` as inline SVG, dark on light whatever the page's colours."""
    code = segno.make(url, error="m")
    svg = code.svg_inline(
        scale=1, border=2, dark="#000", light="#fff", svgclass="qr", omitsize=True
    )
    return Markup(svg.replace("<svg ", '<svg aria-hidden="true" focusable="false" ', 1))


# -- circles --------------------------------------------------------------------------------

# The circles this browser opened the link of, newest last, as [public_id, key, proof]:
# the key is the link's secret part (so a new link locks the browser out), the proof
# says it gave the circle's passphrase ("" when the circle has none).
CIRCLES = "circles"
MAX_CIRCLES = 20


def _circle_entries() -> list[list[str]]:
    value = session.get(CIRCLES)
    if not isinstance(value, list):
        return []
    return [
        e
        for e in value
        if isinstance(e, list) and len(e) == 3 and all(isinstance(x, str) for x in e)
    ]


def join_circle(circle: Circle, key: str, proof: str = "") -> None:
    """Remember that this browser holds the circle's link (and passphrase)."""
    entries = [e for e in _circle_entries() if e[0] != circle.public_id]
    entries.append([circle.public_id, key, proof])
    session[CIRCLES] = entries[-MAX_CIRCLES:]


def holds_circle(public_id: str) -> bool:
    """Whether this browser's session names the circle at all (no database query)."""
    return any(e[0] == public_id for e in _circle_entries())


def forget_circle(public_id: str) -> None:
    session[CIRCLES] = [e for e in _circle_entries() if e[0] != public_id]


def _admitted(circle: Circle, entry: list[str]) -> bool:
    if not circle_service.key_matches(circle, entry[1]):
        return False
    if circle.passphrase_hash is None:
        return True
    return hmac.compare_digest(entry[2], circle_service.passphrase_proof(circle))


def member_circles_held() -> bool:
    """Whether this browser holds any circle link at all (no database query)."""
    return bool(_circle_entries())


def member_circles() -> list[Circle]:
    """The circles this browser may open, the newest joined first."""
    entries = _circle_entries()
    found = circle_service.circles_by_ids([e[0] for e in entries])
    circles = []
    for entry in reversed(entries):
        circle = found.get(entry[0])
        if circle is not None and _admitted(circle, entry):
            circles.append(circle)
    return circles


def is_member(circle: Circle | None) -> bool:
    if circle is None:
        return False
    entry = next((e for e in _circle_entries() if e[0] == circle.public_id), None)
    return entry is not None and _admitted(circle, entry)


def is_member_of(circle_id: int | None) -> bool:
    """Whether this browser may open the circle with this (database) id."""
    if circle_id is None or not _circle_entries():
        return False
    return is_member(db.session.get(Circle, circle_id))


def load_circle(public_id: str) -> Circle:
    """The circle, for a browser that holds its link; the same 404 as for a circle that
    does not exist otherwise (nothing says whether it does)."""
    if not holds_circle(public_id):
        abort(404)
    circle = circle_service.get_circle(public_id)
    if not is_member(circle):
        abort(404)
    return circle
