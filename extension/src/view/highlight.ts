/**
 * A small syntax highlighter for the code the document carries: Python (wrappers, Triton
 * kernels) and C++ (CPU kernels). It only splits text into typed tokens; the view turns
 * them into spans with textContent, so code never reaches innerHTML.
 */

export type TokenType = 'kw' | 'str' | 'com' | 'num' | 'fn' | 'deco' | 'text';

export interface Token {
  type: TokenType;
  text: string;
}

export type Language = 'python' | 'cpp';

const KEYWORDS: Record<Language, Set<string>> = {
  python: new Set(
    (
      'False None True and as assert async await break class continue def del elif else except ' +
      'finally for from global if import in is lambda nonlocal not or pass raise return try while with yield'
    ).split(' ')
  ),
  cpp: new Set(
    (
      'auto bool break case char const constexpr continue default do double else enum extern float for ' +
      'if inline int long namespace return short signed sizeof static struct switch template typename ' +
      'unsigned using void volatile while int64_t int32_t uint8_t bfloat16 half at c10 std ' +
      'omp parallel simd'
    ).split(' ')
  )
};

const RULES: Record<Language, Array<[TokenType, RegExp]>> = {
  python: [
    ['com', /#[^\n]*/y],
    [
      'str',
      /[rbfuRBFU]{0,2}("""[\s\S]*?(?:"""|$)|'''[\s\S]*?(?:'''|$)|"(?:[^"\\\n]|\\.)*"?|'(?:[^'\\\n]|\\.)*'?)/y
    ],
    ['deco', /@[A-Za-z_][\w.]*/y],
    ['num', /\b(?:0x[\da-fA-F]+|\d+(?:\.\d*)?(?:[eE][+-]?\d+)?)\b/y],
    ['text', /[A-Za-z_]\w*/y]
  ],
  cpp: [
    ['com', /\/\/[^\n]*|\/\*[\s\S]*?(?:\*\/|$)/y],
    ['str', /"(?:[^"\\\n]|\\.)*"?|'(?:[^'\\\n]|\\.)*'?/y],
    ['kw', /#\s*\w+/y],
    ['num', /\b(?:0x[\da-fA-F]+|\d+(?:\.\d*)?(?:[eE][+-]?\d+)?[fFlLuU]*)\b/y],
    ['text', /[A-Za-z_]\w*/y]
  ]
};

const OTHER = /[^A-Za-z_\d#"'@/]+|[\s\S]/y;

export function tokenize(source: string, language: Language): Token[] {
  const tokens: Token[] = [];
  const push = (type: TokenType, text: string) => {
    const last = tokens[tokens.length - 1];
    if (last && last.type === type && type === 'text') {
      last.text += text;
    } else {
      tokens.push({ type, text });
    }
  };
  let at = 0;
  outer: while (at < source.length) {
    for (const [type, rule] of RULES[language]) {
      rule.lastIndex = at;
      const m = rule.exec(source);
      if (m && m[0]) {
        let kind = type;
        if (type === 'text') {
          if (KEYWORDS[language].has(m[0])) {
            kind = 'kw';
          } else if (source[at + m[0].length] === '(') {
            kind = 'fn';
          }
        }
        push(kind, m[0]);
        at += m[0].length;
        continue outer;
      }
    }
    OTHER.lastIndex = at;
    const m = OTHER.exec(source)!;
    push('text', m[0]);
    at += m[0].length;
  }
  return tokens;
}

export function languageOf(kind: string | null | undefined): Language {
  return kind === 'cpp' || kind === 'cuda' || kind === 'rocm'
    ? 'cpp'
    : 'python';
}
