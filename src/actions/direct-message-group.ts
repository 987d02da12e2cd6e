// Direct-message groups (three or more people) are created on first use.
import { RecipientType } from '../db/schema.js';
import { directMessageGroupRecipient } from '../queries/recipients.js';
import type { SystemContext } from './context.js';

export async function getOrCreateDirectMessageGroup(ctx: SystemContext, huddleHash: string, size: number): Promise<number> {
  const existing = await directMessageGroupRecipient(ctx.tx, huddleHash);
  if (existing !== undefined) return existing;
  const { id } = await ctx.tx
    .insertInto('direct_message_group')
    .values({ huddle_hash: huddleHash, group_size: size, recipient_id: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  const recipient = await ctx.tx
    .insertInto('recipient')
    .values({ type: RecipientType.DIRECT_MESSAGE_GROUP, type_id: id })
    .returning('id')
    .executeTakeFirstOrThrow();
  await ctx.tx.updateTable('direct_message_group').set({ recipient_id: recipient.id }).where('id', '=', id).execute();
  return recipient.id;
}
