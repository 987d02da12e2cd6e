// DELETE /streams/{stream_id}: administrators archive a stream. Its messages stay; the stream
// leaves every list, its subscriptions end, and its name is freed for a new stream.
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { StreamRow } from '../db/schema.js';
import { ApiError } from '../errors.js';
import { requireAdmin } from '../lib/permissions.js';
import { streamDict } from '../lib/stream-format.js';
import { getStreamByIdAnyState } from '../queries/streams.js';
import type { ActionContext } from './context.js';
import { doRemoveDefaultStream } from './default-streams.js';
import { MAX_STREAM_NAME_LENGTH } from './stream-create.js';
import { peerAudience } from './subscriptions.js';

/**
 * The name an archived stream is kept under at feature level 229: seven hex digits of the
 * SHA-512 of its id, "!DEACTIVATED:", then the old name, cut to the name limit (in characters).
 * The id-derived prefix keeps two archived streams of the same old name apart.
 */
export function archivedStreamName(streamId: number, name: string, digits = 7): string {
  const prefix = createHash('sha512').update(String(streamId)).digest('hex').slice(0, digits);
  return [...`${prefix}!DEACTIVATED:${name}`].slice(0, MAX_STREAM_NAME_LENGTH).join('');
}

/** The archived name, with a longer prefix in the rare case another stream already holds it. */
async function freeArchivedName(ctx: ActionContext, stream: StreamRow): Promise<string> {
  for (let digits = 7; ; digits++) {
    const candidate = archivedStreamName(stream.id, stream.name, digits);
    const taken = await ctx.tx
      .selectFrom('stream')
      .select('id')
      .where('realm_id', '=', stream.realm_id)
      .where(sql`lower(name)`, '=', candidate.toLowerCase())
      .executeTakeFirst();
    if (!taken || digits >= 40) return candidate;
  }
}

export async function checkArchiveStream(ctx: ActionContext, streamId: number): Promise<void> {
  requireAdmin(ctx.actor);
  const stream = await getStreamByIdAnyState(ctx.tx, ctx.realm.id, streamId);
  if (!stream) throw new ApiError('Invalid channel ID');
  if (stream.deactivated) throw new ApiError('Channel is already deactivated');
  await doArchiveStream(ctx, stream);
}

export async function doArchiveStream(ctx: ActionContext, stream: StreamRow): Promise<void> {
  const { tx, realm } = ctx;
  // Who could see the stream, read before anyone's subscription ends.
  const audience = await peerAudience(tx, realm, stream);

  // Every subscription ends, deactivated accounts' included; only active accounts hear of it.
  const ended = await tx
    .selectFrom('subscription')
    .innerJoin('user_profile', 'user_profile.id', 'subscription.user_id')
    .select(['subscription.user_id', 'user_profile.is_active'])
    .where('subscription.recipient_id', '=', stream.recipient_id!)
    .where('subscription.active', '=', 1)
    .execute();
  await tx.updateTable('subscription').set({ active: 0 }).where('recipient_id', '=', stream.recipient_id!).where('active', '=', 1).execute();

  // As the reference does, the archived stream also turns private, which keeps its history
  // from anyone who did not receive it.
  await tx
    .updateTable('stream')
    .set({ deactivated: 1, invite_only: 1, name: await freeArchivedName(ctx, stream) })
    .where('id', '=', stream.id)
    .execute();

  await doRemoveDefaultStream(ctx, realm, stream);

  const removal = { type: 'subscription', op: 'remove', subscriptions: [{ name: stream.name, stream_id: stream.id }] };
  ctx.events.send(removal, ended.filter((row) => row.is_active).map((row) => row.user_id));
  // Feature level 229 sends the whole stream as it was (old name and privacy); stream_ids, from
  // later levels, costs nothing and spares newer clients a lookup.
  ctx.events.send({ type: 'stream', op: 'delete', streams: [streamDict(stream)], stream_ids: [stream.id] }, audience);
}
