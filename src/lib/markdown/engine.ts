// The configured markdown-it instance: CommonMark with raw HTML off, plus the chat dialect's syntax.
import MarkdownIt from 'markdown-it';
import type Token from 'markdown-it/lib/token.mjs';
import { schemeUrlRule } from './autolink.js';
import { emojiNameRule } from './emoji-markup.js';
import { checkBudget, escapeText } from './escape.js';
import { containerFenceRule, renderFence, spoilerRenderers } from './fences.js';
import { inlineImagesRule } from './inline-images.js';
import { inlineMathRule, literalUnderscoreRule, timeRule } from './inline-rules.js';
import { mentionRule } from './mentions.js';
import { isSafeUrl } from './safe-url.js';
import { streamLinkRule } from './stream-links.js';
import { textRunsRule } from './text-runs.js';
import type { RenderEnv } from './types.js';

/** Deeper quotes and lists than this render their remaining markers as text. */
export const MAX_NESTING = 20;

const PRINTABLE_ASCII = /^[\x21-\x7e]*$/;
const URL_UNSAFE = /[^A-Za-z0-9;/?:@&=+$,\-_.!~*'()#%]|%(?![0-9A-Fa-f]{2})/g;

/** markdown-it's link normalisation for the common all-ASCII case, without parsing the URL. */
function encodeAsciiUrl(url: string): string {
  return url.replace(URL_UNSAFE, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}

function buildEngine(): MarkdownIt {
  const md = new MarkdownIt('default', { html: false, linkify: false, breaks: true, typographer: false });
  // maxNesting is a real option the type declarations leave out.
  Object.assign(md.options, { maxNesting: MAX_NESTING });
  // Indented code, setext headings, reference definitions and images are not part of the dialect.
  md.disable(['code', 'lheading', 'reference', 'image', 'html_block', 'html_inline', 'replacements', 'smartquotes']);
  md.validateLink = isSafeUrl;
  const normalizeLink = md.normalizeLink.bind(md);
  md.normalizeLink = (url: string) => (PRINTABLE_ASCII.test(url) ? encodeAsciiUrl(url) : normalizeLink(url));

  // Line endings are normalised before parsing; only NUL (which PostgreSQL refuses anyway) is left.
  md.core.ruler.at('normalize', (state) => {
    if (state.src.includes('\u0000')) state.src = state.src.replace(/\u0000/g, '\uFFFD');
  });
  md.block.ruler.before('fence', 'zulip_container_fence', containerFenceRule, { alt: ['paragraph', 'reference', 'blockquote', 'list'] });
  md.inline.ruler.before('emphasis', 'zulip_mention', mentionRule);
  md.inline.ruler.before('emphasis', 'zulip_stream_link', streamLinkRule);
  md.inline.ruler.before('emphasis', 'zulip_underscore', literalUnderscoreRule);
  md.inline.ruler.before('linkify', 'zulip_emoji', emojiNameRule);
  md.inline.ruler.before('linkify', 'zulip_url', schemeUrlRule);
  md.inline.ruler.before('autolink', 'zulip_time', timeRule);
  md.inline.ruler.before('escape', 'zulip_inline_math', inlineMathRule);
  md.core.ruler.after('block', 'zulip_budget', (state) => checkBudget(state.env as RenderEnv));
  md.core.ruler.push('zulip_text_runs', textRunsRule);
  md.core.ruler.push('zulip_inline_images', inlineImagesRule);

  const rules = md.renderer.rules;
  rules.text = (tokens: Token[], idx: number) => escapeText(tokens[idx]!.content);
  rules.code_inline = (tokens: Token[], idx: number) => `<code>${escapeText(tokens[idx]!.content)}</code>`;
  rules.s_open = () => '<del>';
  rules.s_close = () => '</del>';
  rules.fence = renderFence;
  rules.th_open = alignedCell;
  rules.td_open = alignedCell;
  rules.zulip_html = (tokens: Token[], idx: number) => tokens[idx]!.content;
  Object.assign(rules, spoilerRenderers);
  return md;
}

/** Table cells state their alignment as the reference writes it: style="text-align: left;". */
function alignedCell(tokens: Token[], idx: number): string {
  const token = tokens[idx]!;
  const align = /^text-align:(left|right|center)$/.exec(token.attrGet('style') ?? '');
  return `<${token.tag}${align ? ` style="text-align: ${align[1]};"` : ''}>`;
}

let engine: MarkdownIt | undefined;

export function markdownEngine(): MarkdownIt {
  engine ??= buildEngine();
  return engine;
}
