// Realm values as clients see them.
import { createHash } from 'node:crypto';
import type { RealmRow } from '../db/schema.js';
import { renderMarkdown } from './markdown/index.js';

export function realmIconUrl(realm: Pick<RealmRow, 'string_id' | 'id'>): string {
  const hash = createHash('md5').update(`realm-${realm.id}-${realm.string_id}`).digest('hex');
  return `https://secure.gravatar.com/avatar/${hash}?d=identicon&s=100`;
}

export function renderRealmDescription(description: string): string {
  return description === '' ? '' : renderMarkdown(description).html;
}
