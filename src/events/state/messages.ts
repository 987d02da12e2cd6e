// Message-derived parts of the POST /register state: unread summary, starred ids and
// recent direct-message conversations. The shapes are shared with apply.ts, which keeps
// them current from events, so both build them through the same helpers.
import { SqliteAdapter, sql } from 'kysely';
import { type DbOrTx, RecipientType } from '../../db/schema.js';
import { FLAG_BITS, MENTION_MASK } from '../../lib/message-flags.js';
import { foldTopic } from '../../lib/narrow/types.js';

/** At most this many unread messages are summarised; older ones are reported missing. */
export const MAX_UNREAD_MESSAGES = 50000;
/** Recent conversations are found among this many newest direct messages. */
export const RECENT_PRIVATE_MESSAGES = 1000;

export interface UnreadMsgs {
  pms: Array<{ other_user_id: number; sender_id: number; unread_message_ids: number[] }>;
  streams: Array<{ stream_id: number; topic: string; unread_message_ids: number[] }>;
  huddles: Array<{ user_ids_string: string; unread_message_ids: number[] }>;
  mentions: number[];
  count: number;
  old_unreads_missing: boolean;
}

/** One unread message, as the summary needs it. */
export type UnreadEntry = { id: number; mentioned: boolean } & (
  | { kind: 'stream'; streamId: number; topic: string }
  | { kind: 'pm'; otherUserId: number }
  | { kind: 'huddle'; userIdsString: string }
);

const firstId = (group: { unread_message_ids: number[] }) => group.unread_message_ids[0] ?? 0;
const byFirstId = (a: { unread_message_ids: number[] }, b: { unread_message_ids: number[] }) => firstId(a) - firstId(b);

/** Orders everything canonically: ids ascending, groups by their oldest unread message. */
export function normalizeUnread(unread: UnreadMsgs): UnreadMsgs {
  const groups = [...unread.pms, ...unread.streams, ...unread.huddles];
  for (const group of groups) group.unread_message_ids.sort((a, b) => a - b);
  unread.pms = unread.pms.filter((g) => g.unread_message_ids.length > 0).sort(byFirstId);
  unread.streams = unread.streams.filter((g) => g.unread_message_ids.length > 0).sort(byFirstId);
  unread.huddles = unread.huddles.filter((g) => g.unread_message_ids.length > 0).sort(byFirstId);
  unread.mentions.sort((a, b) => a - b);
  unread.count = groups.reduce((n, g) => n + g.unread_message_ids.length, 0);
  return unread;
}

/** Adds one unread message to the summary (unordered until normalizeUnread). */
export function addUnread(unread: UnreadMsgs, entry: UnreadEntry): void {
  if (entry.mentioned && !unread.mentions.includes(entry.id)) unread.mentions.push(entry.id);
  if (entry.kind === 'stream') {
    const key = foldTopic(entry.topic);
    let group = unread.streams.find((g) => g.stream_id === entry.streamId && foldTopic(g.topic) === key);
    if (!group) unread.streams.push((group = { stream_id: entry.streamId, topic: entry.topic, unread_message_ids: [] }));
    if (!group.unread_message_ids.includes(entry.id)) group.unread_message_ids.push(entry.id);
  } else if (entry.kind === 'pm') {
    let group = unread.pms.find((g) => g.other_user_id === entry.otherUserId);
    if (!group) {
      unread.pms.push((group = { other_user_id: entry.otherUserId, sender_id: entry.otherUserId, unread_message_ids: [] }));
    }
    if (!group.unread_message_ids.includes(entry.id)) group.unread_message_ids.push(entry.id);
  } else {
    let group = unread.huddles.find((g) => g.user_ids_string === entry.userIdsString);
    if (!group) unread.huddles.push((group = { user_ids_string: entry.userIdsString, unread_message_ids: [] }));
    if (!group.unread_message_ids.includes(entry.id)) group.unread_message_ids.push(entry.id);
  }
}

/**
 * The summary of distinct unread messages, oldest first, in one pass (addUnread, for single
 * changes, searches the groups each time; a user can have tens of thousands unread).
 */
export function summarizeUnread(entries: readonly UnreadEntry[]): UnreadMsgs {
  const unread = emptyUnread();
  const streams = new Map<string, UnreadMsgs['streams'][number]>();
  const pms = new Map<number, UnreadMsgs['pms'][number]>();
  const huddles = new Map<string, UnreadMsgs['huddles'][number]>();
  for (const entry of entries) {
    if (entry.mentioned) unread.mentions.push(entry.id);
    if (entry.kind === 'stream') {
      const key = `${entry.streamId}\u0000${foldTopic(entry.topic)}`;
      let group = streams.get(key);
      if (!group) streams.set(key, (group = { stream_id: entry.streamId, topic: entry.topic, unread_message_ids: [] }));
      group.unread_message_ids.push(entry.id);
    } else if (entry.kind === 'pm') {
      let group = pms.get(entry.otherUserId);
      if (!group) pms.set(entry.otherUserId, (group = { other_user_id: entry.otherUserId, sender_id: entry.otherUserId, unread_message_ids: [] }));
      group.unread_message_ids.push(entry.id);
    } else {
      let group = huddles.get(entry.userIdsString);
      if (!group) huddles.set(entry.userIdsString, (group = { user_ids_string: entry.userIdsString, unread_message_ids: [] }));
      group.unread_message_ids.push(entry.id);
    }
  }
  unread.streams = [...streams.values()];
  unread.pms = [...pms.values()];
  unread.huddles = [...huddles.values()];
  return unread;
}

export function emptyUnread(): UnreadMsgs {
  return { pms: [], streams: [], huddles: [], mentions: [], count: 0, old_unreads_missing: false };
}

interface UnreadRow {
  id: number;
  sender_id: number;
  subject: string;
  recipient_id: number;
  flags: number;
}

interface RecipientKind {
  id: number;
  type: number;
  type_id: number;
  huddle_hash: string | null;
}

/**
 * On SQLite the planner would read each message's whole row by id; the summary index holds the
 * few columns these reads need, in far fewer pages (PostgreSQL finds index-only scans itself).
 */
function summaryIndex(db: DbOrTx) {
  return sql.raw(db.getExecutor().adapter instanceof SqliteAdapter ? ' INDEXED BY message_unread_summary' : '');
}

/** What each of these recipients is: a stream, a person, or a direct-message group and its hash. */
async function recipientKinds(db: DbOrTx, ids: number[]): Promise<Map<number, RecipientKind>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('recipient as r')
    .leftJoin('direct_message_group as g', 'g.recipient_id', 'r.id')
    .select(['r.id', 'r.type', 'r.type_id', 'g.huddle_hash'])
    .where('r.id', 'in', ids)
    .execute();
  return new Map(rows.map((row) => [row.id, row]));
}

/** Streams the user has left: their unread messages no longer count (nor show which exist). */
async function leftRecipientIds(db: DbOrTx, userId: number): Promise<number[]> {
  const rows = await db.selectFrom('subscription').select('recipient_id').where('user_id', '=', userId).where('active', '=', 0).execute();
  return rows.map((row) => row.recipient_id);
}

export async function unreadState(db: DbOrTx, userId: number): Promise<UnreadMsgs> {
  // A user has far fewer conversations than unread messages, so what each recipient is comes
  // from a second, small query rather than two more lookups (and columns) per row.
  const { rows } = await sql<UnreadRow>`
    SELECT m.id, m.sender_id, m.subject, m.recipient_id, um.flags
    FROM user_message AS um
    JOIN message AS m${summaryIndex(db)} ON m.id = um.message_id
    WHERE um.user_id = ${userId} AND (um.flags & ${FLAG_BITS.read}) = 0
    ORDER BY um.message_id DESC
    LIMIT ${MAX_UNREAD_MESSAGES + 1}`.execute(db);
  // Filtered here rather than in SQL, so the scan above stays on the unread index alone.
  const left = new Set(await leftRecipientIds(db, userId));
  const kept = rows
    .slice(0, MAX_UNREAD_MESSAGES)
    .filter((row) => !left.has(row.recipient_id))
    .reverse();
  const kinds = await recipientKinds(db, [...new Set(kept.map((row) => row.recipient_id))]);
  const entries: UnreadEntry[] = [];
  for (const row of kept) {
    const mentioned = (row.flags & MENTION_MASK) !== 0;
    const recipient = kinds.get(row.recipient_id)!;
    if (recipient.type === RecipientType.STREAM) {
      entries.push({ id: row.id, mentioned, kind: 'stream', streamId: recipient.type_id, topic: row.subject });
    } else if (recipient.type === RecipientType.PERSONAL) {
      // A one-on-one message is addressed to the receiver: the other side is whoever is not me.
      const other = row.sender_id === userId ? recipient.type_id : row.sender_id;
      entries.push({ id: row.id, mentioned, kind: 'pm', otherUserId: other });
    } else {
      entries.push({ id: row.id, mentioned, kind: 'huddle', userIdsString: recipient.huddle_hash ?? '' });
    }
  }
  const unread = summarizeUnread(entries);
  unread.old_unreads_missing = rows.length > MAX_UNREAD_MESSAGES;
  return normalizeUnread(unread);
}

export async function starredState(db: DbOrTx, userId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('user_message')
    .select('message_id')
    .where('user_id', '=', userId)
    .where(sql<boolean>`(flags & ${FLAG_BITS.starred}) != 0`)
    .orderBy('message_id')
    .execute();
  return rows.map((row) => row.message_id);
}

export interface RecentConversation {
  max_message_id: number;
  user_ids: number[];
}

/** Newest conversation first; user_ids are the other participants (none for a self-DM). */
export function sortRecent(list: RecentConversation[]): RecentConversation[] {
  return list.sort((a, b) => b.max_message_id - a.max_message_id);
}

export async function recentPrivateConversationsState(db: DbOrTx, userId: number): Promise<RecentConversation[]> {
  // Direct messages carry the is_private flag on every row, so their own partial index holds
  // them newest first, whatever the share of stream messages in the user's history. The limit
  // is taken before the join: PostgreSQL cannot estimate the flag test and, for a user with
  // fewer direct messages than the limit, would otherwise merge-join the whole message index.
  const { rows } = await sql<{ id: number; sender_id: number; recipient_id: number }>`
    SELECT m.id, m.sender_id, m.recipient_id
    FROM (
      SELECT message_id FROM user_message
      WHERE user_id = ${userId} AND (flags & ${sql.lit(FLAG_BITS.is_private)}) <> 0
      ORDER BY message_id DESC
      LIMIT ${RECENT_PRIVATE_MESSAGES}
    ) AS um
    JOIN message AS m${summaryIndex(db)} ON m.id = um.message_id
    ORDER BY um.message_id DESC`.execute(db);
  const kinds = await recipientKinds(db, [...new Set(rows.map((row) => row.recipient_id))]);
  const byKey = new Map<string, RecentConversation>();
  for (const row of rows) {
    const recipient = kinds.get(row.recipient_id)!;
    let others: number[];
    if (recipient.type === RecipientType.PERSONAL) {
      const other = row.sender_id === userId ? recipient.type_id : row.sender_id;
      others = other === userId ? [] : [other];
    } else {
      others = (recipient.huddle_hash ?? '').split(',').map(Number).filter((id) => id !== userId);
    }
    const key = others.join(',');
    if (!byKey.has(key)) byKey.set(key, { max_message_id: row.id, user_ids: others });
  }
  return sortRecent([...byKey.values()]);
}
