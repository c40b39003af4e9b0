"""One owner per transaction: the decorator around a write view commits it or rolls it back.

Services change objects and raise typed errors (:class:`Rejected`, :class:`Conflict`,
:class:`NotFound`); they end a write with a flush (so the database checks versions and
unique rounds there, and a stale version is their :class:`Conflict`) and never commit.
The commits are all here:

- :func:`run` is what :func:`write` and :func:`scorekeeper.idempotency.idempotent` put
  around a view: it commits once the view has answered (with the answer kept for its
  idempotency key), and rolls back on any exception and on any answer of 400 or more, so
  nothing is half-saved;
- :func:`atomic` is the same for work outside a request (a CLI command, a script): the
  block is one transaction, committed when it ends and rolled back when it raises.

Only ``ratelimit.record_failure`` commits on its own: a wrong guess must be counted
although its answer is a refusal (it runs in no write view).

A service's refusal is answered by the renderer the view declares,
``rejected(exc, **view_args)``, after the rollback: the page it renders loads the game as
stored. A view without one leaves the refusal to its blueprint's error handlers (the API
answers in JSON: ``api/errors.py``). So a view holds no ``try/except`` around a service
call, and never rolls back.

Why a renderer per view, where the API has one handler per blueprint: a page's refusal is
that page again (the game with the reason, the correction form as it was sent, a seat's
widget, a notice titled after what was not done), so only the view knows what to show;
a handler per blueprint would have to look the view up by its endpoint.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import wraps
from typing import Any

from flask import Response, current_app
from flask.typing import ResponseReturnValue
from sqlalchemy.exc import IntegrityError

from scorekeeper import writers
from scorekeeper.extensions import db
from scorekeeper.services.errors import Conflict, Rejected

View = Callable[..., ResponseReturnValue]
Rejects = Callable[..., ResponseReturnValue]
# The code of a Conflict that another writer's change at the same moment caused (a stale
# version): running the view again on the state now stored may succeed.
RACED = "conflict"


def run(
    view: View,
    view_args: dict[str, Any],
    rejected: Rejects | None = None,
    attempts: int = 1,
    twin: Callable[[], ResponseReturnValue | None] | None = None,
    keep: Callable[[Response], None] | None = None,
) -> ResponseReturnValue:
    """Run ``view`` as one transaction and answer as it does.

    ``rejected(exc, **view_args)`` answers a :class:`Rejected` the view raised, after the
    rollback (without it the error goes on to the error handlers). ``attempts``: how often
    the view runs when another writer changed the same rows at the same moment (a
    :class:`Conflict` coded ``"conflict"``), each time on what is stored now. ``twin()``
    is the answer a concurrent twin of this request already has (the same idempotency
    key), looked for after a conflict, or ``None``. ``keep(response)`` adds to the
    transaction what is committed with the answer.
    """
    for attempt in range(1, attempts + 1):
        try:
            response = current_app.make_response(view(**view_args))
            break
        except Rejected as exc:
            db.session.rollback()
            if isinstance(exc, Conflict):
                if exc.code == RACED and attempt < attempts:
                    continue
                if twin is not None and (answer := twin()) is not None:
                    return answer
            if rejected is None:
                raise
            # Answered as if the view had: a refusal (4xx) keeps nothing; a refusal that
            # leads on (a redirect) is kept with its idempotency key, as any answer is.
            response = current_app.make_response(rejected(exc, **view_args))
            if exc.retry_after is not None:
                response.headers["Retry-After"] = str(exc.retry_after)
            break
        except BaseException:
            db.session.rollback()
            raise
    if response.status_code >= 400:
        db.session.rollback()
        if response.status_code == 409 and twin is not None and (answer := twin()) is not None:
            return answer
        return response
    if keep is not None:
        keep(response)
    try:
        db.session.commit()
    except IntegrityError:
        db.session.rollback()
        if twin is not None and (answer := twin()) is not None:
            return answer
        raise
    return response


def write(rejected: Rejects | None = None, attempts: int = 1) -> Callable[[View], View]:
    """Make ``view`` a write that takes the write turn (``writers.py``) and runs as one
    transaction (:func:`run`): for writes without an idempotency key (a digital table's
    moves carry their own action number)."""

    def decorator(view: View) -> View:
        @wraps(view)
        def wrapper(**view_args: Any) -> ResponseReturnValue:
            with writers.turn():
                return run(view, view_args, rejected, attempts)

        return wrapper

    return decorator


@contextmanager
def atomic() -> Iterator[None]:
    """Make the block one transaction outside a request (a CLI command, a script): commit
    it when the block ends, roll it back when it raises."""
    try:
        yield
    except BaseException:
        db.session.rollback()
        raise
    db.session.commit()
