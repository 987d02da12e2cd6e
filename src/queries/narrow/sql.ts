// A resolved narrow as SQL conditions over `message m` and `user_message um`.
//
// Security rule: every condition here may only remove messages from what the base query
// selects (the viewer's own user_message rows, or a stream history the viewer may read);
// none may join in rows of other messages or other users. The in-memory twin of these
// conditions is lib/narrow/predicate.ts, and the two must select the same messages.
//
// Store differences live in explicit sqlite | postgres branches: full-text search (FTS5
// table message_fts vs. the generated tsvector column message.search_tsv) and LIKE vs. ILIKE.
import { PostgresAdapter, type RawBuilder, type SqlBool, sql } from 'kysely';
import type { DbOrTx } from '../../db/schema.js';
import { RecipientType } from '../../db/schema.js';
import { RESOLVED_TOPIC_PREFIX } from '../../lib/message-content.js';
import { FLAG_BITS } from '../../lib/message-flags.js';
import { type Condition, foldTopic, type SearchQuery, VisibilityPolicy } from '../../lib/narrow/types.js';

export type StoreDialect = 'sqlite' | 'postgres';

export function storeDialect(db: DbOrTx): StoreDialect {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

export interface SqlContext {
  dialect: StoreDialect;
  viewerId: number;
  /** Whether rows come from shared history, where a message may have no user_message row. */
  history: boolean;
  /** The message id column of the query: um.message_id, m.id or f.rowid. */
  idRef: string;
  /** The combined (non-negated) search of the narrow. */
  drivingSearch?: SearchQuery | null;
  /** SQLite: the full-text table, as `f`, drives the query with the driving search. */
  ftsDriven?: boolean;
  /** PostgreSQL: every id the driving search matches, when known to be few. */
  searchMatchIds?: number[] | null;
}

type Cond = RawBuilder<SqlBool>;

const TRUE: Cond = sql<SqlBool>`1 = 1`;
const FALSE: Cond = sql<SqlBool>`1 = 0`;

function and(parts: readonly Cond[]): Cond {
  if (parts.length === 0) return TRUE;
  if (parts.length === 1) return parts[0]!;
  return sql<SqlBool>`(${sql.join(parts, sql` AND `)})`;
}

function or(parts: readonly Cond[]): Cond {
  if (parts.length === 0) return FALSE;
  if (parts.length === 1) return parts[0]!;
  return sql<SqlBool>`(${sql.join(parts, sql` OR `)})`;
}

const not = (cond: Cond): Cond => sql<SqlBool>`NOT (${cond})`;

function recipientIn(ids: readonly number[], ctx: SqlContext): Cond {
  if (ids.length === 0) return FALSE;
  if (ids.length === 1) return sql<SqlBool>`m.recipient_id = ${ids[0]}`;
  // One array parameter on PostgreSQL, however many streams a realm has.
  if (ctx.dialect === 'postgres') return sql<SqlBool>`m.recipient_id = ANY(${[...ids]})`;
  // Ids from the store, written inline: a narrow of many terms over a realm of many streams
  // would otherwise need more variables than one SQLite statement may have.
  return sql<SqlBool>`m.recipient_id IN (${sql.join(ids.map((id) => sql.lit(Math.trunc(id))))})`;
}

/** Whether the viewer has a topic row with one of these policies for the message's topic. */
function topicPolicyIn(viewerId: number, policies: readonly number[], streamId: number | null = null): Cond {
  const inStream = streamId === null ? sql`` : sql` AND ut.stream_id = ${streamId}`;
  return sql<SqlBool>`EXISTS (SELECT 1 FROM user_topic ut WHERE ut.user_id = ${viewerId}
    AND ut.recipient_id = m.recipient_id AND lower(ut.topic_name) = lower(m.subject)
    AND ut.visibility_policy IN (${sql.join(policies)})${inStream})`;
}

/**
 * What the combined feed hides: muted topics (only those of `scopeStreamId` when given),
 * and, without a scope, muted streams except their unmuted or followed topics.
 */
export function mutingExclusion(viewerId: number, scopeStreamId: number | null): Cond {
  const parts = [not(topicPolicyIn(viewerId, [VisibilityPolicy.MUTED], scopeStreamId))];
  if (scopeStreamId === null) {
    const mutedStream = sql<SqlBool>`m.recipient_id IN (SELECT s.recipient_id FROM subscription s
      JOIN recipient sr ON sr.id = s.recipient_id
      WHERE s.user_id = ${viewerId} AND s.active = 1 AND s.is_muted = 1 AND sr.type = ${RecipientType.STREAM})`;
    const exempt = topicPolicyIn(viewerId, [VisibilityPolicy.UNMUTED, VisibilityPolicy.FOLLOWED]);
    parts.push(not(and([mutedStream, not(exempt)])));
  }
  return and(parts);
}

function escapeLike(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function searchCondition(query: SearchQuery, ctx: SqlContext): Cond {
  if (query.words.length === 0) return FALSE;
  const parts: Cond[] = [];
  if (ctx.dialect === 'postgres') {
    const ids = query === ctx.drivingSearch ? ctx.searchMatchIds : null;
    if (!ids) parts.push(sql<SqlBool>`m.search_tsv @@ plainto_tsquery('english', ${query.text})`);
    else parts.push(ids.length === 0 ? FALSE : sql<SqlBool>`m.id = ANY(${ids})`);
    for (const phrase of query.phrases) {
      const pattern = escapeLike(phrase);
      parts.push(sql<SqlBool>`(m.content ILIKE ${pattern} ESCAPE '\\' OR m.subject ILIKE ${pattern} ESCAPE '\\')`);
    }
  } else {
    // Each word quoted: FTS5 reads it as a plain term (words hold only letters and digits).
    const match = query.words.map((w) => `"${w}"`).join(' ');
    parts.push(
      query === ctx.drivingSearch && ctx.ftsDriven
        ? sql<SqlBool>`f.message_fts MATCH ${match}`
        : sql<SqlBool>`${sql.ref(ctx.idRef)} IN (SELECT rowid FROM message_fts WHERE message_fts MATCH ${match})`,
    );
    for (const phrase of query.phrases) {
      const pattern = escapeLike(phrase);
      parts.push(sql<SqlBool>`(m.content LIKE ${pattern} ESCAPE '\\' OR m.subject LIKE ${pattern} ESCAPE '\\')`);
    }
  }
  return and(parts);
}

function positive(condition: Condition, ctx: SqlContext): Cond {
  switch (condition.kind) {
    case 'conversation': {
      const direct = condition.direct ? [isPrivate(ctx)] : [];
      const clauses = condition.anyOf.map((clause) =>
        clause.senderId === undefined
          ? recipientIn(clause.recipientIds, ctx)
          : and([sql<SqlBool>`m.sender_id = ${clause.senderId}`, recipientIn(clause.recipientIds, ctx)]),
      );
      if (condition.anyOf.every((clause) => clause.senderId === undefined)) return and([...direct, or(clauses)]);
      // The recipients alone first: a constraint the (recipient_id, id) index can answer.
      const recipients = [...new Set(condition.anyOf.flatMap((clause) => clause.recipientIds))];
      return and([...direct, recipientIn(recipients, ctx), or(clauses)]);
    }
    case 'topic': {
      const match = sql<SqlBool>`lower(m.subject) = lower(${condition.topic})`;
      if (condition.streamRecipientIds) return and([recipientIn(condition.streamRecipientIds, ctx), match]);
      // Direct messages have the empty topic; only an empty operand needs the stream check.
      return foldTopic(condition.topic) === '' ? and([match, isStreamMessage()]) : match;
    }
    case 'sender':
      return sql<SqlBool>`m.sender_id = ${condition.userId}`;
    case 'is-dm':
      return isPrivate(ctx);
    case 'flags':
      return condition.set
        ? sql<SqlBool>`(${flags(ctx)} & ${sql.lit(condition.mask)}) <> 0`
        : sql<SqlBool>`(${flags(ctx)} & ${sql.lit(condition.mask)}) = 0`;
    case 'resolved':
      return sql<SqlBool>`m.subject LIKE ${`${RESOLVED_TOPIC_PREFIX}%`}`;
    case 'followed':
      return topicPolicyIn(ctx.viewerId, [VisibilityPolicy.FOLLOWED]);
    case 'home':
      return mutingExclusion(ctx.viewerId, null);
    case 'muted':
      return not(mutingExclusion(ctx.viewerId, null));
    case 'has':
      if (condition.what === 'reaction') {
        return sql<SqlBool>`EXISTS (SELECT 1 FROM reaction rx WHERE rx.message_id = ${sql.ref(ctx.idRef)})`;
      }
      return sql<SqlBool>`${sql.ref(`m.has_${condition.what}`)} = 1`;
    case 'id':
      return sql<SqlBool>`${sql.ref(ctx.idRef)} = ${condition.id}`;
    case 'search':
      return searchCondition(condition.query, ctx);
  }
}

/** The viewer's flags; history rows without a user_message row count as read and historical. */
function flags(ctx: SqlContext) {
  return ctx.history ? sql`COALESCE(um.flags, ${sql.lit(FLAG_BITS.read | FLAG_BITS.historical)})` : sql`um.flags`;
}

/**
 * Direct messages carry the is_private flag on every recipient's row. Masks are literals so that
 * both stores match the partial indexes on user_message (unread, starred, private).
 */
function isPrivate(ctx: SqlContext): Cond {
  return sql<SqlBool>`(${flags(ctx)} & ${sql.lit(FLAG_BITS.is_private)}) <> 0`;
}

function isStreamMessage(): Cond {
  return sql<SqlBool>`EXISTS (SELECT 1 FROM recipient mr WHERE mr.id = m.recipient_id AND mr.type = ${RecipientType.STREAM})`;
}

export function conditionSql(condition: Condition, ctx: SqlContext): Cond {
  const cond = positive(condition, ctx);
  return condition.negated ? not(cond) : cond;
}

/** Whether the condition reads columns of `message` (otherwise user_message alone will do). */
export function needsMessageRow(condition: Condition): boolean {
  switch (condition.kind) {
    case 'flags':
    case 'is-dm':
    case 'id':
      return false;
    case 'has':
      return condition.what !== 'reaction';
    default:
      return true;
  }
}
