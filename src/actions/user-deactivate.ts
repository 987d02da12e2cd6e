// Deactivating and reactivating accounts. A deactivated user keeps their rows but can no longer
// log in, and drops out of subscriber lists (those only count active users).
import type { RealmRow, UserRow } from '../db/schema.js';
import { ApiError, CannotDeactivateLastUserError, UnauthorizedPrincipalError } from '../errors.js';
import { BotType, isOwner } from '../lib/roles.js';
import { canAdminUser, isLastOwner } from '../lib/user-permissions.js';
import { botAudienceIds, botDictOf } from '../queries/bots.js';
import { activeSubscriptionsOf } from '../queries/streams.js';
import { userStatusOf } from '../queries/user-status.js';
import {
  activeBotsOwnedBy,
  activeUserIds,
  activeUserNamed,
  countActiveHumanOwners,
  countActiveUsers,
  getUserById,
} from '../queries/users.js';
import { checkBotCreationPolicy } from './bot-create.js';
import type { ActionContext, SystemContext } from './context.js';
import { expireInvitesOf } from './invites.js';
import { peerAudience } from './subscriptions.js';
import { announceGroupMemberships } from './user-group-membership.js';

/** Who hears about a bot's changes (see botAudienceIds). */
export async function botAudience(ctx: SystemContext, _realm: RealmRow, bot: UserRow): Promise<number[]> {
  return botAudienceIds(ctx.tx, bot);
}

/** Deactivates the user and, first, the active bots they own. Deactivating twice changes nothing. */
export async function doDeactivateUser(ctx: SystemContext, realm: RealmRow, user: UserRow, cascade = true): Promise<void> {
  if (!user.is_active) return;
  if (cascade) {
    for (const bot of await activeBotsOwnedBy(ctx.tx, realm.id, user.id)) await doDeactivateUser(ctx, realm, bot, false);
  }
  await ctx.tx.updateTable('user_profile').set({ is_active: 0 }).where('id', '=', user.id).execute();
  await expireInvitesOf(ctx, realm, user);
  ctx.events.send(
    { type: 'realm_user', op: 'update', person: { user_id: user.id, is_active: false } },
    await activeUserIds(ctx.tx, realm.id),
  );
  if (user.is_bot) {
    ctx.events.send(
      { type: 'realm_bot', op: 'update', bot: { user_id: user.id, is_active: false } },
      await botAudience(ctx, realm, user),
    );
  }
}

/** Reactivates the user; their subscriptions count again, so stream peers hear of them anew. */
export async function doReactivateUser(ctx: ActionContext, user: UserRow): Promise<void> {
  if (user.is_active) return;
  const realm = ctx.realm;
  await ctx.tx.updateTable('user_profile').set({ is_active: 1 }).where('id', '=', user.id).execute();
  const everyone = await activeUserIds(ctx.tx, realm.id);
  ctx.events.send({ type: 'realm_user', op: 'update', person: { user_id: user.id, is_active: true } }, everyone);
  // The register lists statuses of active users only: theirs comes back with them.
  const status = await userStatusOf(ctx.tx, user);
  if (Object.keys(status).length > 0) ctx.events.send({ type: 'user_status', user_id: user.id, ...status }, everyone);

  // A bot whose owner is gone passes to whoever brings it back.
  if (user.is_bot && user.bot_owner_id !== null && user.bot_owner_id !== ctx.actor.id) {
    const owner = await getUserById(ctx.tx, realm.id, user.bot_owner_id);
    if (!owner?.is_active) {
      await ctx.tx.updateTable('user_profile').set({ bot_owner_id: ctx.actor.id }).where('id', '=', user.id).execute();
      ctx.events.send({ type: 'realm_user', op: 'update', person: { user_id: user.id, bot_owner_id: ctx.actor.id } }, everyone);
    }
  }

  await announceGroupMemberships(ctx, realm, user, everyone);
  if (user.is_bot) {
    const bot = (await getUserById(ctx.tx, realm.id, user.id))!;
    ctx.events.send({ type: 'realm_bot', op: 'add', bot: await botDictOf(ctx.tx, bot) }, await botAudience(ctx, realm, bot));
  }

  for (const { stream } of await activeSubscriptionsOf(ctx.tx, user.id)) {
    const audience = (await peerAudience(ctx.tx, realm, stream)).filter((id) => id !== user.id);
    ctx.events.send({ type: 'subscription', op: 'peer_add', stream_ids: [stream.id], user_ids: [user.id] }, audience);
  }
}

/** DELETE /users/me: anyone but the last user or the last owner may leave. */
export async function checkDeactivateOwnUser(ctx: ActionContext): Promise<void> {
  // The realm's notification bot is part of the furniture, not a user who could stay behind.
  const systemBots = ctx.realm.notification_bot_id === null ? [] : [ctx.realm.notification_bot_id];
  if ((await countActiveUsers(ctx.tx, ctx.realm.id, systemBots)) <= 1) throw new CannotDeactivateLastUserError(false);
  if (isLastOwner(ctx.actor, await countActiveHumanOwners(ctx.tx, ctx.realm.id))) throw new CannotDeactivateLastUserError(true);
  await doDeactivateUser(ctx, ctx.realm, ctx.actor);
}

/** The target of an administrative change to another account, loaded and checked. */
export async function accessUserForAdmin(ctx: ActionContext, userId: number, options: { allowDeactivated: boolean; allowBots: boolean }) {
  const target = await getUserById(ctx.tx, ctx.realm.id, userId);
  if (!target) throw new ApiError('No such user');
  if (target.is_bot && !options.allowBots) throw new ApiError('No such user');
  if (!target.is_active && !options.allowDeactivated) throw new ApiError('User is deactivated');
  if (!canAdminUser(ctx.actor, target)) throw new ApiError('Insufficient permission');
  return target;
}

/** DELETE /users/{user_id}: administrators deactivate humans; only owners deactivate owners. */
export async function checkDeactivateUser(ctx: ActionContext, userId: number): Promise<void> {
  const target = await accessUserForAdmin(ctx, userId, { allowDeactivated: false, allowBots: false });
  if (isOwner(target) && !isOwner(ctx.actor)) throw new UnauthorizedPrincipalError('Must be an organization owner');
  if (isLastOwner(target, await countActiveHumanOwners(ctx.tx, ctx.realm.id))) {
    throw new ApiError('Cannot deactivate the only organization owner');
  }
  await doDeactivateUser(ctx, ctx.realm, target);
}

/** POST /users/{user_id}/reactivate: administrators, and owners of a bot for their bot. */
export async function checkReactivateUser(ctx: ActionContext, userId: number): Promise<void> {
  const target = await accessUserForAdmin(ctx, userId, { allowDeactivated: true, allowBots: true });
  if (target.is_bot) checkBotCreationPolicy(ctx.actor, ctx.realm, target.bot_type ?? BotType.GENERIC);
  if (target.is_bot && !target.is_active && (await activeUserNamed(ctx.tx, ctx.realm.id, target.full_name.trim()))) {
    throw new ApiError(
      `There is already an active bot named "${target.full_name}" in this organization. ` +
        'To reactivate this bot, you must rename or deactivate the other one first.',
    );
  }
  await doReactivateUser(ctx, target);
}
