// Fenced blocks: ```quote and ```spoiler hold Markdown; ```math holds TeX; anything else is code,
// rendered in the reference's codehilite shape.
import type StateBlock from 'markdown-it/lib/rules_block/state_block.mjs';
import type Token from 'markdown-it/lib/token.mjs';
import { escapeHtml } from './escape.js';
import { texHtml } from './math.js';
import type { RenderEnv } from './types.js';

const FENCE_LINE = /^(`{3,}|~{3,})[ \t]*([^`]*?)[ \t]*$/;
const CONTAINERS = new Set(['quote', 'spoiler']);
const MATH = new Set(['math', 'tex', 'latex']);

/** Display names of common languages, as the highlighter names them; others are shown as typed. */
const LANGUAGE_NAMES: Record<string, string> = {
  bash: 'Bash', sh: 'Bash', shell: 'Bash', zsh: 'Bash', c: 'C', 'c++': 'C++', cpp: 'C++', csharp: 'C#', cs: 'C#',
  css: 'CSS', diff: 'Diff', go: 'Go', golang: 'Go', haskell: 'Haskell', html: 'HTML', java: 'Java',
  javascript: 'JavaScript', js: 'JavaScript', json: 'JSON', kotlin: 'Kotlin', lua: 'Lua', markdown: 'Markdown',
  md: 'Markdown', perl: 'Perl', php: 'PHP', py: 'Python', py2: 'Python 2.x', python: 'Python', python2: 'Python 2.x',
  python3: 'Python', py3: 'Python', ruby: 'Ruby', rb: 'Ruby', rust: 'Rust', rs: 'Rust', scala: 'Scala', sql: 'SQL',
  swift: 'Swift', text: 'Text only', ts: 'TypeScript', typescript: 'TypeScript', xml: 'XML', yaml: 'YAML', yml: 'YAML',
};

function fenceAt(state: StateBlock, line: number): { marker: string; info: string } | null {
  if (state.sCount[line]! - state.blkIndent >= 4) return null;
  const text = state.src.slice(state.bMarks[line]! + state.tShift[line]!, state.eMarks[line]);
  const match = FENCE_LINE.exec(text);
  return match ? { marker: match[1]!, info: match[2]! } : null;
}

/** The closing line of the fence opened at `start`, skipping fences nested inside; endLine if unclosed. */
function closingLine(state: StateBlock, start: number, endLine: number, marker: string): number {
  let open = 0;
  for (let line = start + 1; line < endLine; line++) {
    const fence = fenceAt(state, line);
    if (!fence) continue;
    if (fence.info !== '') open++;
    else if (open > 0) open--;
    else if (fence.marker[0] === marker[0] && fence.marker.length >= marker.length) return line;
  }
  return endLine;
}

export function containerFenceRule(state: StateBlock, startLine: number, endLine: number, silent: boolean): boolean {
  const fence = fenceAt(state, startLine);
  if (!fence) return false;
  const [kind = '', ...rest] = fence.info.split(/\s+/);
  const lang = kind.toLowerCase();
  if (!CONTAINERS.has(lang)) return false;
  if (silent) return true;
  const close = closingLine(state, startLine, endLine, fence.marker);
  const oldParent = state.parentType;
  const oldLineMax = state.lineMax;
  state.parentType = 'blockquote';
  state.lineMax = close;
  if (lang === 'quote') {
    state.push('blockquote_open', 'blockquote', 1).map = [startLine, close];
    state.md.block.tokenize(state, startLine + 1, close);
    state.push('blockquote_close', 'blockquote', -1);
  } else {
    state.push('spoiler_open', 'div', 1).map = [startLine, close];
    const header = rest.join(' ');
    if (header !== '') {
      state.push('paragraph_open', 'p', 1);
      const inline = state.push('inline', '', 0);
      inline.content = header;
      inline.map = [startLine, startLine + 1];
      inline.children = [];
      state.push('paragraph_close', 'p', -1);
    }
    state.push('spoiler_body', 'div', 0);
    state.md.block.tokenize(state, startLine + 1, close);
    state.push('spoiler_close', 'div', -1);
  }
  state.parentType = oldParent;
  state.lineMax = oldLineMax;
  state.line = close < endLine ? close + 1 : close;
  return true;
}

export const spoilerRenderers = {
  spoiler_open: () => '<div class="spoiler-block"><div class="spoiler-header">\n',
  spoiler_body: () => '</div><div class="spoiler-content" aria-hidden="true">\n',
  spoiler_close: () => '</div></div>\n',
};

function mathFence(content: string): string {
  const paragraphs = content.split(/\n[ \t]*\n/).map((p) => p.trim()).filter((p) => p !== '');
  return paragraphs.map((tex) => `<p>${texHtml(tex, true, tex)}</p>\n`).join('');
}

export function renderFence(tokens: Token[], idx: number, _options: unknown, env: RenderEnv): string {
  const token = tokens[idx]!;
  const lang = token.info.trim().split(/\s+/)[0] || (env.context.defaultCodeLanguage ?? '');
  if (MATH.has(lang.toLowerCase())) return mathFence(token.content);
  const name = lang === '' ? '' : (LANGUAGE_NAMES[lang.toLowerCase()] ?? lang);
  const attr = name === '' ? '' : ` data-code-language="${escapeHtml(name)}"`;
  return `<div class="codehilite"${attr}><pre><span></span><code>${escapeHtml(token.content)}</code></pre></div>\n`;
}
