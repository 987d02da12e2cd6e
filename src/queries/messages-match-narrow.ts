// GET /messages/matches_narrow: which of some messages the viewer holds fall in a narrow,
// with the same match_content / match_subject a search fetch would give them.
import { sql } from 'kysely';
import type { DbOrTx, RealmRow, UserRow } from '../db/schema.js';
import { normalizeNarrow } from '../lib/narrow/parse.js';
import { escapeHtml, searchHighlights } from '../lib/narrow/search.js';
import type { NarrowTerm } from '../lib/narrow/types.js';
import { baseQuery } from './message-fetch.js';
import { resolveNarrow } from './narrow/resolve.js';
import { isStorableId } from './users.js';

export interface MatchFields {
  match_content: string;
  match_subject: string;
}

/**
 * Only messages the viewer received count (their user_message rows), as on the reference:
 * a client asks about messages it was just sent. Outside a search, the fields are the rendered
 * content and the escaped topic as they are.
 */
export async function messagesMatchNarrow(
  db: DbOrTx,
  realm: RealmRow,
  viewer: UserRow,
  messageIds: readonly number[],
  narrow: readonly NarrowTerm[],
): Promise<Record<string, MatchFields>> {
  // The narrow is checked (and can fail) whatever the ids.
  const resolved = await resolveNarrow(db, realm, viewer, normalizeNarrow(narrow));
  const ids = [...new Set(messageIds.filter((id) => id > 0 && isStorableId(id)))];
  if (ids.length === 0) return {};
  const base = baseQuery(db, resolved, { history: false, searchFields: true, searchMatchIds: null });
  const rows = await base.query.where(sql.ref(base.idRef), 'in', ids).orderBy(sql.ref(base.idRef), 'asc').execute();
  const out: Record<string, MatchFields> = {};
  for (const row of rows) {
    const content = row.rendered_content ?? '';
    const topic = row.subject ?? '';
    out[String(row.id)] = resolved.highlight
      ? searchHighlights(resolved.highlight, content, topic)
      : { match_content: content, match_subject: escapeHtml(topic) };
  }
  return out;
}
