// Register state for linkifiers and code playgrounds.
import type { DbOrTx } from '../../db/schema.js';
import { type LinkifierDict, listLinkifiers, listPlaygrounds, type PlaygroundDict } from '../../queries/linkifiers.js';
import type { ClientCapabilities } from '../types.js';

/** Only clients that understand URL templates get the list; others get none rather than a wrong shape. */
export async function realmLinkifiersState(db: DbOrTx, realmId: number, capabilities: ClientCapabilities): Promise<LinkifierDict[]> {
  return capabilities.linkifier_url_template ? listLinkifiers(db, realmId) : [];
}

export function realmPlaygroundsState(db: DbOrTx, realmId: number): Promise<PlaygroundDict[]> {
  return listPlaygrounds(db, realmId);
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
