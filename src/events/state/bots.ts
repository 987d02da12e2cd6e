// The `realm_bot` part of the POST /register state: the bots the user can administer (every bot
// of the organization for administrators, their own otherwise), deactivated ones included.
import type { DbOrTx, RealmRow, UserRow } from '../../db/schema.js';
import { isAdmin } from '../../lib/roles.js';
import type { BotDict } from '../../lib/bot-format.js';
import { botDicts } from '../../queries/bots.js';
import { realmUsers } from '../../queries/kept-lists.js';

/** The realm's own notification bot is part of the server, as the reference's system bots are: not listed. */
export async function realmBotsState(db: DbOrTx, user: UserRow, realm: RealmRow): Promise<BotDict[]> {
  const users = await realmUsers(db, realm.id);
  const bots = users
    .filter((u) => u.is_bot && u.id !== realm.notification_bot_id && (isAdmin(user) || u.bot_owner_id === user.id))
    .sort((a, b) => a.id - b.id);
  return botDicts(db, bots);
}

type Dict = Record<string, any>;

/** realm_bot events: add (or re-add, on reactivation) replaces the bot's entry; update merges; remove/delete drop it. */
export function applyRealmBotEvent(state: Dict, event: Dict): void {
  const bots = state.realm_bots as Dict[] | undefined;
  if (!Array.isArray(bots)) return;
  const id = event.bot?.user_id;
  const index = bots.findIndex((b) => b.user_id === id);
  if (event.op === 'add') {
    if (index >= 0) bots[index] = { ...event.bot };
    else bots.push({ ...event.bot });
    bots.sort((a, b) => a.user_id - b.user_id);
  } else if (event.op === 'update') {
    if (index >= 0) Object.assign(bots[index]!, event.bot);
  } else if (event.op === 'remove' || event.op === 'delete') {
    if (index >= 0) bots.splice(index, 1);
  }
}
