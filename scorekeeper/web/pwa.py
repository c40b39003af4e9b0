"""The installable app: versioned static files, the service worker, the favicon.

Every ``url_for("static", ...)`` gets ``?v=<hash of the file>``; a request that names the
file's current hash may be cached for a year, since a changed file gets a new address.
The service worker precaches the same addresses and serves them from its cache.
Our own scripts and style sheets go out minified (comments and spaces cost a phone on a
slow network more than they help anyone reading them there; the files stay as written).
The scripts every page runs come as one file, ``js/page.js`` (see ``BUNDLES``).
"""

from __future__ import annotations

import hashlib
import json
import mimetypes
import os
from pathlib import Path
from typing import Any
from urllib.parse import quote

import rcssmin  # type: ignore[import-untyped]
import rjsmin  # type: ignore[import-untyped]
from flask import Response, current_app, request, send_from_directory, url_for
from flask.sansio.blueprints import BlueprintSetupState
from markupsafe import Markup
from werkzeug.security import safe_join

from scorekeeper.web import bp

YEAR = 365 * 24 * 60 * 60
# What the service worker precaches: everything a page loads from static/, not the style
# sheets of the printed pad and of a game's picture (only WeasyPrint reads them), the
# worker's own source nor the typeface's licence.
NOT_PRECACHED = {"css/print.css", "css/picture.css", "js/sw.js", "fonts/ledger/OFL.txt"}
# The typeface (static/fonts/) by its type, whatever the system's own table of types says.
mimetypes.add_type("font/woff2", ".woff2")

_hashes: dict[str, tuple[int, int, str]] = {}
_minified: dict[str, tuple[str, bytes]] = {}
_icon: dict[str, str] = {}
ICON = "icons/icon.svg"
MINIFY = {".js": ("text/javascript", rjsmin.jsmin), ".css": ("text/css", rcssmin.cssmin)}
# Files served as one, in this order: every page runs htmx and then app.js, and one request
# instead of two spares a first load a request's and an answer's headers, session cookie
# and all (about 0.85 KB over plain HTTP). The parts stay files of their own.
BUNDLES = {"js/page.js": ("js/htmx-2.0.11.min.js", "js/app.js")}


def _static_root() -> Path:
    return Path(current_app.static_folder or "static")


def _static_path(filename: str) -> Path | None:
    """The file under static/ this name stands for; None for a name that would leave it."""
    joined = safe_join(str(_static_root()), filename)
    return Path(joined) if joined is not None else None


def file_version(filename: str) -> str | None:
    """A short hash of a static file's content (None when there is no such file)."""
    if filename in BUNDLES:
        parts = [file_version(part) or "" for part in BUNDLES[filename]]
        return hashlib.sha256(" ".join(parts).encode()).hexdigest()[:12]
    path = _static_path(filename)
    if path is None:
        return None
    try:
        stat = path.stat()
    except (OSError, ValueError):
        return None
    cached = _hashes.get(str(path))
    if cached and cached[:2] == (stat.st_mtime_ns, stat.st_size):
        return cached[2]
    digest = hashlib.sha256(path.read_bytes()).hexdigest()[:12]
    _hashes[str(path)] = (stat.st_mtime_ns, stat.st_size, digest)
    return digest


def precached_files() -> list[str]:
    """The static files the service worker keeps, as paths relative to static/."""
    root = _static_root()
    files = {p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file()}
    files.update(BUNDLES)
    files.difference_update(*BUNDLES.values())  # no page asks for them alone
    return sorted(f for f in files if f not in NOT_PRECACHED and not f.startswith("."))


def send_static(filename: str) -> Response:
    """A static file; our own scripts and style sheets minified, and scripts minified
    already (htmx) as they are, every file tagged by its version alone (cached per
    version: a short ETag, no Last-Modified, fewer bytes of headers on a first load)."""
    kind = MINIFY.get(Path(filename).suffix)
    body = _minified_body(filename) if kind else None
    if kind is None or body is None:
        return _send_file(filename)
    response = Response(body[1], mimetype=kind[0])
    response.set_etag(body[0])
    response.cache_control.no_cache = True  # revalidate, unless asked for by its version
    response.make_conditional(request)
    return response


def _send_file(filename: str) -> Response:
    """A file as it is (the typeface, an image): nor a name to save it under (a page's
    part is never saved) nor the ranges it may be asked for in (which still work),
    about 150 bytes of headers off the typeface's request."""
    version = file_version(filename)
    if version is None:
        return current_app.send_static_file(filename)  # its 404
    response = send_from_directory(
        _static_root(),
        filename,
        etag=version,
        max_age=current_app.get_send_file_max_age(filename),
    )
    for name in ("Last-Modified", "Content-Disposition", "Accept-Ranges"):
        response.headers.pop(name, None)
    return response


def _minified_body(filename: str) -> tuple[str, bytes] | None:
    """A script's or style sheet's version and body as served (a bundle's parts joined);
    None when there is no such file."""
    version = file_version(filename)
    if version is None:
        return None
    # Kept by the file's own path: the many names of one file ("js/./app.js") share it.
    key = filename if filename in BUNDLES else str(_static_path(filename))
    kept = _minified.get(key)
    if kept is None or kept[0] != version:
        if filename in BUNDLES:
            parts = [_minified_body(part) for part in BUNDLES[filename]]
            # A line apart: the next part starts a statement of its own.
            body = b"\n".join(part[1] for part in parts if part is not None)
        else:
            source = Path(key).read_bytes()
            minify = MINIFY[Path(filename).suffix][1]
            body = source if ".min." in filename else minify(source.decode()).encode()
        kept = _minified[key] = (version, body)
    return kept


@bp.record_once
def _serve_minified(state: BlueprintSetupState) -> None:
    state.app.view_functions["static"] = send_static


@bp.app_template_global("icon_data_uri")
def icon_data_uri() -> Markup:
    """static/icons/icon.svg as a data: URI: the tab icon comes with the page instead of
    costing every first visit a request of its own (about 1.8 KB with its headers)."""
    version = file_version(ICON) or ""
    if _icon.get(version) is None:
        svg = " ".join((_static_root() / ICON).read_text(encoding="utf-8").split())
        _icon.clear()
        _icon[version] = "data:image/svg+xml," + quote(svg.replace('"', "'"), safe=" ='/:,.-")
    # Only letters, digits, %-escapes and ' =/:,.- : safe as it is in a "quoted" attribute.
    return Markup(_icon[version])


@bp.app_url_defaults
def _static_version(endpoint: str, values: dict[str, Any]) -> None:
    if endpoint == "static" and "filename" in values and "v" not in values:
        version = file_version(values["filename"])
        if version:
            values["v"] = version


@bp.after_app_request
def _static_cache(response: Response) -> Response:
    """A static file asked for by its current hash never changes: cache it for a year."""
    if request.endpoint == "static" and response.status_code in (200, 304):
        filename = (request.view_args or {}).get("filename", "")
        if request.args.get("v") and request.args.get("v") == file_version(filename):
            response.headers["Cache-Control"] = f"public, max-age={YEAR}, immutable"
    return response


@bp.get("/sw.js")
def service_worker() -> Response:
    """The service worker, from the site's root so that its scope is every page.

    The list of files to precache and a version over all of them go in front of
    static/js/sw.js: any changed file changes this script, and browsers then install the
    new worker, which fetches the new files and drops the old cache.
    """
    source = (_static_root() / "js" / "sw.js").read_text()
    assets = [url_for("static", filename=f) for f in precached_files()]
    version = hashlib.sha256("\n".join([source, *assets]).encode()).hexdigest()[:12]
    body = f"var VERSION = {json.dumps(version)};\nvar PRECACHE = {json.dumps(assets)};\n" + source
    response = Response(body, mimetype="text/javascript")
    response.headers["Cache-Control"] = "no-cache"
    response.headers["Service-Worker-Allowed"] = url_for("web.home")
    return response


@bp.get("/favicon.ico")
def favicon() -> Response:
    """Browsers ask for /favicon.ico whatever the page links to."""
    return send_from_directory(
        os.path.join(_static_root(), "icons"), "favicon.ico", max_age=24 * 60 * 60
    )
