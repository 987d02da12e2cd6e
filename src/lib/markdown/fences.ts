// Fenced blocks: ```quote and ```spoiler hold Markdown; ```math holds TeX; anything else is code,
// rendered in the reference's codehilite shape, coloured when the language is one we know.
import type StateBlock from 'markdown-it/lib/rules_block/state_block.mjs';
import type Token from 'markdown-it/lib/token.mjs';
import { codeLanguage } from './code-languages.js';
import { checkBudget, escapeHtml } from './escape.js';
import { highlightCode } from './highlight.js';
import { texHtml } from './math.js';
import type { RenderEnv } from './types.js';

const FENCE_LINE = /^(`{3,}|~{3,})[ \t]*([^`]*?)[ \t]*$/;
const CONTAINERS = new Set(['quote', 'spoiler']);
const MATH = new Set(['math', 'tex', 'latex']);

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
  // The reference also takes the language after a "." (~~~.python).
  const language = lang === '' ? undefined : codeLanguage(lang.replace(/^\./, ''));
  const name = language?.name ?? lang;
  const attr = name === '' ? '' : ` data-code-language="${escapeHtml(name)}"`;
  const coloured = language ? highlightCode(token.content, language) : null;
  if (coloured !== null) checkBudget(env);
  return `<div class="codehilite"${attr}><pre><span></span><code>${coloured ?? escapeHtml(token.content)}</code></pre></div>\n`;
}
