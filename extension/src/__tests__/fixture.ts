/** A small tcexplore/1 document with every section the views read. */

import { TcxDocument } from '../model/types';

const loc = (line: number, code: string) => ({
  file: '/home/me/model.py',
  line,
  function: 'forward',
  code
});
const tensor = (...shape: number[]) => ({
  kind: 'tensor',
  dtype: 'float32',
  shape: shape.map(String),
  device: 'cpu'
});

export function fixture(): TcxDocument {
  return {
    schema: 'tcexplore/1',
    created: '2026-01-01T00:00:00+00:00',
    environment: { torch: '2.13.0' },
    summary: {
      graphs: 2,
      graph_breaks: 1,
      recompiles: 1,
      output_codes: 1,
      kernels: 1,
      guards: 2,
      unmapped_nodes: 0,
      failures: 0
    },
    library_files: ['<frozen runpy>'],
    graph_breaks: [
      {
        reason: 'Data-dependent branching\nmore text',
        message: 'Data-dependent branching',
        generic: null,
        details: 'more text',
        file: '/home/me/model.py',
        line: 12,
        hints: [],
        compile_id: '0/0',
        user_stack: [
          { file: '<frozen runpy>', line: 1, function: 'x', code: null },
          loc(12, 'if h.sum() > 0:')
        ]
      }
    ],
    // what Python's audit (findings/graph_break_audit.py) stores for the break above
    graph_break_sites: [
      {
        file: '/home/me/model.py',
        line: 12,
        where: '/home/me/model.py:12',
        function: 'forward',
        code: 'if h.sum() > 0:',
        library: false,
        count: 1,
        events: [0],
        compiles: ['0/0'],
        frames: [
          {
            function: 'forward',
            file: '/home/me/model.py',
            line: 10,
            count: 1,
            compiles: ['0/0']
          }
        ],
        reasons: [
          {
            message: 'Data-dependent branching',
            count: 1,
            explanation: null,
            hints: [],
            link: null,
            generic: null,
            details: 'more text',
            developer_context: null
          }
        ],
        paths: [
          {
            count: 1,
            stack: [
              {
                file: '<frozen runpy>',
                line: 1,
                function: 'x',
                code: null,
                where: '<frozen runpy>:1',
                library: true
              },
              {
                ...loc(12, 'if h.sum() > 0:'),
                where: '/home/me/model.py:12',
                library: false
              }
            ]
          }
        ],
        resume_functions: [],
        count_note: '1 break event.'
      }
    ],
    compiles: [
      {
        id: '0/0',
        status: 'ok',
        frame: loc(10, ''),
        guards: [
          {
            type: 'TENSOR_MATCH',
            source: "L['x']",
            expression: "check_tensor(L['x'])",
            user_code: null,
            user_location: null
          },
          {
            type: 'LAMBDA_GUARD',
            source: null,
            expression: 'x.size()[0] == 8',
            user_code: 'h = self.lin(x)',
            user_location: loc(11, 'h = self.lin(x)')
          }
        ],
        recompile_reasons: [],
        dynamo_graph: {
          text: '',
          nodes: [
            {
              name: 'l_x_',
              op: 'placeholder',
              target: 'L_x_',
              args: [],
              users: ['linear'],
              meta: tensor(8, 4)
            },
            {
              name: 'l_self_modules_lin_parameters_weight_',
              op: 'placeholder',
              module: ['lin'],
              target: 'w',
              args: [],
              users: ['linear'],
              meta: tensor(4, 4)
            },
            {
              name: 'linear',
              op: 'call_function',
              target: 'torch._C._nn.linear',
              args: ['l_x_', 'l_self_modules_lin_parameters_weight_'],
              users: ['relu'],
              meta: tensor(8, 4),
              source: loc(11, 'h = self.lin(x)')
            },
            {
              name: 'relu',
              op: 'call_function',
              target: 'torch.relu',
              args: ['linear'],
              users: ['output'],
              meta: tensor(8, 4),
              source: loc(11, 'h = self.lin(x)')
            },
            {
              name: 'output',
              op: 'output',
              target: 'output',
              args: ['relu'],
              users: []
            }
          ]
        },
        aot_graphs: {},
        post_grad_graphs: [
          {
            text: '',
            nodes: [
              {
                name: 'arg0_1',
                op: 'placeholder',
                target: 'arg0_1',
                args: [],
                users: ['mm']
              },
              {
                name: 'mm',
                op: 'call_function',
                target: 'aten.mm',
                args: ['arg0_1'],
                users: ['relu']
              },
              {
                name: 'relu',
                op: 'call_function',
                target: 'aten.relu',
                args: ['mm'],
                users: ['output']
              },
              {
                name: 'output',
                op: 'output',
                target: 'output',
                args: ['relu'],
                users: []
              }
            ]
          }
        ],
        output_codes: [
          {
            text: 'def call(args):\n    return (buf0,)\n',
            kind: 'inference',
            post_grad_graph: 0,
            unmapped_nodes: [],
            kernels: [
              {
                name: 'extern_kernels.mm',
                kind: 'extern',
                source: '',
                post_grad_nodes: ['mm'],
                aten_ops: ['aten.mm'],
                user_lines: [],
                mapping: 'provenance'
              },
              {
                name: 'cpp_fused_relu_0',
                kind: 'cpp',
                source: 'extern "C" void kernel() { /* relu */ }',
                post_grad_nodes: ['relu'],
                aten_ops: ['aten.relu'],
                user_lines: [loc(11, 'h = self.lin(x)')],
                mapping: 'provenance'
              }
            ]
          }
        ],
        phases: [
          {
            name: 'entire_frame_compile',
            start_us: 0,
            duration_ms: 100,
            children: [
              {
                name: 'backend_compile',
                start_us: 10_000,
                duration_ms: 80,
                children: []
              }
            ]
          }
        ],
        metrics: {
          entire_frame_compile_time_s: 0.1,
          backend_compile_time_s: 0.08,
          inductor_compile_time_s: 0.05
        }
      },
      {
        id: '0/1',
        status: 'ok',
        frame: loc(10, ''),
        guards: [],
        recompile_reasons: [
          [
            {
              failed_compile_id: '0/0',
              guard:
                "tensor 'x' size mismatch at index 0. expected 8, actual 16",
              expected: '8',
              actual: '16'
            }
          ]
        ],
        dynamo_graph: null,
        aot_graphs: {},
        post_grad_graphs: [],
        output_codes: [],
        phases: []
      }
    ],
    timing: {
      eager: {
        median_ms: 2,
        iqr_ms: 0.1,
        min_ms: 1.9,
        max_ms: 2.5,
        samples: 20
      },
      compiled: {
        median_ms: 1,
        iqr_ms: 0.05,
        min_ms: 0.9,
        max_ms: 1.2,
        samples: 20
      },
      compile_s: 3,
      speedup: 2,
      break_even_calls: 3000,
      noisy: false,
      device: 'cpu',
      verdict: {
        severity: 'ok',
        headline:
          'Compiled is 2.00× faster than eager: 1.00 ms vs 2.00 ms per call',
        noise: null,
        busy: null,
        advice: null,
        measurement: 'steady (both IQRs within 10% of their medians)',
        machine: null,
        first_call: 'first call (compile + run)',
        short: '2.00× faster',
        break_even: '3000 calls'
      }
    },
    accuracy: {
      ok: false,
      outputs: [
        {
          path: '',
          kind: 'tensor',
          ok: false,
          shape: [8, 4],
          dtype: 'torch.float32',
          max_abs_err: 0.01,
          max_rel_err: 0.02,
          mismatched: 3,
          numel: 32,
          state: 'mismatch',
          label: 'differs'
        }
      ],
      inputs_after_call: [],
      first_divergence: {
        graph_index: 0,
        node: 'relu',
        op: 'call_function',
        target: 'torch.relu',
        source: loc(11, 'h = self.lin(x)'),
        kernels: ['cpp_fused_relu_0'],
        max_abs_err: 0.01
      },
      verdict: {
        severity: 'error',
        headline:
          'Compiled outputs differ from eager; first at node relu (torch.relu) at model.py:11.',
        why: null,
        advice: null
      }
    },
    pipeline: [
      {
        name: 'Dynamo',
        counts: ['2 graphs', '1 graph break', '1 recompile', '2 guards'],
        seconds: 0.02,
        active: true
      },
      {
        name: 'AOTAutograd',
        counts: ['1 forward graph'],
        seconds: 0.03,
        active: true
      },
      {
        name: 'Inductor',
        counts: ['1 output code', '1 kernel', '0 unmapped nodes'],
        seconds: 0.05,
        active: true
      },
      {
        name: 'CUDA graphs',
        counts: ['no CUDA graph recorded'],
        seconds: null,
        active: false
      }
    ],
    comparison: {
      rows: [
        {
          backend: 'inductor',
          mode: null,
          dynamic: null,
          status: 'ok',
          speedup: 2,
          compile_s: 3,
          median_ms: 1,
          graphs: 2,
          graph_breaks: 1,
          kernels: 1,
          error: null
        },
        {
          backend: 'eager',
          mode: null,
          dynamic: null,
          status: 'ok',
          speedup: 1,
          compile_s: 0.1,
          median_ms: 2,
          graphs: 2,
          graph_breaks: 1,
          kernels: 0,
          error: null
        }
      ]
    },
    // What Python's findings.decide() stores for this document (tcexplore/findings/), as a
    // document built now carries it: the views draw these, they decide none of them.

    source_marks: {
      files: [
        {
          file: '/home/me/model.py',
          label: '/home/me/model.py',
          library: false,
          guards_only: false,
          folded: false,
          lines: [
            {
              line: 10,
              code: '',
              marks: [
                {
                  kind: 'recompile',
                  label: 'recompiled (0/1)',
                  title:
                    "tensor 'x' size mismatch at index 0. expected 8, actual 16",
                  link: {
                    tab: 'guards',
                    compile: '0/1'
                  }
                }
              ],
              flagged: true
            },
            {
              line: 11,
              code: 'h = self.lin(x)',
              marks: [
                {
                  kind: 'divergence',
                  label: 'first divergence: relu',
                  title: '',
                  link: {
                    tab: 'accuracy'
                  }
                },
                {
                  kind: 'kernel',
                  label: 'cpp_fused_relu_0',
                  title: 'cpp_fused_relu_0 (0/0)',
                  link: {
                    tab: 'fusion',
                    compile: '0/0',
                    output: 0,
                    kernel: 'cpp_fused_relu_0'
                  }
                },
                {
                  kind: 'guard',
                  label: '1 guard',
                  title: 'show the guards of this line',
                  link: {
                    tab: 'guards',
                    compile: '0/0'
                  },
                  per_compile: [
                    {
                      compile: '0/0',
                      count: 1
                    }
                  ],
                  items: [
                    {
                      compile: '0/0',
                      text: 'x.size()[0] == 8'
                    }
                  ]
                },
                {
                  kind: 'op',
                  label: '2 graph ops',
                  title: 'linear, relu',
                  link: {
                    tab: 'graphs',
                    compile: '0/0',
                    node: 'linear'
                  },
                  per_compile: [
                    {
                      compile: '0/0',
                      count: 2
                    }
                  ],
                  items: [
                    {
                      compile: '0/0',
                      text: 'linear'
                    },
                    {
                      compile: '0/0',
                      text: 'relu'
                    }
                  ]
                }
              ],
              flagged: true
            },
            {
              line: 12,
              code: 'if h.sum() > 0:',
              marks: [
                {
                  kind: 'break',
                  label: '1 graph break (#1)',
                  title: '#1: Data-dependent branching',
                  link: {
                    tab: 'overview',
                    site: 0
                  }
                }
              ],
              flagged: true
            }
          ]
        }
      ],
      folded: null
    },
    break_lines: {
      '0/0': [12]
    },
    resume_labels: {},
    traced_functions: {
      functions: [],
      sources: []
    },
    listing: {
      label: 'forward',
      detail:
        '2 compiles · 1 break · 1 recompile · 2.00× faster · outputs DIFFER'
    }
  } as unknown as TcxDocument;
}
