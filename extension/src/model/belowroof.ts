/**
 * Why a kernel runs far below its roof (the profile's `below_roof`), as one short text for
 * the kernel table, spelled as tcexplore/render/below_roof.py spells it.
 */
import type { ProfiledKernel } from './types';

export function belowRoofText(k: ProfiledKernel): string {
  const b = k.below_roof;
  if (!b) return '—';
  const math = b.transcendentals.length ? `transcendentals: ${b.transcendentals.join(', ')}` : '';
  const share = b.fault_share === undefined ? '' : ` (~${Math.round(b.fault_share * 100)}% of its time)`;
  const faults = `page faults: ${Math.round(b.page_faults ?? 0)} per launch${share}`;
  if (b.reason === 'page_faults') return math ? `${faults}; ${math}` : faults;
  if (b.reason === 'transcendentals') return `math-bound, ${math}` + (b.page_faults ? `; ${faults}` : '');
  return 'unexplained (no page faults, no transcendental math)';
}
