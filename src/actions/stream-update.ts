// PATCH /streams/{stream_id}: administrators change a stream's name, description, privacy,
// default status, posting policy, retention and removal group, all in one transaction.
// Each changed property is one stream update event to everyone who can see the stream.
import type { StreamRow, StreamUpdate } from '../db/schema.js';
import { ApiError, UnauthorizedPrincipalError } from '../errors.js';
import { canSeeStream } from '../lib/permissions.js';
import { realmSettings, webPublicAccessEnabled } from '../lib/realm-settings.js';
import { isAdmin, isOwner } from '../lib/roles.js';
import { streamDict } from '../lib/stream-format.js';
import {
  checkRemoveSubscribersGroup,
  passesWebPublicPolicy,
  proposedPermissions,
  type StreamPermissions,
  streamUpdateEvent,
} from '../lib/stream-update-rules.js';
import { defaultStreamIds, getStreamById, getStreamByName, getUserGroupById, subscriberIds } from '../queries/streams.js';
import { activeUserRoles } from '../queries/users.js';
import type { ActionContext } from './context.js';
import { doAddDefaultStream, doRemoveDefaultStream } from './default-streams.js';
import { checkStreamDescription, checkStreamName } from './stream-create.js';

export interface StreamChanges {
  description?: string;
  newName?: string;
  isPrivate?: boolean;
  isWebPublic?: boolean;
  historyPublicToSubscribers?: boolean;
  isDefaultStream?: boolean;
  /** Already combined with the deprecated is_announcement_only. */
  streamPostPolicy?: number;
  /** Already resolved: null for the realm default, -1 for unlimited. */
  messageRetentionDays?: number | null;
  canRemoveSubscribersGroup?: number;
}

/** Who takes part in a change's events: everyone active, with whether they are subscribed. */
interface Audience {
  users: Array<{ id: number; role: number; subscribed: boolean }>;
  subscribers: number[];
}

/** Loads the audience once per request: no change made here adds or removes a subscriber or user. */
function audienceLoader(ctx: ActionContext, subscribers: number[]): () => Promise<Audience> {
  let audience: Promise<Audience> | undefined;
  return () =>
    (audience ??= (async () => {
      const set = new Set(subscribers);
      const users = (await activeUserRoles(ctx.tx, ctx.realm.id)).map((u) => ({ ...u, subscribed: set.has(u.id) }));
      return { users, subscribers: [...subscribers].sort((a, b) => a - b) };
    })());
}

const viewersOf = (audience: Audience, stream: StreamRow) =>
  audience.users.filter((u) => canSeeStream(u, stream, u.subscribed)).map((u) => u.id);

/** Checks the actor may edit the stream at all; returns the stream, its subscribers and whether the actor is one. */
async function accessStreamForUpdate(
  ctx: ActionContext,
  streamId: number,
): Promise<{ stream: StreamRow; subscribed: boolean; subscribers: number[] }> {
  const stream = await getStreamById(ctx.tx, ctx.realm.id, streamId);
  if (!stream) throw new ApiError('Invalid channel ID');
  const subscribers = await subscriberIds(ctx.tx, stream.recipient_id!);
  const subscribed = subscribers.includes(ctx.actor.id);
  if (isAdmin(ctx.actor)) return { stream, subscribed, subscribers };
  // Others learn nothing about private streams they are not on.
  if (stream.invite_only && !subscribed) throw new ApiError('Invalid channel ID');
  throw new UnauthorizedPrincipalError();
}

/** Creating or switching to a web-public stream: the server, the realm and the policy must allow it. */
export function checkWebPublicAllowed(ctx: ActionContext): void {
  const settings = realmSettings(ctx.realm);
  if (!webPublicAccessEnabled(ctx.services.config, settings)) {
    throw new ApiError('Web-public channels are not enabled.');
  }
  if (!passesWebPublicPolicy(ctx.actor, settings.create_web_public_stream_policy)) throw new ApiError('Insufficient permission');
}

async function saveStream(ctx: ActionContext, stream: StreamRow, changes: StreamUpdate): Promise<StreamRow> {
  await ctx.tx.updateTable('stream').set(changes).where('id', '=', stream.id).execute();
  return { ...stream, ...changes } as StreamRow;
}

/**
 * Privacy changes: users who can no longer see the stream get a delete event, users who now
 * can get a create event and the subscriber list, everyone who sees it the update.
 */
async function changePermissions(
  ctx: ActionContext,
  audienceOf: () => Promise<Audience>,
  stream: StreamRow,
  next: StreamPermissions,
): Promise<StreamRow> {
  const unchanged =
    Boolean(stream.invite_only) === next.inviteOnly &&
    Boolean(stream.is_web_public) === next.isWebPublic &&
    Boolean(stream.history_public_to_subscribers) === next.historyPublicToSubscribers;
  if (unchanged) return stream;
  const audience = await audienceOf();
  const before = new Set(viewersOf(audience, stream));
  const updated = await saveStream(ctx, stream, {
    invite_only: next.inviteOnly ? 1 : 0,
    is_web_public: next.isWebPublic ? 1 : 0,
    history_public_to_subscribers: next.historyPublicToSubscribers ? 1 : 0,
  });
  const after = viewersOf(audience, updated);
  const gained = after.filter((id) => !before.has(id));
  const lost = [...before].filter((id) => !after.includes(id));
  ctx.events.send({ type: 'stream', op: 'create', streams: [streamDict(updated)] }, gained);
  ctx.events.send({ type: 'subscription', op: 'peer_add', stream_ids: [stream.id], user_ids: audience.subscribers }, audience.subscribers.length > 0 ? gained : []);
  const event = streamUpdateEvent(updated, 'invite_only', next.inviteOnly, {
    history_public_to_subscribers: next.historyPublicToSubscribers,
    is_web_public: next.isWebPublic,
  });
  // Newcomers get it too: a create does not refresh a stream they knew from an old subscription.
  ctx.events.send(event, after);
  ctx.events.send({ type: 'stream', op: 'delete', streams: [streamDict(updated)], stream_ids: [stream.id] }, lost);
  return updated;
}

/** Saves one property and tells everyone who can see the stream. */
async function changeProperty(
  ctx: ActionContext,
  audienceOf: () => Promise<Audience>,
  stream: StreamRow,
  changes: StreamUpdate,
  events: Array<[property: string, value: unknown, extra?: Record<string, unknown>]>,
): Promise<StreamRow> {
  const updated = await saveStream(ctx, stream, changes);
  const viewers = viewersOf(await audienceOf(), updated);
  // Events name the stream as clients knew it before this change.
  for (const [property, value, extra] of events) ctx.events.send(streamUpdateEvent(stream, property, value, extra), viewers);
  return updated;
}

export async function checkUpdateStream(ctx: ActionContext, streamId: number, changes: StreamChanges): Promise<void> {
  let { stream, subscribed, subscribers } = await accessStreamForUpdate(ctx, streamId);
  const audienceOf = audienceLoader(ctx, subscribers);
  const isDefault = changes.isDefaultStream ?? (await defaultStreamIds(ctx.tx, ctx.realm.id)).has(stream.id);
  const permissionChange =
    changes.isPrivate !== undefined || changes.isWebPublic !== undefined || changes.historyPublicToSubscribers !== undefined;
  const next = proposedPermissions(stream, {
    isPrivate: changes.isPrivate,
    isWebPublic: changes.isWebPublic,
    historyPublicToSubscribers: changes.historyPublicToSubscribers,
    isDefault,
  });
  // Administrators change the permissions of a private stream only from inside it.
  const touchesPermissions = permissionChange || changes.canRemoveSubscribersGroup !== undefined;
  if (touchesPermissions && stream.invite_only && !subscribed) throw new ApiError('Invalid channel ID');
  if (changes.isWebPublic) checkWebPublicAllowed(ctx);
  if (permissionChange) stream = await changePermissions(ctx, audienceOf, stream, next);

  if (changes.isDefaultStream === true) await doAddDefaultStream(ctx, ctx.realm, stream);
  if (changes.isDefaultStream === false) await doRemoveDefaultStream(ctx, ctx.realm, stream);

  if (changes.messageRetentionDays !== undefined) {
    if (!isOwner(ctx.actor)) throw new UnauthorizedPrincipalError('Must be an organization owner');
    const days = changes.messageRetentionDays;
    if (days !== stream.message_retention_days) {
      stream = await changeProperty(ctx, audienceOf, stream, { message_retention_days: days }, [['message_retention_days', days]]);
    }
  }

  if (changes.description !== undefined) {
    const { description, rendered_description } = checkStreamDescription(changes.description);
    if (description !== stream.description) {
      stream = await changeProperty(ctx, audienceOf, stream, { description, rendered_description }, [
        ['description', description, { rendered_description }],
      ]);
    }
  }

  if (changes.newName !== undefined) {
    const name = changes.newName.trim();
    if (name === stream.name) throw new ApiError('Channel already has that name.');
    checkStreamName(name);
    // A change of case alone keeps the stream's own name free.
    if (name.toLowerCase() !== stream.name.toLowerCase() && (await getStreamByName(ctx.tx, ctx.realm.id, name))) {
      throw new ApiError(`Channel '${name}' already exists`);
    }
    stream = await changeProperty(ctx, audienceOf, stream, { name }, [['name', name]]);
  }

  if (changes.streamPostPolicy !== undefined && changes.streamPostPolicy !== stream.stream_post_policy) {
    const policy = changes.streamPostPolicy;
    // The deprecated is_announcement_only follows for clients older than stream_post_policy.
    stream = await changeProperty(ctx, audienceOf, stream, { stream_post_policy: policy }, [
      ['stream_post_policy', policy],
      ['is_announcement_only', policy === 2],
    ]);
  }

  if (changes.canRemoveSubscribersGroup !== undefined) {
    const group = await getUserGroupById(ctx.tx, ctx.realm.id, changes.canRemoveSubscribersGroup);
    checkRemoveSubscribersGroup(group);
    if (group!.id !== stream.can_remove_subscribers_group_id) {
      stream = await changeProperty(ctx, audienceOf, stream, { can_remove_subscribers_group_id: group!.id }, [
        ['can_remove_subscribers_group', group!.id],
      ]);
    }
  }
}
