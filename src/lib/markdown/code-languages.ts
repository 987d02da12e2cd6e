// The languages fenced code may name: the name the reference shows for each (its Pygments lexer's
// name, in data-code-language) and the highlight.js grammar that colours it. A language the table
// does not know keeps the name as typed and stays plain, as the reference leaves unknown ones.

export interface CodeLanguage {
  /** The display name (data-code-language). */
  name: string;
  /** The highlight.js grammar module, if the language is coloured. */
  grammar?: string;
  /** Further grammars the first one embeds (HTML's style and script). */
  embeds?: readonly string[];
  /** Per-language corrections of the scope-to-class table, where the reference's lexer differs. */
  classes?: Readonly<Record<string, string>>;
  /** Words the reference's lexer marks apart from other keywords or names. */
  words?: Readonly<Record<string, string>>;
  /** Characters that are punctuation (p) rather than operators (o) in plain code; default "()[]{},;:.". */
  punctuation?: string;
  /** Whether uncoloured words and symbols in code get classes (n, o, p), as the reference's lexers give. */
  plainTokens?: boolean;
  /** The class of an uncoloured word; default n (JavaScript's lexer says nx). */
  wordClass?: string;
}

const C_LIKE = { plainTokens: true } as const;
const JS_WORDS = { var: 'kd', let: 'kd', const: 'kd', function: 'kd', class: 'kd', true: 'kc', false: 'kc', null: 'kc', undefined: 'kc' };
const JS = { ...C_LIKE, wordClass: 'nx', words: JS_WORDS, classes: { 'variable.language': 'nb', 'title.function': 'nx', property: 'nx' } };
const PYTHON = {
  grammar: 'python',
  plainTokens: true,
  punctuation: '()[]{},;:',
  classes: { meta: 'nd' },
  words: { self: 'bp', cls: 'bp', import: 'kn', from: 'kn', True: 'kc', False: 'kc', None: 'kc' },
} as const;
const GO_WORDS = {
  ...Object.fromEntries(['func', 'var', 'const', 'type', 'struct', 'interface', 'map', 'chan'].map((w) => [w, 'kd'])),
  package: 'kn',
  import: 'kn',
};
const MARKUP = { grammar: 'xml', plainTokens: false, classes: { tag: 'tokens', symbol: 'ni' }, punctuation: '<>/' } as const;

const LANGUAGES: Record<string, CodeLanguage> = {
  bash: { name: 'Bash', grammar: 'bash' },
  c: { name: 'C', grammar: 'c', ...C_LIKE },
  cpp: { name: 'C++', grammar: 'cpp', ...C_LIKE },
  csharp: { name: 'C#', grammar: 'csharp', ...C_LIKE },
  css: { name: 'CSS', grammar: 'css', plainTokens: true, classes: { attribute: 'k', 'selector-pseudo': 'nd' } },
  diff: { name: 'Diff', grammar: 'diff', classes: { meta: 'gu', comment: 'gh' } },
  dockerfile: { name: 'Docker', grammar: 'dockerfile' },
  elixir: { name: 'Elixir', grammar: 'elixir', ...C_LIKE },
  erlang: { name: 'Erlang', grammar: 'erlang', ...C_LIKE },
  go: { name: 'Go', grammar: 'go', ...C_LIKE, words: GO_WORDS },
  haskell: { name: 'Haskell', grammar: 'haskell', ...C_LIKE },
  html: { name: 'HTML', ...MARKUP, embeds: ['css', 'javascript'] },
  ini: { name: 'INI', grammar: 'ini' },
  java: { name: 'Java', grammar: 'java', ...C_LIKE, words: { class: 'kd', interface: 'kd', package: 'kn', import: 'kn' } },
  javascript: { ...JS, name: 'JavaScript', grammar: 'javascript' },
  json: { name: 'JSON', grammar: 'json', plainTokens: true, classes: { attr: 'nt', keyword: 'kc', literal: 'kc' } },
  kotlin: { name: 'Kotlin', grammar: 'kotlin', ...C_LIKE },
  lua: { name: 'Lua', grammar: 'lua', ...C_LIKE },
  makefile: { name: 'Makefile', grammar: 'makefile' },
  markdown: { name: 'Markdown', grammar: 'markdown' },
  ocaml: { name: 'OCaml', grammar: 'ocaml', ...C_LIKE },
  perl: { name: 'Perl', grammar: 'perl', ...C_LIKE },
  php: { name: 'PHP', grammar: 'php', ...C_LIKE },
  powershell: { name: 'PowerShell', grammar: 'powershell' },
  python: { name: 'Python', ...PYTHON },
  // print and exec are statements in Python 2.
  python2: { name: 'Python 2.x', ...PYTHON, words: { ...PYTHON.words, print: 'k', exec: 'k' } },
  r: { name: 'R', grammar: 'r', ...C_LIKE },
  ruby: { name: 'Ruby', grammar: 'ruby', ...C_LIKE },
  rust: { name: 'Rust', grammar: 'rust', ...C_LIKE },
  scala: { name: 'Scala', grammar: 'scala', ...C_LIKE },
  sql: { name: 'SQL', grammar: 'sql', ...C_LIKE },
  swift: { name: 'Swift', grammar: 'swift', ...C_LIKE },
  text: { name: 'Text only' },
  typescript: { ...JS, name: 'TypeScript', grammar: 'typescript' },
  xml: { name: 'XML', ...MARKUP },
  yaml: { name: 'YAML', grammar: 'yaml', classes: { attr: 'nt' } },
};

/** Other names people write after the fence, as the reference's lexers accept them. */
const ALIASES: Record<string, string> = {
  sh: 'bash', shell: 'bash', zsh: 'bash', 'c++': 'cpp', cs: 'csharp', 'c#': 'csharp', docker: 'dockerfile',
  golang: 'go', hs: 'haskell', js: 'javascript', md: 'markdown', make: 'makefile', pl: 'perl',
  ps1: 'powershell', py: 'python', py3: 'python', python3: 'python', py2: 'python2', rb: 'ruby',
  rs: 'rust', ts: 'typescript', yml: 'yaml', ex: 'elixir', exs: 'elixir', kt: 'kotlin', ml: 'ocaml',
};

/** The language a fence names, matched without regard to case; undefined when unknown. */
export function codeLanguage(typed: string): CodeLanguage | undefined {
  const key = typed.toLowerCase();
  return Object.hasOwn(LANGUAGES, key) ? LANGUAGES[key] : Object.hasOwn(ALIASES, key) ? LANGUAGES[ALIASES[key]!] : undefined;
}
