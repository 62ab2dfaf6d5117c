import { restartedLabel } from '../model/attempts';
import { createExplorer } from '../view/explorer';
import { fixture } from './fixture';

const TENSORIFY = "<class 'torch._dynamo.exc.TensorifyScalarRestartAnalysis'>";
/** the reason in one line, as capture names it (tcexplore/capture/attempts.py) */
const TENSORIFY_LINE = 'TensorifyScalarRestartAnalysis';

describe('restarted attempts', () => {
  it('labels an attempt with its number and the restart reason capture named, or says it has none', () => {
    const doc = fixture();
    const graph = doc.compiles[0].dynamo_graph!;
    expect(
      restartedLabel(doc.compiles[0], {
        attempt: 0,
        graph,
        reason: TENSORIFY,
        reason_line: TENSORIFY_LINE
      })
    ).toBe(
      `${doc.compiles[0].id} · Dynamo, attempt 0 (restarted: TensorifyScalarRestartAnalysis)`
    );
    expect(
      restartedLabel(doc.compiles[0], { attempt: 1, graph, reason: null })
    ).toBe(`${doc.compiles[0].id} · Dynamo, attempt 1 (restarted)`);
  });

  it("offers each restarted attempt's graph in the Graphs tab, after the last attempt's (shown first)", () => {
    const doc = fixture();
    const c = doc.compiles[0];
    c.restarted_attempts = [
      {
        attempt: 0,
        graph: c.dynamo_graph!,
        reason: TENSORIFY,
        reason_line: TENSORIFY_LINE
      }
    ];
    const root = createExplorer(doc);
    (
      root.querySelector('[role=tab][data-tab=graphs]') as HTMLButtonElement
    ).click();
    const options = [
      ...root.querySelectorAll('[role=tabpanel][data-tab=graphs] select option')
    ].map(o => o.textContent);
    const restarted = options.findIndex(o =>
      o?.startsWith(
        `${c.id} · Dynamo, attempt 0 (restarted: TensorifyScalarRestartAnalysis) (`
      )
    );
    expect(restarted).toBe(1);
    expect(options[0]).toMatch(
      new RegExp(`^${c.id} · Dynamo \\(\\d+ nodes\\)$`)
    );
  });
});
