import {
  KernelRequest,
  kernelRequest,
  parseReply,
  REPLY_MARK,
  reproducerStatement
} from '../model/workbench';
import { createExplorer } from '../view/explorer';
import { fixture } from './fixture';

function open(root: HTMLElement, tab: string): HTMLElement {
  (
    root.querySelector(`[role=tab][data-tab=${tab}]`) as HTMLButtonElement
  ).click();
  return root.querySelector(`[role=tabpanel][data-tab=${tab}]`) as HTMLElement;
}

const settle = () => new Promise(resolve => setTimeout(resolve, 0));

describe('open as cell', () => {
  it('asks for a kernel by its output code and index, as data in one Python string literal', () => {
    const doc = fixture();
    doc.compiles[0].output_codes[0].text = 'x = """\'\\\n</script>\u2028"""';
    const request = kernelRequest(doc, 0, 0, 1);
    expect(request).toMatchObject({
      compile_id: '0/0',
      kernel: 1,
      environment: { torch: '2.13.0' }
    });
    expect(request.output.text).toBe(doc.compiles[0].output_codes[0].text);
    expect(request.output.custom_ops).toEqual([]);
    doc.compiles[0].output_codes[0].custom_ops = [
      { op: 'tcx::op', module: 'tcx_lib.ops' }
    ];
    expect(kernelRequest(doc, 0, 0, 1).output.custom_ops).toEqual([
      { op: 'tcx::op', module: 'tcx_lib.ops' }
    ]);
    const statement = reproducerStatement(request);
    const literal = statement.slice(
      statement.indexOf('(', statement.indexOf('print_reproducer')) + 1,
      -1
    );
    expect(literal.startsWith('"') && literal.endsWith('"')).toBe(true);
    expect(JSON.parse(JSON.parse(literal))).toEqual(request);
    expect(literal).not.toMatch(/[\n\r]/);
  });

  it("reads the reproducer, or tcexplore's error, from what the kernel printed", () => {
    expect(
      parseReply(
        `noise\n${REPLY_MARK}${JSON.stringify({ cell: 'print(1)\n' })}\n`
      )
    ).toBe('print(1)\n');
    expect(() =>
      parseReply(`${REPLY_MARK}${JSON.stringify({ error: "no kernel 'x'" })}`)
    ).toThrow("no kernel 'x'");
    expect(() => parseReply('ModuleNotFoundError')).toThrow(
      'tcexplore gave no reproducer: ModuleNotFoundError'
    );
  });

  it('is offered only where the page can insert cells', () => {
    const root = createExplorer(fixture());
    expect(open(root, 'code').querySelector('.tcx-open-cell')).toBeNull();
  });

  it('sends the shown kernel from the Code tab and says when the cell is in', async () => {
    const requests: KernelRequest[] = [];
    const root = createExplorer(fixture(), {
      host: {
        openAsCell: async request => {
          requests.push(request);
        }
      }
    });
    const code = open(root, 'code');
    const button = code.querySelector('.tcx-open-cell') as HTMLButtonElement;
    expect(code.querySelector('h4')?.textContent).toContain('cpp_fused_relu_0');
    button.click();
    await settle();
    expect(requests.map(r => r.kernel)).toEqual([1]);
    expect(requests[0].output.text).toContain('def call(args)');
    expect(code.querySelector('.tcx-open-status')?.textContent).toContain(
      'inserted below'
    );
  });

  it('offers every kernel of the Fusion tab, extern calls too, and shows a failure', async () => {
    const root = createExplorer(fixture(), {
      host: {
        openAsCell: async () => {
          throw new Error('This notebook has no kernel');
        }
      }
    });
    const fusion = open(root, 'fusion');
    (
      fusion.querySelector(
        '[data-kernel="extern_kernels.mm"] button'
      ) as HTMLButtonElement
    ).click();
    const button = fusion.querySelector(
      '.tcx-kernelinfo .tcx-open-cell'
    ) as HTMLButtonElement;
    expect(button.getAttribute('data-kernel-index')).toBe('0');
    button.click();
    await settle();
    expect(fusion.querySelector('.tcx-open-status')?.textContent).toContain(
      'This notebook has no kernel'
    );
  });

  it("is offered in the explorer of a Compare row, for that row's kernels", async () => {
    const requests: KernelRequest[] = [];
    const row = fixture();
    row.compiles[0].output_codes[0].text += "\n# the row's own output code";
    const doc = {
      ...fixture(),
      comparison: {
        rows: [
          {
            backend: 'inductor',
            mode: null,
            dynamic: null,
            status: 'ok',
            document: row
          }
        ]
      }
    };
    const root = createExplorer(doc, {
      host: {
        openAsCell: async request => {
          requests.push(request);
        }
      }
    });
    (
      open(root, 'compare').querySelector('tr.tcx-clickable') as HTMLElement
    ).click();
    await settle(); // the row's document is unpacked first
    const nested = root.querySelector(
      '.tcx-compare-detail .tcx-explorer'
    ) as HTMLElement;
    (
      open(nested, 'code').querySelector('.tcx-open-cell') as HTMLButtonElement
    ).click();
    await settle();
    expect(requests).toHaveLength(1);
    expect(requests[0].output.text).toContain("the row's own output code");
  });
});
