// A user's avatar changes: 'U' once an uploaded image is stored, 'G' (Confab's default, or a
// Gravatar when the operator enabled it) after a delete. Either way avatar_version moves on, so
// every versioned avatar URL clients hold is new, and everyone hears of it.
import type { RealmRow, UserRow } from '../db/schema.js';
import { ApiError } from '../errors.js';
import { mediumAvatarUrl } from '../events/state/users.js';
import { realmSettings } from '../lib/realm-settings.js';
import { isAdmin } from '../lib/roles.js';
import { avatarUrl } from '../lib/user-format.js';
import { activeUserIds } from '../queries/users.js';
import type { SystemContext } from './context.js';
import { botAudience } from './user-deactivate.js';

export type AvatarSource = 'U' | 'G';

/** The organization's avatar_changes_disabled binds everyone but its administrators (owners too). */
export function checkAvatarChangeAllowed(user: UserRow, realm: RealmRow): void {
  if (realmSettings(realm).avatar_changes_disabled && !isAdmin(user)) {
    throw new ApiError('Avatar changes are disabled in this organization.');
  }
}

/** Sets the avatar source, moves avatar_version on, and tells everyone; returns the user as now stored. */
export async function doChangeAvatarFields(ctx: SystemContext, realm: RealmRow, target: UserRow, source: AvatarSource): Promise<UserRow> {
  await ctx.tx
    .updateTable('user_profile')
    .set((eb) => ({ avatar_source: source, avatar_version: eb('avatar_version', '+', 1) }))
    .where('id', '=', target.id)
    .execute();
  const { avatar_version: version } = await ctx.tx.selectFrom('user_profile').select('avatar_version').where('id', '=', target.id).executeTakeFirstOrThrow();
  const updated: UserRow = { ...target, avatar_source: source, avatar_version: version };
  const url = avatarUrl(updated, false)!;
  const person = { user_id: target.id, avatar_source: source, avatar_url: url, avatar_url_medium: mediumAvatarUrl(url), avatar_version: version };
  ctx.events.send({ type: 'realm_user', op: 'update', person }, await activeUserIds(ctx.tx, realm.id));
  if (target.is_bot) {
    ctx.events.send({ type: 'realm_bot', op: 'update', bot: { user_id: target.id, avatar_url: url } }, await botAudience(ctx, realm, target));
  }
  return updated;
}
