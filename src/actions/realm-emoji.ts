// Adding and deactivating custom emoji, with the reference's checks in its order. Every change
// sends the organization's whole emoji dict (realm_emoji update) to everyone, after commit.
import type { DbOrTx, RealmEmojiRow, RealmRow, UserRow } from '../db/schema.js';
import { ApiError, NotFoundError } from '../errors.js';
import { emojiCodeForName } from '../lib/emoji.js';
import { checkEmojiName } from '../lib/emoji-names.js';
import { passesPolicy, requireNotGuest } from '../lib/permissions.js';
import { realmSettings } from '../lib/realm-settings.js';
import { isAdmin } from '../lib/roles.js';
import { activeRealmEmoji, realmEmojiOf } from '../queries/realm-emoji.js';
import { activeUserIds } from '../queries/users.js';
import type { ActionContext } from './context.js';

export const EMOJI_EXISTS = 'A custom emoji with this name already exists.';

/**
 * The checks an upload passes before its file is looked at: not a guest, a valid name, the
 * organization's add_custom_emoji_policy, a free name. (The file checks come next, then
 * canOverrideBuiltIn.) Run again inside the action, which may see a newer state.
 */
export async function checkMayAddEmoji(db: DbOrTx, actor: UserRow, realm: RealmRow, name: string, now: number): Promise<void> {
  requireNotGuest(actor);
  checkEmojiName(name);
  const settings = realmSettings(realm);
  if (!passesPolicy(actor, settings.add_custom_emoji_policy, settings.waiting_period_threshold, now)) {
    throw new ApiError('Insufficient permission');
  }
  if (await activeRealmEmoji(db, realm.id, name)) throw new ApiError(EMOJI_EXISTS);
}

/** Only administrators may give a custom emoji the name of a built-in one. */
export function checkMayOverrideBuiltIn(actor: UserRow, name: string): void {
  if (emojiCodeForName(name) !== undefined && !isAdmin(actor)) {
    throw new ApiError('Only administrators can override built-in emoji.');
  }
}

async function announce(ctx: ActionContext): Promise<void> {
  const emoji = await realmEmojiOf(ctx.tx, ctx.realm.id);
  ctx.events.send({ type: 'realm_emoji', op: 'update', realm_emoji: emoji }, await activeUserIds(ctx.tx, ctx.realm.id));
}

export interface NewEmoji {
  name: string;
  fileName: string;
  stillFileName: string | null;
}

export async function doAddRealmEmoji(ctx: ActionContext, emoji: NewEmoji): Promise<RealmEmojiRow> {
  await checkMayAddEmoji(ctx.tx, ctx.actor, ctx.realm, emoji.name, ctx.now);
  checkMayOverrideBuiltIn(ctx.actor, emoji.name);
  const row = await ctx.tx
    .insertInto('realm_emoji')
    .values({
      realm_id: ctx.realm.id,
      author_id: ctx.actor.id,
      name: emoji.name,
      file_name: emoji.fileName,
      still_file_name: emoji.stillFileName,
      deactivated: 0,
      date_created: ctx.now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  await announce(ctx);
  return row;
}

/** Deactivates (never deletes: old messages and reactions keep the image) an active emoji. */
export async function doRemoveRealmEmoji(ctx: ActionContext, name: string): Promise<void> {
  const emoji = await activeRealmEmoji(ctx.tx, ctx.realm.id, name);
  if (!emoji) throw new NotFoundError(`Emoji '${name}' does not exist`);
  if (!isAdmin(ctx.actor) && emoji.author_id !== ctx.actor.id) {
    throw new ApiError('Must be an organization administrator or emoji author');
  }
  await ctx.tx.updateTable('realm_emoji').set({ deactivated: 1 }).where('id', '=', emoji.id).execute();
  await announce(ctx);
}
