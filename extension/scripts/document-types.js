/**
 * The extension's document types, generated from the JSON Schema (the one definition of a
 * tcexplore document) by json-schema-to-typescript.
 *
 *   node scripts/document-types.js          writes src/model/document.generated.ts
 *   node scripts/document-types.js --check  exits 1, saying what to run, when it is stale
 */
const fs = require('fs');
const path = require('path');
const { compileFromFile } = require('json-schema-to-typescript');

const SCHEMA = path.join(__dirname, '..', '..', 'tcexplore', 'schema', 'tcexplore-1.schema.json');
const OUTPUT = path.join(__dirname, '..', 'src', 'model', 'document.generated.ts');
const BANNER =
  '/* Generated from tcexplore/schema/tcexplore-1.schema.json by json-schema-to-typescript\n' +
  ' * (jlpm build:types): edit the schema, not this file. */';

async function main() {
  const generated = await compileFromFile(SCHEMA, {
    bannerComment: BANNER,
    // an object the schema leaves open says so (additionalProperties: true); others are closed
    additionalProperties: false,
    unknownAny: true
  });
  if (!process.argv.includes('--check')) {
    fs.writeFileSync(OUTPUT, generated);
    return;
  }
  const current = fs.existsSync(OUTPUT) ? fs.readFileSync(OUTPUT, 'utf-8') : '';
  if (current !== generated) {
    console.error(`${path.relative(process.cwd(), OUTPUT)} is stale: the schema changed. Run: jlpm build:types`);
    process.exit(1);
  }
}

main().catch(error => {
  console.error(error);
  process.exit(1);
});
