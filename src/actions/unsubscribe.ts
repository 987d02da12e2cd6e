// The unsubscribe request: take the requester (or, with the right to, other users) off streams.
import type { StreamRow } from '../db/schema.js';
import { ApiError } from '../errors.js';
import { realmSettings } from '../lib/realm-settings.js';
import { canRemoveSubscribers, controlsUser, groupIncludes } from '../lib/stream-permissions.js';
import { getStreamsByNames, getUserGroupsByIds, subscribedStreamIds, userGroupMemberIds } from '../queries/streams.js';
import type { ActionContext } from './context.js';
import { checkStreamName } from './stream-create.js';
import { type Principals, resolvePrincipals } from './subscribe.js';
import { bulkRemoveSubscriptions } from './subscriptions.js';

export interface UnsubscribeResult {
  removed: string[];
  not_removed: string[];
}

/** Whether the actor may take other users off every one of these streams. */
async function mayRemoveOthers(ctx: ActionContext, streams: StreamRow[]): Promise<boolean> {
  const groupIds = [...new Set(streams.flatMap((s) => (s.can_remove_subscribers_group_id === null ? [] : [s.can_remove_subscribers_group_id])))];
  const groups = await getUserGroupsByIds(ctx.tx, ctx.realm.id, groupIds);
  const members = await userGroupMemberIds(ctx.tx, groupIds);
  const mine = await subscribedStreamIds(ctx.tx, ctx.actor.id);
  const waitingDays = realmSettings(ctx.realm).waiting_period_threshold;
  return streams.every((stream) => {
    const group = groups.find((g) => g.id === stream.can_remove_subscribers_group_id);
    const inGroup = group !== undefined && groupIncludes(group, ctx.actor, members.get(group.id) ?? [], waitingDays, ctx.now);
    return canRemoveSubscribers(ctx.actor, stream, mine.has(stream.id), inGroup);
  });
}

export async function checkRemoveSubscriptions(
  ctx: ActionContext,
  names: string[],
  principals: Principals | null,
): Promise<UnsubscribeResult> {
  const targets = principals && principals.length > 0 ? await resolvePrincipals(ctx, principals) : [ctx.actor];
  const removingOthers = targets.some((target) => !controlsUser(ctx.actor, target));

  const wanted = [...new Set(names.map((name) => checkStreamName(name.trim())))];
  const existing = await getStreamsByNames(ctx.tx, ctx.realm.id, wanted);
  if (removingOthers && !(await mayRemoveOthers(ctx, [...existing.values()]))) throw new ApiError('Insufficient permission');
  const missing = wanted.filter((name) => !existing.has(name.toLowerCase()));
  if (missing.length > 0) throw new ApiError(`Channel(s) (${missing.join(', ')}) do not exist`);

  const streams = [...new Map(wanted.map((name) => existing.get(name.toLowerCase())!).map((s) => [s.id, s])).values()];
  const { removed, notSubscribed } = await bulkRemoveSubscriptions(ctx, ctx.realm, targets, streams);
  return { removed: removed.map((r) => r.stream.name), not_removed: notSubscribed.map((r) => r.stream.name) };
}
