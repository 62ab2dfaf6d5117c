/*
 * Lint (jlpm lint:check): the extension reads torch's text as Python parsed it, never apart
 * again (issue 42). Every regular expression in src/ (a /literal/ or a RegExp) must be one
 * listed here, with the text it reads: tcexplore's own (schema ids, our diff output, our
 * numbers and labels) or, in src/view/, text drawn as it is (code highlighting, soft line
 * breaks). A new regex in src/model/ over torch's text (guards, graph or kernel names,
 * messages, bytecode, paths) fails: parse it in Python, at capture or in findings/, and
 * store the parsed form in the document.
 */
const fs = require('fs');
const path = require('path');

const SRC = path.join(__dirname, '..', 'src');

/** file (under src/) -> [the regex's source, what it reads] */
const ALLOWED = {
  'model/diffview.ts': [
    ['^tcexplore-diff\\/(\\d+)$', "a diff output's schema id (tcexplore's)"],
    [
      '^@@ -(\\d+)(?:,\\d+)? \\+(\\d+)(?:,\\d+)? @@',
      "the hunk headers of tcexplore's own unified diff"
    ]
  ],
  'model/schema.ts': [['^tcexplore\\/(\\d+)$', "a document's schema id"]],
  'model/format.ts': [
    ['\\.?0+$', 'a number tcexplore spelled (trailing zeros)'],
    ['[\\\\/]', "a path's separators (the base name a label shows)"]
  ],
  'model/grouping.ts': [['^line ', "a group's detail line tcexplore wrote"]],
  'model/ranks.ts': [['_', "a summary key's name (tcexplore's)"]],
  'view/dom.ts': [
    ['^on', 'attribute names the views set (no handler attributes)'],
    ['(?<=[_.])', 'soft line breaks in long names as drawn']
  ],
  'view/highlight.ts': [
    [
      '*',
      'code highlighting: the tokens are drawn as text, nothing is read from them'
    ]
  ]
};

function files(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap(entry => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      return entry.name === '__tests__' ? [] : files(full);
    }
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.generated.ts')
      ? [full]
      : [];
  });
}

/** The regexes of a TypeScript source: /literals/ (not comments, strings or division) and RegExp(...). */
function regexes(source) {
  const found = [];
  const ts = require('typescript');
  const file = ts.createSourceFile(
    'x.ts',
    source,
    ts.ScriptTarget.Latest,
    true
  );
  const visit = node => {
    if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
      const text = node.getText();
      found.push(text.slice(1, text.lastIndexOf('/')));
    } else if (
      (ts.isNewExpression(node) || ts.isCallExpression(node)) &&
      ts.isIdentifier(node.expression) &&
      node.expression.text === 'RegExp'
    ) {
      found.push(`RegExp(${node.arguments?.[0]?.getText() ?? ''})`);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

let failed = 0;
for (const full of files(SRC)) {
  const rel = path.relative(SRC, full).split(path.sep).join('/');
  const allowed = ALLOWED[rel] ?? [];
  for (const regex of regexes(fs.readFileSync(full, 'utf-8'))) {
    if (!allowed.some(([source]) => source === '*' || source === regex)) {
      failed += 1;
      console.error(
        `${rel}: /${regex}/ reads text apart in the extension. Parse torch's text once in ` +
          'Python (tcexplore/capture/ or findings/), store the parsed form, and read that ' +
          "(or, for text of tcexplore's own, list it in scripts/no-text-parsing.js)."
      );
    }
  }
}
if (failed) {
  process.exit(1);
}
console.log('no-text-parsing: the extension parses no text of torch again');
