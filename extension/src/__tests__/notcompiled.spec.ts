import { OLD_GROUPS_NOTE } from '../model/notcompiled';
import { TcxDocument } from '../model/types';
import { createExplorer } from '../view/explorer';
import { fixture } from './fixture';

const SKIPPED = {
  function: '_call_impl',
  file: '/venv/torch/nn/modules/module.py',
  line: 1780,
  category: 'skipfiles' as const,
  reason: 'frame is in the Dynamo skipfiles list',
  advice: 'wrap the built-in layer in your own nn.Module or function'
};

function nothingCompiledDoc(): TcxDocument {
  const doc = fixture();
  return {
    ...doc,
    accuracy: undefined,
    compiles: [],
    graph_breaks: [],
    summary: { ...doc.summary, graphs: 0, graph_breaks: 0, recompiles: 0 },
    not_compiled: [
      SKIPPED,
      { ...SKIPPED, function: '<b>forward</b>', line: null }
    ],
    // as Python grouped them (tcexplore/findings/not_compiled_groups.py)
    not_compiled_groups: {
      title:
        'Not compiled: 2 frames ran without compiled code (nothing was compiled)',
      open: true,
      groups: [[0, 1]]
    }
  };
}

describe('frames that were not compiled', () => {
  it("shows each frame, its file, torch's reason and what to do on the Overview, as text", () => {
    const root = createExplorer(nothingCompiledDoc());
    const block = root.querySelector('.tcx-not-compiled') as HTMLDetailsElement;
    expect(block.open).toBe(true);
    expect(block.textContent).toContain(
      'frame is in the Dynamo skipfiles list'
    );
    expect(block.textContent).toContain('wrap the built-in layer');
    expect(block.textContent).toContain('module.py:1780');
    expect(block.querySelector('b')).toBeNull();
    expect(block.querySelectorAll('tbody tr').length).toBe(1); // one reason, one row
    expect(block.textContent).toContain('and 1 more frame: <b>forward</b>');
    expect(
      createExplorer(fixture()).querySelector('.tcx-not-compiled')
    ).toBeNull();
    const old = { ...nothingCompiledDoc(), not_compiled_groups: undefined };
    expect(
      createExplorer(old).querySelector('.tcx-not-compiled')!.textContent
    ).toContain(OLD_GROUPS_NOTE);
  });
});
