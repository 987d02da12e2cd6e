// Emoji reactions: adding and removing one, with the reference's checks in its order, and the
// reaction event to everyone who can see the message change.
import type { MessageRow, ReactionRow, RealmEmojiRow, UserRow } from '../db/schema.js';
import { RecipientType } from '../db/schema.js';
import { ApiError } from '../errors.js';
import { emojiCodeForName, emojiNameForCode } from '../lib/emoji.js';
import { FLAG_BITS } from '../lib/message-flags.js';
import { accessMessage, messageRecipientIds } from '../queries/messages.js';
import { realmEmojiRows } from '../queries/realm-emoji.js';
import { subscriberIds } from '../queries/streams.js';
import { isStorableText } from '../queries/users.js';
import type { ActionContext } from './context.js';

/** Emoji the server itself adds to the Unicode set, named by their own code. */
const ZULIP_EXTRA_EMOJI: readonly string[] = ['zulip'];

interface Emoji {
  code: string;
  type: string;
}

/** An emoji by name alone: an active custom emoji of the organization, an extra one, or a Unicode one. */
export function emojiByName(name: string, realmEmoji: readonly RealmEmojiRow[] = []): Emoji {
  const custom = realmEmoji.find((e) => e.name === name && e.deactivated === 0);
  if (custom) return { code: String(custom.id), type: 'realm_emoji' };
  if (ZULIP_EXTRA_EMOJI.includes(name)) return { code: name, type: 'zulip_extra_emoji' };
  const code = emojiCodeForName(name);
  if (code !== undefined) return { code, type: 'unicode_emoji' };
  throw new ApiError(`Emoji '${name}' does not exist`);
}

/** Whether a new reaction may use this name, code and type together. */
export function checkEmoji(name: string, code: string, type: string, realmEmoji: readonly RealmEmojiRow[] = []): void {
  switch (type) {
    case 'realm_emoji': {
      const custom = realmEmoji.find((e) => String(e.id) === code);
      if (!custom) throw new ApiError('Invalid custom emoji.');
      if (custom.name !== name) throw new ApiError('Invalid custom emoji name.');
      if (custom.deactivated) throw new ApiError('This custom emoji has been deactivated.');
      return;
    }
    case 'zulip_extra_emoji':
      if (!ZULIP_EXTRA_EMOJI.includes(code)) throw new ApiError('Invalid emoji code.');
      if (name !== code) throw new ApiError('Invalid emoji name.');
      return;
    case 'unicode_emoji':
      if (emojiNameForCode(code) === undefined) throw new ApiError('Invalid emoji code.');
      if (emojiCodeForName(name) !== code) throw new ApiError('Invalid emoji name.');
      return;
    default:
      throw new ApiError('Invalid emoji type.');
  }
}

/** The organization's custom emoji, read only when the request may name one. */
export async function realmEmojiFor(ctx: ActionContext, type: string | undefined): Promise<RealmEmojiRow[]> {
  return type === undefined || type === 'realm_emoji' ? realmEmojiRows(ctx.tx, ctx.realm.id) : [];
}

async function findReaction(ctx: ActionContext, messageId: number, code: string, type: string, userId?: number) {
  if (!isStorableText(code) || !isStorableText(type)) return undefined;
  let query = ctx.tx
    .selectFrom('reaction')
    .selectAll()
    .where('message_id', '=', messageId)
    .where('emoji_code', '=', code)
    .where('reaction_type', '=', type);
  if (userId !== undefined) query = query.where('user_id', '=', userId);
  return query.orderBy('id').limit(1).executeTakeFirst();
}

/**
 * Who hears about a reaction: everyone holding the message, and for a stream whose history
 * subscribers share, every subscriber (they can open the message even if they never got it).
 */
async function reactionAudience(ctx: ActionContext, message: MessageRow): Promise<number[]> {
  const users = new Set(await messageRecipientIds(ctx.tx, [message.id]));
  const stream = await ctx.tx
    .selectFrom('recipient as r')
    .innerJoin('stream as s', 's.id', 'r.type_id')
    .select(['s.invite_only', 's.history_public_to_subscribers'])
    .where('r.id', '=', message.recipient_id)
    .where('r.type', '=', RecipientType.STREAM)
    .executeTakeFirst();
  if (stream && (!stream.invite_only || stream.history_public_to_subscribers)) {
    for (const id of await subscriberIds(ctx.tx, message.recipient_id)) users.add(id);
  }
  return [...users];
}

function sendReactionEvent(ctx: ActionContext, op: 'add' | 'remove', reaction: Omit<ReactionRow, 'id'>, actor: UserRow, audience: number[]) {
  const event = {
    type: 'reaction',
    op,
    user_id: actor.id,
    // Deprecated, but still read by older mobile clients; named as the reference's events name it.
    user: { user_id: actor.id, email: actor.email, full_name: actor.full_name },
    message_id: reaction.message_id,
    emoji_name: reaction.emoji_name,
    emoji_code: reaction.emoji_code,
    reaction_type: reaction.reaction_type,
  };
  ctx.events.send(event, audience);
}

export interface ReactionRequest {
  emojiName?: string;
  emojiCode?: string;
  reactionType?: string;
}

export async function checkAddReaction(ctx: ActionContext, messageId: number, request: ReactionRequest & { emojiName: string }): Promise<void> {
  const { message, received } = await accessMessage(ctx.tx, ctx.actor, messageId);
  let code = request.emojiCode;
  let type = request.reactionType;
  const realmEmoji = await realmEmojiFor(ctx, type);
  if (code === undefined || type === undefined) {
    const known = emojiByName(request.emojiName, realmEmoji);
    code ??= known.code;
    type ??= known.type;
  }
  if (await findReaction(ctx, message.id, code, type, ctx.actor.id)) {
    throw new ApiError('Reaction already exists.', { code: 'REACTION_ALREADY_EXISTS' });
  }
  // Reacting with an emoji someone already used on the message is a vote for that reaction:
  // it keeps the earlier name, even if that name would not be accepted for a new reaction today.
  const existing = await findReaction(ctx, message.id, code, type);
  let name = request.emojiName;
  if (existing) name = existing.emoji_name;
  else checkEmoji(name, code, type, realmEmoji);
  if (!received) {
    // A reaction to stream history the user never received keeps them informed of later changes.
    await ctx.tx.insertInto('user_message').values({ user_id: ctx.actor.id, message_id: message.id, flags: FLAG_BITS.read | FLAG_BITS.historical }).execute();
  }
  const reaction = { message_id: message.id, user_id: ctx.actor.id, emoji_name: name, emoji_code: code, reaction_type: type };
  // A concurrent request that inserted the same reaction first makes this insert violate the unique
  // index; the transaction is then retried (db/transaction.ts), and the check above answers.
  await ctx.tx.insertInto('reaction').values(reaction).execute();
  sendReactionEvent(ctx, 'add', reaction, ctx.actor, await reactionAudience(ctx, message));
}

export async function checkRemoveReaction(ctx: ActionContext, messageId: number, request: ReactionRequest & { reactionType: string }): Promise<void> {
  const { message } = await accessMessage(ctx.tx, ctx.actor, messageId);
  let code = request.emojiCode;
  if (code === undefined) {
    if (request.emojiName === undefined) {
      throw new ApiError('At least one of the following arguments must be present: emoji_name, emoji_code');
    }
    code = emojiByName(request.emojiName, await realmEmojiFor(ctx, undefined)).code;
  }
  const reaction = await findReaction(ctx, message.id, code, request.reactionType, ctx.actor.id);
  if (!reaction) throw new ApiError("Reaction doesn't exist.", { code: 'REACTION_DOES_NOT_EXIST' });
  await ctx.tx.deleteFrom('reaction').where('id', '=', reaction.id).execute();
  sendReactionEvent(ctx, 'remove', reaction, ctx.actor, await reactionAudience(ctx, message));
}
