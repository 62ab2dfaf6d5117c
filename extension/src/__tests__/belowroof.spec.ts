import { belowRoofText } from '../model/belowroof';
import type { ProfiledKernel } from '../model/types';

const kernel = (below_roof?: ProfiledKernel['below_roof']): ProfiledKernel => ({
  name: 'cpp_fused_add_mul_tanh_0', kind: 'cpp', time_us: 1, calls: 1, share: 1, bytes: 8, flops: 2,
  achieved_gbps: 1, achieved_gflops: 1, bound: 'memory', below_roof
});

test('a kernel below its roof says why, as the HTML report does', () => {
  expect(belowRoofText(kernel())).toBe('—');
  expect(belowRoofText(kernel({ reason: 'page_faults', page_faults: 4096.4, fault_share: 0.29, transcendentals: ['tanh'] })))
    .toBe('page faults: 4096 per launch (~29% of its time); transcendentals: tanh');
  expect(belowRoofText(kernel({ reason: 'transcendentals', page_faults: 0, transcendentals: ['exp', 'tanh'] })))
    .toBe('math-bound, transcendentals: exp, tanh');
  expect(belowRoofText(kernel({ reason: 'transcendentals', page_faults: 4096, fault_share: 0.2, transcendentals: ['tanh'] })))
    .toBe('math-bound, transcendentals: tanh; page faults: 4096 per launch (~20% of its time)');
  expect(belowRoofText(kernel({ reason: 'unexplained', page_faults: 0, transcendentals: [] })))
    .toBe('unexplained (no page faults, no transcendental math)');
});
