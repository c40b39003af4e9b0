"""Texts nobody marked for translation: found in the code, the templates, and on the
pages themselves as a German reader gets them.

The catalog test (test_catalog.py) checks every *marked* text has German; these tests
find the texts that never reach the catalog, such as a page title passed as a plain
string ("This scorer link doesn't work", once, in web/games.py):

- in the Python code, a literal text given where people read it: to a parameter named
  ``message``, ``title`` or ``detail`` (of any function of the app, found by its
  signature, and of ``render_template``), to ``flash``, ``abort``, a ``Response``, or
  raised in one of the app's own exceptions;
- in the templates, text and readable attributes outside ``_()`` and ``{% trans %}``;
- on the pages a German phone is shown (and the printed pad), English words no German
  text has ("the", "doesn't", "bid", …).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path

import pytest
from flask import Flask

from scorekeeper import transaction
from scorekeeper.services import games as game_service
from tests.pdf.support import _run
from tests.web.support import HX, Pages, ok
from tests.web.test_final_standings import TIED_GAME

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "scorekeeper"
TEMPLATES = ROOT / "templates"

GETTEXT = {"_", "_l", "_n", "gettext", "ngettext", "lazy_gettext"}
TEXT_PARAMETERS = ("message", "title", "detail")
# Where Flask and Werkzeug take a text people may read: (name, argument positions).
FRAMEWORK_SINKS = {"flash": {0}, "abort": {1}, "Response": {0}, "make_response": {0}}
# Literal texts people may read that are the same in every language, and why.
PYTHON_ALLOWED = {
    ("scorekeeper/web/health.py", "ok"),  # /healthz answers machines
}
# The brand, the game's own name (Amigo sells it as "Wizard" in Germany too: the
# picture of a game heads it so), and sample player names.
TEMPLATE_ALLOWED = {
    "Scorekeeper",
    "· Scorekeeper",
    "· Wizard · Scorekeeper",
    "Wizard",
    "Ann, Ben, Cat",
}


# -- the Python code --------------------------------------------------------------------------


def _name(func: ast.expr) -> str | None:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def literal_text(node: ast.expr) -> str:
    """The text an expression spells out itself, outside any gettext call."""
    if isinstance(node, ast.Call) and _name(node.func) in GETTEXT:
        return ""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return " ".join(literal_text(v) for v in node.values)
    if isinstance(node, ast.BinOp):
        return literal_text(node.left) + " " + literal_text(node.right)
    if isinstance(node, ast.IfExp):
        return literal_text(node.body) + " " + literal_text(node.orelse)
    if isinstance(node, ast.BoolOp):
        return " ".join(literal_text(v) for v in node.values)
    methods = ("format", "strip", "join")
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        return literal_text(node.func.value) if node.func.attr in methods else ""
    return ""


def _text_positions(args: ast.arguments, method: bool) -> set[int]:
    names = [a.arg for a in args.args][1 if method else 0 :]
    return {i for i, name in enumerate(names) if name in TEXT_PARAMETERS}


def sinks_and_errors(trees: list[ast.Module]) -> tuple[dict[str, set[int]], set[str]]:
    """Every callable of the app that takes a text people read (by the name of its
    parameter), with the positions of those texts; and the app's exception classes."""
    sinks = {name: set(positions) for name, positions in FRAMEWORK_SINKS.items()}
    classes: dict[str, list[str]] = {}
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                classes[node.name] = [b for b in map(_name, node.bases) if b]
                inits = [i for i in node.body if isinstance(i, ast.FunctionDef)]
                for item in inits:
                    found = _text_positions(item.args, method=True)
                    if item.name == "__init__" and found:
                        sinks[node.name] = found
            elif isinstance(node, ast.FunctionDef) and node.name != "__init__":
                method = bool(node.args.args) and node.args.args[0].arg in ("self", "cls")
                if found := _text_positions(node.args, method):
                    sinks.setdefault(node.name, set()).update(found)
    for _round in range(len(classes)):  # a subclass takes its base's texts
        for name, bases in classes.items():
            for base in bases:
                if base in sinks and name not in sinks:
                    sinks[name] = sinks[base]
    return sinks, set(classes)


def unmarked_in(
    source: str, sinks: dict[str, set[int]], errors: set[str]
) -> Iterator[tuple[int, str]]:
    """(line, text) of every literal text given to a sink in ``source``, in order."""
    found: set[tuple[int, int, str]] = set()
    for node in ast.walk(ast.parse(source)):
        given: list[ast.expr] = []
        raised = node.exc if isinstance(node, ast.Raise) else None
        if isinstance(raised, ast.Call) and _name(raised.func) in errors and raised.args:
            given.append(raised.args[0])
        if isinstance(node, ast.Call):
            positions = sinks.get(_name(node.func) or "", set())
            given += [arg for i, arg in enumerate(node.args) if i in positions]
            given += [kw.value for kw in node.keywords if kw.arg in TEXT_PARAMETERS]
        for expr in given:
            text = " ".join(literal_text(expr).split())
            if re.search(r"[A-Za-z]{2}", text):
                found.add((expr.lineno, expr.col_offset, text))
    for line, _column, text in sorted(found):
        yield line, text


def python_files() -> list[Path]:
    # The engine speaks English by design: its errors carry codes and facts, and
    # i18n.rule_message words them in the reader's language.
    return [p for p in sorted(PACKAGE.rglob("*.py")) if "engine" not in p.parts]


def app_sinks() -> tuple[dict[str, set[int]], set[str]]:
    return sinks_and_errors([ast.parse(p.read_text()) for p in python_files()])


def test_python_texts_people_read_are_marked() -> None:
    sinks, errors = app_sinks()
    found = set()
    for path in python_files():
        where = path.relative_to(ROOT).as_posix()
        for line, text in unmarked_in(path.read_text(), sinks, errors):
            if (where, text) not in PYTHON_ALLOWED:
                found.add(f"{where}:{line}: {text!r}")
    assert sorted(found) == [], "texts people read, not marked with _() (and no German)"


# What web/games.py once had: the scanner must see it, and nothing in its marked form.
UNMARKED_CLAIM = """
def claim_scorer(public_id, token):
    if not game_service.token_matches(game, token):
        body = render_template(
            "error.html",
            status=403,
            title="This scorer link doesn't work",
            detail="The link is not this game's scorer link. Ask the scorer to share it "
            "again, or follow the game read-only.",
        )
        return make_response(body, 403)
"""
MARKED = """
def claim_scorer(public_id, token):
    body = render_template("error.html", title=_("Nope"), detail=i18n._("Ask %(x)s", x=y))
    flash(_("Round %(number)s deleted.", number=3))
    raise Rejected(_n("one", "many", 2), "code")
    return make_response("", 204)
"""
SINKS_AND_ERRORS = """
class Refused(ValueError):
    def __init__(self, message, code): ...
class Later(Refused): ...
def _refuse(message, public_id): ...
def shown(table):
    _refuse("Not your turn", "x")
    flash(f"Round {n} deleted")
    raise Later("Too late")
    abort(403, "Only the scorer")
"""


def test_the_scan_would_have_caught_the_scorer_link_page() -> None:
    sinks, errors = app_sinks()
    found = [text for _line, text in unmarked_in(UNMARKED_CLAIM, sinks, errors)]
    assert found == [
        "This scorer link doesn't work",
        "The link is not this game's scorer link. Ask the scorer to share it again, or "
        "follow the game read-only.",
    ]
    assert list(unmarked_in(MARKED, sinks, errors)) == []
    tree = ast.parse(SINKS_AND_ERRORS)
    sinks, errors = sinks_and_errors([tree])
    found = [text for _line, text in unmarked_in(SINKS_AND_ERRORS, sinks, errors)]
    assert found == ["Not your turn", "Round deleted", "Too late", "Only the scorer"]


# -- the templates ----------------------------------------------------------------------------

READABLE_ATTRIBUTES = {"title", "alt", "aria-label", "placeholder", "label"}


class _Texts(HTMLParser):
    """Text and readable attributes of a template with its Jinja parts taken out."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[int, str]] = []
        self.skipping = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self.skipping += 1
        for name, value in attrs:
            readable = name in READABLE_ATTRIBUTES or name.startswith("data-")
            if readable and value and re.search(r"[A-Za-z]{2}", value):
                self.found.append((self.getpos()[0], value.strip()))

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self.skipping -= 1

    def handle_data(self, data: str) -> None:
        if not self.skipping and re.search(r"[A-Za-z]{2}", data):
            self.found.append((self.getpos()[0], data.strip()))


def template_texts(source: str) -> list[tuple[int, str]]:
    """(line, text) a template shows without ``_()`` or ``{% trans %}``."""

    def blank(match: re.Match[str]) -> str:  # keep the line numbers
        return "\n" * match.group().count("\n")

    source = re.sub(r"\{#.*?#\}", blank, source, flags=re.S)
    source = re.sub(r"\{%-?\s*trans\b.*?\{%-?\s*endtrans\s*-?%\}", blank, source, flags=re.S)
    source = re.sub(r"\{\{.*?\}\}", blank, source, flags=re.S)
    source = re.sub(r"\{%.*?%\}", blank, source, flags=re.S)
    parser = _Texts()
    parser.feed(source)
    return parser.found


def test_template_texts_are_marked() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{line}: {text!r}"
        for path in sorted(TEMPLATES.rglob("*.html"))
        for line, text in template_texts(path.read_text())
        if text not in TEMPLATE_ALLOWED
    ]
    assert found == [], "texts in templates outside _() or {% trans %}"


def test_the_template_scan_sees_plain_text_and_attributes() -> None:
    source = """<p>{{ _('Marked') }} Plain words</p>
{% trans %}Marked too{% endtrans %}<img alt="A picture" src="{{ url }}">
<button title="{{ _('Fine') }}" aria-label="Undo it">↶ {{ n }}</button>"""
    assert template_texts(source) == [(1, "Plain words"), (2, "A picture"), (3, "Undo it")]


# -- the pages as a German phone shows them ---------------------------------------------------

# Words of English texts that no German text has: a page that shows one to a German
# reader shows an untranslated text. (Not "in", "an", "so", "was", "will", "Link",
# "Online": German words too.)
ENGLISH_WORDS = """
    the this that these those and or of to with from your you is are isn't has have
    doesn't don't can't won't it's its for by on at be been not there here which when
    only again nothing please yet they their what who how why should must would could
    into than then after before until while because if any each every other some
    bid bids tricks trick round rounds dealer deals trump score scorer scoring player
    players game games follow share correct delete undo taken back keep new print
"""
ENGLISH = frozenset(ENGLISH_WORDS.split())
NAMES = ["Ann", "Ben", "Cat"]


class _Visible(HTMLParser):
    """What a page shows: its text and readable attributes, without scripts and styles."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.skipping = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self.skipping += 1
        self.parts += [v for k, v in attrs if k in READABLE_ATTRIBUTES and v]

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self.skipping -= 1

    def handle_data(self, data: str) -> None:
        if not self.skipping:
            self.parts.append(data)


def english_words(text: str) -> set[str]:
    text = re.sub(r"\S*[/:@]\S*", " ", text)  # links and addresses
    words = {w.lower() for w in re.findall(r"[A-Za-z]+(?:'[a-z]+)?", text)}
    return words & ENGLISH


def english_on(html: str) -> set[str]:
    page = _Visible()
    page.feed(html)
    return english_words(" ".join(page.parts))


def test_the_english_word_check_finds_english_and_leaves_german_alone() -> None:
    assert english_on("<h1>This scorer link doesn't work</h1>") == {"this", "scorer", "doesn't"}
    assert english_on('<p title="Undo">Runde 1 von 20 · Ann gibt</p>') == {"undo"}
    german = "<p>Dieser Schreiber-Link funktioniert nicht. Wizard: Geber wählte Rot.</p>"
    assert english_on(german) == set()
    assert english_on('<a href="/games/the-x">https://host/the/or</a>') == set()


@pytest.fixture
def app(app: Flask) -> Flask:
    app.config["WTF_CSRF_ENABLED"] = False
    return app


def _finished_game(app: Flask, german: Pages) -> str:
    with app.app_context(), transaction.atomic():
        rules = game_service.parse_rules({"round_plan": "short"})
        game, token = game_service.create_game(["Anna", "Bea", "Clara"], 0, rules)
        for bids, tricks in TIED_GAME:
            game_service.record_round(game, bids, tricks)
        pid = game.public_id
    ok(german.client.get(f"/games/{pid}/score/{token}"))
    return pid


def test_pages_in_german_show_no_english(app: Flask, german: Pages) -> None:
    """Every page, fragment, message and error a German phone meets in a game night."""
    follower = Pages(app.test_client())
    follower.client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "de"
    answers: dict[str, str] = {}

    def see(what: str, response: object) -> str:
        body = response.get_data(as_text=True)  # type: ignore[attr-defined]
        status = response.status_code  # type: ignore[attr-defined]
        assert status < 500, what
        if not 300 <= status < 400:  # a redirect's body is never shown
            answers[what] = body
        return body

    client = german.client
    for path in ("/", "/games/new", "/pads", "/circles/new", "/nothing-here"):
        see(path, client.get(path))
    pid = german.new_game(NAMES, dealer=0, dealer_rule="plus_minus_one")
    see("welcome", client.get(f"/games/{pid}?welcome=1"))
    see("bid", german.bid(pid, 1, 0))
    see("bid refused", german.bid(pid, 0, 1))
    see("bid taken back", german.post(pid, "clear", clear="bid:1"))
    see("out of turn", german.bid(pid, 2, 0))
    german.bid(pid, 1, 0)
    german.bid(pid, 2, 0)
    see("dealer's forbidden bid", german.bid(pid, 0, 1))
    german.bid(pid, 0, 0)
    see("tricks that do not fit", german.tricks(pid, 1, 5))
    see("the rest as bid refused", german.post(pid, "tricks/rest"))
    see("scored", german.tricks(pid, 1, 1))
    see("reopened", german.post(pid, "reopen", round=1))
    see("reopen refused", german.post(pid, "reopen", round=1))
    see("tricks", german.tricks(pid, 2, 0))
    see("only one missed refused", german.post(pid, "tricks/missed", seat=2))
    see("tricks taken back", german.post(pid, "clear", clear="tricks:2"))
    german.tricks(pid, 1, 1)
    see("stale tap", german.bid(pid, 2, 1, v=1))
    see("game", client.get(f"/games/{pid}"))
    see("correction", client.get(f"/games/{pid}/rounds/1/edit", headers=HX))
    see("correction refused", german.correct(pid, 1, [0, 0, 0], [1, 1, 0]))
    see("corrected", german.correct(pid, 1, [0, 0, 0], [0, 1, 0]))
    see("delete?", client.get(f"/games/{pid}/rounds/1/delete", headers=HX))
    see("story", client.get(f"/games/{pid}/story"))
    see("follower", follower.page(pid))
    see("follower may not", follower.bid(pid, 1, 0))
    see("follower may not (page)", follower.bid(pid, 1, 0, htmx=False))
    see("wrong scorer link", follower.client.get(f"/games/{pid}/score/not-the-token"))
    see("deleted", german.post(pid, "rounds/1/delete", htmx=False))
    see("after delete", client.get(f"/games/{pid}"))
    final = _finished_game(app, german)
    see("final standings", client.get(f"/games/{final}"))
    pdf = client.get(f"/games/{final}/pad.pdf").data
    printed = _run(["pdftotext", "-layout"], pdf)

    found = {what: sorted(english_on(body)) for what, body in answers.items()}
    found["printed pad"] = sorted(english_words(printed))
    assert {what: words for what, words in found.items() if words} == {}
