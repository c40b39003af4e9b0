"""Setting up a game: players in seat order, who deals first, the rule set."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from flask import Response, make_response, render_template, request
from flask.typing import ResponseReturnValue
from werkzeug.datastructures import MultiDict

from scorekeeper import limits, ratelimit
from scorekeeper.engine import MAX_PLAYERS
from scorekeeper.i18n import LazyString, _, _l
from scorekeeper.idempotency import idempotent
from scorekeeper.models import Circle
from scorekeeper.services import games as game_service
from scorekeeper.services import players as player_service
from scorekeeper.services import roster
from scorekeeper.services.errors import Rejected
from scorekeeper.web import bp
from scorekeeper.web.access import (
    first_of_the_evening,
    grant_again,
    is_htmx,
    member_circles,
    open_as_scorer,
    scored_ids,
)
from scorekeeper.web.rule_fields import DEFAULTS, RuleFields, whole

# Named presets: each sets every rule switch (not the players). The form shows the
# switches, so a preset is only a quick way to set them, and can be adjusted after.
PRESETS: dict[str, tuple[LazyString, dict[str, Any]]] = {
    "book": (_l("The book"), {}),
    "german": (_l("German rule"), {"dealer_rule": "plus_minus_one"}),
    "canadian": (_l("Canadian rule"), {"dealer_rule": "canadian"}),
    "short": (
        _l("Short game, German rule"),
        {"round_plan": "short", "dealer_rule": "plus_minus_one"},
    ),
}


NAME_SLOTS_MAX = 2 * MAX_PLAYERS


@dataclass
class SetupForm(RuleFields):
    """What the setup form holds, as typed: the rule fields, six name slots, the dealer's
    slot."""

    names: list[str] = field(default_factory=lambda: [""] * MAX_PLAYERS)
    dealer: str = "0"
    circle: str = ""  # the circle's public id; "" for a one-off game
    # The rules were set from this phone's last game (and no preset chosen since).
    remembered: bool = False

    @classmethod
    def parse(cls, form: MultiDict[str, str]) -> SetupForm:
        # A seventh name or so is kept to show what was typed (and refused); a form with
        # thousands of names is not from a phone at a table, and is cut short before it
        # costs seconds to check and render.
        names = form.getlist("player")[:NAME_SLOTS_MAX]
        names = (names + [""] * MAX_PLAYERS)[: max(MAX_PLAYERS, len(names))]
        fields = RuleFields.from_form(form)
        return cls(
            fields.values,
            fields.switches,
            names,
            form.get("dealer", "0"),
            form.get("circle", "")[:32],
            form.get("remembered") == "1",
        )

    def players(self) -> list[str]:
        """The names in seat order; empty slots at the end are seats nobody took."""
        names = list(self.names)
        while names and not names[-1].strip():
            names.pop()
        return names

    def dealer_seat(self) -> object:
        return whole(self.dealer)

    # -- the small edits the form's buttons make --------------------------------------

    def move(self, slot: int, step: int) -> None:
        other = slot + step
        if not (0 <= slot < len(self.names) and 0 <= other < len(self.names)):
            return
        self.names[slot], self.names[other] = self.names[other], self.names[slot]
        if self.dealer == str(slot):
            self.dealer = str(other)
        elif self.dealer == str(other):
            self.dealer = str(slot)

    def toggle(self, name: str) -> str | None:
        """A known name tapped: seat it in the first free slot, or unseat it."""
        key = player_service.name_key(name)
        for slot, typed in enumerate(self.names):
            if player_service.name_key(typed.strip()) == key:
                del self.names[slot]
                self.names.append("")
                dealer = whole(self.dealer)
                if isinstance(dealer, int) and dealer > slot:
                    self.dealer = str(dealer - 1)
                return None
        for slot, typed in enumerate(self.names):
            if not typed.strip():
                self.names[slot] = name
                return None
        return _(
            "The table is full: %(name)s can't join, Wizard is played by at most %(max)s.",
            name=name,
            max=MAX_PLAYERS,
        )

    def seat_table(self, names: list[str]) -> None:
        """The last table tapped: its players in their seats, the rest left empty (no
        last table, say a circle without games: the form stays as it was)."""
        if not names:
            return
        self.names = [*names, *[""] * (len(self.names) - len(names))][: len(self.names)]
        dealer = whole(self.dealer)
        if not isinstance(dealer, int) or dealer >= len(names):
            self.dealer = "0"

    def preset(self, key: str) -> None:
        if key not in PRESETS:
            return
        self.remembered = False
        self.values = {**DEFAULTS, "from_round": self.values["from_round"]}
        self.switches = set()
        for option, value in PRESETS[key][1].items():
            if isinstance(value, bool):
                if value:
                    self.switches.add(option)
            else:
                self.values[option] = str(value)

    def preset_in_use(self) -> str | None:
        for key in PRESETS:
            probe = replace(self, values=dict(self.values), switches=set())
            probe.preset(key)
            same_values = all(
                probe.values[k] == self.values[k] for k in DEFAULTS if k != "from_round"
            )
            if same_values and probe.switches == self.switches:
                return key
        return None


def _circle(form: SetupForm) -> Circle | None:
    """The circle the form names, if this browser holds its link."""
    if not form.circle:
        return None
    return next((c for c in member_circles() if c.public_id == form.circle), None)


def _render(form: SetupForm, *, status: int = 200, message: str | None = None) -> Response:
    circle = _circle(form)
    context = {
        "form": form,
        "message": message,
        "circles": member_circles(),
        "known_names": roster.recent_names(circle.id if circle else None),
        "last_table": roster.latest_table(circle.id if circle else None),
        "seated": {player_service.name_key(n.strip()) for n in form.names if n.strip()},
        "presets": PRESETS,
        "preset": form.preset_in_use(),
    }
    template = "games/_setup_form.html" if is_htmx() else "games/setup.html"
    response = make_response(render_template(template, **context), status)
    response.vary.add("HX-Request")
    return response


@bp.get("/games/new")
def new_game() -> Response:
    """The setup form: in the circle asked for, else this phone's latest circle; with the
    rules of the last game this phone kept score of (a table plays by its own rules)."""
    circles = member_circles()
    asked = request.args.get("circle")
    chosen = next((c for c in circles if c.public_id == asked), None)
    if chosen is None and asked is None and circles:
        chosen = circles[0]
    form = SetupForm(circle=chosen.public_id if chosen else "")
    last = game_service.last_rules(sorted(scored_ids()))
    if last is not None:
        form.use_rules(last)
        form.remembered = True
    return _render(form)


@bp.post("/games/new")
def edit_setup() -> Response:
    """Apply one of the form's buttons (move a seat, a known name, a preset) and show it
    again: with htmx just the form, without JavaScript the page."""
    form = SetupForm.parse(request.form)
    action, _, arg = request.form.get("do", "").partition(":")
    message = None
    slot = limits.whole_number(arg)
    if action in ("up", "down") and slot is not None:
        form.move(slot, -1 if action == "up" else 1)
    elif action == "name" and arg:
        message = form.toggle(arg)
    elif action == "preset":
        form.preset(arg)
    elif action == "table":
        circle = _circle(form)
        form.seat_table(roster.latest_table(circle.id if circle else None))
    return _render(form, message=message)


def _refuse(message: str, **_: object) -> Response:
    """The form as sent, refused before it was looked at (a reused idempotency key)."""
    return _render(SetupForm.parse(request.form), status=422, message=message)


def _rejected(exc: Rejected) -> Response:
    """The form as sent, with why no game was set up from it."""
    return _render(SetupForm.parse(request.form), status=exc.status, message=exc.message)


@bp.post("/games")
@idempotent(_refuse, replayed=grant_again, rejected=_rejected)
def create_game() -> ResponseReturnValue:
    """Create the game; this browser becomes its scorer. Errors come back as 422.

    The form carries an idempotency key: sent twice (a double tap, a resend after a
    timeout), it sets up one game and both answers lead to it."""
    form = SetupForm.parse(request.form)
    circle = _circle(form)
    if form.circle and circle is None:
        return _render(
            form, status=422, message=_("This phone can't open that circle: open its link first.")
        )
    rules = game_service.parse_rules(form.rules())
    ratelimit.spend("game")
    game, token = game_service.create_game(
        form.players(), form.dealer_seat(), rules, circle_id=circle.id if circle else None
    )
    welcome = first_of_the_evening(circle.public_id if circle else None)
    return open_as_scorer(game.public_id, token, welcome=welcome)
