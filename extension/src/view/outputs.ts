/** The output-code picker shared by the Fusion and Code tabs. */

import { outputLabel } from '../model/fusion';
import { TcxDocument } from '../model/types';
import { select } from './dom';

export interface OutputRef {
  compile: number;
  output: number;
}

export function outputRefs(doc: TcxDocument): OutputRef[] {
  const refs: OutputRef[] = [];
  doc.compiles.forEach((c, compile) =>
    c.output_codes.forEach((_, output) => refs.push({ compile, output }))
  );
  return refs;
}

export const refKey = (r: OutputRef) => `${r.compile}|${r.output}`;

export function outputPicker(
  doc: TcxDocument,
  refs: OutputRef[],
  onPick: (ref: OutputRef) => void
): HTMLSelectElement {
  return select(
    refs.map(r => {
      const c = doc.compiles[r.compile];
      const o = c.output_codes[r.output];
      return [
        refKey(r),
        `${outputLabel(c, o, r.output)} (${o.kernels.length} kernels)`
      ];
    }),
    refs.length ? refKey(refs[0]) : '',
    key => onPick(refs.find(r => refKey(r) === key)!),
    'output code'
  );
}
