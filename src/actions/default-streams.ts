// Default streams: the streams new users join. Changes reach everyone but guests as one
// default_streams event carrying the whole list of ids.
import type { RealmRow, StreamRow } from '../db/schema.js';
import { ApiError } from '../errors.js';
import { isGuest } from '../lib/roles.js';
import { requireAdmin } from '../lib/permissions.js';
import { accessStreamById } from '../queries/stream-access.js';
import { defaultStreamIds, getStreamById } from '../queries/streams.js';
import { activeUserRoles } from '../queries/users.js';
import type { ActionContext, SystemContext } from './context.js';

/** The whole list of ids, ascending (the register state's form), to everyone but guests. */
async function notifyDefaultStreams(ctx: SystemContext, realm: RealmRow): Promise<void> {
  const audience = (await activeUserRoles(ctx.tx, realm.id)).filter((u) => !isGuest(u)).map((u) => u.id);
  const ids = [...(await defaultStreamIds(ctx.tx, realm.id))].sort((a, b) => a - b);
  ctx.events.send({ type: 'default_streams', default_streams: ids }, audience);
}

/** Marks the stream default; no event when it already was. */
export async function doAddDefaultStream(ctx: SystemContext, realm: RealmRow, stream: StreamRow): Promise<void> {
  const existing = await defaultStreamIds(ctx.tx, realm.id);
  if (existing.has(stream.id)) return;
  await ctx.tx.insertInto('default_stream').values({ realm_id: realm.id, stream_id: stream.id }).execute();
  await notifyDefaultStreams(ctx, realm);
}

/** Takes the stream off the default list; no event when it was not on it. */
export async function doRemoveDefaultStream(ctx: SystemContext, realm: RealmRow, stream: Pick<StreamRow, 'id'>): Promise<void> {
  const result = await ctx.tx
    .deleteFrom('default_stream')
    .where('realm_id', '=', realm.id)
    .where('stream_id', '=', stream.id)
    .executeTakeFirst();
  if (Number(result.numDeletedRows) > 0) await notifyDefaultStreams(ctx, realm);
}

/** POST /default_streams: administrators only; private streams cannot be default. */
export async function checkAddDefaultStream(ctx: ActionContext, streamId: number): Promise<void> {
  requireAdmin(ctx.actor);
  const { stream, subscribed } = await accessStreamById(ctx.tx, ctx.actor, streamId);
  // Administrators see private streams they are not on, but may not act on them.
  if (stream.invite_only && !subscribed) throw new ApiError('Invalid channel ID');
  if (stream.invite_only) throw new ApiError('Private channels cannot be made default.');
  await doAddDefaultStream(ctx, ctx.realm, stream);
}

/** DELETE /default_streams: administrators only. */
export async function checkRemoveDefaultStream(ctx: ActionContext, streamId: number): Promise<void> {
  requireAdmin(ctx.actor);
  const stream = await getStreamById(ctx.tx, ctx.realm.id, streamId);
  if (!stream) throw new ApiError('Invalid channel ID');
  await doRemoveDefaultStream(ctx, ctx.realm, stream);
}
