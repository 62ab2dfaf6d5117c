/**
 * The extension's types of a tcexplore document and of a diff of two, generated from their
 * JSON Schemas (the one definition of each) by json-schema-to-typescript.
 *
 *   node scripts/document-types.js          writes src/model/*.generated.ts
 *   node scripts/document-types.js --check  exits 1, saying what to run, when one is stale
 */
const fs = require('fs');
const path = require('path');
const { compileFromFile } = require('json-schema-to-typescript');

const SCHEMAS = path.join(__dirname, '..', '..', 'tcexplore', 'schema');
const MODEL = path.join(__dirname, '..', 'src', 'model');
const GENERATED = [
  ['tcexplore-1.schema.json', 'document.generated.ts'],
  ['tcexplore-diff-1.schema.json', 'diff.generated.ts']
];

async function generate(schema) {
  return compileFromFile(path.join(SCHEMAS, schema), {
    bannerComment:
      `/* Generated from tcexplore/schema/${schema} by json-schema-to-typescript\n` +
      ' * (jlpm build:types): edit the schema, not this file. */',
    // an object the schema leaves open says so (additionalProperties: true); others are closed
    additionalProperties: false,
    unknownAny: true
  });
}

async function main() {
  const check = process.argv.includes('--check');
  let stale = false;
  for (const [schema, file] of GENERATED) {
    const target = path.join(MODEL, file);
    const generated = await generate(schema);
    if (!check) {
      fs.writeFileSync(target, generated);
    } else if (
      !fs.existsSync(target) ||
      fs.readFileSync(target, 'utf-8') !== generated
    ) {
      console.error(
        `src/model/${file} is stale: ${schema} changed. Run: jlpm build:types`
      );
      stale = true;
    }
  }
  process.exit(stale ? 1 : 0);
}

main().catch(error => {
  console.error(error);
  process.exit(1);
});
