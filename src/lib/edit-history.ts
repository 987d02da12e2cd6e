// GET /messages/{message_id}/history: the stored edit history (newest first, only what changed)
// turned into snapshots, oldest first, each with the topic and content right after that edit.
import type { MessageRow } from '../types/rows.js';
import { type HistoryDiffer, historyDiffer } from './history-diffs.js';
import type { EditHistoryEntry } from './message-format.js';
import type { RealmSettings } from './realm-settings.js';

export interface HistorySnapshot {
  user_id: number | null;
  timestamp: number;
  topic: string;
  content: string;
  rendered_content: string;
  prev_topic?: string;
  prev_content?: string;
  prev_rendered_content?: string;
  /** The rendering after this edit with the changed words marked (content edits only). */
  content_html_diff?: string;
  prev_stream?: number;
  stream?: number;
}

type Stored = Pick<MessageRow, 'sender_id' | 'date_sent' | 'subject' | 'content' | 'rendered_content' | 'edit_history'>;

/** Direct messages have the empty topic throughout; `diff` makes content_html_diff (see history-diffs.ts). */
export function messageHistory(message: Stored, diff: HistoryDiffer = historyDiffer()): HistorySnapshot[] {
  const entries = message.edit_history ? (JSON.parse(message.edit_history) as EditHistoryEntry[]) : [];
  let topic = message.subject;
  let content = message.content;
  let rendered = message.rendered_content;
  const snapshots: HistorySnapshot[] = [];
  for (const entry of entries) {
    const snapshot: HistorySnapshot = { user_id: entry.user_id, timestamp: entry.timestamp, topic, content, rendered_content: rendered };
    if (entry.prev_topic !== undefined) snapshot.prev_topic = topic = entry.prev_topic;
    if (entry.prev_content !== undefined) {
      snapshot.prev_content = content = entry.prev_content;
      snapshot.prev_rendered_content = rendered = entry.prev_rendered_content ?? '';
      snapshot.content_html_diff = diff(rendered, snapshot.rendered_content);
    }
    if (entry.prev_stream !== undefined) Object.assign(snapshot, { prev_stream: entry.prev_stream, stream: entry.stream });
    snapshots.push(snapshot);
  }
  snapshots.push({ user_id: message.sender_id, timestamp: message.date_sent, topic, content, rendered_content: rendered });
  return snapshots.reverse();
}

/** Under the "moves" policy, content edits are hidden: only moves (and the original) remain. */
export function visibleHistory(snapshots: HistorySnapshot[], policy: RealmSettings['message_edit_history_visibility_policy']): HistorySnapshot[] {
  if (policy !== 'moves') return snapshots;
  const out: HistorySnapshot[] = [];
  for (const snapshot of snapshots) {
    if (snapshot.prev_content === undefined) {
      out.push(snapshot);
    } else if (snapshot.prev_topic !== undefined || snapshot.prev_stream !== undefined) {
      const { prev_content: _c, prev_rendered_content: _r, content_html_diff: _d, ...move } = snapshot;
      out.push(move);
    }
  }
  return out;
}
