// What the compose box sends: the rules, apart from the form, so they are tested without a browser.
import type { Params } from './api.js';
import type { Person } from './model.js';

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

/** Enter sends; Shift+Enter (and Enter while an input method composes) starts a new line. */
export function isSendKey(event: { key: string; shiftKey: boolean; isComposing?: boolean }): boolean {
  return event.key === 'Enter' && !event.shiftKey && !event.isComposing;
}
