// The realm_domain table: the email domains an organization admits for sign-up.
import type { DbOrTx, RealmRow } from '../db/schema.js';
import { addressRefusal, type EmailRefusal, emailsRestrictedToDomains } from '../lib/email-domains.js';

export interface RealmDomainDict {
  domain: string;
  allow_subdomains: boolean;
}

/** The organization's domains in the order they were added, as the API lists them. */
export async function listRealmDomains(db: DbOrTx, realmId: number): Promise<RealmDomainDict[]> {
  const rows = await db
    .selectFrom('realm_domain')
    .select(['domain', 'allow_subdomains'])
    .where('realm_id', '=', realmId)
    .orderBy('id')
    .execute();
  return rows.map((row) => ({ domain: row.domain, allow_subdomains: row.allow_subdomains === 1 }));
}

export function getRealmDomain(db: DbOrTx, realmId: number, domain: string) {
  return db.selectFrom('realm_domain').selectAll().where('realm_id', '=', realmId).where('domain', '=', domain).executeTakeFirst();
}

/** Why the organization refuses an address, reading its domain list only when it is restricted. */
export async function emailRefusal(db: DbOrTx, realm: RealmRow, email: string): Promise<EmailRefusal | null> {
  const allowed = emailsRestrictedToDomains(realm) ? await listRealmDomains(db, realm.id) : [];
  return addressRefusal(realm, email, allowed);
}
