import { diffRows } from '../model/accuracy';
import { LeafDiff, TcxDocument } from '../model/types';
import { createExplorer } from '../view/explorer';
import { fixture } from './fixture';

const tensor = (path: string, max_abs_err = 0): LeafDiff => ({
  path,
  kind: 'tensor',
  ok: true,
  shape: [1, 2, 8, 16],
  dtype: 'torch.float32',
  max_abs_err,
  max_rel_err: 0,
  mismatched: 0,
  numel: 256,
  state: 'match',
  label: 'match'
});

/**
 * The fixture's first divergence made a torch.randn node, with the verdict and labels
 * Python stores for it (tcexplore/findings/accuracy.py).
 */
function randomDoc(): TcxDocument {
  const doc = fixture();
  const acc = doc.accuracy!;
  acc.first_divergence = {
    ...acc.first_divergence!,
    node: 'x',
    target: 'torch.randn',
    random_ops: ['aten.randn.default']
  };
  acc.cause = 'random';
  acc.random_ops = ['aten.randn.default'];
  acc.fallback_random_option = 'options={"fallback_random": True}';
  acc.outputs = acc.outputs.map(o => ({
    ...o,
    state: 'random',
    label: 'differs (random ops)'
  }));
  acc.verdict = {
    severity: 'warning',
    headline:
      'Compiled outputs differ from eager at a random op: node x (torch.randn) at model.py:11.',
    why: 'Eager and Inductor draw different random numbers (node x runs aten.randn.default), so these values differ by design, not because of a compiler error.',
    advice:
      'To compare them, make Inductor use eager\'s random ops with options={"fallback_random": True}, or create the random tensors outside the compiled code (seeded) and pass them in.'
  };
  return doc;
}

describe('structural accuracy rows', () => {
  it('lists a cache tensor by its path, a value by its type and an object as not compared', () => {
    const rows = diffRows([
      tensor('logits', 4.8e-7),
      tensor('past_key_values.layers[0].keys'),
      {
        path: 'past_key_values.layers[0].is_initialized',
        kind: 'value',
        ok: true,
        type: 'bool',
        expected: 'True',
        actual: 'True',
        state: 'match',
        label: 'match'
      },
      {
        path: '[1]',
        kind: 'not_compared',
        ok: true,
        type: 'builtin_function_or_method',
        state: 'other',
        label: 'not compared'
      },
      {
        path: '',
        kind: 'truncated',
        ok: true,
        omitted: 1200,
        omitted_mismatches: 0,
        limit_reached: false,
        state: 'other',
        label: ''
      },
      {
        path: 'z',
        kind: 'tensor',
        ok: false,
        shape: [6, 4],
        dtype: 'torch.float32',
        max_abs_err: 17.5,
        max_rel_err: null,
        mismatched: 15,
        numel: 24,
        state: 'mismatch',
        label: 'differs'
      }
    ]);
    expect(rows.map(r => [r.path, r.verdict, r.state])).toEqual([
      ['logits', 'match', 'match'],
      ['past_key_values.layers[0].keys', 'match', 'match'],
      ['past_key_values.layers[0].is_initialized', 'match', 'match'],
      ['[1]', 'not compared', 'other'],
      ['…', '', 'other'],
      ['z', 'differs', 'mismatch']
    ]);
    expect(rows[2].detail).toBe('bool True');
    expect(rows[3].detail).toContain('builtin_function_or_method');
    expect(rows[4].detail).toBe(
      '1200 more leaves compared, not listed (truncated)'
    );
    expect(rows[5].maxRel).toBe('∞');
    expect(rows[0].maxRel).toBe('0');
  });
});

describe('random ops', () => {
  it("the Accuracy tab shows the explanation and the node's random ops", () => {
    const root = createExplorer(randomDoc());
    (
      root.querySelector('[role=tab][data-tab=accuracy]') as HTMLButtonElement
    ).click();
    const text =
      (root.querySelector('[role=tabpanel][data-tab=accuracy]') as HTMLElement)
        .textContent ?? '';
    expect(text).toContain('draw different random numbers');
    expect(text).toContain('random ops: aten.randn.default');
    expect(text).not.toContain('Compiled outputs differ from eager.');
    const verdicts = [
      ...root.querySelectorAll(
        '[role=tabpanel][data-tab=accuracy] td:nth-child(2) span'
      )
    ];
    expect(verdicts.map(v => [v.textContent, v.className])).toContainEqual([
      'differs (random ops)',
      'tcx-warning'
    ]);
    expect(
      root.querySelector(
        '[role=tabpanel][data-tab=accuracy] .tcx-accuracy > p'
      )!.className
    ).toBe('tcx-warning');
  });

  it('are not decided again for a document saved before labels were stored: no verdict, a note', () => {
    const doc = randomDoc();
    const acc = doc.accuracy!;
    delete acc.verdict;
    acc.outputs = acc.outputs.map(
      ({ state: _state, label: _label, ...o }) => o
    );
    const root = createExplorer(doc);
    (
      root.querySelector('[role=tab][data-tab=accuracy]') as HTMLButtonElement
    ).click();
    const panel = root.querySelector(
      '[role=tabpanel][data-tab=accuracy]'
    ) as HTMLElement;
    expect(panel.textContent).toContain(
      'saved before tcexplore stored its accuracy verdict'
    );
    expect(
      [...panel.querySelectorAll('td:nth-child(2) span')].map(
        v => v.textContent
      )
    ).toEqual(['']);
  });
});

describe('gradients of a training step', () => {
  function gradientDoc(): TcxDocument {
    const doc = fixture();
    const acc = doc.accuracy!;
    acc.ok = false;
    acc.outputs = [tensor('')];
    acc.inputs_after_call = [];
    acc.gradients = [
      tensor('head.weight'),
      {
        ...tensor('linear.weight', 0.29),
        ok: false,
        mismatched: 16,
        state: 'mismatch',
        label: 'differs'
      }
    ];
    acc.first_divergence = {
      ...acc.first_divergence!,
      node: 'tanh',
      target: 'torch.tanh',
      of: 'gradients',
      gradient_of: 'l_linear_weight_'
    };
    acc.verdict = {
      severity: 'error',
      headline:
        'Compiled outputs match eager, but the gradients of linear.weight differ; first in the backward of node tanh (torch.tanh) at model.py:11.',
      why: null,
      advice: null
    };
    doc.isolation = {
      restored: ['linear: 2 parameters with their .grad'],
      not_restorable: ['files written']
    };
    return doc;
  }

  it('the Accuracy tab lists each parameter, the backward divergence and what was put back', () => {
    const root = createExplorer(gradientDoc());
    (
      root.querySelector('[role=tab][data-tab=accuracy]') as HTMLButtonElement
    ).click();
    const text =
      (root.querySelector('[role=tabpanel][data-tab=accuracy]') as HTMLElement)
        .textContent ?? '';
    expect(text).toContain('Gradients after one training step');
    expect(text).toContain('but the gradients of linear.weight differ');
    const labels = [
      ...root.querySelectorAll(
        '[role=tabpanel][data-tab=accuracy] table:nth-of-type(2) td:nth-child(2) span'
      )
    ];
    expect(labels.map(v => [v.textContent, v.className])).toEqual([
      ['match', 'tcx-ok'],
      ['differs', 'tcx-bad']
    ]);
    expect(text).toContain(
      'diverges in the backward: gradient of graph input l_linear_weight_'
    );
    expect(text).toContain(
      'Put back as they were: linear: 2 parameters with their .grad'
    );
    expect(text).toContain('Not put back: files written');
  });
});

describe('the state a training step left', () => {
  it('the Accuracy tab lists each parameter and optimizer state tensor the step changed', () => {
    const doc = fixture();
    const acc = doc.accuracy!;
    acc.ok = false;
    acc.outputs = [tensor('')];
    acc.inputs_after_call = [];
    acc.state_after_call = [
      tensor('model.weight'),
      {
        ...tensor('opt.state[model.weight].exp_avg', 0.5),
        ok: false,
        mismatched: 4,
        state: 'mismatch',
        label: 'differs'
      }
    ];
    acc.verdict = {
      severity: 'error',
      headline:
        'Compiled outputs match eager, but after the step opt.state[model.weight].exp_avg differ.',
      why: null,
      advice: null
    };
    const root = createExplorer(doc);
    (
      root.querySelector('[role=tab][data-tab=accuracy]') as HTMLButtonElement
    ).click();
    const panel = root.querySelector(
      '[role=tabpanel][data-tab=accuracy]'
    ) as HTMLElement;
    expect(panel.textContent).toContain('State after one training step');
    expect(panel.textContent).toContain('but after the step opt.state');
    const rows = [...panel.querySelectorAll('table:nth-of-type(2) tr')].map(
      r => r.textContent ?? ''
    );
    expect(rows[0]).toMatch(/^state/);
    expect(rows.some(r => r.includes('opt.state[model.weight].exp_avg'))).toBe(
      true
    );
  });
});
