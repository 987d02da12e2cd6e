// Creating an organization: the realm, its system groups, its notification bot, its owner
// and a default "general" stream.
import type { RealmRow, UserRow } from '../db/schema.js';
import { ApiError } from '../errors.js';
import { DEFAULT_REALM_IMAGES } from '../lib/realm-images.js';
import { REALM_SETTING_DEFAULTS, type RealmSettings } from '../lib/realm-settings.js';
import { Role, SYSTEM_GROUPS } from '../lib/roles.js';
import type { SystemContext } from './context.js';
import { doCreateStream } from './stream-create.js';
import { bulkAddSubscriptions } from './subscriptions.js';
import { doCreateUser } from './user-create.js';

export interface NewRealmSpec {
  name: string;
  url: string;
  stringId?: string;
  owner: { email: string; fullName: string; password?: string | null };
  /** Create the "general" default stream (default true). */
  withGeneralStream?: boolean;
  /** Joining needs an invitation (default true, as in the reference). */
  inviteRequired?: boolean;
}

/**
 * The settings a new organization starts with where they differ from the stored defaults. As the
 * reference does, closed organizations (invitation required) get read receipts; open ones leave
 * that choice to their administrators.
 */
function initialSettings(spec: NewRealmSpec): string {
  const inviteRequired = spec.inviteRequired ?? true;
  const chosen: Partial<RealmSettings> = { invite_required: inviteRequired, enable_read_receipts: inviteRequired };
  const differences = Object.entries(chosen).filter(([key, value]) => REALM_SETTING_DEFAULTS[key as keyof RealmSettings] !== value);
  return JSON.stringify(Object.fromEntries(differences));
}

export async function doCreateRealm(ctx: SystemContext, spec: NewRealmSpec): Promise<{ realm: RealmRow; owner: UserRow }> {
  if (spec.name.trim() === '') throw new ApiError('Organization name cannot be blank');
  const url = spec.url.replace(/\/$/, '');
  const values = {
    string_id: spec.stringId ?? '',
    name: spec.name.trim(),
    description: '',
    url,
    date_created: ctx.now,
    deactivated: 0,
    settings: initialSettings(spec),
    notification_bot_id: null,
  };
  const { id } = await ctx.tx.insertInto('realm').values(values).returning('id').executeTakeFirstOrThrow();
  let realm: RealmRow = { ...values, ...DEFAULT_REALM_IMAGES, id };
  for (const group of SYSTEM_GROUPS) {
    await ctx.tx
      .insertInto('user_group')
      .values({ realm_id: id, name: group.name, description: group.description, is_system_group: 1 })
      .execute();
  }
  // As in the reference, no one may mention a system group: they all point at role:nobody.
  const nobody = await ctx.tx.selectFrom('user_group').select('id').where('realm_id', '=', id).where('name', '=', 'role:nobody').executeTakeFirstOrThrow();
  await ctx.tx.updateTable('user_group').set({ can_mention_group_id: nobody.id }).where('realm_id', '=', id).execute();
  const host = safeHost(url);
  const bot = await doCreateUser(ctx, realm, {
    email: `notification-bot@${host}`,
    fullName: 'Notification Bot',
    role: Role.MEMBER,
    isBot: true,
    botType: 1,
  });
  await ctx.tx.updateTable('realm').set({ notification_bot_id: bot.id }).where('id', '=', id).execute();
  realm = { ...realm, notification_bot_id: bot.id };
  const owner = await doCreateUser(ctx, realm, {
    email: spec.owner.email,
    fullName: spec.owner.fullName,
    role: Role.OWNER,
    password: spec.owner.password ?? null,
  });
  if (spec.withGeneralStream ?? true) {
    const general = await doCreateStream(ctx, realm, {
      name: 'general',
      description: 'Everyone is added to this channel by default.',
      isDefault: true,
      creatorId: owner.id,
    });
    await bulkAddSubscriptions(ctx, realm, [general], [owner]);
  }
  return { realm, owner };
}

function safeHost(url: string): string {
  try {
    return new URL(url).hostname || 'localhost';
  } catch {
    throw new ApiError(`Invalid organization URL '${url}'`);
  }
}
