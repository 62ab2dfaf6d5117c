"""A hostile notebook output in a real browser: packed compiles that inflate to gigabytes
(a few MB of gzip) stop at the extension's limit with a one-line message, promptly, and the
tab stays responsive. Skipped with the reason where the lab extension or chromium is missing."""

from __future__ import annotations

import base64
import struct
import sys
import time
import zlib
from pathlib import Path

import pytest

from tcexplore.document import MIME_TYPE

from ..lab_support import chromium_page, dismiss_kernel_dialog, lab_server, missing, write_notebook

INSTALLED = Path(sys.prefix) / "share" / "jupyter" / "labextensions" / "tcexplore" / "package.json"
REASON = missing() or (None if INSTALLED.exists() else f"the lab extension is not installed at {INSTALLED.parent}")
pytestmark = pytest.mark.skipif(REASON is not None, reason=REASON or "")

INFLATED = 2 * 1024**3  # bytes the packed payload inflates to


def gzip_of_zeros(size: int, chunk: int = 16 * 1024**2) -> bytes:
    """A valid gzip stream of ``size`` zero bytes, made without deflating them all: after a
    full flush the deflater's state is reset, so each chunk deflates to the same bytes."""
    deflater = zlib.compressobj(9, zlib.DEFLATED, -zlib.MAX_WBITS)
    zeros = bytes(chunk)
    block = deflater.compress(zeros) + deflater.flush(zlib.Z_FULL_FLUSH)
    crc = 0
    for _ in range(size // chunk):
        crc = zlib.crc32(zeros, crc)
    body = block * (size // chunk) + deflater.flush(zlib.Z_FINISH)
    header = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x02\xff"
    return header + body + struct.pack("<II", crc, size % 2**32)


def test_the_bomb_is_valid_gzip_of_zeros():
    small = gzip_of_zeros(64 * 1024**2)
    assert zlib.decompress(small, 16 + zlib.MAX_WBITS) == bytes(64 * 1024**2)


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    packed = gzip_of_zeros(INFLATED)
    assert len(packed) * 1000 < INFLATED  # megabytes in the notebook, gigabytes inflated
    hostile = {"schema": "tcexplore/1", "summary": {}, "compiles": [], "graph_breaks": [],
               "packed": {"encoding": "gzip+base64", "data": base64.b64encode(packed).decode()}}
    root = tmp_path_factory.mktemp("lab-root")
    write_notebook(root / "hostile.ipynb", [{MIME_TYPE: hostile, "text/plain": "hostile"}],
                   ["hostile_output"])
    with lab_server(root, tmp_path_factory.mktemp("lab-work")) as lab:
        yield lab


def test_packed_output_inflating_to_gigabytes_stops_with_a_message_and_the_tab_responds(lab, shots):
    with chromium_page() as page:
        page.goto(lab.url("hostile.ipynb"))
        dismiss_kernel_dialog(page)
        message = page.locator(".tcx-unreadable [role=alert]")
        page.locator(".jp-OutputArea-output").first.wait_for(timeout=60_000)
        shown = time.monotonic()
        message.wait_for(timeout=30_000)  # generous for CI; the inflation itself stops at 128 MiB
        print(f"message {time.monotonic() - shown:.2f} s after the output area")
        text = message.inner_text()
        assert text.startswith("This tcexplore output was not unpacked: its packed compiles (")
        assert "inflate to more than 128.0 MiB, the limit (200× the packed size, at most 128.0 MiB)" in text
        started = time.monotonic()
        assert page.evaluate("() => 6 * 7") == 42
        assert time.monotonic() - started < 5  # the tab answers: nothing is still inflating
        page.context.new_cdp_session(page).send("HeapProfiler.collectGarbage")
        heap = page.evaluate("() => performance.memory.usedJSHeapSize")
        assert heap < 256 * 1024**2  # nothing inflated is kept
        page.locator(".jp-Cell").first.screenshot(path=str(shots / "inflation-bounded.png"))
        assert page.errors == []
