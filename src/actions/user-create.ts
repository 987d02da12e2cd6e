// Creating users: the row, its personal recipient, default-stream subscriptions, and the realm_user event.
import type { NewUser, RealmRow, UserRow } from '../db/schema.js';
import { RecipientType } from '../db/schema.js';
import { ApiError } from '../errors.js';
import { generateApiKey, hashPassword } from '../lib/credentials.js';
import { Role } from '../lib/roles.js';
import { userDict } from '../lib/user-format.js';
import { activeUserIds, getUserByEmail } from '../queries/users.js';
import type { SystemContext } from './context.js';
import { bulkAddSubscriptions, defaultStreamsOf } from './subscriptions.js';

export interface NewUserSpec {
  email: string;
  fullName: string;
  role?: number;
  password?: string | null;
  isBot?: boolean;
  botType?: number | null;
  botOwnerId?: number | null;
  timezone?: string;
  /** Subscribe to the realm's default streams (humans: yes unless told otherwise). */
  subscribeToDefaults?: boolean;
}

const EMAIL = /^[^\s@]+@[^\s@]+$/;

export function checkEmail(email: string): void {
  if (!EMAIL.test(email) || email.length > 254) throw new ApiError(`Invalid email '${email}'`);
}

export function checkFullName(name: string): string {
  const trimmed = name.trim();
  if (trimmed === '') throw new ApiError('Name too short!');
  if ([...trimmed].length > 100) throw new ApiError('Name too long!');
  if (/[\u0000-\u001f\u007f]/.test(trimmed)) throw new ApiError('Invalid characters in name!');
  return trimmed;
}

export async function doCreateUser(ctx: SystemContext, realm: RealmRow, spec: NewUserSpec): Promise<UserRow> {
  checkEmail(spec.email);
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
    password_hash: spec.password ? hashPassword(spec.password) : null,
    date_joined: ctx.now,
    timezone: spec.timezone ?? '',
    avatar_source: 'G',
    avatar_version: 1,
    settings: '{}',
    recipient_id: null,
  };
  const { id } = await ctx.tx.insertInto('user_profile').values(row).returning('id').executeTakeFirstOrThrow();
  const recipient = await ctx.tx
    .insertInto('recipient')
    .values({ type: RecipientType.PERSONAL, type_id: id })
    .returning('id')
    .executeTakeFirstOrThrow();
  await ctx.tx.updateTable('user_profile').set({ recipient_id: recipient.id }).where('id', '=', id).execute();
  const user = { ...row, id, recipient_id: recipient.id } as UserRow;

  ctx.events.send(
    { type: 'realm_user', op: 'add', person: personForEvent(user) },
    await activeUserIds(ctx.tx, realm.id),
  );
  if (spec.subscribeToDefaults ?? !spec.isBot) {
    const defaults = await defaultStreamsOf(ctx.tx, realm.id);
    if (defaults.length > 0) await bulkAddSubscriptions(ctx, realm, defaults, [user]);
  }
  return user;
}

/** The person object of realm_user add events. */
export function personForEvent(user: UserRow) {
  return userDict(user, user, { clientGravatar: false, profileData: {} });
}
