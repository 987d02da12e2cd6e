// The notification bot's direct messages to people someone else added to or removed from a group
// (not to the actor, bots or deactivated accounts), in the reference's wording.
import { RecipientType, type UserRow } from '../db/schema.js';
import { silentMention } from '../lib/move-notices.js';
import { getUserById, getUsersByIds } from '../queries/users.js';
import type { ActionContext } from './context.js';
import { doSendMessage } from './message-send.js';

export async function notifyGroupMembershipChange(ctx: ActionContext, groupName: string, userIds: number[], added: boolean): Promise<void> {
  const botId = ctx.realm.notification_bot_id;
  const bot = botId === null ? undefined : await getUserById(ctx.tx, ctx.realm.id, botId);
  if (!bot) return;
  const targets = (await getUsersByIds(ctx.tx, ctx.realm.id, userIds)).filter((u) => u.id !== ctx.actor.id && !u.is_bot && u.is_active);
  const verb = added ? 'added you to' : 'removed you from';
  const content = `${silentMention(ctx.actor)} ${verb} the group @_*${groupName}*.`;
  for (const target of targets.sort((a, b) => a.id - b.id)) await sendAsBot(ctx, bot, target, content);
}

async function sendAsBot(ctx: ActionContext, bot: UserRow, target: UserRow, content: string): Promise<void> {
  const destination = {
    recipientId: target.recipient_id!,
    recipientType: RecipientType.PERSONAL,
    topic: '',
    userIds: [bot.id, target.id],
    people: [bot, target],
  };
  await doSendMessage({ ...ctx, actor: bot }, destination, content, { client: 'Internal', readBySender: true });
}
