// Realm values as clients see them.
import { renderMarkdown } from './markdown/index.js';

export { realmIconUrl } from './realm-images.js';

export function renderRealmDescription(description: string): string {
  return description === '' ? '' : renderMarkdown(description).html;
}
