import { execFileSync } from 'child_process';
import * as path from 'path';

describe('the document and diff types (model/*.generated.ts)', () => {
  it('are what json-schema-to-typescript makes of the JSON Schemas as they are now', () => {
    const script = path.join(
      __dirname,
      '..',
      '..',
      'scripts',
      'document-types.js'
    );
    // throws, with the script's "is stale: … Run: jlpm build:types", when they are not
    execFileSync(process.execPath, [script, '--check'], {
      encoding: 'utf-8',
      stdio: 'pipe'
    });
  });
});
