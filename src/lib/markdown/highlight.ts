// Syntax colouring for fenced code, in the classes Zulip's clients style: the reference highlights
// with Pygments (k, nf, s1, s2, c1, mi, o, p, n, ...), so highlight.js's scopes are translated to
// those short names, neighbours of one class merged into one span and whitespace left bare, as
// Pygments writes them. Every piece of text is escaped and every class comes from the tables here,
// so the output is safe whatever the code holds. highlight.js and each grammar load on first use.
import type { HLJSApi, LanguageFn } from 'highlight.js';
import { createRequire } from 'node:module';
import type { CodeLanguage } from './code-languages.js';
import { escapeHtml, loadOnce } from './escape.js';

/** highlight.js scopes (full name first, then the part before the first dot) to Pygments classes. */
const SCOPE_CLASSES: Readonly<Record<string, string>> = {
  keyword: 'k',
  built_in: 'nb',
  type: 'kt',
  literal: 'kc',
  regexp: 'sr',
  symbol: 'ss',
  'char.escape': 'se',
  subst: 'si',
  'template-variable': 'si',
  'title.function': 'nf',
  'title.function.invoke': 'n',
  'title.class': 'nc',
  'title.class.inherited': 'n',
  title: 'nf',
  'variable.language': 'bp',
  'variable.constant': 'n',
  variable: 'nv',
  property: 'n',
  meta: 'cp',
  attr: 'na',
  attribute: 'na',
  name: 'nt',
  'selector-tag': 'nt',
  'selector-class': 'nc',
  'selector-id': 'nn',
  'selector-attr': 'na',
  'selector-pseudo': 'nd',
  section: 'gh',
  bullet: 'k',
  emphasis: 'ge',
  strong: 'gs',
  code: 'sb',
  addition: 'gi',
  deletion: 'gd',
  operator: 'o',
  punctuation: 'p',
};

/** Words the classes of these scopes may be corrected for (CodeLanguage.words). */
const WORD_SCOPES = new Set(['keyword', 'literal', 'built_in', 'variable.language']);
const DEFAULT_PUNCTUATION = '()[]{},;:.';
/** Plain code: whitespace, a word, a number, or one symbol. */
const PLAIN_TOKEN = /(\s+)|([\p{L}_$][\p{L}\p{N}_$]*)|(\p{N}[\p{L}\p{N}_.]*)|([^\s\p{L}\p{N}_$])/gu;

interface TreeNode {
  scope?: string;
  language?: string;
  children: Array<TreeNode | string>;
}

let hljs: HLJSApi | undefined;
const requireHere = createRequire(import.meta.url);

function grammarReady(api: HLJSApi, grammar: string): void {
  if (api.getLanguage(grammar)) return;
  // The module name comes from the fixed table in code-languages.ts, never from the message.
  api.registerLanguage(grammar, loadOnce(() => requireHere(`highlight.js/lib/languages/${grammar}`) as LanguageFn));
}

function highlighter(): HLJSApi {
  hljs ??= loadOnce(() => requireHere('highlight.js/lib/core') as HLJSApi);
  return hljs;
}

function numberClass(text: string): string {
  if (/^0[xX]/.test(text)) return 'mh';
  if (/^0[oO]/.test(text)) return 'mo';
  if (/^0[bB]/.test(text)) return 'mb';
  return /[.eE]/.test(text) ? 'mf' : 'mi';
}

function stringClass(text: string): string {
  const quote = text.replace(/^[a-zA-Z]{0,2}/, '')[0];
  return quote === '"' ? 's2' : quote === "'" ? 's1' : quote === '`' ? 'sb' : 's';
}

function commentClass(text: string): string {
  if (text.startsWith('/*') || text.startsWith('{-') || text.startsWith('(*') || text.startsWith('<!--')) return 'cm';
  return /^(?:\/\/|#|--|;|%)/.test(text) ? 'c1' : 'c';
}

class Segments {
  readonly parts: Array<{ cls: string | null; text: string }> = [];

  add(cls: string | null, text: string): void {
    if (text === '') return;
    const last = this.parts.at(-1);
    if (last && last.cls === cls) last.text += text;
    else this.parts.push({ cls, text });
  }

  html(): string {
    return this.parts.map(({ cls, text }) => (cls === null ? escapeHtml(text) : `<span class="${cls}">${escapeHtml(text)}</span>`)).join('');
  }
}

/** Walks highlight.js's token tree, giving each piece of text the class of its nearest mapped scope. */
class Translator {
  readonly out = new Segments();

  constructor(private readonly language: CodeLanguage) {}

  private scopeClass(scope: string, text: string, inherited: string | null): string | null {
    const override = this.language.classes?.[scope];
    if (override) return override;
    if (inherited === 'cp') return scope === 'string' ? 'cpf' : 'cp';
    if (scope === 'number') return numberClass(text);
    if (scope === 'string') return stringClass(text);
    if (scope === 'comment') return commentClass(text);
    if (WORD_SCOPES.has(scope)) {
      const word = this.language.words?.[text];
      if (word) return word;
    }
    return SCOPE_CLASSES[scope] ?? SCOPE_CLASSES[scope.split('.')[0]!] ?? inherited;
  }

  private plain(text: string, tokenise: boolean): void {
    if (!tokenise) return this.out.add(null, text);
    const punctuation = this.language.punctuation ?? DEFAULT_PUNCTUATION;
    for (const [token, space, word, number] of text.matchAll(PLAIN_TOKEN)) {
      if (space) this.out.add(null, token);
      else if (word) this.out.add(this.language.words?.[word] ?? this.language.wordClass ?? 'n', token);
      else if (number) this.out.add(numberClass(token), token);
      else this.out.add(punctuation.includes(token) ? 'p' : 'o', token);
    }
  }

  walk(node: TreeNode, inherited: string | null, tokenise: boolean): void {
    for (const child of node.children) {
      if (typeof child === 'string') {
        if (inherited === null) this.plain(child, tokenise);
        else this.out.add(inherited, child);
        continue;
      }
      const scope = child.scope ?? '';
      // Code embedded in another language (script in HTML) is code: its bare words get classes.
      if (scope.startsWith('language:')) this.walk(child, inherited, true);
      else {
        const mapped = scope === '' ? null : this.scopeClass(scope, textOf(child), inherited);
        // "tokens" marks a container (an HTML tag) whose bare symbols are classed like code.
        if (mapped === 'tokens') this.walk(child, null, true);
        else this.walk(child, mapped ?? inherited, tokenise);
      }
    }
  }
}

function textOf(node: TreeNode): string {
  return node.children.map((c) => (typeof c === 'string' ? c : textOf(c))).join('');
}

/**
 * Longer blocks stay plain: highlight.js cannot be stopped midway, so its time is bounded by its
 * input instead (a message holds at most 10,000 characters; longer text is rarely read as code).
 */
export const MAX_HIGHLIGHTED_LENGTH = 20_000;

/** The code as coloured HTML (the inside of <code>), or null when it stays plain. */
export function highlightCode(code: string, language: CodeLanguage): string | null {
  if (!language.grammar || code.length > MAX_HIGHLIGHTED_LENGTH) return null;
  const api = highlighter();
  grammarReady(api, language.grammar);
  for (const embedded of language.embeds ?? []) grammarReady(api, embedded);
  let root: TreeNode | undefined;
  try {
    const result = api.highlight(code, { language: language.grammar, ignoreIllegals: true });
    root = (result._emitter as unknown as { rootNode?: TreeNode }).rootNode;
  } catch {
    return null;
  }
  if (!root || textOf(root) !== code) return null;
  const translator = new Translator(language);
  translator.walk(root, null, language.plainTokens === true);
  return translator.out.html();
}
