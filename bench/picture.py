"""Benchmark of the picture of a game (/games/<id>/picture.png).

Measures, in one run on one machine (absolute numbers drift on shared machines, so each
render is also given as a ratio to WeasyPrint rendering a one-line page in the same run):

- the first request for a finished game's picture (6 players with long names, 10 rounds;
  3 players, 20 rounds), the page cache off: load, lay out twice, draw, pack;
- its parts for the 6-player game: laying the page out to measure it, writing the PDF
  with the chart, PDFium drawing it and Pillow packing the PNG; and, where Poppler's
  pdftoppm is installed, the same PDF drawn by it instead (a process per picture);
- the picture asked for again: 200 from the page cache, and 304 to If-None-Match;
- the bytes of each picture in both looks.

Targets: first request ≤ 1 s, kept ≤ 20 ms, ≤ 300 KB.

    python bench/picture.py               # 5 renders of each, 200 kept requests
    python bench/picture.py --repeat 3 --json
"""

from __future__ import annotations

import argparse
import io
import json
import logging
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from flask import render_template  # noqa: E402
from flask_migrate import upgrade  # noqa: E402
from PIL import Image  # noqa: E402

from bench.pdf import ONE_LINE, bench_app, median_seconds  # noqa: E402
from scorekeeper import pdf, png, transaction  # noqa: E402
from scorekeeper.engine import RuleSet  # noqa: E402
from scorekeeper.services import games  # noqa: E402
from scorekeeper.services.padview import pad_view  # noqa: E402
from scorekeeper.web import picture  # noqa: E402

LONG_NAMES = [
    "Maximiliane-Charlotte von Hohenzollern",
    "Bartholomäus Grünewald-Steinbach",
    "Dorothea Friederike Wilhelmine",
    "Eve",
    "Friedrich Wilhelm Zacharias Ott",
    "Kunigunde von Schwarzenberg-Lo",
]


def _finished(names: list[str]) -> str:
    game, _ = games.create_game(names, 0, RuleSet())
    plan = games.sheet_of(game).plan
    for number, cards in enumerate(plan, start=1):
        taker = number % len(names)
        tricks = [cards if seat == taker else 0 for seat in range(len(names))]
        bids = [cards if seat == taker else (seat + number) % 2 for seat in range(len(names))]
        games.record_round(game, bids, tricks, None if number == len(plan) else "red")
    return game.public_id


def _pdftoppm(document: bytes) -> bytes:
    return subprocess.run(
        ["pdftoppm", "-png", "-singlefile", "-scale-to-x", "1080", "-scale-to-y", "-1", "-"],
        input=document,
        capture_output=True,
        check=True,
        timeout=60,
    ).stdout


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="renders of each kind (5)")
    parser.add_argument("--kept", type=int, default=200, help="requests of a kept one (200)")
    parser.add_argument("--json", action="store_true", help="end with one JSON line")
    args = parser.parse_args(argv)
    logging.disable(logging.INFO)  # alembic tells each migration it runs

    with tempfile.TemporaryDirectory() as tmp:
        app = bench_app(tmp)
        static = Path(app.static_folder or "static")
        client = app.test_client()
        with app.app_context(), transaction.atomic():
            upgrade()
            six = _finished(LONG_NAMES)
            three = _finished(["Ann", "Ben", "Cat"])
        six_url, three_url = (f"/games/{g}/picture.png" for g in (six, three))

        def one_line() -> None:
            pdf.html_to_pdf(ONE_LINE, static)

        def first(url: str) -> Callable[[], None]:
            def get() -> None:
                response = client.get(url)
                assert response.status_code == 200, response.status_code

            return get

        # Every picture drawn: none kept (until the kept requests).
        app.config["PAGE_CACHE"] = False
        for warm in (one_line, first(six_url), first(three_url)):  # fonts, first imports
            warm()
        one_s, six_s, three_s = [], [], []
        for _ in range(args.repeat):  # interleaved: a busy spell hits every kind alike
            one_s.append(median_seconds(one_line, 3))
            six_s.append(median_seconds(first(six_url), 1))
            three_s.append(median_seconds(first(three_url), 1))
        one = statistics.median(one_s)
        six_t, three_t = statistics.median(six_s), statistics.median(three_s)

        # The parts of the 6-player picture.
        with app.test_request_context():
            game = games.get_game(six)
            context = picture.picture_context(pad_view(game), "light")
            html = render_template("games/picture.html", **context)
            measure_t = median_seconds(lambda: pdf.first_page_anchors(html, static), args.repeat)
            document = picture.render_pdf(game, "light")
            write_t = median_seconds(lambda: picture.render_pdf(game, "light"), args.repeat)
            write_t = max(0.0, write_t - measure_t)
            draw_t = median_seconds(lambda: png.pdf_to_png(document, picture.WIDTH), args.repeat)
            pdftoppm_t = None
            if shutil.which("pdftoppm"):
                pdftoppm_t = median_seconds(lambda: _pdftoppm(document), args.repeat)
                poppler_bytes = len(_pdftoppm(document))

        sizes = {}
        for name, url in (("6p", six_url), ("3p", three_url)):
            for look in picture.LOOKS:
                body = client.get(f"{url}?look={look}").data
                image = Image.open(io.BytesIO(body))
                assert image.size == (1080, 1920), image.size
                sizes[f"{name}_{look}_kb"] = round(len(body) / 1024, 1)

        app.config["PAGE_CACHE"] = True
        etag = client.get(six_url).headers["ETag"]

        def kept() -> None:
            assert client.get(six_url).status_code == 200

        def not_modified() -> None:
            assert client.get(six_url, headers={"If-None-Match": etag}).status_code == 304

        kept_ms = median_seconds(kept, args.kept) * 1000
        not_modified_ms = median_seconds(not_modified, args.kept) * 1000

    largest = max(sizes.values())
    result: dict[str, object] = {
        "one_line_s": round(one, 4),
        "first_6p_s": round(six_t, 4),
        "first_3p_s": round(three_t, 4),
        "first_6p_ratio": round(six_t / one, 1),
        "first_3p_ratio": round(three_t / one, 1),
        "measure_s": round(measure_t, 4),
        "write_pdf_s": round(write_t, 4),
        "pdfium_png_s": round(draw_t, 4),
        "pdftoppm_s": None if pdftoppm_t is None else round(pdftoppm_t, 4),
        "kept_ms": round(kept_ms, 2),
        "not_modified_ms": round(not_modified_ms, 2),
        "largest_kb": largest,
        **sizes,
        "repeat": args.repeat,
    }
    print(f"one-line page (WeasyPrint)   {one:8.3f} s")
    print(
        f"first, 6 long names, 10 r.   {six_t:8.3f} s  {six_t / one:5.1f}× one line  target ≤ 1 s"
    )
    print(f"first, 3 players, 20 rounds  {three_t:8.3f} s  {three_t / one:5.1f}× one line")
    print(f"  laying out to measure      {measure_t:8.3f} s")
    print(f"  the PDF with its chart     {write_t:8.3f} s")
    print(f"  PDFium draws, Pillow packs {draw_t:8.3f} s")
    if pdftoppm_t is not None:
        print(
            f"  (pdftoppm instead         {pdftoppm_t:8.3f} s  {pdftoppm_t / draw_t:5.1f}× PDFium,"
            f" {poppler_bytes / 1024:.0f} KB unpacked)"
        )
    print(f"kept: 200                    {kept_ms:8.2f} ms                target ≤ 20 ms")
    print(f"kept: 304                    {not_modified_ms:8.2f} ms")
    print("bytes: " + ", ".join(f"{k[:-3]} {v} KB" for k, v in sizes.items()) + "  target ≤ 300 KB")
    if args.json:
        print(json.dumps(result))


if __name__ == "__main__":
    main()
