// Small inline syntaxes: <time:...>, inline math $$...$$, and literal underscores.
import type StateInline from 'markdown-it/lib/rules_inline/state_inline.mjs';
import { checkBudget, escapeHtml, escapeText } from './escape.js';
import { texHtml } from './math.js';
import type { RenderEnv } from './types.js';

const TIME = /^<time:([^>\n]*)>/;
const INLINE_MATH = /^\$\$([^\n_$](?:\\\$|[^$\n])*?)\$\$(?!\$)/;
const NUMERIC_TIME = /^-?[0-9]{1,12}(?:\.[0-9]+)?$/;
const NAIVE_DATE_TIME = /^([0-9]{4}-[0-9]{2}-[0-9]{2})(?:[T ]([0-9]{2}:[0-9]{2}(?::[0-9]{2}(?:\.[0-9]+)?)?))?$/;
const ZONED_DATE_TIME = /^[0-9]{4}-[0-9]{2}-[0-9]{2}[T ][0-9]{2}:[0-9]{2}(?::[0-9]{2}(?:\.[0-9]+)?)?(?:Z|[+-][0-9]{2}:?[0-9]{2})$/i;

/** Seconds since the epoch, an ISO 8601 date-time (UTC when no zone is given) or a date. */
export function parseTimeSyntax(raw: string): Date | null {
  const text = raw.trim();
  let millis = Number.NaN;
  if (NUMERIC_TIME.test(text)) millis = Number(text) * 1000;
  else if (ZONED_DATE_TIME.test(text)) millis = Date.parse(text.replace(' ', 'T'));
  else {
    const naive = NAIVE_DATE_TIME.exec(text);
    if (naive) millis = Date.parse(`${naive[1]}T${naive[2] ?? '00:00'}Z`);
  }
  const date = new Date(millis);
  return Number.isFinite(millis) && !Number.isNaN(date.getTime()) ? date : null;
}

function isoWithoutMillis(date: Date): string {
  return date.toISOString().replace(/\.000Z$/, 'Z');
}

export function timeRule(state: StateInline, silent: boolean): boolean {
  const { src, pos } = state;
  if (src.charCodeAt(pos) !== 0x3c /* < */ || src.charCodeAt(pos + 1) !== 0x74 /* t */) return false;
  const match = TIME.exec(src.slice(pos, Math.min(state.posMax, pos + 200)));
  if (!match) return false;
  if (!silent) {
    const raw = match[1]!;
    const date = parseTimeSyntax(raw);
    state.push('zulip_html', '', 0).content = date
      ? `<time datetime="${escapeHtml(isoWithoutMillis(date))}">${escapeText(raw)}</time>`
      : `<span class="timestamp-error">Invalid time format: ${escapeText(raw)}</span>`;
  }
  state.pos += match[0].length;
  return true;
}

export function inlineMathRule(state: StateInline, silent: boolean): boolean {
  const { src, pos } = state;
  if (src.charCodeAt(pos) !== 0x24 /* $ */ || src.charCodeAt(pos + 1) !== 0x24 || src.charCodeAt(pos - 1) === 0x24) return false;
  const match = INLINE_MATH.exec(src.slice(pos, state.posMax));
  if (!match) return false;
  if (!silent) {
    checkBudget(state.env as RenderEnv);
    state.push('zulip_html', '', 0).content = texHtml(match[1]!, false, match[0]);
  }
  state.pos += match[0].length;
  return true;
}

/** Underscores never make emphasis (snake_case is common in chat): a run of them is plain text. */
export function literalUnderscoreRule(state: StateInline, silent: boolean): boolean {
  const { src } = state;
  if (src.charCodeAt(state.pos) !== 0x5f /* _ */) return false;
  let end = state.pos;
  while (end < state.posMax && src.charCodeAt(end) === 0x5f) end++;
  if (!silent) state.pending += src.slice(state.pos, end);
  state.pos = end;
  return true;
}
