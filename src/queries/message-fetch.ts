// Message history through a narrow: the anchor and range computation of GET /messages.
//
// A fetch reads the viewer's own user_message rows, or, when the narrow names a stream
// whose history the viewer may read (see resolveNarrow), that stream's whole history;
// messages the viewer never received then come back flagged read + historical.
// Ranges are two index-ordered scans from the anchor: "before" rows (id descending) and
// "after" rows (id ascending), trimmed and reported as the reference server does.
import { type JoinBuilder, type Kysely, type RawBuilder, type SelectQueryBuilder, type SqlBool, sql } from 'kysely';
import type { DbOrTx, RealmRow, UserRow } from '../db/schema.js';
import { ApiError } from '../errors.js';
import { FLAG_BITS } from '../lib/message-flags.js';
import { normalizeNarrow } from '../lib/narrow/parse.js';
import { searchHighlights } from '../lib/narrow/search.js';
import type { NarrowTerm, ResolvedNarrow } from '../lib/narrow/types.js';
import { messageDicts } from './message-dicts.js';
import { resolveNarrow } from './narrow/resolve.js';
import { conditionSql, mutingExclusion, needsMessageRow, type StoreDialect, storeDialect } from './narrow/sql.js';

/** anchor=newest; anything at or above it counts as newest. */
export const LARGER_THAN_MAX_MESSAGE_ID = 10_000_000_000_000_000;
export const MAX_MESSAGES_PER_FETCH = 5000;

export type Anchor = number | 'newest' | 'oldest' | 'first_unread';

/** The anchor parameter: an id, or a name for the server to compute it from. */
export function parseAnchor(raw: string | undefined, useFirstUnreadAnchor: boolean): Anchor {
  if (useFirstUnreadAnchor) return 'first_unread';
  if (raw === undefined) throw new ApiError("Missing 'anchor' argument.");
  if (raw === 'newest' || raw === 'oldest' || raw === 'first_unread') return raw;
  if (!/^\s*[+-]?[0-9]+\s*$/.test(raw)) throw new ApiError('Invalid anchor');
  const value = BigInt(raw.trim());
  if (value < 0n) return 0;
  return value > BigInt(LARGER_THAN_MAX_MESSAGE_ID) ? LARGER_THAN_MAX_MESSAGE_ID : Number(value);
}

export interface FetchRequest {
  realm: RealmRow;
  user: UserRow;
  narrow: readonly NarrowTerm[];
  anchor: Anchor;
  numBefore: number;
  numAfter: number;
  includeAnchor: boolean;
  /** PostgreSQL: how many search matches to collect up front (see probeSearch); tests lower it. */
  searchProbeLimit?: number;
}

export interface FetchedRow {
  id: number;
  flags: number;
  match_content?: string;
  match_subject?: string;
}

export interface FetchResult {
  rows: FetchedRow[];
  anchor: number;
  found_anchor: boolean;
  found_oldest: boolean;
  found_newest: boolean;
  history_limited: boolean;
}

interface RawRow {
  id: number;
  flags: number | null;
  subject?: string;
  rendered_content?: string;
}

type Query = SelectQueryBuilder<any, any, RawRow>;

/** What a history row without a user_message row is shown with. */
const HISTORICAL_FLAGS = FLAG_BITS.read | FLAG_BITS.historical;

/** An id to compare with: PostgreSQL's message ids are 32-bit, anchors may be far larger. */
function idValue(dialect: StoreDialect, id: number): RawBuilder<number> {
  return dialect === 'postgres' ? sql<number>`CAST(${id} AS BIGINT)` : sql<number>`${id}`;
}

export interface BaseQuery {
  query: Query;
  idRef: string;
  dialect: StoreDialect;
}

interface BaseOptions {
  history: boolean;
  searchFields: boolean;
  /** Join `message` even when no condition needs it. */
  message?: boolean;
  /** PostgreSQL: every id the search matches, when there are few (see probeSearch). */
  searchMatchIds: number[] | null;
}

/**
 * History rows must come from the viewer's realm. The stream terms that allow history already
 * pin recipients of this realm, so this is a filter, not a way in: on SQLite the unary plus keeps
 * the planner from walking the realm index for it; PostgreSQL weighs its statistics and needs no hint
 * (and estimates the plain column better).
 */
function sameRealm(dialect: StoreDialect, realmId: number): RawBuilder<SqlBool> {
  return dialect === 'sqlite' ? sql<SqlBool>`+m.realm_id = ${realmId}` : sql<SqlBool>`m.realm_id = ${realmId}`;
}

export function baseQuery(db: DbOrTx, narrow: ResolvedNarrow, options: BaseOptions): BaseQuery {
  const any = db as unknown as Kysely<any>;
  const dialect = storeDialect(db);
  const { history, searchFields } = options;
  // SQLite's full-text index yields matching ids in order: walking it from the anchor beats
  // collecting every match first. PostgreSQL combines its GIN index with the id order itself.
  const drivingSearch = dialect === 'sqlite' && narrow.highlight && narrow.highlight.words.length > 0 ? narrow.highlight : null;
  const joinMessage =
    history || searchFields || drivingSearch !== null || options.message || narrow.conditions.some(needsMessageRow);
  // Ordering by the driving table's own key lets the store walk that index instead of sorting:
  // the full-text table, the message table (through its recipient indexes, for narrows naming
  // streams), or the viewer's user_message rows (their private-message index for conversations).
  const byStream = narrow.conditions.some((c) => c.kind === 'conversation' && !c.negated && !c.direct);
  const idRef = drivingSearch ? 'f.rowid' : history || byStream ? 'm.id' : 'um.message_id';
  const ownRows = (join: JoinBuilder<any, any>, idColumn: string) =>
    join.onRef('um.message_id', '=', idColumn).on('um.user_id', '=', narrow.viewerId);
  let query: SelectQueryBuilder<any, any, object>;
  if (drivingSearch && history) {
    query = any
      .selectFrom('message_fts as f')
      .innerJoin('message as m', 'm.id', 'f.rowid')
      .leftJoin('user_message as um', (join) => ownRows(join, 'f.rowid'))
      .where(sameRealm(dialect, narrow.realmId));
  } else if (drivingSearch) {
    query = any
      .selectFrom('message_fts as f')
      .innerJoin('user_message as um', (join) => ownRows(join, 'f.rowid'))
      .innerJoin('message as m', 'm.id', 'um.message_id');
  } else if (history) {
    query = any
      .selectFrom('message as m')
      .leftJoin('user_message as um', (join) => ownRows(join, 'm.id'))
      .where(sameRealm(dialect, narrow.realmId));
  } else {
    query = any.selectFrom('user_message as um').where('um.user_id', '=', narrow.viewerId);
    if (joinMessage) query = query.innerJoin('message as m', 'm.id', 'um.message_id');
  }
  const ctx = {
    dialect,
    viewerId: narrow.viewerId,
    history,
    idRef,
    drivingSearch: narrow.highlight,
    ftsDriven: drivingSearch !== null,
    searchMatchIds: options.searchMatchIds,
  };
  for (const condition of narrow.conditions) query = query.where(conditionSql(condition, ctx));
  let selected = query.select([sql.ref<number>(idRef).as('id'), sql.ref<number | null>('um.flags').as('flags')]);
  if (searchFields) selected = selected.select(['m.subject', 'm.rendered_content']);
  return { query: selected as Query, idRef, dialect };
}

/** The lowest unread message in the narrow outside muted streams and topics, or newest when there is none. */
async function firstUnreadAnchor(db: DbOrTx, narrow: ResolvedNarrow, searchMatchIds: number[] | null): Promise<number> {
  // Always the viewer's own rows: only they carry the unread flag.
  const base = baseQuery(db, narrow, { history: false, searchFields: false, message: true, searchMatchIds });
  const row = await base.query
    .where(sql<SqlBool>`(um.flags & ${sql.lit(FLAG_BITS.read)}) = 0`)
    .where(mutingExclusion(narrow.viewerId, narrow.scopeStreamId))
    .orderBy(sql.ref(base.idRef), 'asc')
    .limit(1)
    .executeTakeFirst();
  return row?.id ?? LARGER_THAN_MAX_MESSAGE_ID;
}

async function resolveAnchor(db: DbOrTx, narrow: ResolvedNarrow, anchor: Anchor, searchMatchIds: number[] | null): Promise<number> {
  if (anchor === 'newest') return LARGER_THAN_MAX_MESSAGE_ID;
  if (anchor === 'oldest') return 0;
  if (anchor === 'first_unread') return firstUnreadAnchor(db, narrow, searchMatchIds);
  return anchor;
}

/** How many search matches PostgreSQL collects up front before leaving the order to the id index. */
export const SEARCH_PROBE_LIMIT = 5000;

/**
 * PostgreSQL: all ids a search matches when there are at most `limit`, else null.
 * Walking the id index from the anchor and testing each message finds frequent words at once
 * but reads the whole table for rare ones; a short list of matches (read through the GIN index)
 * avoids that. Words the planner's statistics already know to be frequent skip the list.
 */
async function probeSearch(db: DbOrTx, narrow: ResolvedNarrow, limit: number): Promise<number[] | null> {
  const query = narrow.highlight;
  if (storeDialect(db) !== 'postgres' || !query || query.words.length === 0 || limit <= 0) return null;
  const matches = sql`SELECT id FROM message WHERE search_tsv @@ plainto_tsquery('english', ${query.text})`;
  const plan = await sql<{ 'QUERY PLAN': Array<{ Plan: { 'Plan Rows': number } }> }>`EXPLAIN (FORMAT JSON) ${matches}`.execute(db);
  if ((plan.rows[0]?.['QUERY PLAN'][0]?.Plan['Plan Rows'] ?? 0) > 2 * limit) return null;
  const { rows } = await sql<{ id: number }>`${matches} LIMIT ${limit + 1}`.execute(db);
  return rows.length > limit ? null : rows.map((row) => row.id);
}

/** Runs the "before" and "after" scans around the anchor (at most one row when both counts are 0). */
async function rangeRows(
  base: BaseQuery,
  anchor: number,
  range: { numBefore: number; numAfter: number; includeAnchor: boolean; toLeft: boolean; toRight: boolean },
): Promise<RawRow[]> {
  const { query, idRef, dialect } = base;
  const id = sql.ref<number>(idRef);
  const include = range.includeAnchor ? 1 : 0;
  const needBefore = !range.toLeft && range.numBefore > 0;
  const needAfter = !range.toRight && range.numAfter > 0;
  const before = (upTo: number | null, limit: number) =>
    (upTo === null ? query : query.where(id, '<=', idValue(dialect, upTo))).orderBy(id, 'desc').limit(limit).execute();
  const after = (from: number | null, limit: number) =>
    (from === null ? query : query.where(id, '>=', idValue(dialect, from))).orderBy(id, 'asc').limit(limit).execute();

  if (needBefore && needAfter) {
    return [...(await before(anchor - 1, range.numBefore)), ...(await after(anchor, range.numAfter + 1))];
  }
  if (needBefore) {
    const limit = range.numBefore + (range.toRight ? 0 : include);
    return before(range.toRight ? null : anchor - (1 - include), limit);
  }
  if (needAfter) {
    return after(range.toLeft ? null : anchor + (1 - include), range.numAfter + include);
  }
  return query.where(id, '=', idValue(dialect, anchor)).execute();
}

/** Messages of the narrow around the anchor, with the flags the viewer sees them with. */
export async function fetchMessages(db: DbOrTx, request: FetchRequest): Promise<FetchResult> {
  const narrow = await resolveNarrow(db, request.realm, request.user, normalizeNarrow(request.narrow));
  const searchMatchIds = await probeSearch(db, narrow, request.searchProbeLimit ?? SEARCH_PROBE_LIMIT);
  const anchor = await resolveAnchor(db, narrow, request.anchor, searchMatchIds);
  const toLeft = anchor === 0;
  const toRight = anchor >= LARGER_THAN_MAX_MESSAGE_ID;
  const numBefore = request.numBefore;
  const numAfter = toRight ? 0 : request.numAfter;

  const base = baseQuery(db, narrow, { history: narrow.includeHistory, searchFields: narrow.highlight !== null, searchMatchIds });
  const raw = await rangeRows(base, anchor, { numBefore, numAfter, includeAnchor: request.includeAnchor, toLeft, toRight });
  const rows = raw.sort((a, b) => a.id - b.id);

  let beforeRows = toRight ? rows : rows.filter((row) => row.id < anchor);
  const anchorRows = toRight ? [] : rows.filter((row) => row.id === anchor);
  let afterRows = toRight ? [] : rows.filter((row) => row.id > anchor);
  if (numBefore > 0) beforeRows = beforeRows.slice(-numBefore);
  if (numAfter > 0) afterRows = afterRows.slice(0, numAfter);

  const found_oldest = toLeft || beforeRows.length < numBefore;
  return {
    rows: [...beforeRows, ...anchorRows, ...afterRows].map((row) => toFetchedRow(row, narrow)),
    anchor,
    found_anchor: anchorRows.length === 1,
    found_oldest,
    found_newest: toRight || afterRows.length < numAfter,
    // No realm here limits visible history, so nothing is ever hidden from the oldest end.
    history_limited: false,
  };
}

function toFetchedRow(row: RawRow, narrow: ResolvedNarrow): FetchedRow {
  const fetched: FetchedRow = { id: row.id, flags: row.flags ?? HISTORICAL_FLAGS };
  if (narrow.highlight) Object.assign(fetched, searchHighlights(narrow.highlight, row.rendered_content ?? '', row.subject ?? ''));
  return fetched;
}

export interface GetMessagesRequest {
  realm: RealmRow;
  user: UserRow;
  narrow: readonly NarrowTerm[];
  /** The anchor parameter as sent, if sent. */
  anchor: string | undefined;
  useFirstUnreadAnchor: boolean;
  numBefore: number;
  numAfter: number;
  includeAnchor: boolean;
  applyMarkdown: boolean;
  clientGravatar: boolean;
}

/** GET /messages: the checks on the range, the fetch, and the message dictionaries. */
export async function getMessages(db: DbOrTx, request: GetMessagesRequest): Promise<Record<string, unknown>> {
  const anchor = parseAnchor(request.anchor, request.useFirstUnreadAnchor);
  if (request.numBefore + request.numAfter > MAX_MESSAGES_PER_FETCH) {
    throw new ApiError(`Too many messages requested (maximum ${MAX_MESSAGES_PER_FETCH}).`);
  }
  if (request.numBefore > 0 && request.numAfter > 0 && !request.includeAnchor) {
    throw new ApiError('The anchor can only be excluded at an end of the range');
  }
  const { realm, user, narrow, numBefore, numAfter, includeAnchor } = request;
  const result = await fetchMessages(db, { realm, user, narrow, anchor, numBefore, numAfter, includeAnchor });
  const dicts = await messageDicts(db, user, result.rows, {
    applyMarkdown: request.applyMarkdown,
    clientGravatar: request.clientGravatar,
    realm,
  });
  const byId = new Map(result.rows.map((row) => [row.id, row]));
  const messages = dicts.map((dict) => {
    const { match_content, match_subject } = byId.get(dict.id as number)!;
    return match_content === undefined ? dict : { ...dict, match_content, match_subject };
  });
  return {
    messages,
    anchor: result.anchor,
    found_anchor: result.found_anchor,
    found_oldest: result.found_oldest,
    found_newest: result.found_newest,
    history_limited: result.history_limited,
  };
}
