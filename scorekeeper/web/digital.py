"""Digital play: the engine deals, each phone is a hand, bots fill empty seats.

The setup says how the table plays: each person on a phone of their own (the creator's
browser is shown every seat's link and QR code on the host page), one phone passed round
(no seat has a link: a hand shows only under the table link's cover, after its player's
tap), or one person against bots (straight to that person's hand). A browser that has
opened the table link is the passed-round phone: from then on no seat link it holds or
was shown (Back, history, a bookmark, a live update) shows a hand; each leads to the
cover. Phones poll a small fragment every second with ``If-None-Match``: the answer is
304 until the table's version changes, so several app processes serve it from the
database alone.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any

from flask import (
    Blueprint,
    Response,
    abort,
    make_response,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask.typing import ResponseReturnValue

from scorekeeper import i18n, limits, ratelimit, transaction
from scorekeeper.engine import Bidding, DealerRule, Plan, RuleSet, Suit
from scorekeeper.idempotency import idempotent, remember
from scorekeeper.models import DigitalTable
from scorekeeper.services import digital as service
from scorekeeper.services import games as game_service
from scorekeeper.services import players as player_service
from scorekeeper.services import roster
from scorekeeper.services.errors import Rejected
from scorekeeper.web.access import is_htmx, member_circles, member_circles_held, qr_svg
from scorekeeper.web.cardfaces import suit_word
from scorekeeper.web.rule_fields import SWITCHES, RuleFields

bp = Blueprint("digital", __name__, url_prefix="/digital")

LINKS = "digital_links"  # session: public_id → [table token, seat tokens…], newest last
MAX_LINKS = 5
REVEAL = "digital_reveal"  # session: public_id → seat revealed on a pass-and-play phone
# session: public_id → table token, for the tables this browser opened as the phone passed
# round: no seat link shows a hand in it (more than a browser keeps links for).
PASSED = "digital_passed"
MAX_PASSED = 12
# The setup's answer to "how do you play?": phones of their own, or one passed round.
OWN_PHONES, ONE_PHONE = "own", "one"
POLL_SECONDS = 1
# The rules this form shows, by their names on it (the score pad's setup shows them all).
RULE_FIELDS = {"round_plan": "plan"} | {key: key for key in ("dealer_rule", "bidding", *SWITCHES)}


# -- starting a game ----------------------------------------------------------------------


@bp.get("/new")
def new() -> ResponseReturnValue:
    """The form to set up a digital game: as this phone's last table was set up (names,
    bots, their level, the rules, one phone or many), else three people."""
    form = _form_values()
    newest = list(_links())[-1:]
    last = service.setup_of(newest[0]) if newest else None
    if last is not None:
        seats = len(last.names)
        form["names"] = last.names + [""] * (6 - seats)
        form["kinds"] = last.kinds + ["none"] * (6 - seats)
        form["level"] = last.level
        form["rules"].use_rules(last.rules)
        form["phones"] = ONE_PHONE if last.one_phone else OWN_PHONES
        form["remembered"] = True
    return _setup_page(form)


def _setup_page(form: dict[str, Any], message: str | None = None, status: int = 200) -> Response:
    """The setup form with the one-tap chips of the players known to this browser's newest
    circle (the score pad's setup offers the same)."""
    circles = member_circles() if member_circles_held() else []
    known = roster.recent_names(circles[0].id) if circles else []
    seated = {n.strip().casefold() for n in form["names"] if n.strip()}
    body = render_template(
        "digital/new.html", form=form, message=message, known_names=known, seated=seated
    )
    return make_response(body, status)


@bp.post("/new/edit")
def edit() -> ResponseReturnValue:
    """A known name tapped: seat it as a person in the first free seat, or take it off the
    seat that has it. Nothing is stored; the form comes back as it was sent otherwise."""
    form = _form_values()
    tapped = request.form.get("do", "")
    bots = limits.whole_number(tapped.removeprefix("bots:")) if tapped.startswith("bots:") else None
    if bots is not None and 2 <= bots <= 5:
        # You against this many bots: the first seat yours, the bots after it, the
        # rest empty.
        kinds = ["person"] + [service.BOT] * bots + ["none"] * (5 - bots)
        form["names"] = [
            n if i == 0 or (k == old == service.BOT) else ""
            for i, (n, k, old) in enumerate(zip(form["names"], kinds, form["kinds"], strict=True))
        ]
        form["kinds"] = kinds
        return _setup_page(form)
    if not tapped.startswith("name:"):
        return _setup_page(form, i18n.gettext("That button is not on this form."), 422)
    try:
        name = player_service.clean_name(tapped.removeprefix("name:"))
    except Rejected as exc:
        return _setup_page(form, exc.message, 422)
    names, kinds = form["names"], form["kinds"]
    taken = [i for i, n in enumerate(names) if n.strip().casefold() == name.casefold()]
    if taken:
        names[taken[0]] = ""
        return _setup_page(form)
    free = [i for i, n in enumerate(names) if not n.strip() and kinds[i] != service.BOT]
    if not free:
        full = i18n.gettext("Every seat is taken: clear a seat for %(name)s first.", name=name)
        return _setup_page(form, full, 422)
    names[free[0]], kinds[free[0]] = name, "person"
    return _setup_page(form)


def _form_values() -> dict[str, Any]:
    form = request.form
    return {
        "names": [form.get(f"name{i}", "") for i in range(6)],
        "kinds": [form.get(f"kind{i}", "person" if i < 3 else "none") for i in range(6)],
        "first_dealer": form.get("first_dealer", "0"),
        "rules": RuleFields.from_form(form, RULE_FIELDS),
        "level": form.get("level", "normal"),
        "phones": ONE_PHONE if form.get("phones") == ONE_PHONE else OWN_PHONES,
        "remembered": form.get("remembered") == "1",
    }


def _refuse(message: str, **_: object) -> ResponseReturnValue:
    """The form as sent, refused before it was looked at (a reused idempotency key), or
    by the rules of the game."""
    return _setup_page(_form_values(), message, 422)


def _not_created(exc: Rejected) -> ResponseReturnValue:
    return _setup_page(_form_values(), exc.message, exc.status)


def _keep_links(public_id: str, tokens: list[str]) -> None:
    links = {k: v for k, v in _links().items() if k != public_id}
    links[public_id] = tokens
    session[LINKS] = dict(list(links.items())[-MAX_LINKS:])


def _links_again(remembered: dict[str, str], **_: object) -> None:
    # A retry is there because the first answer, session cookie and all, got lost: the
    # host page needs the links again (and a passed-round phone its mark).
    if "game" in remembered:
        tokens = json.loads(remembered.get("links", "[]"))
        _keep_links(remembered["game"], tokens)
        if remembered.get("passed") and tokens:
            _mark_passed(remembered["game"], tokens[0])


@bp.post("/new")
@idempotent(_refuse, replayed=_links_again, rejected=_not_created)
def create() -> ResponseReturnValue:
    """Create the game, deal round 1, and show the seat links (once for a form sent twice
    with the same idempotency key)."""
    values = _form_values()
    # A seat plays when it has a person's name or a bot (a bot left unnamed gets a name
    # of its own); "nobody" and a person's seat left blank close up.
    kept = [
        i
        for i, (n, k) in enumerate(zip(values["names"], values["kinds"], strict=True))
        if k != "none" and (n.strip() or k == service.BOT)
    ]
    seats = [(values["names"][i].strip(), values["kinds"][i]) for i in kept]
    chosen = limits.whole_number(values["first_dealer"])
    # Seats left empty close up: the dealer's place is counted among the players.
    dealer = kept.index(chosen) if chosen in kept else -1
    # A rule set or table the rules refuse: _not_created shows the form again, with why.
    rules = game_service.parse_rules(values["rules"].rules())
    persons = [i for i, (_, k) in enumerate(seats) if k == service.PERSON]
    one_phone = values["phones"] == ONE_PHONE and len(persons) > 1
    ratelimit.spend("game")
    made = service.create_table(
        [n for n, _ in seats],
        [k for _, k in seats],
        dealer,
        rules,
        level=values["level"],
        seat_links=not one_phone,
    )
    public_id = made.game.public_id
    # Nobody keeps score by hand in a digital game: the rounds come from the table alone,
    # so the creator gets the links the table needs, not the scorer's rights on the pad.
    seat_tokens = [t or "" for t in made.seat_tokens]
    if one_phone:
        # The phone passed round: no seat links at all, the table under its cover.
        tokens = [made.table_token, *seat_tokens]
        target = url_for("digital.table", public_id=public_id, token=made.table_token)
    elif len(persons) == 1:
        # One person against bots: nobody else needs a link; straight to the hand.
        tokens = ["", *seat_tokens]
        target = url_for("digital.seat", public_id=public_id, token=seat_tokens[persons[0]])
    else:
        tokens = [made.table_token, *seat_tokens]
        target = url_for("digital.host", public_id=public_id)
    _keep_links(public_id, tokens)
    if one_phone:
        _mark_passed(public_id, made.table_token)
    remember(game=public_id, links=json.dumps(tokens), passed="1" if one_phone else "")
    return redirect(target, 303)


@dataclass(frozen=True, slots=True)
class PhoneTable:
    """A running table this phone holds a way into, for the home page."""

    table: service.Running
    url: str
    how: str  # "table" (the phone passed round), "seat" (one hand) or "links" (the host)


def phone_tables() -> list[PhoneTable]:
    """The running tables this browser set up or was passed round, each with its way
    back: the cover, its one hand, or the seat links."""
    links, passed = _links(), _passed_tables()
    found = []
    for running in service.running(list(links.keys() | passed.keys())):
        public_id = running.public_id
        seats = [t for t in links.get(public_id, [])[1:] if t]
        if public_id in passed:
            url = url_for("digital.table", public_id=public_id, token=passed[public_id])
            how = "table"
        elif len(seats) == 1:
            url, how = url_for("digital.seat", public_id=public_id, token=seats[0]), "seat"
        else:
            url, how = url_for("digital.host", public_id=public_id), "links"
        found.append(PhoneTable(running, url, how))
    return found


def _links() -> dict[str, list[str]]:
    value = session.get(LINKS)
    return dict(value) if isinstance(value, dict) else {}


@bp.get("/<public_id>/")
def host(public_id: str) -> ResponseReturnValue:
    """The seat links and QR codes, for the browser that set the game up."""
    table = _load(public_id)
    covered = _covered(public_id)
    if covered is not None:
        return covered
    tokens = _links().get(public_id)
    if not tokens or not any(tokens[1:]):
        abort(403)
    mine = [t for t in tokens[1:] if t]
    if len(mine) == 1 and not tokens[0]:
        # One person against bots: no links to hand out, the hand itself.
        return redirect(url_for("digital.seat", public_id=public_id, token=mine[0]), 303)
    names = service.names(table)
    seats = []
    for seat, name in enumerate(names):
        token = tokens[seat + 1] if seat + 1 < len(tokens) else ""
        url = (
            url_for("digital.seat", public_id=public_id, token=token, _external=True)
            if token
            else None
        )
        seats.append({"name": name, "url": url, "qr": qr_svg(url) if url else None})
    table_url = url_for("digital.table", public_id=public_id, token=tokens[0], _external=True)
    body = render_template(
        "digital/host.html", seats=seats, table_url=table_url, public_id=public_id
    )
    return _private(make_response(body))


def _passed_tables() -> dict[str, str]:
    value = session.get(PASSED)
    return dict(value) if isinstance(value, dict) else {}


def _mark_passed(public_id: str, table_token: str) -> None:
    """This browser is the phone passed round ``public_id``'s table: forget the seat links
    it holds for it, and let none it was shown show a hand here again."""
    passed = _passed_tables()
    if passed.get(public_id) == table_token:
        return
    passed.pop(public_id, None)
    passed[public_id] = table_token
    session[PASSED] = dict(list(passed.items())[-MAX_PASSED:])
    links = _links()
    if public_id in links:
        kept = links[public_id]
        _keep_links(public_id, kept[:1] + [""] * (len(kept) - 1))


def _covered(public_id: str) -> Response | None:
    """On the phone passed round this table, a seat link or the host page leads to the
    table's cover instead (``None`` elsewhere): no hand without its player's tap."""
    table_token = _passed_tables().get(public_id)
    if table_token is None:
        return None
    target = url_for("digital.table", public_id=public_id, token=table_token)
    if is_htmx():
        response = _private(make_response("", 200))
        response.headers["HX-Redirect"] = target
        return response
    return _private(make_response(redirect(target, 303)))


def _private(response: Response) -> Response:
    """An answer showing a seat or table link (its secret): no cache anywhere may keep it.
    Polls still get 304: they send the ETag themselves (If-None-Match in the widget)."""
    response.headers["Cache-Control"] = "private, no-store"
    return response


# -- a seat's phone -------------------------------------------------------------------------


def _load(public_id: str) -> DigitalTable:
    return service.get_table(public_id)


def _seat(public_id: str, token: str) -> tuple[DigitalTable, int]:
    table = _load(public_id)
    return table, service.seat_of(table, token)


def _etag(table: DigitalTable, who: str) -> str:
    """The table's version and its game's: a bonus or penalty given on the pad changes
    the totals every seat shows without a move at the table."""
    return f'"t{table.version}.{table.game.version}-{who}"'


def _not_modified(etag: str) -> Response | None:
    if etag in request.headers.get("If-None-Match", ""):
        response = make_response("", 304)
        response.headers["ETag"] = etag
        return response
    return None


def _render(
    page: str, table: DigitalTable, seat: int | None, status: int, **extra: Any
) -> Response:
    """The page, or for htmx the seat widget alone; never kept by a cache (it holds the
    seat's or the table's link)."""
    context = _context(table, seat, **extra)
    template = "digital/_seat.html" if is_htmx() else page
    response = make_response(render_template(template, **context), status)
    response.headers["ETag"] = context["etag"]
    _private(response)
    response.vary.add("HX-Request")
    return response


def _context(table: DigitalTable, seat: int | None, **extra: Any) -> dict[str, Any]:
    v = service.view(table, seat)
    names = v["names"]
    rules: RuleSet = v["rules"]
    french = rules.suit_names.value == "french"
    top = v["cards"]
    context: dict[str, Any] = {
        "v": v,
        "me": seat,
        "names": names,
        "french": french,
        "suit_word": lambda s: suit_word(s, french),
        "suits": list(Suit),
        "bid_reasons": v["bid_reasons"],
        "max_bid": top,
        "message": None,
        "mode": "seat",
        "poll": POLL_SECONDS,
        "rules_words": i18n.describe_rules(rules),
        "open_bids": rules.bidding is Bidding.OPEN,
        "dealer_rule": rules.dealer_rule is not DealerRule.NONE,
        "unicoloured": rules.round_plan is Plan.UNICOLOURED,
    }
    context.update(extra)
    # After the last round: the next game at this table, once someone has started it. A
    # link's place in it is the same (the seats keep their secrets), under the new id.
    next_id = game_service.next_game_of(table.game) if v["finished"] else None
    page_url = context.get("page_url")
    if next_id and isinstance(page_url, str):
        context["next_url"] = page_url.replace(f"/{v['public_id']}/", f"/{next_id}/", 1)
    context["places"] = _places(len(names), seat)
    who = context.get("who", f"s{seat}")
    context["etag"] = _etag(table, who)
    return context


def _places(players: int, me: int | None) -> list[dict[str, float]]:
    """Where each seat sits round the drawn table, in per cent of its width and height,
    this phone's seat at the bottom and the others clockwise in playing order (the next
    player to its left); ``cx``/``cy``: where the seat's card lands in the middle."""
    places = []
    near = 13 + 1.5 * (players - 3)  # more players, wider round the middle
    for seat in range(players):
        angle = math.pi / 2 + 2 * math.pi * ((seat - (me or 0)) % players) / players
        x, y = math.cos(angle), math.sin(angle)
        places.append(
            {
                "x": round(50 + 34 * x, 1),
                "y": round(50 + 36 * y, 1),
                "cx": round(50 + near * x, 1),
                "cy": round(50 + (near + 1) * y, 1),
            }
        )
    return places


@bp.get("/<public_id>/s/<token>")
def seat(public_id: str, token: str) -> ResponseReturnValue:
    """One seat's phone: its hand, the table, its moves."""
    table, me = _seat(public_id, token)
    covered = _covered(public_id)
    if covered is not None:
        return covered
    return _render("digital/seat.html", table, me, 200, **_seat_urls(public_id, token))


def _seat_urls(public_id: str, token: str) -> dict[str, str]:
    return {
        "again_url": url_for("digital.seat_again", public_id=public_id, token=token),
        "act_url": url_for("digital.seat_act", public_id=public_id, token=token),
        "live_url": url_for("digital.seat_live", public_id=public_id, token=token),
        "page_url": url_for("digital.seat", public_id=public_id, token=token),
    }


@bp.get("/<public_id>/s/<token>/live")
def seat_live(public_id: str, token: str) -> ResponseReturnValue:
    """The seat widget when the table changed, else 304."""
    table, me = _seat(public_id, token)
    covered = _covered(public_id)
    if covered is not None:
        return covered
    unchanged = _not_modified(_etag(table, f"s{me}"))
    if unchanged is not None:
        return unchanged
    context = _context(table, me, **_seat_urls(public_id, token))
    response = make_response(render_template("digital/_seat.html", **context))
    response.headers["ETag"] = context["etag"]
    _private(response)
    return response


# A move made when another process changed the table at the same moment (hidden bids
# come in together) is made again on the table as it is now: the seat's action number
# makes that safe.
MOVE_ATTEMPTS = 3
# Play again, tapped on two phones at once: the second look finds the game just started.
AGAIN_ATTEMPTS = 2


def _seat_rejected(exc: Rejected, public_id: str, token: str) -> ResponseReturnValue:
    """A seat's move or Play again refused: the seat as it is now, with the reason (a tap
    already counted, without JavaScript: the seat's page)."""
    table, me = _seat(public_id, token)
    urls = _seat_urls(public_id, token)
    if exc.code == "already_done" and not is_htmx():
        return redirect(urls["page_url"], 303)
    return _render("digital/seat.html", table, me, exc.status, message=exc.message, **urls)


@bp.post("/<public_id>/s/<token>/act")
@transaction.write(_seat_rejected, attempts=MOVE_ATTEMPTS)
def seat_act(public_id: str, token: str) -> ResponseReturnValue:
    """A move from a seat's phone (trump, bid or card); none on the phone passed round."""
    table, me = _seat(public_id, token)
    covered = _covered(public_id)
    if covered is not None:
        return covered
    urls = _seat_urls(public_id, token)
    _act(table, me)
    if not is_htmx():
        return redirect(urls["page_url"], 303)
    return _render("digital/seat.html", table, me, 200, **urls)


@bp.post("/<public_id>/s/<token>/again")
@transaction.write(_seat_rejected, attempts=AGAIN_ATTEMPTS)
def seat_again(public_id: str, token: str) -> ResponseReturnValue:
    """Play again from a seat's phone: to this seat in the next game."""
    table, _me = _seat(public_id, token)
    covered = _covered(public_id)
    if covered is not None:
        return covered
    return _again(table, _seat_urls(public_id, token))


def _table_rejected(exc: Rejected, public_id: str, token: str) -> ResponseReturnValue:
    """A move or Play again on the pass-and-play phone refused: the table as it is now,
    with the reason."""
    return _table_view(_load(public_id), token, exc.status, message=exc.message)


def _table_again_rejected(exc: Rejected, public_id: str, token: str) -> ResponseReturnValue:
    """Play again on the pass-and-play phone refused: the cover, with the reason."""
    table, urls = _load(public_id), _table_urls(public_id, token)
    return _render(
        "digital/table.html", table, None, exc.status, message=exc.message, mode="table", **urls
    )


@bp.post("/<public_id>/t/<token>/again")
@transaction.write(_table_again_rejected, attempts=AGAIN_ATTEMPTS)
def table_again(public_id: str, token: str) -> ResponseReturnValue:
    """Play again from the pass-and-play phone: to the next game's cover."""
    t = _table(public_id, token)
    _set_revealed(public_id, None)
    return _again(t, _table_urls(public_id, token))


def _again(table: DigitalTable, urls: dict[str, str]) -> ResponseReturnValue:
    """Start (or find) the next game at this table and go to this link's place in it; the
    browser that set the game up keeps the links for the next one too."""
    public_id = table.game.public_id
    if game_service.next_game_of(table.game) is None:  # a game is made, not found
        ratelimit.spend("game")
    new = service.play_again(table)
    new_id = new.game.public_id
    if public_id in _links():
        _keep_links(new_id, _links()[public_id])
    table_token = _passed_tables().get(public_id)
    if table_token is not None:
        _mark_passed(new_id, table_token)
    target = urls["page_url"].replace(f"/{public_id}/", f"/{new_id}/", 1)
    if is_htmx():
        response = make_response("", 204)
        response.headers["HX-Redirect"] = target
        return response
    return redirect(target, 303)


def _act(table: DigitalTable, seat: int) -> None:
    """Make the move the form asks for. :raises Rejected: as the service does."""
    form = request.form
    service.act(
        table,
        seat,
        form.get("action", ""),
        form.get("value", ""),
        form.get("seq", ""),
        form.get("screen", ""),
    )


# -- pass and play on one phone -------------------------------------------------------------


def _table(public_id: str, token: str) -> DigitalTable:
    table = _load(public_id)
    if not service.table_token_matches(table, token):
        abort(404)
    return table


def _revealed(table: DigitalTable) -> int | None:
    """The seat whose hand this phone shows: the one its player tapped for, while the
    table waits for that seat (once its turn is over, the cover again)."""
    value = session.get(REVEAL)
    seat = value.get(table.game.public_id) if isinstance(value, dict) else None
    if isinstance(seat, int) and seat in service.waiting_persons(table):
        return seat
    return None


def _set_revealed(public_id: str, seat: int | None) -> None:
    value = session.get(REVEAL)
    shown = dict(value) if isinstance(value, dict) else {}
    shown.pop(public_id, None)
    if seat is not None:
        shown[public_id] = seat
    session[REVEAL] = shown


def _table_urls(public_id: str, token: str) -> dict[str, str]:
    return {
        "again_url": url_for("digital.table_again", public_id=public_id, token=token),
        "act_url": url_for("digital.table_act", public_id=public_id, token=token),
        "live_url": url_for("digital.table_live", public_id=public_id, token=token),
        "page_url": url_for("digital.table", public_id=public_id, token=token),
        "reveal_url": url_for("digital.table_reveal", public_id=public_id, token=token),
    }


def _table_view(table: DigitalTable, token: str, status: int = 200, **extra: Any) -> Response:
    public_id = table.game.public_id
    shown = _revealed(table)
    return _render(
        "digital/table.html",
        table,
        shown,
        status,
        mode="table",
        who=f"t{shown}",
        persons=service.person_seats(table),
        **_table_urls(public_id, token),
        **extra,
    )


@bp.get("/<public_id>/t/<token>")
def table(public_id: str, token: str) -> ResponseReturnValue:
    """One phone for the whole table: a hand is shown only after its player's tap on the
    cover. The browser that opens it is the phone passed round from then on."""
    t = _table(public_id, token)
    _mark_passed(public_id, token)
    return _table_view(t, token)


@bp.get("/<public_id>/t/<token>/live")
def table_live(public_id: str, token: str) -> ResponseReturnValue:
    """The pass-and-play widget when the table changed, else 304."""
    t = _table(public_id, token)
    _mark_passed(public_id, token)
    unchanged = _not_modified(_etag(t, f"t{_revealed(t)}"))
    if unchanged is not None:
        return unchanged
    return _table_view(t, token)


@bp.post("/<public_id>/t/<token>/reveal")
def table_reveal(public_id: str, token: str) -> ResponseReturnValue:
    """ "I am Ann": show Ann's hand on this phone (or hide it again)."""
    t = _table(public_id, token)
    _mark_passed(public_id, token)
    seat_no = limits.whole_number(request.form.get("seat", ""))
    if seat_no is not None and seat_no not in service.waiting_persons(t):
        seat_no = None
    _set_revealed(public_id, seat_no)
    if not is_htmx():
        return redirect(url_for("digital.table", public_id=public_id, token=token), 303)
    return _table_view(t, token)


@bp.post("/<public_id>/t/<token>/act")
@transaction.write(_table_rejected, attempts=MOVE_ATTEMPTS)
def table_act(public_id: str, token: str) -> ResponseReturnValue:
    """A move by the player whose hand is shown; the hand is hidden again after it."""
    t = _table(public_id, token)
    shown = _revealed(t)
    if shown is None:
        return _table_view(
            t,
            token,
            422,
            message=i18n.gettext(
                'First tap "Tap when only … is looking" for the player whose turn it is.'
            ),
        )
    _act(t, shown)
    _set_revealed(public_id, None)
    if not is_htmx():
        return redirect(url_for("digital.table", public_id=public_id, token=token), 303)
    return _table_view(t, token)
