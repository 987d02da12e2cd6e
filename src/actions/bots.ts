// Administering a bot: PATCH, DELETE and key regeneration under /bots/{bot_id}, and GET /bots.
// Its owner and the organization's administrators may; events go to those who see the bot.
import type { DbOrTx, StreamRow, UserRow } from '../db/schema.js';
import { ApiError, UnauthorizedPrincipalError } from '../errors.js';
import { serviceDict } from '../lib/bot-format.js';
import type { AvatarImages } from '../lib/images.js';
import { generateApiKey } from '../lib/credentials.js';
import { isAdmin, isOwner, Role } from '../lib/roles.js';
import { canAdminUser } from '../lib/user-permissions.js';
import { avatarUrl } from '../lib/user-format.js';
import { accessStreamByName, botAudienceIds, botDictOf, botDicts, ownActiveBots, servicesOf } from '../queries/bots.js';
import { activeUserIds, getUserById } from '../queries/users.js';
import { doChangeAvatarFields } from './avatar.js';
import { storeAvatarImages } from './avatar-files.js';
import { checkBotNameAvailable, checkInterfaceType, requireMemberOrAdmin } from './bot-create.js';
import type { ActionContext } from './context.js';
import { checkFullName } from './user-create.js';
import { doDeactivateUser } from './user-deactivate.js';
import { doChangeFullName, doChangeUserRole } from './user-update.js';

/** A bot the actor may administer, by id. */
export async function accessBotById(ctx: ActionContext, botId: number): Promise<UserRow> {
  const bot = await getUserById(ctx.tx, ctx.realm.id, botId);
  if (!bot?.is_bot) throw new ApiError('No such bot');
  if (!canAdminUser(ctx.actor, bot)) throw new ApiError('Insufficient permission');
  return bot;
}

const reload = async (ctx: ActionContext, bot: UserRow) => (await getUserById(ctx.tx, ctx.realm.id, bot.id))!;

async function sendBotUpdate(ctx: ActionContext, bot: UserRow, fields: Record<string, unknown>): Promise<void> {
  ctx.events.send({ type: 'realm_bot', op: 'update', bot: { user_id: bot.id, ...fields } }, await botAudienceIds(ctx.tx, bot));
}

export interface BotChanges {
  fullName?: string;
  role?: number;
  botOwnerId?: number;
  servicePayloadUrl?: string;
  serviceInterface: number;
  defaultSendingStream?: string;
  defaultEventsRegisterStream?: string;
  defaultAllPublicStreams?: boolean;
  /** A new avatar, already read from the upload. */
  avatarImages?: AvatarImages;
}

/** PATCH /bots/{bot_id}: each change in the reference's order; the answer describes the bot after them. */
export async function checkUpdateBot(ctx: ActionContext, botId: number, changes: BotChanges) {
  requireMemberOrAdmin(ctx.actor);
  let bot = await accessBotById(ctx, botId);
  if (changes.fullName !== undefined) {
    const fullName = checkFullName(changes.fullName);
    if (fullName !== bot.full_name) {
      await checkBotNameAvailable(ctx, fullName);
      await doChangeFullName(ctx, ctx.realm, bot, fullName);
    }
  }
  if (changes.role !== undefined && changes.role !== bot.role) {
    if ((changes.role === Role.OWNER || isOwner(bot)) && !isOwner(ctx.actor)) throw new UnauthorizedPrincipalError('Must be an organization owner');
    if (!isAdmin(ctx.actor)) throw new UnauthorizedPrincipalError();
    await doChangeUserRole(ctx, ctx.realm, bot, changes.role, ctx.now);
  }
  if (changes.botOwnerId !== undefined) await changeOwner(ctx, await reload(ctx, bot), changes.botOwnerId);
  const streamChange = async (name: string | undefined, column: 'default_sending_stream_id' | 'default_events_register_stream_id') => {
    if (name === undefined) return;
    const stream: StreamRow | null = name === '' ? null : await accessStreamByName(ctx.tx, ctx.actor, name);
    await ctx.tx.updateTable('user_profile').set({ [column]: stream?.id ?? null }).where('id', '=', bot.id).execute();
    const field = column === 'default_sending_stream_id' ? 'default_sending_stream' : 'default_events_register_stream';
    await sendBotUpdate(ctx, await reload(ctx, bot), { [field]: stream?.name ?? null });
  };
  await streamChange(changes.defaultSendingStream, 'default_sending_stream_id');
  await streamChange(changes.defaultEventsRegisterStream, 'default_events_register_stream_id');
  if (changes.defaultAllPublicStreams !== undefined) {
    const value = changes.defaultAllPublicStreams ? 1 : 0;
    await ctx.tx.updateTable('user_profile').set({ default_all_public_streams: value }).where('id', '=', bot.id).execute();
    await sendBotUpdate(ctx, await reload(ctx, bot), { default_all_public_streams: changes.defaultAllPublicStreams });
  }
  if (changes.servicePayloadUrl !== undefined) {
    checkInterfaceType(changes.serviceInterface);
    await ctx.tx
      .updateTable('bot_service')
      .set({ base_url: changes.servicePayloadUrl, interface: changes.serviceInterface })
      .where('bot_id', '=', bot.id)
      .execute();
    const services = (await servicesOf(ctx.tx, [bot.id])).get(bot.id) ?? [];
    await sendBotUpdate(ctx, await reload(ctx, bot), { services: services.map(serviceDict) });
  }

  if (changes.avatarImages) {
    await storeAvatarImages(ctx.services, ctx.realm.id, bot.id, changes.avatarImages);
    await doChangeAvatarFields(ctx, ctx.realm, await reload(ctx, bot), 'U');
  }

  bot = await reload(ctx, bot);
  const dict = await botDictOf(ctx.tx, bot);
  const owner = bot.bot_owner_id === null ? undefined : await getUserById(ctx.tx, ctx.realm.id, bot.bot_owner_id);
  return {
    full_name: bot.full_name,
    avatar_url: avatarUrl(bot, false),
    service_interface: changes.serviceInterface,
    service_payload_url: changes.servicePayloadUrl ?? null,
    config_data: null,
    default_sending_stream: dict.default_sending_stream,
    default_events_register_stream: dict.default_events_register_stream,
    default_all_public_streams: dict.default_all_public_streams,
    ...(owner ? { bot_owner: owner.email } : {}),
  };
}

/**
 * Hands the bot to another active person. A previous owner who is no administrator loses sight of
 * it (realm_bot delete), a new one who is none gains it (add); everyone learns the new bot_owner_id.
 */
async function changeOwner(ctx: ActionContext, bot: UserRow, ownerId: number): Promise<void> {
  const owner = await getUserById(ctx.tx, ctx.realm.id, ownerId);
  if (!owner) throw new ApiError('Failed to change owner, no such user');
  if (!owner.is_active) throw new ApiError('Failed to change owner, user is deactivated');
  if (owner.is_bot) throw new ApiError("Failed to change owner, bots can't own other bots");
  if (bot.bot_owner_id === owner.id) return;
  const previous = bot.bot_owner_id === null ? undefined : await getUserById(ctx.tx, ctx.realm.id, bot.bot_owner_id);
  await ctx.tx.updateTable('user_profile').set({ bot_owner_id: owner.id }).where('id', '=', bot.id).execute();
  const moved = await reload(ctx, bot);
  let audience = await botAudienceIds(ctx.tx, moved);
  if (previous && !isAdmin(previous)) {
    ctx.events.send({ type: 'realm_bot', op: 'delete', bot: { user_id: bot.id } }, [previous.id]);
    audience = audience.filter((id) => id !== previous.id);
  }
  if (!isAdmin(owner)) {
    ctx.events.send({ type: 'realm_bot', op: 'add', bot: await botDictOf(ctx.tx, moved) }, [owner.id]);
    audience = audience.filter((id) => id !== owner.id);
  }
  ctx.events.send({ type: 'realm_bot', op: 'update', bot: { user_id: bot.id, owner_id: owner.id } }, audience);
  ctx.events.send(
    { type: 'realm_user', op: 'update', person: { user_id: bot.id, bot_owner_id: owner.id } },
    await activeUserIds(ctx.tx, ctx.realm.id),
  );
}

/** DELETE /bots/{bot_id}. */
export async function checkDeactivateBot(ctx: ActionContext, botId: number): Promise<void> {
  const bot = await accessBotById(ctx, botId);
  await doDeactivateUser(ctx, ctx.realm, bot);
}

/** POST /bots/{bot_id}/api_key/regenerate: the old key stops working at once. */
export async function checkRegenerateBotApiKey(ctx: ActionContext, botId: number): Promise<string> {
  requireMemberOrAdmin(ctx.actor);
  const bot = await accessBotById(ctx, botId);
  const apiKey = generateApiKey();
  await ctx.tx.updateTable('user_profile').set({ api_key: apiKey }).where('id', '=', bot.id).execute();
  await sendBotUpdate(ctx, bot, { api_key: apiKey });
  return apiKey;
}

/** GET /bots: the requester's own active bots, in the reference's legacy shape. */
export async function listOwnBots(db: DbOrTx, user: UserRow) {
  requireMemberOrAdmin(user);
  const dicts = await botDicts(db, await ownActiveBots(db, user));
  return dicts.map((dict) => ({
    username: dict.email,
    full_name: dict.full_name,
    api_key: dict.api_key,
    avatar_url: dict.avatar_url,
    default_sending_stream: dict.default_sending_stream,
    default_events_register_stream: dict.default_events_register_stream,
    default_all_public_streams: dict.default_all_public_streams,
  }));
}
