"""The self-contained HTML report (tcexplore.render.html), from real torch.compile runs."""

from __future__ import annotations

import copy
import html
import re
from html.parser import HTMLParser

import pytest
import torch

import tcexplore
from tcexplore.render.html import MAX_ROWS, MAX_TEXT_CHARS, render_html

HOSTILE = "<img src=x onerror=alert(1)>"
SCRIPT = '"><script>alert(1)</script>'


def breaks_and_recompiles(x):
    y = x.sin()
    print("tcexplore test: graph break")
    return y.cos() + 1


def hostile(x):
    y = x + 1
    print("<img src=x onerror=alert(1)>")
    return y * 2


def always_fails(gm, example_inputs):
    raise RuntimeError("<script>alert(1)</script>")


def fails(x):
    return x.sin() + 1


@pytest.fixture(scope="module")
def document():
    torch._dynamo.reset()
    with tcexplore.capture() as session:
        compiled = torch.compile(breaks_and_recompiles)
        compiled(torch.randn(4))
        compiled(torch.randn(8))  # new size: a recompile
        torch.compile(hostile, backend="eager")(torch.randn(3))
    torch._dynamo.reset()
    return session.document


@pytest.fixture(scope="module")
def report(document):
    return render_html(document)


@pytest.fixture(scope="module")
def failed_document():
    torch._dynamo.reset()
    with pytest.raises(Exception):  # noqa: B017, PT011 - torch wraps it in BackendCompilerFailed
        with tcexplore.capture() as session:
            torch.compile(fails, backend=always_fails)(torch.randn(3))
    torch._dynamo.reset()
    return session.document


class _Balance(HTMLParser):
    VOID = {"br", "meta", "hr", "img", "input", "link", "wbr"}

    def __init__(self):
        super().__init__()
        self.stack: list[str] = []
        self.errors: list[tuple] = []

    def handle_starttag(self, tag, attrs):
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag):
        if self.stack and self.stack[-1] == tag:
            self.stack.pop()
        else:
            self.errors.append((tag, self.stack[-3:], self.getpos()))


def _kernels(document):
    return [k for c in document.compiles for o in c["output_codes"] for k in o["kernels"]
            if k["kind"] != "extern"]


def _map_strings(value, fn):
    if isinstance(value, str):
        return fn(value)
    if isinstance(value, list):
        return [_map_strings(v, fn) for v in value]
    if isinstance(value, dict):
        return {k: _map_strings(v, fn) for k, v in value.items()}
    return value


def test_document_has_what_the_tests_need(document):
    summary = document.summary
    assert summary["graph_breaks"] >= 2 and summary["recompiles"] >= 1
    assert _kernels(document)
    stack_code = [loc.get("code") or "" for b in document.data["graph_breaks"]
                  for loc in b["user_stack"]]
    assert any(HOSTILE in code for code in stack_code)


def test_sections_and_content(document, report):
    assert '<div class="tcx-report">' in report
    assert 'class="tcx-section tcx-overview" id="tcx-overview" open' in report
    assert 'class="tcx-section tcx-graph-breaks" id="tcx-graph-breaks"' in report
    for compile_ in document.compiles:
        anchor = html.escape(f"tcx-compile-{compile_['id']}", quote=True)
        assert f'class="tcx-section tcx-compile" id="{anchor}"' in report
    for brk in document.data["graph_breaks"]:
        assert html.escape(brk["reason"].splitlines()[-1], quote=True) in report
        assert html.escape(brk["explanation"], quote=True) in report
    for kernel in _kernels(document):
        assert html.escape(kernel["name"], quote=True) in report
    reasons = [r for c in document.compiles for group in c["recompile_reasons"] for r in group]
    assert reasons
    for reason in reasons:
        assert html.escape(reason["guard"], quote=True) in report
    for title in ("Dynamo graph", "Guards", "AOT graphs", "Post-grad graphs", "Output code",
                  "Compile time", "Recompile reasons", "Symbols"):
        assert f"<summary>{title}" in report, title
    # Kernel source is highlighted by Pygments with inline styles (no external CSS).
    assert '<pre class="tcx-code"><span style="' in report


def test_findings_list_is_the_documents(document, report):
    titles = re.findall(r'<span class="tcx-finding-title">([^<]*)</span>', report)
    assert titles == [html.escape(f["title"], quote=True) for f in document.data["findings"]]
    kinds = [f["kind"] for f in document.data["findings"]]
    assert kinds.count("graph_break") == len(document.graph_break_audit()) > 0
    assert "recompile" in kinds


def test_only_overview_is_open(report):
    opened = re.findall(r'<details class="tcx-section[^"]*"[^>]*>', report)
    assert opened and all((" open" in tag) == ("tcx-overview" in tag) for tag in opened)


def test_html_is_balanced(report):
    parser = _Balance()
    parser.feed(report)
    parser.close()
    assert parser.errors == [] and parser.stack == []


def test_hostile_source_line_is_escaped(report):
    assert "<img src=x onerror" not in report
    assert "&lt;img src=x onerror=alert(1)&gt;" in report


@pytest.mark.invariants_exempt("every string is made hostile, severities included")
def test_every_document_string_is_escaped(document):
    data = _map_strings(copy.deepcopy(document.data), lambda s: s + SCRIPT + HOSTILE)
    data["graph_breaks"][0]["link"] = "javascript:alert(1)"
    data["compiles"][0]["symbols"].append({SCRIPT: HOSTILE})
    page = render_html(tcexplore.Document(data, check=False))
    assert "<script" not in page
    assert "<img" not in page
    assert 'href="javascript' not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page


def test_failed_compile_and_capture_error(failed_document):
    page = render_html(failed_document)
    assert failed_document.summary["failures"] == 1
    assert '<div class="tcx-error">' in page
    assert 'data-kind="failed_compile"' in page and "failed: BackendCompilerFailed" in page
    assert "BackendCompilerFailed" in page
    assert "<summary>Traceback</summary>" in page
    assert "<script>alert" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "tcx-status-failed" in page


def test_big_graph_is_cut_with_a_marker(document):
    data = copy.deepcopy(document.data)
    compile_ = next(c for c in data["compiles"] if c["dynamo_graph"])
    nodes = compile_["dynamo_graph"]["nodes"]
    nodes.extend({"name": f"extra_{i}", "op": "call_function", "target": "torch.add",
                  "args": [], "users": [], "meta": None, "source": None}
                 for i in range(MAX_ROWS + 100))
    hidden = len(nodes) - MAX_ROWS
    page = render_html(tcexplore.Document(data))
    assert f"… {hidden} more rows not shown (truncated)" in page
    assert "<code>extra_0</code>" in page
    assert f"<code>extra_{MAX_ROWS + 99}</code>" not in page


def test_big_text_is_cut_and_capture_truncation_shown(document):
    data = copy.deepcopy(document.data)
    compile_ = next(c for c in data["compiles"] if c["output_codes"])
    output = compile_["output_codes"][0]
    output["text"] = "x = 1\n" * (MAX_TEXT_CHARS // 3)
    graph = compile_["dynamo_graph"]
    graph["truncated"], graph["chars"] = True, len(graph["text"]) * 10
    page = render_html(tcexplore.Document(data))
    assert "more characters not shown (truncated)" in page
    assert "(truncated in the document)" in page


def test_fragment_and_scoped_style(report, document):
    fragment = render_html(document, full_page=False)
    assert fragment.startswith('<div class="tcx-report">')
    assert "<!DOCTYPE" not in fragment and "<body" not in fragment
    style = re.search(r"<style>(.*?)</style>", fragment, re.S).group(1)
    selectors = re.findall(r"([^{}]+)\{", style)
    assert selectors
    for group in selectors:
        for selector in group.split(","):
            assert selector.strip().startswith(".tcx-report"), selector


def test_save_writes_a_full_self_contained_page(document, tmp_path):
    path = document.save(tmp_path / "x.html")
    page = path.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>")
    assert page.rstrip().endswith("</html>")
    assert '<div class="tcx-report">' in page
    for external in ("<script", "<link", "@import", "url(", "<iframe"):
        assert external not in page


def test_dead_nodes_are_named_apart_from_unmapped_ones(document):
    data = copy.deepcopy(document.data)
    output = next(o for c in data["compiles"] for o in c["output_codes"])
    output["dead_nodes"] = ["exp_<b>default"]
    page = render_html(tcexplore.Document(data))  # the schema takes the list
    assert "never computed: nothing uses their value" in page
    assert "exp_&lt;b&gt;default" in page and "exp_<b>" not in page


def test_a_big_report_shows_the_first_compiles_in_full_and_lists_the_rest(document,
                                                                          monkeypatch):
    from tcexplore.render import html as report_module

    first, *rest = [c["id"] for c in document.compiles]
    monkeypatch.setattr(report_module, "MAX_FULL_COMPILES", 1)
    page = render_html(document)
    assert f'id="tcx-compile-{first}"' in page
    assert not any(f'id="tcx-compile-{cid}"' in page for cid in rest)
    assert f"Compiles not shown in full ({len(rest)})" in page
    assert "tcexplore import LOG --compile ID --html OUT.html" in page
    chosen = render_html(document, compiles=[rest[-1]])
    assert f'id="tcx-compile-{rest[-1]}"' in chosen and f'id="tcx-compile-{first}"' not in chosen
    checker = _Balance()
    checker.feed(page)
    assert not checker.errors
