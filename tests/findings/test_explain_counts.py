"""Why tcexplore's counts differ from torch._dynamo.explain (documented in README)."""

import torch

import tcexplore


def f(x):
    y = x.sin()
    print("break")
    return y.cos()


def test_explain_counts_one_trace_while_capture_counts_every_compile():
    explained = torch._dynamo.explain(f)(torch.randn(4))
    torch.compiler.reset()
    with tcexplore.capture() as session:
        fn = torch.compile(f, backend="aot_eager", dynamic=False)
        for n in (4, 5, 6):
            fn(torch.randn(n))
    torch.compiler.reset()
    summary = session.document.summary
    assert (explained.graph_count, explained.graph_break_count) == (2, 1)
    # Three compiles of f, each breaking once and compiling the resumed frame too.
    assert summary["graph_breaks"] == 3
    assert summary["graphs"] == 6
    assert summary["recompiles"] == 4
