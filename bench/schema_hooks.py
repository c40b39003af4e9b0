"""schemathesis hooks for bench/schema.py (loaded through ``SCHEMATHESIS_HOOKS``).

``SCOREKEEPER_AS`` says who the client is: ``stranger`` (no token), ``scorer`` (each
game's own scorer token on the game's operations: of the game bench/schema.py set up, and
of every game the run sets up itself) or ``circle`` (the circle's token on every
request). ``SCOREKEEPER_TOKENS`` names a JSON file with the tokens bench/schema.py made.

Besides: the document's ``text-line`` format (no control or other invisible character,
``engine.text.has_control``) gets its strategy, and the check ``rules_of_the_state``
holds a request that the document allows and the server refused with 422 to a code of a
rule that depends on what is stored (the game's players, round and bids, a key used
before) or that JSON Schema cannot say (two names that differ only in case or white
space). schemathesis.toml lets its own check take 422 from such operations.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import schemathesis
from hypothesis import strategies as st

from tests.robustness.state_rules import STATE_CODES

WHO = os.environ.get("SCOREKEEPER_AS", "stranger")
TOKENS: dict[str, Any] = json.loads(Path(os.environ["SCOREKEEPER_TOKENS"]).read_text())
SCORERS: dict[str, str] = dict(TOKENS["scorers"])

schemathesis.openapi.format(
    "text-line", st.text(st.characters(exclude_categories=("C",)), max_size=80)
)


@schemathesis.hook
def after_call(context: Any, case: Any, response: Any) -> None:
    """Keep the scorer token of every game the run sets up."""
    created = case.method.upper() == "POST" and case.path == "/api/v1/games"
    if created and response.status_code == 201:
        body = response.json()
        SCORERS[body["id"]] = body["scorer_token"]


@schemathesis.check
def rules_of_the_state(ctx: Any, response: Any, case: Any) -> bool | None:
    """A request the document allows may be refused 422 only for a rule of the state."""
    meta = case.meta
    if meta is None or not meta.generation.mode.is_positive or response.status_code != 422:
        return None
    code = response.json()["error"]["code"]
    if code not in STATE_CODES:
        raise AssertionError(f"Schema-valid request refused 422 {code}: {response.text}")
    return None


@schemathesis.auth(refresh_interval=None)  # a token per case: each game its own
class Token:
    def get(self, case: Any, ctx: Any) -> str | None:
        if WHO == "circle":
            return str(TOKENS["circle"])
        game = (case.path_parameters or {}).get("game_id")
        if WHO == "scorer" and game is not None:
            return SCORERS.get(str(game), TOKENS["default_scorer"])
        return None

    def set(self, case: Any, data: str | None, ctx: Any) -> None:
        if data is not None:
            case.headers = {**(case.headers or {}), "Authorization": f"Bearer {data}"}
