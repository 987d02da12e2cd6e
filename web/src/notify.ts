// Desktop notifications for direct messages and mentions that arrive while the tab is hidden.
// Permission is asked only when the person chooses to (a button), never at load.
import type { Message, ZEvent } from './api.js';
import type { Model } from './model.js';
import type { Narrow } from './narrow.js';

export interface Alert {
  title: string;
  body: string;
  /** One notification per conversation: a newer one replaces it. */
  tag: string;
  messageId: number;
  /** The conversation a click on it opens. */
  narrow: Narrow;
}

const MENTION_FLAGS = ['mentioned', 'wildcard_mentioned', 'stream_wildcard_mentioned', 'topic_wildcard_mentioned'];

/** The text of rendered content, shortened for a notification. */
export function plainText(html: string, max = 150): string {
  const text = html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** What to show for an event, if it is a message for me from someone else: a DM or a mention. */
export function alertFor(model: Model, event: ZEvent): Alert | null {
  if (event.type !== 'message') return null;
  const message = event.message as Message;
  const flags = (event.flags ?? []) as string[];
  if (message.sender_id === model.me.user_id || flags.includes('read')) return null;
  const body = plainText(message.content);
  if (message.type === 'private') {
    const others = Array.isArray(message.display_recipient) ? message.display_recipient.filter((p) => p.id !== model.me.user_id) : [];
    const group = others.length > 1 ? ` (to ${others.map((p) => p.full_name).join(', ')})` : '';
    const ids = others.map((p) => p.id).sort((a, b) => a - b);
    return { title: `${message.sender_full_name}${group}`, body, tag: `dm:${ids.join(',')}`, messageId: message.id, narrow: { kind: 'dm', userIds: ids } };
  }
  if (!flags.some((f) => MENTION_FLAGS.includes(f))) return null;
  const stream = model.streams.get(message.stream_id!)?.name ?? 'a stream';
  return { title: `${message.sender_full_name} (#${stream} > ${message.subject})`, body, tag: `stream:${message.stream_id}:${message.subject}`, messageId: message.id, narrow: { kind: 'stream', streamId: message.stream_id!, topic: message.subject } };
}

export const canNotify = () => typeof Notification !== 'undefined';

/** Asks for permission (from a click); resolves to whether notifications may be shown. */
export async function askPermission(): Promise<boolean> {
  if (!canNotify()) return false;
  return (await Notification.requestPermission()) === 'granted';
}

/** Called with each batch of events: shows a notification for each one worth it while the tab is hidden. */
export function notifyAbout(model: Model, events: ZEvent[], open: (narrow: Narrow) => void = () => undefined): void {
  if (!canNotify() || Notification.permission !== 'granted' || document.visibilityState === 'visible') return;
  for (const event of events) {
    const alert = alertFor(model, event);
    if (!alert) continue;
    const shown = new Notification(alert.title, { body: alert.body, tag: alert.tag });
    shown.onclick = () => {
      window.focus();
      open(alert.narrow);
      shown.close();
    };
  }
}
