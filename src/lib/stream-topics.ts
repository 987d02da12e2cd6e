// Which topics of a stream a user may list, and how topic rows that differ only in case merge.
import type { StreamRow, UserRow } from '../types/rows.js';
import { isGuest } from './roles.js';

type Viewer = Pick<UserRow, 'role'>;
type StreamAccess = Pick<StreamRow, 'invite_only' | 'history_public_to_subscribers' | 'is_web_public'>;

/**
 * Access to a stream's content, as the reference's access_stream_by_id grants it without the
 * administrators' exception: web-public streams for everyone, public streams for non-guests,
 * anything one is subscribed to. (Administrators see private streams' metadata elsewhere.)
 */
export function hasContentAccess(viewer: Viewer, stream: StreamAccess, subscribed: boolean): boolean {
  if (subscribed || stream.is_web_public) return true;
  return !stream.invite_only && !isGuest(viewer);
}

/** Whose messages make the topic list: the whole stream, or only what the viewer received. */
export function topicHistoryScope(stream: StreamAccess): 'stream' | 'received' {
  return !stream.invite_only || stream.history_public_to_subscribers ? 'stream' : 'received';
}

export interface TopicRow {
  name: string;
  max_id: number;
}

/**
 * Topics match case-insensitively: one entry per topic, named as its newest message spells it,
 * with the newest id of any spelling; newest topic first.
 */
export function mergeTopicCasings(rows: readonly TopicRow[]): TopicRow[] {
  const byKey = new Map<string, TopicRow>();
  for (const row of [...rows].sort((a, b) => a.max_id - b.max_id)) byKey.set(row.name.toLowerCase(), row);
  return [...byKey.values()].sort((a, b) => b.max_id - a.max_id);
}
