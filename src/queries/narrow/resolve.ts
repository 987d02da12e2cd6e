// Normalised narrow terms -> conditions over ids, by looking names and users up in the store.
// Also decides whether the narrow may search shared stream history, and loads the viewer's
// per-topic visibility for the in-memory predicate.
//
// Security rule: a term may only remove messages from what the viewer may see, never add
// any. The one widening is includeHistory, which lets the fetch read messages the viewer never
// received; it is granted only by a non-negated term that confines the narrow to streams whose
// history the viewer may read (a channel term passing canAccessStreamHistory, or channels:public
// for non-guests), and every other term still only filters within that.
import { sql } from 'kysely';
import type { DbOrTx, RealmRow, StreamRow, UserRow } from '../../db/schema.js';
import { RecipientType } from '../../db/schema.js';
import { BadNarrowError } from '../../errors.js';
import { ALERTED_MASK, FLAG_BITS, MENTION_MASK } from '../../lib/message-flags.js';
import { checkChannelDmCombination, operandText, rewriteWith, type WithTarget } from '../../lib/narrow/parse.js';
import { parseSearchQuery } from '../../lib/narrow/search.js';
import {
  type Condition,
  type ConversationClause,
  MAX_MESSAGE_ID,
  type ResolvedNarrow,
  type Term,
  type TopicState,
  topicKey,
} from '../../lib/narrow/types.js';
import { canAccessStreamHistory } from '../../lib/permissions.js';
import { isGuest } from '../../lib/roles.js';
import { directMessageGroupRecipient, huddleHashOf } from '../recipients.js';
import { getStreamById, getStreamByName, isSubscribed } from '../streams.js';
import { findUserByEmailFor, getUserById } from '../users.js';

type Lookup = { db: DbOrTx; realm: RealmRow; viewer: UserRow };

async function findStream({ db, realm }: Lookup, operand: string | number): Promise<StreamRow> {
  const stream =
    typeof operand === 'number' ? await getStreamById(db, realm.id, operand) : await getStreamByName(db, realm.id, operand);
  if (!stream) throw new BadNarrowError(`unknown channel ${operand}`);
  return stream;
}

/** By id, or by an address the viewer may use: a hidden real address names nobody. */
function findUser({ db, realm, viewer }: Lookup, operand: string | number): Promise<UserRow | undefined> {
  return typeof operand === 'number' ? getUserById(db, realm.id, operand) : findUserByEmailFor(db, viewer, realm, operand);
}

async function mayReadHistory(lookup: Lookup, stream: StreamRow): Promise<boolean> {
  const subscribed = await isSubscribed(lookup.db, lookup.viewer.id, stream.recipient_id!);
  return canAccessStreamHistory(lookup.viewer, stream, subscribed);
}

/** Every stream recipient of the realm, deactivated streams included. */
async function streamRecipients(db: DbOrTx, realmId: number): Promise<number[]> {
  const rows = await db.selectFrom('stream').select('recipient_id').where('realm_id', '=', realmId).orderBy('id').execute();
  return rows.flatMap((r) => (r.recipient_id === null ? [] : [r.recipient_id]));
}

/** Recipients of the direct-message groups that contain every one of the users. */
async function groupRecipientsWith(db: DbOrTx, userIds: readonly number[]): Promise<number[]> {
  let query = db.selectFrom('direct_message_group').select('recipient_id');
  for (const id of userIds) {
    query = query.where(sql<string>`',' || huddle_hash || ','`, 'like', `%,${id},%`);
  }
  const rows = await query.execute();
  return rows.flatMap((r) => (r.recipient_id === null ? [] : [r.recipient_id]));
}

function pairClauses(viewer: UserRow, other: UserRow): ConversationClause[] {
  return [
    { senderId: other.id, recipientIds: [viewer.recipient_id!] },
    { senderId: viewer.id, recipientIds: [other.recipient_id!] },
  ];
}

/** dm: the one conversation among exactly these users (the viewer included). */
async function resolveDm(lookup: Lookup, operand: string | number[]): Promise<ConversationClause[]> {
  const { db, viewer } = lookup;
  if (Array.isArray(operand) && operand.length === 0) return [];
  const keys: Array<string | number> = typeof operand === 'string' ? operand.split(',') : operand;
  const users: UserRow[] = [];
  for (const key of keys) {
    const user = await findUser(lookup, key);
    if (!user) throw new BadNarrowError(`unknown user in ${operandText(operand)}`);
    users.push(user);
  }
  const ids = new Set([viewer.id, ...users.map((u) => u.id)]);
  if (ids.size >= 3) {
    const recipientId = await directMessageGroupRecipient(db, huddleHashOf(ids));
    return recipientId === undefined ? [] : [{ recipientIds: [recipientId] }];
  }
  const other = users.find((u) => u.id !== viewer.id);
  if (other) return pairClauses(viewer, other);
  return [{ senderId: viewer.id, recipientIds: [viewer.recipient_id!] }];
}

/** The conversation of the message a `with` term names, or null when the viewer may not read it. */
async function loadWithTarget(lookup: Lookup, messageId: number): Promise<WithTarget> {
  const { db, realm, viewer } = lookup;
  if (messageId < 1 || messageId > MAX_MESSAGE_ID) return null;
  const message = await db
    .selectFrom('message as m')
    .innerJoin('recipient as r', 'r.id', 'm.recipient_id')
    .leftJoin('user_message as um', (join) => join.onRef('um.message_id', '=', 'm.id').on('um.user_id', '=', viewer.id))
    .select(['m.sender_id', 'm.subject', 'r.type', 'r.type_id', 'um.flags'])
    .where('m.id', '=', messageId)
    .where('m.realm_id', '=', realm.id)
    .executeTakeFirst();
  if (!message) return null;
  if (message.type === RecipientType.STREAM) {
    const stream = await getStreamById(db, realm.id, message.type_id);
    if (!stream) return null;
    if (message.flags === null && !(await mayReadHistory(lookup, stream))) return null;
    return { type: 'stream', streamId: stream.id, topic: message.subject };
  }
  if (message.flags === null) return null;
  if (message.type === RecipientType.PERSONAL) return { type: 'dm', userIds: [...new Set([message.sender_id, message.type_id])] };
  const group = await db
    .selectFrom('direct_message_group')
    .select('huddle_hash')
    .where('id', '=', message.type_id)
    .executeTakeFirstOrThrow();
  return { type: 'dm', userIds: group.huddle_hash.split(',').map(Number) };
}

const IS_FLAGS = {
  starred: { mask: FLAG_BITS.starred, set: true },
  unread: { mask: FLAG_BITS.read, set: false },
  mentioned: { mask: MENTION_MASK, set: true },
  alerted: { mask: ALERTED_MASK, set: true },
} as const;

/**
 * Looks every term up and returns the conditions, in term order, with the non-negated
 * search terms combined into one (the reference searches for all their words at once).
 */
export async function resolveNarrow(
  db: DbOrTx,
  realm: RealmRow,
  viewer: UserRow,
  narrow: readonly Term[],
): Promise<ResolvedNarrow> {
  const lookup: Lookup = { db, realm, viewer };
  let terms = [...narrow];
  const withTerm = terms.find((term) => term.operator === 'with');
  if (withTerm) terms = rewriteWith(terms, await loadWithTarget(lookup, withTerm.operand as number));
  checkChannelDmCombination(terms);

  const conditions: Condition[] = [];
  const searchOperands: string[] = [];
  // Every topic term without a channel needs the same list: read it once.
  let allStreamRecipients: Promise<number[]> | undefined;
  let includeHistory = false;
  let scopeStreamId: number | null = null;
  let scopeSeen = false;

  for (const term of terms) {
    const { negated } = term;
    switch (term.operator) {
      case 'channel': {
        const stream = await findStream(lookup, term.operand);
        if (!scopeSeen) [scopeSeen, scopeStreamId] = [true, stream.id];
        if (!negated) includeHistory = await mayReadHistory(lookup, stream);
        conditions.push({ kind: 'conversation', anyOf: [{ recipientIds: [stream.recipient_id!] }], negated });
        break;
      }
      case 'channels': {
        let query = db.selectFrom('stream').select('recipient_id').where('realm_id', '=', realm.id).where('deactivated', '=', 0);
        query = term.operand === 'public' ? query.where('invite_only', '=', 0) : query.where('is_web_public', '=', 1);
        const rows = await query.orderBy('id').execute();
        if (term.operand === 'public' && !negated && !isGuest(viewer)) includeHistory = true;
        conditions.push({ kind: 'conversation', anyOf: [{ recipientIds: rows.map((r) => r.recipient_id!) }], negated });
        break;
      }
      case 'topic': {
        const channelNamed = terms.some((t) => t.operator === 'channel' && !t.negated);
        const streamRecipientIds = channelNamed ? undefined : await (allStreamRecipients ??= streamRecipients(db, realm.id));
        conditions.push({ kind: 'topic', topic: term.operand, streamRecipientIds, negated });
        break;
      }
      case 'sender': {
        const user = await findUser(lookup, term.operand);
        if (!user) throw new BadNarrowError(`unknown user ${term.operand}`);
        conditions.push({ kind: 'sender', userId: user.id, negated });
        break;
      }
      case 'dm':
        conditions.push({ kind: 'conversation', anyOf: await resolveDm(lookup, term.operand), direct: true, negated });
        break;
      case 'dm-including':
      case 'group-pm-with': {
        const user = await findUser(lookup, term.operand);
        if (!user) throw new BadNarrowError(`unknown user ${term.operand}`);
        if (term.operator === 'dm-including' && user.id === viewer.id) {
          conditions.push({ kind: 'is-dm', negated });
          break;
        }
        const groups = { recipientIds: await groupRecipientsWith(db, [viewer.id, user.id]) };
        const anyOf = term.operator === 'dm-including' ? [...pairClauses(viewer, user), groups] : [groups];
        conditions.push({ kind: 'conversation', anyOf, direct: true, negated });
        break;
      }
      case 'is':
        switch (term.operand) {
          case 'dm':
            conditions.push({ kind: 'is-dm', negated });
            break;
          case 'resolved':
          case 'followed':
          case 'muted':
            conditions.push({ kind: term.operand, negated });
            break;
          default:
            conditions.push({ kind: 'flags', ...IS_FLAGS[term.operand], negated });
        }
        break;
      case 'has':
        conditions.push({ kind: 'has', what: term.operand, negated });
        break;
      case 'in':
        if (term.operand === 'home') conditions.push({ kind: 'home', negated });
        break;
      case 'id':
        conditions.push({ kind: 'id', id: term.operand, negated });
        break;
      case 'search':
        if (negated) conditions.push({ kind: 'search', query: parseSearchQuery([term.operand]), negated });
        else searchOperands.push(term.operand);
        break;
      case 'near':
      case 'with':
        break;
    }
  }

  const highlight = searchOperands.length > 0 ? parseSearchQuery(searchOperands) : null;
  if (highlight) conditions.push({ kind: 'search', query: highlight, negated: false });
  // Flags live on user_message rows, which history messages do not have.
  if (terms.some((term) => term.operator === 'is' && term.operand !== 'resolved')) includeHistory = false;

  return {
    viewerId: viewer.id,
    realmId: realm.id,
    conditions,
    highlight,
    includeHistory,
    scopeStreamId,
    needsTopicState: conditions.some((c) => c.kind === 'followed' || c.kind === 'muted' || c.kind === 'home'),
  };
}

/** The viewer's muted streams and per-topic policies, for the in-memory predicate. */
export async function loadTopicState(db: DbOrTx, userId: number): Promise<TopicState> {
  const muted = await db
    .selectFrom('subscription as s')
    .innerJoin('recipient as r', 'r.id', 's.recipient_id')
    .select('s.recipient_id')
    .where('s.user_id', '=', userId)
    .where('s.active', '=', 1)
    .where('s.is_muted', '=', 1)
    .where('r.type', '=', RecipientType.STREAM)
    .execute();
  const topics = await db
    .selectFrom('user_topic')
    .select(['recipient_id', 'topic_name', 'visibility_policy'])
    .where('user_id', '=', userId)
    .execute();
  return {
    mutedStreamRecipientIds: new Set(muted.map((r) => r.recipient_id)),
    policies: new Map(topics.map((t) => [topicKey(t.recipient_id, t.topic_name), t.visibility_policy])),
  };
}
