"""The limits' clock, for the tests of limits per client."""

import pytest

from scorekeeper import ratelimit
from tests.adversarial.support import Clock


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    """The limits' clock, now: the test moves it instead of waiting."""
    clock = Clock()
    monkeypatch.setattr(ratelimit, "now", clock)
    return clock
