// Reads of a realm's linkifiers and code playgrounds.
import type { DbOrTx } from '../db/schema.js';
import { hasWebScheme } from '../lib/linkifiers/url-template.js';

export interface LinkifierDict {
  id: number;
  pattern: string;
  url_template: string;
}

/**
 * The realm's linkifiers in the order they apply. Rows stored before templates had to be web
 * URLs, and whose template is not, are left out: they are neither applied nor sent to clients.
 */
export async function listLinkifiers(db: DbOrTx, realmId: number): Promise<LinkifierDict[]> {
  const rows = await db
    .selectFrom('realm_filter')
    .select(['id', 'pattern', 'url_template'])
    .where('realm_id', '=', realmId)
    .orderBy('order')
    .orderBy('id')
    .execute();
  return rows.filter((row) => hasWebScheme(row.url_template));
}

export async function getLinkifier(db: DbOrTx, realmId: number, id: number) {
  return db.selectFrom('realm_filter').selectAll().where('realm_id', '=', realmId).where('id', '=', id).executeTakeFirst();
}

export async function linkifierByPattern(db: DbOrTx, realmId: number, pattern: string) {
  return db
    .selectFrom('realm_filter')
    .select(['id', 'url_template'])
    .where('realm_id', '=', realmId)
    .where('pattern', '=', pattern)
    .executeTakeFirst();
}

export interface PlaygroundDict {
  id: number;
  name: string;
  pygments_language: string;
  highlighter_language: string;
  url_template: string;
}

/** The realm's code playgrounds, oldest first, with both names of the language field (web templates only, as above). */
export async function listPlaygrounds(db: DbOrTx, realmId: number): Promise<PlaygroundDict[]> {
  const rows = await db
    .selectFrom('realm_playground')
    .select(['id', 'name', 'highlighter_language', 'url_template'])
    .where('realm_id', '=', realmId)
    .orderBy('id')
    .execute();
  return rows.filter((row) => hasWebScheme(row.url_template)).map((row) => ({
    id: row.id,
    name: row.name,
    pygments_language: row.highlighter_language,
    highlighter_language: row.highlighter_language,
    url_template: row.url_template,
  }));
}

export async function getPlayground(db: DbOrTx, realmId: number, id: number) {
  return db.selectFrom('realm_playground').selectAll().where('realm_id', '=', realmId).where('id', '=', id).executeTakeFirst();
}
