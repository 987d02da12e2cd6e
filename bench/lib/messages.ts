// Writes the message history: the rows the send action would write (message, one user_message
// per recipient with the send-time flags), then what people did afterwards (reading, starring,
// reacting), in chronological order and large batches.
import { type Kysely, sql } from 'kysely';
import type { StoreKind } from '../../src/db/connect.js';
import type { Database } from '../../src/db/schema.js';
import { defaultReadBySender } from '../../src/lib/client-name.js';
import { renderMarkdown } from '../../src/lib/markdown/index.js';
import { userLookup } from '../../src/queries/render-context.js';
import { normalizeContent, normalizeTopic } from '../../src/lib/message-content.js';
import { FLAG_BITS } from '../../src/lib/message-flags.js';
import { ColumnBuffer } from './bulk.js';
import type { Organization } from './organization.js';
import { makePickers, type Plan } from './plan.js';
import { ProgressBar } from './progress.js';
import type { Rng } from './random.js';

export interface MessageTotals {
  messages: number;
  streamMessages: number;
  directOneOnOne: number;
  directGroup: number;
  directSelf: number;
  userMessages: number;
  unread: number;
  starred: number;
  reactions: number;
  statements: number;
}

const DAY = 86_400;
const HUMAN_CLIENTS = ['website', 'website', 'website', 'ZulipMobile', 'ZulipMobile', 'ZulipElectron'];
const BOT_CLIENT = 'ZulipPython';
/** Messages per transaction. */
const CHUNK = 10_000;

export const MESSAGE_COLUMNS = [
  { name: 'id', pgType: 'int4' }, { name: 'realm_id', pgType: 'int4' }, { name: 'sender_id', pgType: 'int4' },
  { name: 'recipient_id', pgType: 'int4' }, { name: 'subject', pgType: 'text' }, { name: 'content', pgType: 'text' },
  { name: 'rendered_content', pgType: 'text' }, { name: 'rendered_content_version', pgType: 'int4' },
  { name: 'date_sent', pgType: 'int8' }, { name: 'sending_client', pgType: 'text' }, { name: 'has_link', pgType: 'int4' },
  { name: 'has_image', pgType: 'int4' }, { name: 'has_attachment', pgType: 'int4' }, { name: 'is_me_message', pgType: 'int4' },
] as const;
export const USER_MESSAGE_COLUMNS = [
  { name: 'user_id', pgType: 'int4' }, { name: 'message_id', pgType: 'int4' }, { name: 'flags', pgType: 'int4' },
] as const;
const REACTION_COLUMNS = [
  { name: 'message_id', pgType: 'int4' }, { name: 'user_id', pgType: 'int4' }, { name: 'emoji_name', pgType: 'text' },
  { name: 'emoji_code', pgType: 'text' }, { name: 'reaction_type', pgType: 'text' },
] as const;

/**
 * Send times over the year before `end`: busier on weekdays and working hours, and growing
 * through the year as the organization does. Sorted, so ids follow time.
 */
export function sendTimes(rng: Rng, count: number, end: number): Float64Array {
  const hourWeights = [1, 0.5, 0.3, 0.3, 0.3, 0.5, 1, 3, 8, 12, 13, 12, 9, 11, 12, 12, 11, 8, 5, 4, 3, 3, 2, 1.5];
  const hourTotal = hourWeights.reduce((a, b) => a + b, 0);
  const start = end - 365 * DAY;
  const times = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    let day = 0;
    for (let attempt = 0; attempt < 50; attempt++) {
      // Linear growth from 0.6 to 1.4: accept a uniform day with probability weight/1.4.
      day = Math.floor(rng.next() * 365);
      const weekend = (Math.floor(start / DAY) + day + 4) % 7 >= 5;
      if (rng.next() * 1.4 < (0.6 + (0.8 * day) / 365) * (weekend ? 0.2 : 1)) break;
    }
    let target = rng.next() * hourTotal;
    let hour = 0;
    while (hour < 23 && target >= hourWeights[hour]!) target -= hourWeights[hour++]!;
    times[i] = Math.min(end - 1, start + day * DAY + hour * 3600 + Math.floor(rng.next() * 3600));
  }
  return times.sort();
}

/** Probability that a recipient has not read a message of this age yet. */
function unreadChance(ageSeconds: number): number {
  if (ageSeconds < DAY) return 0.6;
  if (ageSeconds < 14 * DAY) return 0.4 - (0.3 * ageSeconds) / (14 * DAY);
  return 0.015;
}

export async function writeMessages(
  db: Kysely<Database>,
  kind: StoreKind,
  plan: Plan,
  org: Organization,
  rng: Rng,
  end: number,
  firstId: number,
): Promise<{ totals: MessageTotals; firstMessageOfStream: Map<number, number> }> {
  const count = plan.options.messages;
  const pickers = makePickers(plan);
  const times = sendTimes(rng.fork('times'), count, end);
  const messages = new ColumnBuffer(MESSAGE_COLUMNS);
  const userMessages = new ColumnBuffer(USER_MESSAGE_COLUMNS);
  const reactions = new ColumnBuffer(REACTION_COLUMNS);
  const totals: MessageTotals = {
    messages: 0, streamMessages: 0, directOneOnOne: 0, directGroup: 0, directSelf: 0,
    userMessages: 0, unread: 0, starred: 0, reactions: 0, statements: 0,
  };
  const firstMessageOfStream = new Map<number, number>();
  const bar = new ProgressBar('messages', count);
  const realmId = org.realm.id;
  // Mentions resolve as the send path resolves them (active people, by name).
  const renderContext = {
    lookupUser: userLookup(org.users.filter((u) => u.is_active)),
    realmUrl: org.realm.url.replace(/\/+$/, ''),
  };
  const selfShare = 0.02;
  const groupShare = plan.groups.length > 0 ? 0.25 : 0;

  for (let i = 0; i < count; i++) {
    const id = firstId + i;
    const now = times[i]!;
    let senderIndex: number;
    let recipientId: number;
    let topic = '';
    let userIds: number[];
    let streamId: number | null = null;
    const direct = rng.next() < plan.options.directShare || plan.streams.length === 0;
    if (direct) {
      const kindRoll = rng.next();
      if (kindRoll < selfShare || plan.pairs.length === 0) {
        senderIndex = pickers.humans[pickers.human.pick(rng)]!;
        recipientId = org.users[senderIndex]!.recipient_id!;
        userIds = [org.users[senderIndex]!.id];
        totals.directSelf++;
      } else if (kindRoll < selfShare + groupShare) {
        const g = pickers.group.pick(rng);
        const members = plan.groups[g]!.members;
        senderIndex = rng.pick(members);
        recipientId = org.groupRecipients[g]!;
        userIds = members.map((m) => org.users[m]!.id);
        totals.directGroup++;
      } else {
        const pair = plan.pairs[pickers.pair.pick(rng)]!;
        const [from, to] = rng.chance(0.5) ? pair : [pair[1], pair[0]];
        senderIndex = from;
        recipientId = org.users[to]!.recipient_id!;
        userIds = [org.users[from]!.id, org.users[to]!.id];
        totals.directOneOnOne++;
      }
    } else {
      const s = pickers.stream.pick(rng);
      const stream = plan.streams[s]!;
      senderIndex = stream.subscribers[pickers.sender[s]!.pick(rng)]!;
      recipientId = org.streams[s]!.recipient_id!;
      topic = normalizeTopic(stream.topics[pickers.topic[s]!.pick(rng)]!);
      userIds = org.recipientsOfStream[s]!;
      streamId = org.streams[s]!.id;
      totals.streamMessages++;
    }
    const sender = org.users[senderIndex]!;
    const client = sender.is_bot ? BOT_CLIENT : rng.pick(HUMAN_CLIENTS);
    const content = normalizeContent(plan.text.message());
    const rendered = renderMarkdown(content, renderContext);
    messages.push(
      id, realmId, sender.id, recipientId, topic, content, rendered.html, 1, now, client,
      rendered.hasLink ? 1 : 0, rendered.hasImage ? 1 : 0, 0, rendered.isMeMessage ? 1 : 0,
    );
    if (streamId !== null && !firstMessageOfStream.has(streamId)) firstMessageOfStream.set(streamId, id);

    // The flags the send action gives each recipient (message-send.ts recipientFlags)...
    const base = streamId === null ? FLAG_BITS.is_private : 0;
    const readBySender = defaultReadBySender(client);
    const recipients = userIds.includes(sender.id) ? userIds : [...userIds, sender.id];
    const unread = unreadChance(end - now);
    for (const userId of recipients) {
      let bits = base;
      const isSender = userId === sender.id;
      if (isSender && readBySender) bits |= FLAG_BITS.read;
      if (rendered.mentionedUserIds.has(userId)) bits |= FLAG_BITS.mentioned;
      if (rendered.streamWildcard && !isSender) bits |= FLAG_BITS.stream_wildcard_mentioned;
      if (rendered.topicWildcard && !isSender) bits |= FLAG_BITS.topic_wildcard_mentioned;
      // ...then what each of them did since: read most of it, starred a little.
      if (!isSender && rng.next() >= unread) bits |= FLAG_BITS.read;
      if (rng.next() < 0.0015) bits |= FLAG_BITS.starred;
      if (!(bits & FLAG_BITS.read)) totals.unread++;
      if (bits & FLAG_BITS.starred) totals.starred++;
      userMessages.push(userId, id, bits);
    }
    totals.userMessages += recipients.length;

    if (rng.chance(0.05)) {
      const seen = new Set<string>();
      const wanted = rng.int(1, 4);
      for (let r = 0; r < wanted; r++) {
        const userId = rng.pick(recipients);
        const [name, code] = plan.text.emoji();
        const key = `${userId}:${code}`;
        if (seen.has(key)) continue;
        seen.add(key);
        reactions.push(id, userId, name, code, 'unicode_emoji');
        totals.reactions++;
      }
    }
    totals.messages++;

    if (messages.count >= CHUNK || i === count - 1) {
      await db.transaction().execute(async (tx) => {
        // A crash mid-build means building again, so the build need not wait for each commit to reach disk.
        if (kind === 'postgres') await sql`SET LOCAL synchronous_commit = off`.execute(tx);
        totals.statements += await messages.flush(tx, kind, 'message');
        totals.statements += await userMessages.flush(tx, kind, 'user_message');
        totals.statements += await reactions.flush(tx, kind, 'reaction');
      });
      bar.update(i + 1, `msgs, ${(totals.userMessages / 1e6).toFixed(1)}M user_message rows,`);
    }
  }
  bar.finish(`msgs, ${(totals.userMessages / 1e6).toFixed(1)}M user_message rows,`);
  return { totals, firstMessageOfStream };
}
