"""New event kinds, huge graphs and a parse problem never lose a capture."""

import pytest
import torch

import tcexplore
from tcexplore.capture.parsers.fx_text import parse_graph


@pytest.fixture
def session():
    torch.compiler.reset()  # the same code object compiled before would not compile again
    with tcexplore.capture() as session:
        torch.compile(lambda x: (x + 2).relu(), backend="aot_eager")(torch.randn(6))
    return session


def test_unknown_event_kinds_are_counted_and_kept(session):
    frame = session.events[0]
    session.add({"brand_new_event": {}, "frame_id": frame.frame_id,
                 "frame_compile_id": frame.frame_compile_id, "attempt": 0}, "payload")
    document = session.document
    assert document.data["unknown_events"]["brand_new_event"] == 1
    assert document.compiles[0]["artifacts"]["brand_new_event"] == 1
    assert document.summary["graphs"] == 1


def test_graph_over_the_node_limit_is_marked_truncated(session):
    text = session.document.compiles[0]["dynamo_graph"]["text"]
    graph = parse_graph(text, max_nodes=2)
    assert graph["nodes_truncated"] is True
    assert [n["op"] for n in graph["nodes"]][-1] == "output"
    assert len([n for n in graph["nodes"] if n["op"] != "output"]) == 2


def test_document_reports_events_and_environment(session):
    document = session.document
    assert document.data["capture"]["events"] > 0
    assert document.data["capture"]["unread"]["events"] == 0
    assert document.data["summary"]["unread_events"] == 0
    assert document.data["environment"]["torch"] == torch.__version__


def test_a_loaded_document_displays_as_the_notebook_bundle(session, tmp_path):
    from tcexplore.measure.exploration import MIME_TYPE

    loaded = tcexplore.load(session.document.save(tmp_path / "doc.json"))
    bundle = loaded._repr_mimebundle_()
    assert set(bundle) == {MIME_TYPE, "text/html", "text/plain"}
    assert "tcx-report" in bundle["text/html"] and "graphs=1" in bundle["text/plain"]


def test_a_built_document_is_not_revalidated_but_is_valid(monkeypatch):
    # Validation is for documents read from outside; what capture builds is checked here.
    import tcexplore.document as document_module

    torch.compiler.reset()
    with pytest.raises(KeyboardInterrupt), tcexplore.capture() as session:
        torch.compile(lambda x: x.cos() + 1)(torch.randn(5))
        raise KeyboardInterrupt

    def refuse(data):
        raise AssertionError("a built document was validated again")

    monkeypatch.setattr(document_module, "validate", refuse)
    document = session.document
    monkeypatch.undo()
    document_module.validate(document.data)
    assert document.data["error"]["type"] == "KeyboardInterrupt"
    assert document.summary["output_codes"] == 1 and document.summary["unmapped_nodes"] == 0
