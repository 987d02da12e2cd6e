// Users whose email_address_visibility is not "everyone" were stored with their real address as
// their API email, which every member then saw. Their API email becomes the placeholder
// user{id}@{organization host} that new accounts get. The rule is written out here rather than
// imported, so that later changes to the app do not change what this migration did.
import type { Kysely } from 'kysely';

const EVERYONE = 1;

function visibilityOf(settings: string | null): number {
  if (!settings) return EVERYONE;
  try {
    const value = (JSON.parse(settings) as { email_address_visibility?: unknown }).email_address_visibility;
    return value === undefined ? EVERYONE : Number(value);
  } catch {
    return EVERYONE;
  }
}

function placeholderDomain(url: string): string {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return 'confab.invalid';
  }
}

export async function up(db: Kysely<any>): Promise<void> {
  const rows: Array<{ id: number; email: string; settings: string | null; url: string }> = await db
    .selectFrom('user_profile as u')
    .innerJoin('realm as r', 'r.id', 'u.realm_id')
    .select(['u.id', 'u.email', 'u.settings', 'r.url'])
    .where('u.is_bot', '=', 0)
    .execute();
  for (const row of rows) {
    if (visibilityOf(row.settings) === EVERYONE) continue;
    const placeholder = `user${row.id}@${placeholderDomain(row.url)}`;
    if (row.email === placeholder) continue;
    await db.updateTable('user_profile').set({ email: placeholder }).where('id', '=', row.id).execute();
  }
}

export async function down(): Promise<void> {
  // The real addresses are still in delivery_email; nothing to undo.
}
