"""The engine is the rules of Wizard and nothing else: standard library only, no I/O."""

import ast
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "scorekeeper"
ENGINE = PACKAGE / "engine"

# Standard-library modules that reach outside the process (files, network, processes,
# databases). The engine works on values; storage and transport belong to other layers.
FORBIDDEN_STDLIB = {
    "dbm",
    "ftplib",
    "glob",
    "http",
    "io",
    "os",
    "pathlib",
    "selectors",
    "shelve",
    "shutil",
    "smtplib",
    "socket",
    "socketserver",
    "sqlite3",
    "ssl",
    "subprocess",
    "tempfile",
    "urllib",
    "xmlrpc",
}


def imported_modules(path: Path, package: list[str]) -> list[tuple[int, str]]:
    """Absolute names of the modules imported by the file at `path`, with line numbers.

    `package` is the dotted package the file belongs to, so relative imports resolve.
    """
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            parent = ".".join([*base, node.module] if node.module else base)
            # `from x import y` may import module x.y: name each one, so that
            # `from scorekeeper import engine` passes and `... import models` does not.
            found += [(node.lineno, f"{parent}.{alias.name}") for alias in node.names]
    return found


def layering_violations(engine: Path) -> list[str]:
    """Every import in the package at `engine` that is not stdlib or the engine itself."""
    root = engine.parent.parent
    problems = []
    for path in sorted(engine.rglob("*.py")):
        package = list(path.relative_to(root).parent.parts)
        for lineno, module in imported_modules(path, package):
            where = f"{path.relative_to(root)}:{lineno} imports {module}"
            top = module.partition(".")[0]
            if module == "scorekeeper.engine" or module.startswith("scorekeeper.engine."):
                continue
            if top not in sys.stdlib_module_names:
                problems.append(f"{where} (not the standard library)")
            elif top in FORBIDDEN_STDLIB:
                problems.append(f"{where} (I/O belongs outside the engine)")
    return problems


def test_engine_imports_only_pure_standard_library() -> None:
    modules = sorted(ENGINE.rglob("*.py"))
    assert len(modules) >= 3, f"expected the engine package at {ENGINE}, found {modules}"
    assert layering_violations(ENGINE) == []


@pytest.mark.parametrize(
    ("source", "allowed"),
    [
        ("from __future__ import annotations\nimport enum\n", True),
        ("from dataclasses import dataclass\nimport random\n", True),
        ("from . import cards\nfrom .rules import RuleSet\n", True),
        ("from scorekeeper.engine.cards import Card\nimport scorekeeper.engine\n", True),
        ("from typing import TYPE_CHECKING\nimport collections.abc\n", True),
        ("import flask\n", False),
        ("from sqlalchemy.orm import Mapped\n", False),
        ("import werkzeug\n", False),
        ("from jinja2 import Template\n", False),
        ("from scorekeeper import models\n", False),
        ("from scorekeeper.extensions import db\n", False),
        ("import scorekeeper\n", False),
        ("from scorekeeper import engine\n", True),
        ("from .. import models\n", False),  # relative, but out of the engine
        ("from ..web import bp\n", False),
        ("import os.path\n", False),
        ("from io import StringIO\n", False),
        ("from pathlib import Path\n", False),
        ("import socket\n", False),
        ("import sqlite3\n", False),
        ("import subprocess\n", False),
        ("import shutil\n", False),
        ("from urllib.parse import quote\n", False),
        ("import http.client\n", False),
        ("def f():\n    import os\n", False),  # imports inside functions count too
    ],
)
def test_layering_check_itself(tmp_path: Path, source: str, allowed: bool) -> None:
    engine = tmp_path / "scorekeeper" / "engine"
    engine.mkdir(parents=True)
    (engine / "__init__.py").write_text("")
    (engine / "module.py").write_text(source)
    assert (layering_violations(engine) == []) is allowed


def test_relative_imports_resolve_from_subpackages(tmp_path: Path) -> None:
    sub = tmp_path / "scorekeeper" / "engine" / "variants"
    sub.mkdir(parents=True)
    (sub / "ok.py").write_text("from .. import cards\nfrom ..rules import RuleSet\n")
    assert layering_violations(sub.parent) == []
    (sub / "bad.py").write_text("from ... import models\n")
    [problem] = layering_violations(sub.parent)
    assert "scorekeeper.models" in problem


# A room one can hold in one's head: a module that grows past this is split by its jobs.
MAX_MODULE_LINES = 800


def test_no_module_of_the_app_is_over_800_lines() -> None:
    sizes = {
        str(path.relative_to(PACKAGE.parent)): len(path.read_text(encoding="utf-8").splitlines())
        for path in PACKAGE.rglob("*.py")
    }
    assert sizes  # the package was found
    assert {name: n for name, n in sizes.items() if n > MAX_MODULE_LINES} == {}
