"""Bounded inflation in the Python loader: ``.json.gz`` documents and notebook outputs with
packed compiles are read within a stated limit; a gzip bomb is a clear error, read no further."""

from __future__ import annotations

import gzip
import json
import zlib
from pathlib import Path

import pytest

import tcexplore
from tcexplore.document import DocumentError
from tcexplore.files.inflate import MAX_INFLATE_RATIO, inflate_gzip, inflate_limit
from tcexplore.render import notebook
from tcexplore.render.notebook import display_document, unpack

from ..cli.test_malformed_input import _cli, _one_line_exit_2

DOCUMENT = Path(__file__).parents[1] / "fixtures" / "docdiff" / "gelu.json"


def _bomb(inflated_mib: int) -> bytes:
    """gzip of that many MiB of spaces, built a MiB at a time (~1000x smaller)."""
    deflater = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    chunk = b" " * (1024 * 1024)
    return b"".join([deflater.compress(chunk) for _ in range(inflated_mib)] + [deflater.flush()])


def test_limit_is_relative_to_the_packed_size_and_absolute():
    assert inflate_limit(1000) == MAX_INFLATE_RATIO * 1000
    assert inflate_limit(10**9) == 512 * 1024 * 1024


def test_a_gzipped_document_loads_like_the_plain_one(tmp_path):
    packed = tmp_path / "doc.json.gz"
    packed.write_bytes(gzip.compress(DOCUMENT.read_bytes()))
    assert tcexplore.load(packed).data == tcexplore.load(DOCUMENT).data


def test_a_gzip_bomb_is_refused_naming_the_limit(tmp_path):
    bomb = _bomb(64)
    assert len(bomb) * MAX_INFLATE_RATIO < 64 * 1024 * 1024
    path = tmp_path / "bomb.json.gz"
    path.write_bytes(bomb)
    with pytest.raises(DocumentError, match=r"bomb\.json\.gz .*inflates to more than .*the limit "
                                            r"\(200x the packed size, at most 512\.0 MiB\); not read"):
        tcexplore.load(path)


def test_a_cut_gzip_file_is_a_clear_error(tmp_path):
    path = tmp_path / "cut.json.gz"
    path.write_bytes(gzip.compress(DOCUMENT.read_bytes())[:-200])
    with pytest.raises(DocumentError, match="cut short"):
        tcexplore.load(path)


def test_a_saved_notebook_output_loads_with_its_compiles_unpacked(tmp_path, monkeypatch):
    data = tcexplore.load(DOCUMENT).data
    monkeypatch.setattr(notebook, "PACK_OVER", 1000)
    shown = display_document(data)
    assert shown["compiles"] == [] and "packed" in shown
    path = tmp_path / "output.json"
    path.write_text(json.dumps(shown))
    assert tcexplore.load(path).data["compiles"] == unpack(shown)["compiles"] != []


def test_a_notebook_output_whose_packed_compiles_are_a_bomb_is_refused(tmp_path):
    import base64

    shown = dict(tcexplore.load(DOCUMENT).data, compiles=[],
                 packed={"encoding": "gzip+base64", "data": base64.b64encode(_bomb(64)).decode()})
    path = tmp_path / "hostile.json"
    path.write_text(json.dumps(shown))
    with pytest.raises(DocumentError, match="packed compiles .* inflates to more than"):
        tcexplore.load(path)
    with pytest.raises(ValueError, match="inflates to more than"):
        unpack(shown)


def test_inflation_never_produces_more_than_the_limit():
    packed = gzip.compress(b"0" * 100_000)
    with pytest.raises(ValueError, match=rf"inflates to more than {len(packed) * 200 / 1024:.1f} KiB"):
        inflate_gzip(packed, "x")


def test_the_commands_refuse_a_bomb_in_one_line(tmp_path):
    (tmp_path / "bomb.json.gz").write_bytes(_bomb(64))
    (tmp_path / "gelu.json").write_bytes(DOCUMENT.read_bytes())
    _one_line_exit_2(_cli("diff", "bomb.json.gz", "gelu.json", cwd=tmp_path),
                     "bomb.json.gz", "inflates to more than")
