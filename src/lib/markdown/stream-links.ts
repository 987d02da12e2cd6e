// Channel links #**channel** and topic links #**channel>topic**, pointing at the web app's narrow URLs.
import type StateInline from 'markdown-it/lib/rules_inline/state_inline.mjs';
import { checkBudget, escapeHtml, escapeText } from './escape.js';
import { mayStartMention } from './mentions.js';
import type { RenderEnv } from './types.js';

const STREAM_LINK = /^#\*\*([^*]+)\*\*/;

/** The web app's hash encoding: percent-encode all but A-Z a-z 0-9 _ - ~ *, then write "%" as ".". */
export function encodeHashComponent(text: string): string {
  return encodeURIComponent(text)
    .replace(/[!'()]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/\./g, '%2E')
    .replace(/%/g, '.');
}

export function channelNarrowPath(streamId: number, streamName: string): string {
  return `/#narrow/channel/${streamId}-${encodeHashComponent(streamName.replace(/ /g, '-'))}`;
}

export function streamLinkRule(state: StateInline, silent: boolean): boolean {
  const { src, pos } = state;
  if (src.charCodeAt(pos) !== 0x23 /* # */ || !mayStartMention(src, pos)) return false;
  const env = state.env as RenderEnv;
  if (!env.context.lookupStream) return false;
  checkBudget(env);
  const match = STREAM_LINK.exec(src.slice(pos, Math.min(state.posMax, pos + 400)));
  if (!match) return false;
  const text = match[1]!;
  const arrow = text.indexOf('>');
  const streamName = arrow >= 0 ? text.slice(0, arrow) : text;
  const topic = arrow >= 0 ? text.slice(arrow + 1) : null;
  if (topic === '') return false;
  const stream = env.context.lookupStream(streamName);
  if (!stream) return false;
  if (!silent) {
    const base = channelNarrowPath(stream.id, stream.name);
    const token = state.push('zulip_html', '', 0);
    if (topic === null) {
      token.content = `<a class="stream" data-stream-id="${stream.id}" href="${escapeHtml(base)}">#${escapeText(stream.name)}</a>`;
    } else {
      const latest = env.context.topicLatestMessageId?.(stream.id, topic);
      const href = `${base}/topic/${encodeHashComponent(topic)}${latest === undefined ? '' : `/with/${latest}`}`;
      token.content =
        `<a class="stream-topic" data-stream-id="${stream.id}" href="${escapeHtml(href)}">` +
        `#${escapeText(stream.name)} &gt; ${escapeText(topic)}</a>`;
    }
  }
  state.pos += match[0].length;
  return true;
}
