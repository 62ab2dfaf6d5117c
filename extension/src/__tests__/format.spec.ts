/**
 * Numbers as the views write them (model/format.ts), pinned to the fixture
 * tcexplore/common/formatting.py is pinned to (tests/render/test_formatting.py): one spelling in both
 * languages.
 */

import * as fs from 'fs';
import * as path from 'path';

import {
  count,
  duration,
  formatBytes,
  microseconds,
  num,
  percent,
  plural,
  rate,
  sig3,
  tick
} from '../model/format';

const EXPECTED = JSON.parse(
  fs.readFileSync(
    path.join(
      __dirname,
      '..',
      '..',
      '..',
      'tests',
      'fixtures',
      'formatting',
      'expected.json'
    ),
    'utf-8'
  )
) as Record<string, Array<[unknown, string]>>;

const FUNCTIONS: Record<string, (input: never) => string> = {
  sig3,
  duration_ms: duration,
  duration_us: microseconds,
  bytes: formatBytes,
  num,
  count,
  share: percent,
  rate: ([value, unit]: [number | null, string]) => rate(value, unit),
  tick,
  plural: ([n, word]: [number, string]) => plural(n, word)
};

describe('formatting', () => {
  it.each(Object.keys(FUNCTIONS))(
    'writes %s as the shared fixture says',
    name => {
      const written = EXPECTED[name].map(([input]) => [
        input,
        FUNCTIONS[name](input as never)
      ]);
      expect(written).toEqual(EXPECTED[name]);
    }
  );

  it('is pinned for every function the fixture names', () => {
    expect(
      Object.keys(EXPECTED)
        .filter(k => k !== 'about')
        .sort()
    ).toEqual(Object.keys(FUNCTIONS).sort());
  });
});
