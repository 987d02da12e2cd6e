// What the compose box sends: the rules, apart from the form, so they are tested without a browser.
import type { Message, Params } from './api.js';
import type { DraftDict, Person } from './model.js';
import { narrowToHash } from './narrow.js';
import type { ComposeIntent } from './store.js';

export interface Draft {
  mode: 'stream' | 'dm';
  streamId: number | undefined;
  topic: string;
  /** Comma-separated emails or full names. */
  to: string;
  content: string;
}

/** The POST /messages parameters for a draft, or the reason it cannot be sent yet. */
export function sendParams(draft: Draft, people: Iterable<Person>): { params: Params } | { error: string } {
  if (draft.content.trim() === '') return { error: 'Write a message first.' };
  if (draft.mode === 'stream') {
    if (draft.streamId === undefined) return { error: 'Choose a stream.' };
    // An empty topic goes as "(no topic)", as Zulip's web app sends it.
    return { params: { type: 'stream', to: draft.streamId, topic: draft.topic.trim() || '(no topic)', content: draft.content } };
  }
  const list = [...people];
  const ids: number[] = [];
  for (const part of draft.to.split(',').map((p) => p.trim()).filter(Boolean)) {
    const lower = part.toLowerCase();
    const person = list.find((p) => p.email.toLowerCase() === lower) ?? list.find((p) => p.full_name.toLowerCase() === lower);
    if (!person) return { error: `Unknown recipient: ${part}` };
    ids.push(person.user_id);
  }
  if (ids.length === 0) return { error: 'Choose at least one recipient.' };
  return { params: { type: 'direct', to: ids, content: draft.content } };
}

/**
 * Which key sends, by the user's enter_sends setting. On: Enter sends, Shift+Enter starts a new line.
 * Off: the reverse, Enter starts a new line and Shift+Enter (or Ctrl/Cmd+Enter, Zulip's habit) sends.
 * Never while an input method composes.
 */
export function isSendKey(event: { key: string; shiftKey: boolean; ctrlKey?: boolean; metaKey?: boolean; isComposing?: boolean }, enterSends = true): boolean {
  if (event.key !== 'Enter' || event.isComposing) return false;
  if (event.ctrlKey || event.metaKey) return true;
  return enterSends ? !event.shiftKey : event.shiftKey;
}

/** The people a direct draft is addressed to, or undefined while "To" names someone unknown. */
export function recipientsOf(to: string, people: Iterable<Person>): Person[] | undefined {
  const list = [...people];
  const found: Person[] = [];
  for (const part of to.split(',').map((p) => p.trim()).filter(Boolean)) {
    const lower = part.toLowerCase();
    const person = list.find((p) => p.email.toLowerCase() === lower) ?? list.find((p) => p.full_name.toLowerCase() === lower);
    if (!person) return undefined;
    if (!found.includes(person)) found.push(person);
  }
  return found;
}

/** Where a reply to a message goes: its stream and topic, or the other people of its conversation. */
export function replyDraft(message: Message, me: number): Pick<Draft, 'mode' | 'streamId' | 'topic' | 'to'> {
  if (message.type === 'stream') return { mode: 'stream', streamId: message.stream_id, topic: message.subject, to: '' };
  const people = Array.isArray(message.display_recipient) ? message.display_recipient : [];
  const others = people.filter((p) => p.id !== me);
  return { mode: 'dm', streamId: undefined, topic: '', to: (others.length > 0 ? others : people).map((p) => p.email).join(', ') };
}

/** A link to a message in its conversation, as Zulip writes them (…/near/<id>). */
export function messageLink(origin: string, message: Message, streamName: (id: number) => string): string {
  if (message.type === 'stream') {
    return `${origin}/${narrowToHash({ kind: 'stream', streamId: message.stream_id!, topic: message.subject }, streamName)}/near/${message.id}`;
  }
  const ids = (Array.isArray(message.display_recipient) ? message.display_recipient : []).map((p) => p.id).sort((a, b) => a - b);
  return `${origin}/#narrow/dm/${ids.join(',')}-${ids.length > 2 ? 'group' : 'dm'}/near/${message.id}`;
}

/** Zulip's quote of a message: a silent mention of its sender, a link to it, and its Markdown in a quote block. */
export function quoteBlock(sender: { full_name: string; user_id: number }, link: string, raw: string): string {
  // A fence longer than any run of backticks inside, so quoted code blocks stay whole.
  const longest = Math.max(2, ...[...raw.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `@_**${sender.full_name}|${sender.user_id}** [said](${link}):\n${fence}quote\n${raw}\n${fence}\n`;
}

/** Puts `insert` into `text` at the caret, on lines of its own; returns the new text and caret. */
export function insertAtCaret(text: string, caret: number, insert: string): { text: string; caret: number } {
  const before = text.slice(0, caret);
  const after = text.slice(caret);
  const lead = before === '' || before.endsWith('\n') ? '' : '\n';
  const joined = `${before}${lead}${insert}`;
  return { text: joined + after, caret: joined.length };
}

/** The drafts API's shape of what is being written, or null when there is nothing worth keeping. */
export function apiDraft(draft: Draft, people: Iterable<Person>, me: number, now: number): Omit<DraftDict, 'id'> | null {
  if (draft.content.trim() === '') return null;
  const timestamp = Math.floor(now / 1000);
  if (draft.mode === 'stream') {
    if (draft.streamId === undefined) return null;
    return { type: 'stream', to: [draft.streamId], topic: draft.topic, content: draft.content, timestamp };
  }
  const recipients = recipientsOf(draft.to, people);
  if (!recipients) return null;
  return { type: 'private', to: recipients.map((p) => p.user_id).filter((id) => id !== me), topic: '', content: draft.content, timestamp };
}

/** One key per recipient, to find the saved draft of the conversation being opened. */
export function draftKey(d: { type: string; to: number[]; topic: string }): string {
  if (d.type === 'stream') return `stream:${d.to[0]}:${d.topic.toLowerCase()}`;
  return `dm:${[...d.to].sort((a, b) => a - b).join(',')}`;
}

/** The recipient of a draft as a key, or null while it has none (no stream, unknown people). */
export function recipientKeyOf(draft: Draft, people: Iterable<Person>, me: number): string | null {
  if (draft.mode === 'stream') return draft.streamId === undefined ? null : draftKey({ type: 'stream', to: [draft.streamId], topic: draft.topic });
  const recipients = recipientsOf(draft.to, people);
  if (!recipients || recipients.length === 0) return null;
  return draftKey({ type: 'private', to: recipients.map((p) => p.user_id).filter((id) => id !== me), topic: '' });
}

/** A saved draft as the compose box holds it. */
export function fromApiDraft(d: DraftDict, people: Map<number, Person>): Draft {
  if (d.type === 'stream') return { mode: 'stream', streamId: d.to[0], topic: d.topic, to: '', content: d.content };
  return { mode: 'dm', streamId: undefined, topic: '', to: d.to.map((id) => people.get(id)?.email ?? String(id)).join(', '), content: d.content };
}

export type Recipient = Pick<Draft, 'mode' | 'streamId' | 'topic' | 'to'>;

/** What a compose request does: the recipient to open, the field to focus, and a message to quote. */
export interface IntentPlan {
  recipient: Recipient;
  focus: 'topic' | 'to' | 'message';
  quote?: Message;
}

export function planIntent(
  intent: ComposeIntent,
  current: Draft,
  context: { me: number; message: Message | undefined; narrowStream: number | undefined; fallbackStream: number | undefined },
): IntentPlan | null {
  switch (intent.kind) {
    case 'new-topic': {
      // The open stream, else the one the box was writing to: a new topic there.
      const streamId = context.narrowStream ?? (current.mode === 'stream' ? current.streamId : undefined) ?? context.fallbackStream;
      return { recipient: { mode: 'stream', streamId, topic: '', to: '' }, focus: 'topic' };
    }
    case 'new-dm':
      return { recipient: { mode: 'dm', streamId: current.streamId, topic: '', to: current.mode === 'dm' ? current.to : '' }, focus: 'to' };
    case 'reply':
    case 'quote': {
      const message = context.message;
      if (!message) return null;
      const recipient = { ...replyDraft(message, context.me), streamId: message.stream_id ?? current.streamId };
      return intent.kind === 'reply' ? { recipient, focus: 'message' } : { recipient, focus: 'message', quote: message };
    }
  }
}
