"""Reading PDFs back with Poppler (pdfinfo, pdftotext, pdftoppm) for the pad tests."""

from __future__ import annotations

import re
import subprocess
import tempfile
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

PT_PER_MM = 72 / 25.4
# Page sizes in points, portrait.
PAGE_PTS = {"a4": (595.28, 841.89), "letter": (612.0, 792.0)}
NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"]


def _run(args: list[str], data: bytes) -> str:
    return _run_cached(tuple(args), data)


@lru_cache(maxsize=16)
def _run_cached(args: tuple[str, ...], data: bytes) -> str:
    with tempfile.NamedTemporaryFile(suffix=".pdf") as f:
        f.write(data)
        f.flush()
        return subprocess.run(
            [*args, f.name, *([] if args[0] == "pdfinfo" else ["-"])],
            check=True,
            capture_output=True,
            text=True,
            timeout=30,
        ).stdout


def pdfinfo(data: bytes) -> dict[str, str]:
    out = _run(["pdfinfo"], data)
    return {k.strip(): v.strip() for k, v in (line.split(":", 1) for line in out.splitlines())}


def page_size(data: bytes) -> tuple[float, float]:
    match = re.match(r"([\d.]+) x ([\d.]+) pts", pdfinfo(data)["Page size"])
    assert match, pdfinfo(data)
    return float(match[1]), float(match[2])


def pdftext(data: bytes) -> str:
    """The PDF's text, with typographic minus signs as ASCII hyphens."""
    return _run(["pdftotext", "-layout", "-f", "1", "-l", "1"], data).replace("\u2212", "-")


def story_text(data: bytes) -> str:
    """The text of the second page: the game's story (chart, bids against tricks)."""
    return _run(["pdftotext", "-layout", "-f", "2", "-l", "2"], data).replace("\u2212", "-")


@dataclass(frozen=True)
class Word:
    text: str
    left: float
    top: float
    width: float
    height: float

    @property
    def middle(self) -> float:
        return self.top + self.height / 2


def pdfwords(data: bytes) -> list[Word]:
    words = []
    for line in _run(["pdftotext", "-tsv", "-f", "1", "-l", "1"], data).splitlines()[1:]:
        cols = line.split("\t")
        if cols[0] == "5":
            left, top, width, height = map(float, cols[6:10])
            words.append(Word(cols[11].replace("\u2212", "-"), left, top, width, height))
    return words


def pad_rows(data: bytes, rounds: int) -> dict[int, list[str]]:
    """The words of each round's row, left to right, keyed by round number.

    A row is found by its round number in the pad's first column; every word whose middle
    lies within half a row of it belongs to it.
    """
    words = pdfwords(data)
    head = next(w for w in words if w.text == "Round")
    firsts: dict[int, Word] = {}
    for w in words:
        if abs(w.left + w.width / 2 - (head.left + head.width / 2)) < 8 and w.text.isdigit():
            firsts.setdefault(int(w.text), w)
    assert sorted(firsts) == list(range(1, rounds + 1)), sorted(firsts)
    pitch = (firsts[rounds].middle - firsts[1].middle) / max(1, rounds - 1)
    rows = {}
    for number, first in firsts.items():
        band = [w for w in words if abs(w.middle - first.middle) < pitch * 0.45]
        rows[number] = [w.text for w in sorted(band, key=lambda w: w.left)]
    return rows


def row_pitch_mm(data: bytes, rounds: int) -> float:
    """The distance between two rounds' rows on the page."""
    words = pdfwords(data)
    head = next(w for w in words if w.text == "Round")
    column = [
        w
        for w in words
        if abs(w.left + w.width / 2 - (head.left + head.width / 2)) < 8 and w.text.isdigit()
    ]
    first = next(w for w in column if w.text == "1")
    last = next(w for w in column if w.text == str(rounds))
    return (last.middle - first.middle) / (rounds - 1) / PT_PER_MM


@dataclass(frozen=True)
class GrayPage:
    """The first page rendered in grey (0 black, 255 white), ``dpi`` pixels to the inch."""

    width: int
    height: int
    dpi: int
    pixels: bytes

    def dark(self, left: float, top: float, right: float, bottom: float) -> int:
        """How many pixels darker than the pad's bid column (a pale beige) lie in the box
        given in points, as pdfwords gives them."""
        scale = self.dpi / 72
        x0, x1 = max(0, round(left * scale)), min(self.width, round(right * scale))
        y0, y1 = max(0, round(top * scale)), min(self.height, round(bottom * scale))
        return sum(
            1
            for y in range(y0, y1)
            for value in self.pixels[y * self.width + x0 : y * self.width + x1]
            if value < 170
        )


def gray_page(data: bytes, dpi: int = 144) -> GrayPage:
    """The first page as a grey-level picture (pdftoppm's PGM)."""
    with tempfile.TemporaryDirectory() as folder:
        pdf = Path(folder) / "pad.pdf"
        pdf.write_bytes(data)
        subprocess.run(
            ["pdftoppm", "-gray", "-r", str(dpi), "-singlefile", str(pdf), f"{folder}/page"],
            check=True,
            timeout=30,
        )
        raw = (Path(folder) / "page.pgm").read_bytes()
    magic, width, height, depth, pixels = raw.split(maxsplit=4)
    assert magic == b"P5" and depth == b"255", raw[:20]
    return GrayPage(int(width), int(height), dpi, pixels)


def save_png(data: bytes, folder: Path, name: str) -> Path:
    """Render the first page at 80 dpi into ``folder`` (test artifacts, to look at). Each
    file is written under a name of its own and then moved into place, so that the SQLite
    and PostgreSQL passes, which run at the same time, never read each other's half."""
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=folder) as scratch:
        pdf = Path(scratch) / "page.pdf"
        pdf.write_bytes(data)
        subprocess.run(
            ["pdftoppm", "-png", "-r", "80", "-singlefile", str(pdf), str(Path(scratch) / "page")],
            check=True,
            timeout=30,
        )
        pdf.replace(folder / f"{name}.pdf")
        (Path(scratch) / "page.png").replace(folder / f"{name}.png")
    return folder / f"{name}.png"


def assert_valid_pdf(
    data: bytes, paper: str, landscape: bool | None = None, pages: int = 1
) -> None:
    """``pages`` pages of ``paper`` (the pad on the first), in the orientation asked for
    (either when ``None``)."""
    assert data.startswith(b"%PDF-"), data[:20]
    assert data.rstrip().endswith(b"%%EOF")
    assert pdfinfo(data)["Pages"] == str(pages)
    width, height = page_size(data)
    short, long = PAGE_PTS[paper]
    if landscape is None:
        landscape = width > height
    expected = (long, short) if landscape else (short, long)
    assert abs(width - expected[0]) < 1 and abs(height - expected[1]) < 1, (width, height)


def signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def r16(bid: int, took: int) -> int:
    """R16, restated for the tests: 20 + 10 per trick if exact, else −10 per trick off."""
    return 20 + 10 * took if bid == took else -10 * abs(bid - took)
