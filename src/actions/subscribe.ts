// The subscribe request: resolve the users, create the streams that do not exist yet,
// check access to the ones that do, and subscribe everyone to everything.
import type { StreamRow, UserRow } from '../db/schema.js';
import { ApiError, UnauthorizedPrincipalError } from '../errors.js';
import { isAdmin, isOwner } from '../lib/roles.js';
import { canAddSubscribers, canCreateStreams, canSubscribeOthers } from '../lib/stream-permissions.js';
import { checkRemoveSubscribersGroup } from '../lib/stream-update-rules.js';
import { getStreamsByNames, getUserGroupById, subscribedStreamIds } from '../queries/streams.js';
import { findUserByEmailFor, getUsersByIds } from '../queries/users.js';
import type { ActionContext } from './context.js';
import { checkStreamName, doCreateStream } from './stream-create.js';
import { checkWebPublicAllowed } from './stream-update.js';
import { addSubscriptions } from './subscriptions.js';
import { requireNotGuest } from '../lib/permissions.js';

export type Principals = string[] | number[];

export interface StreamRequest {
  name: string;
  description?: string;
  color?: string;
}

export interface SubscribeRequest {
  subscriptions: StreamRequest[];
  principals: Principals | null;
  authorizationErrorsFatal: boolean;
  announce: boolean;
  inviteOnly: boolean;
  isWebPublic: boolean;
  isDefaultStream: boolean;
  historyPublicToSubscribers: boolean | null;
  streamPostPolicy: number;
  /** Already resolved: null for the realm default, -1 for unlimited. */
  messageRetentionDays: number | null;
  canRemoveSubscribersGroupId: number | null;
}

export interface SubscribeResult {
  subscribed: Record<string, string[]>;
  already_subscribed: Record<string, string[]>;
  unauthorized?: string[];
}

/** The users named by a principals list (API emails or ids): active users of the realm, bots included. */
export async function resolvePrincipals(ctx: ActionContext, principals: Principals): Promise<UserRow[]> {
  const users: UserRow[] = [];
  for (const principal of principals) {
    const user =
      typeof principal === 'number'
        ? (await getUsersByIds(ctx.tx, ctx.realm.id, [principal]))[0]
        : await findUserByEmailFor(ctx.tx, ctx.actor, ctx.realm, principal);
    if (!user) throw new ApiError('No such user');
    if (!user.is_active) throw new ApiError('User is deactivated');
    if (!users.some((u) => u.id === user.id)) users.push(user);
  }
  return users;
}

/** The can_remove_subscribers_group value: a system group other than role:internet and role:owners. */
async function removeSubscribersGroupId(ctx: ActionContext, groupId: number): Promise<number> {
  checkRemoveSubscribersGroup(await getUserGroupById(ctx.tx, ctx.realm.id, groupId));
  return groupId;
}

/** Checks that the actor may create the missing streams with the requested settings. */
function checkCreation(ctx: ActionContext, request: SubscribeRequest): void {
  if (!canCreateStreams(ctx.actor)) throw new ApiError('Insufficient permission');
  if (request.isDefaultStream && !isAdmin(ctx.actor)) throw new ApiError('Insufficient permission');
  if (request.inviteOnly && request.isDefaultStream) throw new ApiError('A default channel cannot be private.');
  if (request.isWebPublic) checkWebPublicAllowed(ctx);
  if (request.messageRetentionDays !== null && !isOwner(ctx.actor)) {
    throw new UnauthorizedPrincipalError('Must be an organization owner');
  }
}

export async function checkAddSubscriptions(ctx: ActionContext, request: SubscribeRequest): Promise<SubscribeResult> {
  requireNotGuest(ctx.actor);
  const removeGroupId =
    request.canRemoveSubscribersGroupId === null ? null : await removeSubscribersGroupId(ctx, request.canRemoveSubscribersGroupId);

  const principals = request.principals ?? [];
  const others = principals.length > 0 ? await resolvePrincipals(ctx, principals) : [];
  const subscribingOthers = others.some((u) => u.id !== ctx.actor.id);
  if (subscribingOthers && !canSubscribeOthers(ctx.actor)) throw new ApiError('Insufficient permission');
  const subscribers = others.length > 0 ? others : [ctx.actor];

  // The same name twice (in any case) is one stream; the first spelling wins.
  const wanted = new Map<string, StreamRequest>();
  for (const item of request.subscriptions) {
    const name = item.name.trim();
    checkStreamName(name);
    if (!wanted.has(name.toLowerCase())) wanted.set(name.toLowerCase(), { ...item, name });
  }

  const existing = await getStreamsByNames(ctx.tx, ctx.realm.id, [...wanted.keys()]);
  const missing = [...wanted.values()].filter((item) => !existing.has(item.name.toLowerCase()));
  const created: StreamRow[] = [];
  if (missing.length > 0) {
    checkCreation(ctx, request);
    for (const item of missing) {
      created.push(
        await doCreateStream(ctx, ctx.realm, {
          name: item.name,
          description: item.description ?? '',
          inviteOnly: request.inviteOnly,
          isWebPublic: request.isWebPublic,
          historyPublicToSubscribers: request.historyPublicToSubscribers,
          streamPostPolicy: request.streamPostPolicy,
          messageRetentionDays: request.messageRetentionDays,
          canRemoveSubscribersGroupId: removeGroupId,
          creatorId: ctx.actor.id,
          isDefault: request.isDefaultStream,
        }),
      );
    }
  }

  const mine = await subscribedStreamIds(ctx.tx, ctx.actor.id);
  const found = [...wanted.keys()].flatMap((key) => existing.get(key) ?? []);
  const unauthorized = found.filter((s) => !canAddSubscribers(ctx.actor, s, mine.has(s.id)));
  if (unauthorized.length > 0 && request.authorizationErrorsFatal) {
    throw new ApiError(`Unable to access channel (${unauthorized[0]!.name}).`);
  }
  const streams = [...found.filter((s) => !unauthorized.includes(s)), ...created];

  const colors = new Map<string, string>();
  for (const item of wanted.values()) if (item.color) colors.set(existing.get(item.name.toLowerCase())?.name ?? item.name, item.color);
  const { added, already } = await addSubscriptions(ctx, ctx.realm, streams, subscribers, colors);
  // `announce` asks for a post in the new-stream announcements stream; realms here have none
  // configured, which the reference also answers by posting nothing.

  // Keys are API emails, as at feature level 229 (user ids came later).
  const byEmail = (pairs: typeof added) => {
    const out: Record<string, string[]> = {};
    for (const { user, stream } of pairs) (out[user.email] ??= []).push(stream.name);
    return out;
  };
  const result: SubscribeResult = { subscribed: byEmail(added), already_subscribed: byEmail(already) };
  if (!request.authorizationErrorsFatal) result.unauthorized = unauthorized.map((s) => s.name);
  return result;
}
