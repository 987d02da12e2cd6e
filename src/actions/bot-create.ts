// POST /bots: a member creates a bot they own, under the organization's bot creation policy.
import type { RealmRow, UserRow } from '../db/schema.js';
import { ApiError, UnauthorizedPrincipalError } from '../errors.js';
import { botDomain } from '../lib/bot-format.js';
import { generateApiKey } from '../lib/credentials.js';
import { requireHuman, requireNotGuest } from '../lib/permissions.js';
import { realmSettings } from '../lib/realm-settings.js';
import { BotType, isAdmin } from '../lib/roles.js';
import { accessStreamByName, botAudienceIds, botDictOf } from '../queries/bots.js';
import { activeUserNamed } from '../queries/users.js';
import type { ActionContext } from './context.js';
import { checkEmail, checkFullName, doCreateUser } from './user-create.js';

/** The realm's bot_creation_policy values. */
export const BotCreationPolicy = { EVERYONE: 1, LIMIT_GENERIC_BOTS: 2, ADMINS_ONLY: 3 } as const;

/** Outgoing webhook payload formats: Zulip's own, and Slack's. */
export const SERVICE_INTERFACES: readonly number[] = [1, 2];

export interface NewBotRequest {
  fullName: string;
  shortName: string;
  botType: number;
  payloadUrl: string;
  serviceName: string | undefined;
  interfaceType: number;
  defaultSendingStream: string | undefined;
  defaultEventsRegisterStream: string | undefined;
  defaultAllPublicStreams: boolean | undefined;
  /** Stores the bot's uploaded avatar, once its id is known and before the creation commits. */
  storeAvatar?: (botId: number) => Promise<void>;
}

/** Members and above, people only: the reference's require_member_or_admin. */
export function requireMemberOrAdmin(user: UserRow): void {
  requireNotGuest(user);
  requireHuman(user);
}

/** Administrators may always create bots; others as the policy allows, generic bots aside under policy 2. */
export function checkBotCreationPolicy(user: UserRow, realm: RealmRow, botType: number): void {
  if (isAdmin(user)) return;
  const policy = realmSettings(realm).bot_creation_policy;
  if (policy === BotCreationPolicy.ADMINS_ONLY) throw new UnauthorizedPrincipalError();
  if (policy === BotCreationPolicy.LIMIT_GENERIC_BOTS && botType === BotType.GENERIC) throw new UnauthorizedPrincipalError();
}

/** The reference refuses an active name only by accident-proofing: deactivated namesakes are fine. */
export async function checkBotNameAvailable(ctx: ActionContext, fullName: string): Promise<void> {
  if (await activeUserNamed(ctx.tx, ctx.realm.id, fullName.trim())) throw new ApiError('Name is already in use!');
}

export function checkInterfaceType(interfaceType: number): void {
  if (!SERVICE_INTERFACES.includes(interfaceType)) throw new ApiError('Invalid interface type');
}

export async function checkCreateBot(ctx: ActionContext, request: NewBotRequest): Promise<UserRow> {
  requireMemberOrAdmin(ctx.actor);
  const shortName = request.shortName.trim();
  if (shortName === '') throw new ApiError('Bad name or username');
  const fullName = checkFullName(request.fullName);
  const email = `${shortName}-bot@${botDomain(ctx.realm)}`;
  try {
    checkEmail(email);
  } catch {
    throw new ApiError('Bad name or username');
  }
  // Confab runs no embedded bots, as a reference server without EMBEDDED_BOTS_ENABLED.
  if (request.botType === BotType.EMBEDDED) throw new ApiError('Embedded bots are not enabled.');
  const taken = await ctx.tx
    .selectFrom('user_profile')
    .select('id')
    .where('realm_id', '=', ctx.realm.id)
    .where((eb) => eb(eb.fn('lower', ['delivery_email']), '=', email.toLowerCase()))
    .executeTakeFirst();
  if (taken) throw new ApiError('Username already in use');
  await checkBotNameAvailable(ctx, fullName);
  checkBotCreationPolicy(ctx.actor, ctx.realm, request.botType);
  if (!(Object.values(BotType) as number[]).includes(request.botType)) throw new ApiError('Invalid bot type');
  checkInterfaceType(request.interfaceType);

  const sending = request.defaultSendingStream === undefined ? null : await accessStreamByName(ctx.tx, ctx.actor, request.defaultSendingStream);
  const events =
    request.defaultEventsRegisterStream === undefined ? null : await accessStreamByName(ctx.tx, ctx.actor, request.defaultEventsRegisterStream);
  // Incoming webhooks name the integration they stand for; Confab offers none.
  if (request.botType === BotType.INCOMING_WEBHOOK && request.serviceName) {
    throw new ApiError(`Invalid integration '${request.serviceName}'.`);
  }

  const bot = await doCreateUser(ctx, ctx.realm, {
    email,
    fullName,
    isBot: true,
    botType: request.botType,
    botOwnerId: ctx.actor.id,
    defaultSendingStreamId: sending?.id ?? null,
    defaultEventsRegisterStreamId: events?.id ?? null,
    defaultAllPublicStreams: request.defaultAllPublicStreams ?? false,
    avatarSource: request.storeAvatar ? 'U' : 'G',
  });
  await request.storeAvatar?.(bot.id);
  if (request.botType === BotType.OUTGOING_WEBHOOK) {
    await ctx.tx
      .insertInto('bot_service')
      .values({
        bot_id: bot.id,
        name: request.serviceName || shortName,
        base_url: request.payloadUrl,
        interface: request.interfaceType,
        token: generateApiKey(),
      })
      .execute();
  }
  ctx.events.send({ type: 'realm_bot', op: 'add', bot: await botDictOf(ctx.tx, bot) }, await botAudienceIds(ctx.tx, bot));
  return bot;
}
