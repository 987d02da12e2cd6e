// Presence pings. Every open client pings about once a minute, so a ping that moves no timestamp
// writes nothing, and only a first row or a user coming back online is announced to the others:
// everyone else learns of routine changes from their own next ping's answer.
import { ApiError } from '../errors.js';
import { type PresenceTimes, PRESENCE_EVENT_USER_LIMIT, eventPresence, planPresenceUpdate } from '../lib/presence.js';
import { realmSettings } from '../lib/realm-settings.js';
import { requireHuman } from '../lib/permissions.js';
import { resolveSettings } from '../lib/settings-registry.js';
import { notePresenceWrite } from '../queries/presence-cache.js';
import { presenceTimesOf } from '../queries/presence.js';
import { activeUserIds } from '../queries/users.js';
import type { ActionContext } from './context.js';

export type PresenceStatus = 'active' | 'idle';

export function parsePresenceStatus(status: string): PresenceStatus {
  if (status !== 'active' && status !== 'idle') throw new ApiError(`Invalid status: ${status}`);
  return status;
}

async function writeTimes(ctx: ActionContext, times: PresenceTimes, existed: boolean): Promise<void> {
  const values = { last_active_time: times.lastActive, last_connected_time: times.lastConnected };
  if (existed) {
    await ctx.tx.updateTable('user_presence').set(values).where('user_id', '=', ctx.actor.id).execute();
  } else {
    await ctx.tx
      .insertInto('user_presence')
      .values({ user_id: ctx.actor.id, realm_id: ctx.realm.id, ...values })
      .onConflict((oc) => oc.column('user_id').doUpdateSet(values))
      .execute();
  }
}

/** Records a ping from the actor; a user who turned presence off is not recorded at all. */
export async function doUpdateUserPresence(ctx: ActionContext, status: PresenceStatus): Promise<void> {
  requireHuman(ctx.actor);
  if (!resolveSettings(ctx.actor.settings).presence_enabled) return;
  const stored = await presenceTimesOf(ctx.tx, ctx.actor.id);
  const plan = planPresenceUpdate(stored, ctx.now, status === 'active');
  if (plan.write) {
    await writeTimes(ctx, plan.write, stored !== null);
    const entry = { userId: ctx.actor.id, email: ctx.actor.email, dateJoined: Number(ctx.actor.date_joined), ...plan.write };
    ctx.events.afterCommit(() => notePresenceWrite(ctx.services.db, ctx.realm.id, entry));
    ctx.events.notify({ kind: 'presence', realmId: ctx.realm.id, entry });
  }
  if (!plan.announce || realmSettings(ctx.realm).presence_disabled) return;
  const recipients = await activeUserIds(ctx.tx, ctx.realm.id);
  if (recipients.length > PRESENCE_EVENT_USER_LIMIT) return;
  const presence = eventPresence(plan.write ?? stored!, Number(ctx.actor.date_joined));
  ctx.events.send(
    { type: 'presence', user_id: ctx.actor.id, email: ctx.actor.email, server_timestamp: ctx.now, presence: { website: presence } },
    recipients,
  );
}
