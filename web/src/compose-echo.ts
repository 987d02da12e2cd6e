// Local echo: a message appears in the feed the moment it is sent, marked as sending, and is
// replaced by the server's message when its `message` event (carrying our `local_message_id`)
// arrives. A failed send stays, marked failed, until retried or discarded.
import type { Message, Params } from './api.js';
import type { Model, Person } from './model.js';

/** Local echoes sort after every message known so far, in the order they were sent (Zulip adds 0.01). */
export function nextLocalId(model: Model): number {
  let max = 0;
  for (const id of model.messages.keys()) if (id > max) max = id;
  return Math.floor(max) + (Math.round((max % 1) * 100) + 1) / 100;
}

export interface EchoInput {
  localId: string;
  params: Params;
  me: Person;
  /** For a stream message: its stream id; for a direct message: the recipients (without me). */
  recipients: Person[];
  now: number;
  /** The content as the echo shows it (HTML); the server's rendering replaces it. */
  html: string;
}

/** The message a local echo shows, shaped like the server's so the feed groups it the same way. */
export function localEcho(model: Model, input: EchoInput): Message {
  const { params, me } = input;
  const stream = params.type === 'stream';
  const people = [me, ...input.recipients.filter((p) => p.user_id !== me.user_id)].sort((a, b) => a.user_id - b.user_id);
  return {
    id: nextLocalId(model),
    sender_id: me.user_id,
    sender_full_name: me.full_name,
    sender_email: me.email,
    content: input.html,
    timestamp: Math.floor(input.now / 1000),
    type: stream ? 'stream' : 'private',
    stream_id: stream ? Number(params.to) : undefined,
    subject: stream ? String(params.topic ?? '') : '',
    display_recipient: stream ? '' : people.map((p) => ({ id: p.user_id, email: p.email, full_name: p.full_name })),
    flags: ['read'],
    local: { localId: input.localId, state: 'sending', params, idempotencyKey: newIdempotencyKey() },
  };
}

/**
 * The key of one message's sends, kept for its Retry: the server answers a repeat with the first
 * answer, so a retry after a lost answer cannot post twice (getRandomValues works on plain http too).
 */
function newIdempotencyKey(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

export function findLocalEcho(model: Model, localId: string): Message | undefined {
  for (const m of model.messages.values()) if (m.local?.localId === localId) return m;
  return undefined;
}

/** The server's message has arrived: the echo goes (the caller adds the real one in the same change). */
export function removeLocalEcho(model: Model, localId: string): boolean {
  const echo = findLocalEcho(model, localId);
  if (echo) model.messages.delete(echo.id);
  return echo !== undefined;
}

export function markEcho(model: Model, localId: string, state: 'sending' | 'failed', error?: string): void {
  const echo = findLocalEcho(model, localId);
  if (echo?.local) echo.local = { ...echo.local, state, error };
}

/** Echoes survive a new register (the fresh model has none): carried over unless already delivered. */
export function carryLocalEchoes(from: Model, to: Model): void {
  for (const m of from.messages.values()) if (m.local) to.messages.set(m.id, m);
}

/** Plain text as HTML for the echo: escaped, paragraphs and line breaks kept. */
export function echoHtml(content: string): string {
  const escaped = content.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return escaped
    .split(/\n{2,}/)
    .map((para) => `<p>${para.replace(/\n/g, '<br>')}</p>`)
    .join('');
}
