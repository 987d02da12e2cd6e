// @-mentions: users (@**Name**, @**Name|id**), wildcards (@**all**, @**topic**, ...) and user groups
// (@*group*), each optionally silent (@_**Name**). An unresolved mention is left for the other rules,
// so @**Nobody** renders as "@" plus bold text, as the reference does.
import type StateInline from 'markdown-it/lib/rules_inline/state_inline.mjs';
import { checkBudget, escapeText } from './escape.js';
import type { RenderEnv } from './types.js';

const USER_MENTION = /^@(_?)\*\*([^*]+)\*\*/;
const GROUP_MENTION = /^@(_?)\*([^*]+)\*/;
const STREAM_WILDCARDS = new Set(['all', 'everyone', 'stream', 'channel']);
/** A mention must start the text or follow one of these, so e-mail addresses are not mentions. */
const MAY_PRECEDE = /[\s'"(,:<]/;

export function mayStartMention(src: string, pos: number): boolean {
  return pos === 0 || MAY_PRECEDE.test(src[pos - 1]!);
}

function pushHtml(state: StateInline, html: string) {
  const token = state.push('zulip_html', '', 0);
  token.content = html;
}

/** "Name|42" names user 42 (the name must agree); "Name" alone names by full name. */
export function splitNameAndId(text: string): { name: string; id: number | null } {
  const bar = text.lastIndexOf('|');
  if (bar >= 0 && /^[0-9]{1,9}$/.test(text.slice(bar + 1))) return { name: text.slice(0, bar), id: Number(text.slice(bar + 1)) };
  return { name: text, id: null };
}

function userMention(state: StateInline, silent: boolean, match: RegExpExecArray): boolean {
  const env = state.env as RenderEnv;
  const quiet = match[1] === '_';
  const text = match[2]!;
  const at = quiet ? '' : '@';
  const silentClass = quiet ? ' silent' : '';
  let html: string;
  if (STREAM_WILDCARDS.has(text)) {
    if (!silent && !quiet) env.streamWildcard = true;
    html = `<span class="user-mention channel-wildcard-mention${silentClass}" data-user-id="*">${at}${text}</span>`;
  } else if (text === 'topic') {
    if (!silent && !quiet) env.topicWildcard = true;
    html = `<span class="topic-mention${silentClass}">${at}topic</span>`;
  } else {
    const { name, id } = splitNameAndId(text);
    const user = env.context.lookupUser?.(name, id);
    if (!user) return false;
    if (!silent && !quiet) env.mentionedUserIds.add(user.id);
    html = `<span class="user-mention${silentClass}" data-user-id="${user.id}">${at}${escapeText(user.full_name)}</span>`;
  }
  if (!silent) pushHtml(state, html);
  state.pos += match[0].length;
  return true;
}

function groupMention(state: StateInline, silent: boolean, match: RegExpExecArray): boolean {
  const env = state.env as RenderEnv;
  const group = env.context.lookupUserGroup?.(match[2]!);
  if (!group) return false;
  const quiet = match[1] === '_';
  if (!silent) {
    if (!quiet) env.mentionedGroupIds.add(group.id);
    const cls = quiet ? 'user-group-mention silent' : 'user-group-mention';
    pushHtml(state, `<span class="${cls}" data-user-group-id="${group.id}">${quiet ? '' : '@'}${escapeText(group.name)}</span>`);
  }
  state.pos += match[0].length;
  return true;
}

export function mentionRule(state: StateInline, silent: boolean): boolean {
  const { src, pos } = state;
  if (src.charCodeAt(pos) !== 0x40 /* @ */ || !mayStartMention(src, pos)) return false;
  checkBudget(state.env as RenderEnv);
  const rest = src.slice(pos, Math.min(state.posMax, pos + 400));
  const user = USER_MENTION.exec(rest);
  if (user) return userMention(state, silent, user);
  const group = GROUP_MENTION.exec(rest);
  if (group) return groupMention(state, silent, group);
  return false;
}
