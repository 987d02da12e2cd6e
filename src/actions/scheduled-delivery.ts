// Sending scheduled messages when their time comes. Each is sent as its sender would send it at
// that moment, with every check made again (rights may have changed since). One that cannot be
// sent is marked failed, and its sender is told by Notification Bot, unless the sender or the
// organization is gone.
import type { RealmRow, UserRow } from '../db/schema.js';
import { ApiError } from '../errors.js';
import type { Addressee } from '../lib/addressee.js';
import { failureNotice, LATE_CUTOFF_SECONDS } from '../lib/scheduled-messages.js';
import { getRealmById } from '../queries/realms.js';
import { anyScheduledMessageDue, dueScheduledMessages, ownScheduledMessage, scheduledAddressees } from '../queries/scheduled-messages.js';
import { getUserById } from '../queries/users.js';
import type { Services } from '../services.js';
import { type ActionContext, runAction } from './context.js';
import { checkSendMessage } from './message-send.js';
import { announceScheduledMessage } from './scheduled-messages.js';

/** How often the server looks for scheduled messages that are due. */
export const DELIVERY_INTERVAL_MS = 5_000;
const BATCH = 50;

/** A failure nobody is told about: the sender or the organization can no longer read a notice. */
class SilentFailure extends Error {}

/** Sends every scheduled message that is due; returns how many it tried. */
export async function deliverDueScheduledMessages(services: Services): Promise<number> {
  if (!(await anyScheduledMessageDue(services.store, Math.floor(services.clock.now())))) return 0;
  let tried = 0;
  const seen = new Set<number>();
  for (;;) {
    const due = (await dueScheduledMessages(services.db, Math.floor(services.clock.now()), BATCH)).filter((row) => !seen.has(row.id));
    if (due.length === 0) return tried;
    for (const row of due) {
      seen.add(row.id);
      tried++;
      await deliverOne(services, row.id, row.realm_id, row.sender_id);
    }
  }
}

async function deliverOne(services: Services, id: number, realmId: number, senderId: number): Promise<void> {
  const realm = await getRealmById(services.db, realmId);
  const sender = realm && (await getUserById(services.db, realmId, senderId));
  if (!realm || !sender) return;
  try {
    await runAction(services, sender, realm, async (ctx) => {
      // Read again inside the transaction: it may have been edited, cancelled or sent meanwhile.
      const row = await ownScheduledMessage(ctx.tx, sender.id, id);
      if (!row || row.delivered || row.failed || row.scheduled_timestamp > ctx.now) return;
      if (realm.deactivated || !sender.is_active) throw new SilentFailure();
      if (ctx.now > Number(row.scheduled_timestamp) + LATE_CUTOFF_SECONDS) throw new ApiError('Message could not be sent at the scheduled time.');
      const addressees = await scheduledAddressees(ctx.tx, row);
      const addressee: Addressee =
        addressees.type === 'stream' ? { kind: 'stream', streamId: addressees.to[0]!, topic: row.subject } : { kind: 'direct', userIds: addressees.to };
      const sent = await checkSendMessage(ctx, { addressee, content: row.content, client: row.sending_client, readBySender: Boolean(row.read_by_sender) });
      await ctx.tx.updateTable('scheduled_message').set({ delivered: 1, delivered_message_id: sent.id }).where('id', '=', id).execute();
      ctx.events.send({ type: 'scheduled_messages', op: 'remove', scheduled_message_id: id }, [sender.id]);
    });
  } catch (error) {
    await markFailed(services, realm, sender, id, error);
  }
}

async function markFailed(services: Services, realm: RealmRow, sender: UserRow, id: number, error: unknown): Promise<void> {
  const reason = error instanceof ApiError ? error.message : 'Internal server error';
  if (!(error instanceof ApiError) && !(error instanceof SilentFailure)) services.log?.error({ err: error, scheduledMessageId: id }, 'a scheduled message failed');
  await runAction(services, sender, realm, async (ctx) => {
    await ctx.tx.updateTable('scheduled_message').set({ failed: 1, failure_message: reason }).where('id', '=', id).execute();
    if (error instanceof SilentFailure) return;
    await announceScheduledMessage(ctx, id, 'update');
    await notifySender(ctx, id, reason);
  });
}

async function notifySender(ctx: ActionContext, id: number, reason: string): Promise<void> {
  const bot = ctx.realm.notification_bot_id === null ? undefined : await getUserById(ctx.tx, ctx.realm.id, ctx.realm.notification_bot_id);
  const row = await ownScheduledMessage(ctx.tx, ctx.actor.id, id);
  if (!bot || !row) return;
  const addressee: Addressee = { kind: 'direct', userIds: [ctx.actor.id] };
  await checkSendMessage({ ...ctx, actor: bot }, { addressee, content: failureNotice(Number(row.scheduled_timestamp), reason), client: 'Internal', readBySender: true });
}

/** Runs the delivery every few seconds until stopped; one run at a time. */
export function startScheduledDelivery(services: Services, intervalMs = DELIVERY_INTERVAL_MS): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    // In a cluster, one process takes each turn.
    Promise.resolve(services.cluster ? services.cluster.takeTurn('scheduled-delivery', intervalMs) : true)
      .then((mine) => (mine ? deliverDueScheduledMessages(services) : undefined))
      .catch((error: unknown) => services.log?.warn({ err: error }, 'scheduled delivery could not run'))
      .finally(() => (running = false));
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
