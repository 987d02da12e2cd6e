// Creating streams: the row, its recipient, and the stream create event.
import type { RealmRow, StreamRow } from '../db/schema.js';
import { RecipientType } from '../db/schema.js';
import { ApiError } from '../errors.js';
import { renderMarkdown } from '../lib/markdown/index.js';
import { getStreamByName } from '../queries/streams.js';
import type { SystemContext } from './context.js';

export const MAX_STREAM_NAME_LENGTH = 60;
export const MAX_STREAM_DESCRIPTION_LENGTH = 1024;

export interface NewStreamSpec {
  name: string;
  description?: string;
  inviteOnly?: boolean;
  isWebPublic?: boolean;
  historyPublicToSubscribers?: boolean;
  streamPostPolicy?: number;
  messageRetentionDays?: number | null;
  creatorId?: number | null;
  isDefault?: boolean;
}

export function checkStreamName(name: string): string {
  const trimmed = name.trim();
  if (trimmed === '') throw new ApiError('Channel name cannot be blank.');
  if ([...trimmed].length > MAX_STREAM_NAME_LENGTH) {
    throw new ApiError(`Channel name too long (limit: ${MAX_STREAM_NAME_LENGTH} characters).`);
  }
  for (const ch of trimmed) {
    const code = ch.codePointAt(0)!;
    if (code < 0x20 || code === 0x7f || (code >= 0x80 && code < 0xa0)) {
      throw new ApiError(`Invalid character in channel name, at position ${[...trimmed].indexOf(ch) + 1}.`);
    }
  }
  return trimmed;
}

export async function doCreateStream(ctx: SystemContext, realm: RealmRow, spec: NewStreamSpec): Promise<StreamRow> {
  const name = checkStreamName(spec.name);
  if (await getStreamByName(ctx.tx, realm.id, name)) throw new ApiError(`Channel '${name}' already exists`);
  const description = (spec.description ?? '').replace(/\n/g, ' ');
  if ([...description].length > MAX_STREAM_DESCRIPTION_LENGTH) {
    throw new ApiError(`description is too long (limit: ${MAX_STREAM_DESCRIPTION_LENGTH} characters)`);
  }
  const inviteOnly = spec.inviteOnly ?? false;
  const row = {
    realm_id: realm.id,
    name,
    description,
    rendered_description: description === '' ? '' : renderMarkdown(description).html,
    invite_only: inviteOnly ? 1 : 0,
    is_web_public: spec.isWebPublic ? 1 : 0,
    // Public streams always have public history.
    history_public_to_subscribers: !inviteOnly || (spec.historyPublicToSubscribers ?? false) ? 1 : 0,
    stream_post_policy: spec.streamPostPolicy ?? 1,
    message_retention_days: spec.messageRetentionDays ?? null,
    can_remove_subscribers_group_id: null,
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
  const adminGroup = await ctx.tx
    .selectFrom('user_group')
    .select('id')
    .where('realm_id', '=', realm.id)
    .where('name', '=', 'role:administrators')
    .executeTakeFirst();
  await ctx.tx
    .updateTable('stream')
    .set({ recipient_id: recipient.id, can_remove_subscribers_group_id: adminGroup?.id ?? null })
    .where('id', '=', id)
    .execute();
  if (spec.isDefault) await ctx.tx.insertInto('default_stream').values({ realm_id: realm.id, stream_id: id }).execute();
  return { ...row, id, recipient_id: recipient.id, can_remove_subscribers_group_id: adminGroup?.id ?? null };
}
