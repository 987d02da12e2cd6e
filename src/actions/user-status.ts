// POST /users/me/status: the status text and emoji, and the deprecated "away" (which is the
// user's presence_enabled setting), with the reference's checks in its order.
import type { RealmEmojiRow } from '../db/schema.js';
import { ApiError } from '../errors.js';
import { requireHuman } from '../lib/permissions.js';
import { mergeSettings, resolveSettings } from '../lib/settings-registry.js';
import { MAX_STATUS_TEXT_LENGTH, type StatusChange, type StatusRequest, UNICODE_EMOJI, userStatusEvent } from '../lib/user-status.js';
import { activeUserIds } from '../queries/users.js';
import type { ActionContext } from './context.js';
import { checkEmoji, emojiByName, realmEmojiFor } from './reactions.js';
import { settingEvents } from './settings-update.js';

/** The change a request asks for, or the reference's error for it. */
export function parseStatusRequest(request: StatusRequest, realmEmoji: readonly RealmEmojiRow[] = []): StatusChange {
  const statusText = request.statusText?.trim();
  if (statusText !== undefined) {
    if ([...statusText].length > MAX_STATUS_TEXT_LENGTH) {
      throw new ApiError(`status_text is too long (limit: ${MAX_STATUS_TEXT_LENGTH} characters)`);
    }
    if (statusText.includes('\u0000')) throw new ApiError('status_text contains NULL (0x00) characters.');
  }
  const { away, emojiName } = request;
  if (away === undefined && statusText === undefined && emojiName === undefined) {
    throw new ApiError('Client did not pass any new values.');
  }
  let emoji: StatusChange['emoji'];
  if (emojiName === '') {
    // An empty name clears the emoji, whatever code and type came with it.
    emoji = { name: '', code: '', type: UNICODE_EMOJI };
  } else if (emojiName !== undefined) {
    let code = request.emojiCode;
    let type = request.reactionType;
    if (code === undefined || type === undefined) {
      const known = emojiByName(emojiName, realmEmoji);
      code ??= known.code;
      type ??= known.type;
    }
    checkEmoji(emojiName, code, type, realmEmoji);
    emoji = { name: emojiName, code, type };
  } else if (request.emojiCode || request.reactionType) {
    throw new ApiError('Client must pass emoji_name if they pass either emoji_code or reaction_type.');
  }
  return {
    ...(away !== undefined ? { away } : {}),
    ...(statusText !== undefined ? { statusText } : {}),
    ...(emoji ? { emoji } : {}),
  };
}

export async function checkUpdateUserStatus(ctx: ActionContext, request: StatusRequest): Promise<void> {
  requireHuman(ctx.actor);
  const realmEmoji = request.emojiName ? await realmEmojiFor(ctx, request.reactionType) : [];
  await doUpdateUserStatus(ctx, parseStatusRequest(request, realmEmoji));
}

export async function doUpdateUserStatus(ctx: ActionContext, change: StatusChange): Promise<void> {
  const user = ctx.actor;
  if (change.away !== undefined) {
    const presenceEnabled = !change.away;
    if (resolveSettings(user.settings).presence_enabled !== presenceEnabled) {
      const settings = mergeSettings(user.settings, { presence_enabled: presenceEnabled });
      await ctx.tx.updateTable('user_profile').set({ settings }).where('id', '=', user.id).execute();
      for (const event of settingEvents(user, 'presence_enabled', presenceEnabled)) ctx.events.send(event, [user.id]);
    }
  }
  const fields = {
    ...(change.statusText !== undefined ? { status_text: change.statusText } : {}),
    ...(change.emoji ? { emoji_name: change.emoji.name, emoji_code: change.emoji.code, reaction_type: change.emoji.type } : {}),
    timestamp: ctx.now,
  };
  // The row exists from the first request on, even one that only sets "away": the register
  // reports away for users with a row. An upsert, so that two first requests at once both land.
  const empty = { status_text: '', emoji_name: '', emoji_code: '', reaction_type: UNICODE_EMOJI };
  await ctx.tx
    .insertInto('user_status')
    .values({ user_id: user.id, ...empty, ...fields })
    .onConflict((oc) => oc.column('user_id').doUpdateSet(fields))
    .execute();
  ctx.events.send(userStatusEvent(user.id, change), await activeUserIds(ctx.tx, ctx.realm.id));
}
