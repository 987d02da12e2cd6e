// Creating streams: the row, its recipient, and the stream create event.
import type { RealmRow, StreamRow } from '../db/schema.js';
import { RecipientType } from '../db/schema.js';
import { ApiError } from '../errors.js';
import { renderMarkdown } from '../lib/markdown/index.js';
import { canSeeStream } from '../lib/permissions.js';
import { streamDict } from '../lib/stream-format.js';
import { getStreamByName } from '../queries/streams.js';
import { activeUserRoles } from '../queries/users.js';
import type { SystemContext } from './context.js';

export const MAX_STREAM_NAME_LENGTH = 60;
export const MAX_STREAM_DESCRIPTION_LENGTH = 1024;

export interface NewStreamSpec {
  name: string;
  description?: string;
  inviteOnly?: boolean;
  isWebPublic?: boolean;
  /** Only private streams may hide history from subscribers; default: hidden for private streams. */
  historyPublicToSubscribers?: boolean | null;
  streamPostPolicy?: number;
  messageRetentionDays?: number | null;
  /** Default: the realm's role:administrators group. */
  canRemoveSubscribersGroupId?: number | null;
  creatorId?: number | null;
  isDefault?: boolean;
}

/** Control and surrogate code points, and Unicode non-characters. */
function isUnprintable(code: number): boolean {
  if (code < 0x20 || (code >= 0x7f && code < 0xa0)) return true;
  if (code >= 0xd800 && code <= 0xdfff) return true;
  if (code >= 0xfdd0 && code <= 0xfdef) return true;
  return (code & 0xfffe) === 0xfffe;
}

/** Validates a stream name (callers strip it first) and returns it trimmed. */
export function checkStreamName(name: string): string {
  const trimmed = name.trim();
  if (trimmed === '') throw new ApiError("Channel name can't be empty.");
  const chars = [...trimmed];
  if (chars.length > MAX_STREAM_NAME_LENGTH) {
    throw new ApiError(`Channel name too long (limit: ${MAX_STREAM_NAME_LENGTH} characters).`);
  }
  const bad = chars.findIndex((ch) => isUnprintable(ch.codePointAt(0)!));
  if (bad >= 0) throw new ApiError(`Invalid character in channel name, at position ${bad + 1}.`);
  return trimmed;
}

/** Private streams hide history by default; public streams always share it. */
export function historyPublicDefault(inviteOnly: boolean, requested: boolean | null | undefined): boolean {
  if (!inviteOnly) return true;
  return requested ?? false;
}

async function administratorsGroupId(ctx: SystemContext, realmId: number): Promise<number | null> {
  const group = await ctx.tx
    .selectFrom('user_group')
    .select('id')
    .where('realm_id', '=', realmId)
    .where('name', '=', 'role:administrators')
    .executeTakeFirst();
  return group?.id ?? null;
}

/** A stream description as stored: one line, bounded, without NUL (PostgreSQL text refuses it), and rendered. */
export function checkStreamDescription(raw: string): { description: string; rendered_description: string } {
  const description = raw.replace(/\n/g, ' ');
  const chars = [...description];
  if (chars.length > MAX_STREAM_DESCRIPTION_LENGTH) {
    throw new ApiError(`description is too long (limit: ${MAX_STREAM_DESCRIPTION_LENGTH} characters)`);
  }
  const nul = chars.indexOf('\u0000');
  if (nul >= 0) throw new ApiError(`Invalid character in channel description, at position ${nul + 1}.`);
  return { description, rendered_description: description === '' ? '' : renderMarkdown(description).html };
}

export async function doCreateStream(ctx: SystemContext, realm: RealmRow, spec: NewStreamSpec): Promise<StreamRow> {
  const name = checkStreamName(spec.name);
  if (await getStreamByName(ctx.tx, realm.id, name)) throw new ApiError(`Channel '${name}' already exists`);
  const { description, rendered_description } = checkStreamDescription(spec.description ?? '');
  const inviteOnly = spec.inviteOnly ?? false;
  const removeGroupId =
    spec.canRemoveSubscribersGroupId === undefined || spec.canRemoveSubscribersGroupId === null
      ? await administratorsGroupId(ctx, realm.id)
      : spec.canRemoveSubscribersGroupId;
  const row = {
    realm_id: realm.id,
    name,
    description,
    rendered_description,
    invite_only: inviteOnly ? 1 : 0,
    is_web_public: spec.isWebPublic ? 1 : 0,
    history_public_to_subscribers: historyPublicDefault(inviteOnly, spec.historyPublicToSubscribers) ? 1 : 0,
    stream_post_policy: spec.streamPostPolicy ?? 1,
    message_retention_days: spec.messageRetentionDays ?? null,
    can_remove_subscribers_group_id: removeGroupId,
    date_created: ctx.now,
    deactivated: 0,
    recipient_id: null,
    first_message_id: null,
    creator_id: spec.creatorId ?? null,
  };
  const { id } = await ctx.tx.insertInto('stream').values(row).returning('id').executeTakeFirstOrThrow();
  const recipient = await ctx.tx
    .insertInto('recipient')
    .values({ type: RecipientType.STREAM, type_id: id })
    .returning('id')
    .executeTakeFirstOrThrow();
  await ctx.tx.updateTable('stream').set({ recipient_id: recipient.id }).where('id', '=', id).execute();
  if (spec.isDefault) await ctx.tx.insertInto('default_stream').values({ realm_id: realm.id, stream_id: id }).execute();
  const stream: StreamRow = { ...row, id, recipient_id: recipient.id };

  // Everyone who may now know the stream exists learns about it.
  const audience = (await activeUserRoles(ctx.tx, realm.id)).filter((u) => canSeeStream(u, stream, false)).map((u) => u.id);
  ctx.events.send({ type: 'stream', op: 'create', streams: [streamDict(stream)] }, audience);
  return stream;
}
