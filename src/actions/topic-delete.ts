// Deleting a whole topic: the newest messages first, a batch per transaction, each batch
// announced with its own delete_message event. The topic is gone once its last message is.
import { sql } from 'kysely';
import type { RealmRow, UserRow } from '../db/schema.js';
import { requireAdmin } from '../lib/permissions.js';
import { MESSAGE_COLUMNS } from '../queries/message-dicts.js';
import { isStorableText } from '../queries/users.js';
import type { Services } from '../services.js';
import { bulkLimits, runBatches } from './batched-work.js';
import type { ActionContext } from './context.js';
import { doDeleteMessages } from './message-delete.js';
import { accessStreamContent } from './mark-read.js';

/** The newest messages of the topic the actor may delete, newest first. */
async function newestOfTopic(ctx: ActionContext, recipientId: number, topic: string, protectedHistory: boolean, limit: number) {
  let query = ctx.tx
    .selectFrom('message as m')
    .select(MESSAGE_COLUMNS.map((c) => `m.${c}` as const))
    .where('m.recipient_id', '=', recipientId)
    .where(sql`lower(m.subject)`, '=', sql`lower(${topic})`);
  // Without shared history, only the messages the actor received are theirs to delete.
  if (protectedHistory) {
    query = query.where('m.id', 'in', (eb) =>
      eb.selectFrom('user_message').select('message_id').where('user_id', '=', ctx.actor.id),
    );
  }
  return query.orderBy('m.id', 'desc').limit(limit).execute();
}

/** POST /streams/{stream_id}/delete_topic: false when the time budget ran out first (the client repeats). */
export async function deleteTopic(services: Services, user: UserRow, realm: RealmRow, streamId: number, topic: string): Promise<boolean> {
  requireAdmin(user);
  return runBatches(
    services,
    user,
    realm,
    async (ctx) => {
      const stream = await accessStreamContent(ctx, streamId);
      if (!isStorableText(topic)) return { done: true };
      const size = bulkLimits.deleteBatchSize;
      const protectedHistory = Boolean(stream.invite_only) && !stream.history_public_to_subscribers;
      const messages = await newestOfTopic(ctx, stream.recipient_id!, topic, protectedHistory, size);
      // One event per subject spelling, as each names the topic its messages carry.
      const bySubject = new Map<string, typeof messages>();
      for (const message of messages) {
        const group = bySubject.get(message.subject);
        if (group) group.push(message);
        else bySubject.set(message.subject, [message]);
      }
      for (const group of bySubject.values()) await doDeleteMessages(ctx, group);
      return { done: messages.length < size };
    },
    { budgeted: true },
  );
}
