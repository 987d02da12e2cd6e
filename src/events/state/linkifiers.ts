// Register state for linkifiers, code playgrounds and the email domains for sign-up.
import type { DbOrTx } from '../../db/schema.js';
import { type LinkifierDict, listLinkifiers, listPlaygrounds, type PlaygroundDict } from '../../queries/linkifiers.js';
import { listRealmDomains, type RealmDomainDict } from '../../queries/realm-domains.js';
import type { ClientCapabilities } from '../types.js';

/** Only clients that understand URL templates get the list; others get none rather than a wrong shape. */
export async function realmLinkifiersState(db: DbOrTx, realmId: number, capabilities: ClientCapabilities): Promise<LinkifierDict[]> {
  return capabilities.linkifier_url_template ? listLinkifiers(db, realmId) : [];
}

export function realmPlaygroundsState(db: DbOrTx, realmId: number): Promise<PlaygroundDict[]> {
  return listPlaygrounds(db, realmId);
}

export function realmDomainsState(db: DbOrTx, realmId: number): Promise<RealmDomainDict[]> {
  return listRealmDomains(db, realmId);
}

/** realm_domains events name one domain each: add appends, change edits, remove drops it. */
export function applyRealmDomainsEvent(state: Record<string, unknown>, event: Record<string, unknown>): void {
  const domains = state.realm_domains;
  if (!Array.isArray(domains)) return;
  const list = domains as RealmDomainDict[];
  if (event.op === 'add') {
    state.realm_domains = [...list, event.realm_domain as RealmDomainDict];
  } else if (event.op === 'change') {
    const changed = event.realm_domain as RealmDomainDict;
    state.realm_domains = list.map((entry) => (entry.domain === changed.domain ? { ...entry, allow_subdomains: changed.allow_subdomains } : entry));
  } else if (event.op === 'remove') {
    state.realm_domains = list.filter((entry) => entry.domain !== event.domain);
  }
}

/** Replaces a list when the state holds it (events carry the realm's whole list). */
export function applyLinkifierEvent(state: Record<string, unknown>, event: Record<string, unknown>): void {
  if (event.type === 'realm_linkifiers' && Array.isArray(state.realm_linkifiers)) {
    state.realm_linkifiers = event.realm_linkifiers;
  }
  if (event.type === 'realm_playgrounds' && Array.isArray(state.realm_playgrounds)) {
    state.realm_playgrounds = event.realm_playgrounds;
  }
}
