// The organization's custom emoji, as GET /realm/emoji and the register state's realm_emoji list
// them: keyed by emoji id. Confab stores none until emoji uploads exist.
import type { DbOrTx } from '../db/schema.js';

export interface RealmEmojiDict {
  id: string;
  name: string;
  source_url: string;
  deactivated: boolean;
  author_id: number | null;
}

export async function realmEmojiOf(_db: DbOrTx, _realmId: number): Promise<Record<string, RealmEmojiDict>> {
  return {};
}
