"""One owner per transaction (scorekeeper/transaction.py): a write view's decorator commits
what the view changed, or rolls it back before a refusal is rendered."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from flask import Flask, Response, current_app
from flask.typing import ResponseReturnValue
from sqlalchemy import select

from scorekeeper import transaction
from scorekeeper.extensions import db
from scorekeeper.models import Circle
from scorekeeper.services import circles as circle_service
from scorekeeper.services.errors import Conflict, NotFound, Rejected


@pytest.fixture
def circle_id(app: Flask) -> Iterator[int]:
    with app.app_context():
        circle_id = circle_service.create_circle("Thursdays").id
        db.session.commit()
    with app.test_request_context(method="POST"):
        yield circle_id
        db.session.remove()


def stored_name(circle_id: int) -> str:
    """The circle's name as the database has it, read past the request's session."""
    with db.engine.connect() as connection:
        name = connection.scalar(select(Circle.name).where(Circle.id == circle_id))
    assert isinstance(name, str)
    return name


def renaming(then: Callable[[], ResponseReturnValue]) -> Callable[..., ResponseReturnValue]:
    """A write view that renames the circle (ending as a service does) and then ``then``."""

    def view(circle_id: int) -> ResponseReturnValue:
        circle = db.session.get(Circle, circle_id)
        assert circle is not None
        circle.name = "Fridays"
        db.session.flush()
        return then()

    return view


def said(exc: Rejected, circle_id: int) -> ResponseReturnValue:
    """A view's renderer of a refusal: the reason, with the circle as stored."""
    circle = db.session.get(Circle, circle_id)
    assert circle is not None
    return f"{exc.message} / {circle.name}", exc.status


def answer(circle_id: int, view: Callable[..., ResponseReturnValue], **options: Any) -> Response:
    return current_app.make_response(transaction.run(view, {"circle_id": circle_id}, **options))


def refused() -> ResponseReturnValue:
    raise Rejected("No such name.")


def test_when_the_view_has_answered_the_write_is_committed(circle_id: int) -> None:
    response = answer(circle_id, renaming(lambda: "renamed"), rejected=said)
    assert response.status_code == 200
    assert stored_name(circle_id) == "Fridays"


def test_a_refusal_is_rendered_after_the_rollback_with_what_is_stored(circle_id: int) -> None:
    response = answer(circle_id, renaming(refused), rejected=said)
    assert response.status_code == 422
    assert response.get_data(as_text=True) == "No such name. / Thursdays"
    assert stored_name(circle_id) == "Thursdays"


def test_without_a_renderer_a_refusal_goes_on_to_the_error_handlers(circle_id: int) -> None:
    with pytest.raises(Rejected, match="No such name"):
        answer(circle_id, renaming(refused))
    assert stored_name(circle_id) == "Thursdays"
    assert db.session.get(Circle, circle_id).name == "Thursdays"  # type: ignore[union-attr]


@pytest.mark.parametrize("error", [RuntimeError("boom"), NotFound()])
def test_any_other_error_rolls_back_and_goes_on(circle_id: int, error: Exception) -> None:
    def failing() -> ResponseReturnValue:
        raise error

    with pytest.raises(type(error)):
        answer(circle_id, renaming(failing), rejected=said)
    assert db.session.get(Circle, circle_id).name == "Thursdays"  # type: ignore[union-attr]


@pytest.mark.parametrize("status", [400, 403, 409, 422])
def test_an_answer_of_400_or_more_keeps_nothing(circle_id: int, status: int) -> None:
    response = answer(circle_id, renaming(lambda: ("no", status)), rejected=said)
    assert response.status_code == status
    assert stored_name(circle_id) == "Thursdays"


@pytest.mark.parametrize(
    ("code", "attempts", "runs", "status"),
    [
        ("conflict", 3, 2, 200),  # raced another writer once: made again on what is stored
        ("conflict", 1, 1, 409),  # one attempt only: the refusal
        ("already_done", 3, 1, 409),  # not a race: never made again
    ],
)
def test_a_write_that_raced_another_runs_again_as_often_as_allowed(
    circle_id: int, code: str, attempts: int, runs: int, status: int
) -> None:
    calls: list[int] = []

    def racing() -> ResponseReturnValue:
        calls.append(1)
        if len(calls) == 1:
            raise Conflict("Someone else was first.", code)
        return "renamed"

    response = answer(circle_id, renaming(racing), rejected=said, attempts=attempts)
    assert (response.status_code, len(calls)) == (status, runs)
    assert stored_name(circle_id) == ("Fridays" if status == 200 else "Thursdays")
