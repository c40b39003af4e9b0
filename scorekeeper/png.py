"""A one-page PDF as a PNG for a phone's screen: PDFium draws it, Pillow packs it.

The picture of a game is laid out like the printed pad, in HTML and CSS through
WeasyPrint (``pdf.html_to_pdf``), which makes PDF only; PDFium (pypdfium2) draws that page
in this process at the width asked for. The picture is flat colour, text and thin lines,
so a palette of a few dozen colours keeps it sharp at a quarter of the bytes of the
full-colour PNG.
"""

from __future__ import annotations

import io

import pypdfium2 as pdfium
from PIL import Image

# Enough for the two looks' colours, the six players' lines and their smoothed edges.
PALETTE = 64


def pdf_to_png(document: bytes, width: int) -> bytes:
    """The first page of ``document`` as a PNG ``width`` pixels wide (the height in
    proportion), packed to a palette of :data:`PALETTE` colours."""
    pdf = pdfium.PdfDocument(document)
    try:
        page = pdf[0]
        bitmap = page.render(scale=width / page.get_width(), may_draw_forms=False)
        image = bitmap.to_pil().convert("RGB")
        page.close()
    finally:
        pdf.close()
    packed = image.quantize(PALETTE, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    out = io.BytesIO()
    packed.save(out, "PNG", optimize=False)
    return out.getvalue()
