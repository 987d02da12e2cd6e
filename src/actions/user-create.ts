// Creating users: the row, its personal recipient, default-stream subscriptions, and the realm_user event.
import type { NewUser, RealmRow, UserRow } from '../db/schema.js';
import { RecipientType } from '../db/schema.js';
import { ApiError } from '../errors.js';
import { generateApiKey, hashPassword } from '../lib/credentials.js';
import { createUserRefusalText } from '../lib/email-domains.js';
import { emailRefusal } from '../queries/realm-domains.js';
import { isStrongPassword, PASSWORD_TOO_WEAK } from '../lib/password-strength.js';
import { Role } from '../lib/roles.js';
import { requireAdmin } from '../lib/permissions.js';
import { apiEmailOf, canSeeDeliveryEmail, placeholderUserId, userDict } from '../lib/user-format.js';
import { realmUserDefaultsText } from '../queries/realm-user-defaults.js';
import { getUserByEmail, listUsers } from '../queries/users.js';
import type { ActionContext, SystemContext } from './context.js';
import { bulkAddSubscriptions, defaultStreamsOf } from './subscriptions.js';
import { announceGroupMemberships } from './user-group-membership.js';

export interface NewUserSpec {
  email: string;
  fullName: string;
  role?: number;
  password?: string | null;
  isBot?: boolean;
  botType?: number | null;
  botOwnerId?: number | null;
  timezone?: string;
  /** Bots only: the streams they send to and follow by default. */
  defaultSendingStreamId?: number | null;
  defaultEventsRegisterStreamId?: number | null;
  defaultAllPublicStreams?: boolean;
  /** 'U' when an uploaded avatar is stored for the new account (bots created with one). */
  avatarSource?: 'G' | 'U';
  /** Subscribe to the realm's default streams (humans: yes unless told otherwise). */
  subscribeToDefaults?: boolean;
}

// Control characters (NUL among them) never belong in an address.
const EMAIL = /^[^\s@\p{C}]+@[^\s@\p{C}]+$/u;
const isValidEmail = (email: string) => EMAIL.test(email) && email.length <= 254;

export function checkEmail(email: string): void {
  if (!isValidEmail(email)) throw new ApiError(`Invalid email '${email}'`);
}

export const MIN_NAME_LENGTH = 2;
export const MAX_NAME_LENGTH = 100;

export function checkFullName(name: string): string {
  const trimmed = name.trim();
  const length = [...trimmed].length;
  if (length > MAX_NAME_LENGTH) throw new ApiError('Name too long!');
  if (length < MIN_NAME_LENGTH) throw new ApiError('Name too short!');
  // Control and other invisible characters, and those that would confuse mention syntax.
  if (/[\p{C}*`\\>"@]/u.test(trimmed)) throw new ApiError('Invalid characters in name!');
  // "Name|15" would read as a mention of user 15.
  if (/\|\d+$/.test(name)) throw new ApiError('Invalid format!');
  return trimmed;
}

export async function doCreateUser(ctx: SystemContext, realm: RealmRow, spec: NewUserSpec): Promise<UserRow> {
  checkEmail(spec.email);
  // Placeholder addresses stand in for hidden ones; a real account may not take their form.
  if (placeholderUserId(spec.email, realm.url) !== undefined) throw new ApiError(`Invalid email '${spec.email}'`);
  const fullName = checkFullName(spec.fullName);
  if (await getUserByEmail(ctx.tx, realm.id, spec.email)) {
    throw new ApiError(`Email '${spec.email}' already in use`);
  }
  const row: NewUser = {
    realm_id: realm.id,
    email: spec.email,
    delivery_email: spec.email,
    full_name: fullName,
    role: spec.role ?? Role.MEMBER,
    is_active: 1,
    is_bot: spec.isBot ? 1 : 0,
    bot_type: spec.isBot ? (spec.botType ?? 1) : null,
    bot_owner_id: spec.isBot ? (spec.botOwnerId ?? null) : null,
    api_key: generateApiKey(),
    password_hash: spec.password ? await hashPassword(spec.password) : null,
    date_joined: ctx.now,
    timezone: spec.timezone ?? '',
    avatar_source: spec.avatarSource ?? 'G',
    avatar_version: 1,
    // New users start from the realm's defaults (PATCH /realm/user_settings_defaults).
    settings: (await realmUserDefaultsText(ctx.tx, realm.id)) ?? '{}',
    recipient_id: null,
    default_sending_stream_id: spec.defaultSendingStreamId ?? null,
    default_events_register_stream_id: spec.defaultEventsRegisterStreamId ?? null,
    default_all_public_streams: spec.defaultAllPublicStreams ? 1 : 0,
  };
  const { id } = await ctx.tx.insertInto('user_profile').values(row).returning('id').executeTakeFirstOrThrow();
  const recipient = await ctx.tx
    .insertInto('recipient')
    .values({ type: RecipientType.PERSONAL, type_id: id })
    .returning('id')
    .executeTakeFirstOrThrow();
  // The API email needs the id: a hidden address is replaced by the placeholder user{id}@{host}.
  const email = apiEmailOf({ ...row, id }, realm.url);
  await ctx.tx.updateTable('user_profile').set({ recipient_id: recipient.id, email }).where('id', '=', id).execute();
  const user = { ...row, id, email, recipient_id: recipient.id } as UserRow;

  const everyone = await listUsers(ctx.tx, realm.id, { activeOnly: true });
  announceNewUser(ctx, user, everyone);
  await announceGroupMemberships(ctx, realm, user, everyone.map((u) => u.id));
  if (spec.subscribeToDefaults ?? !spec.isBot) {
    const defaults = await defaultStreamsOf(ctx.tx, realm.id);
    if (defaults.length > 0) await bulkAddSubscriptions(ctx, realm, defaults, [user]);
  }
  return user;
}

export interface CreateUserRequest {
  email: string;
  password: string;
  fullName: string;
}

/** POST /users: an administrator creates an account with a password. */
export async function checkCreateUser(ctx: ActionContext, request: CreateUserRequest): Promise<UserRow> {
  requireAdmin(ctx.actor);
  const fullName = checkFullName(request.fullName);
  if (!isValidEmail(request.email)) throw new ApiError('Bad name or username');
  // No invitation is needed here, but the organization's address rules still apply.
  const refusal = await emailRefusal(ctx.tx, ctx.realm, request.email);
  if (refusal) throw new ApiError(createUserRefusalText(refusal, request.email));
  if (await getUserByEmail(ctx.tx, ctx.realm.id, request.email)) {
    throw new ApiError(`Email '${request.email}' already in use`);
  }
  if (!(await isStrongPassword(request.password))) throw new ApiError(PASSWORD_TOO_WEAK);
  return doCreateUser(ctx, ctx.realm, { email: request.email, fullName, password: request.password });
}

/** realm_user add: the real address only to those who may see it, null in the others' copy. */
function announceNewUser(ctx: SystemContext, user: UserRow, everyone: UserRow[]): void {
  const seers = everyone.filter((viewer) => canSeeDeliveryEmail(viewer, user));
  const others = everyone.filter((viewer) => !canSeeDeliveryEmail(viewer, user));
  const person = userDict(user, user, { clientGravatar: false, profileData: {} });
  ctx.events.send({ type: 'realm_user', op: 'add', person }, seers.map((u) => u.id));
  if (others.length > 0) {
    ctx.events.send({ type: 'realm_user', op: 'add', person: { ...person, delivery_email: null } }, others.map((u) => u.id));
  }
}
