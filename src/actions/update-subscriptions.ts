// PATCH /users/me/subscriptions: subscribe to some streams and leave others in one step.
import { ApiError } from '../errors.js';
import type { ActionContext } from './context.js';
import { checkAddSubscriptions, type StreamRequest, type SubscribeResult } from './subscribe.js';
import { checkRemoveSubscriptions, type UnsubscribeResult } from './unsubscribe.js';

export type UpdateSubscriptionsResult = SubscribeResult & UnsubscribeResult;

/**
 * Runs the subscribe request (with its defaults: no principals, public streams created for
 * unknown names) and then the unsubscribe request, in the caller's one transaction, so that a
 * failure in either leaves nothing changed. Like the reference, the subscribe half always runs,
 * so guests are refused even when they only leave streams.
 */
export async function checkUpdateSubscriptions(
  ctx: ActionContext,
  add: StreamRequest[],
  remove: string[],
): Promise<UpdateSubscriptionsResult> {
  if (add.length === 0 && remove.length === 0) throw new ApiError('Nothing to do. Specify at least one of "add" or "delete".');
  const added = await checkAddSubscriptions(ctx, {
    subscriptions: add,
    principals: null,
    authorizationErrorsFatal: true,
    announce: false,
    inviteOnly: false,
    isWebPublic: false,
    isDefaultStream: false,
    historyPublicToSubscribers: null,
    streamPostPolicy: 1,
    messageRetentionDays: null,
    canRemoveSubscribersGroupId: null,
  });
  const removed = await checkRemoveSubscriptions(ctx, remove, null);
  return { ...added, ...removed };
}
