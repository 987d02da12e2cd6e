// The settings a realm's new users start with (stored as overrides of the registry defaults).
import type { DbOrTx } from '../db/schema.js';

/** The realm's stored overrides as JSON text, or null when it never changed any default. */
export async function realmUserDefaultsText(db: DbOrTx, realmId: number): Promise<string | null> {
  const row = await db.selectFrom('realm_user_default').select('settings').where('realm_id', '=', realmId).executeTakeFirst();
  return row?.settings ?? null;
}
