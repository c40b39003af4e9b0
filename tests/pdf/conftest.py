"""Fixtures for the printed pads: where the rendered pages go to be looked at."""

from pathlib import Path

import pytest

ARTIFACTS = Path(__file__).resolve().parent.parent / "artifacts" / "pdf"


@pytest.fixture
def artifacts() -> Path:
    """Directory for the PDFs and their PNG pictures (git-ignored): look at them."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS
