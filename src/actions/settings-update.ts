// PATCH /settings: identity (name, email, password) and every personal setting of the registry,
// with the events that keep the user's clients (and, for name and time zone, everyone) current.
import type { RealmRow, UserRow } from '../db/schema.js';
import { LEGACY_TOP_LEVEL } from '../events/state/settings.js';
import { ApiError } from '../errors.js';
import { hashPassword, verifyPassword } from '../lib/credentials.js';
import { languageName } from '../lib/languages.js';
import { isStrongPassword, MAX_PASSWORD_LENGTH } from '../lib/password-strength.js';
import { type MailMessage, mailTransportFor } from '../adapters/mail/transport.js';
import { realmSettings } from '../lib/realm-settings.js';
import { isAdmin } from '../lib/roles.js';
import { mergeSettings, parseSetting, resolveSettings, SETTINGS, type Settings, type SettingValue } from '../lib/settings-registry.js';
import { requireAdmin, requireHuman } from '../lib/permissions.js';
import { userStatusEvent } from '../lib/user-status.js';
import { realmUserDefaultsText } from '../queries/realm-user-defaults.js';
import { storedStatusOf } from '../queries/user-status.js';
import { activeUserIds } from '../queries/users.js';
import type { Services } from '../services.js';
import { type ActionContext, runAction } from './context.js';
import { deleteAllDrafts } from './drafts.js';
import { requestEmailChange } from './email-change.js';
import { doChangeFullName } from './user-update.js';

/** The settings PATCH /settings accepts (column P of SPEC.md's table, and the reference's later ones). */
export const PERSONAL_SETTINGS: readonly string[] = Object.entries(SETTINGS)
  .filter(([, spec]) => spec.personal)
  .map(([name]) => name);

export interface SettingsRequest {
  fullName?: string;
  email?: string;
  oldPassword?: string;
  newPassword?: string;
  /** Raw request values of registry settings, by name (absent: unchanged). */
  settings: Record<string, string | undefined>;
}

/** Parses the raw values of the named settings; the first invalid one is the error. */
export function parseSettings(names: readonly string[], raw: Record<string, string | undefined>): Settings {
  const parsed: Settings = {};
  for (const name of names) {
    const value = raw[name];
    if (value !== undefined) parsed[name] = parseSetting(name, value);
  }
  return parsed;
}

/** Runs the change; mail (an email change's confirmation) goes out once it has committed. */
export async function updateSettings(services: Services, user: UserRow, realm: RealmRow, request: SettingsRequest): Promise<void> {
  const passwordWork = await passwordChange(user, request);
  const mail = await runAction(services, user, realm, (ctx) => checkUpdateSettings(ctx, request, passwordWork));
  if (mail) await sendOrFail(services, mail);
}

export async function sendOrFail(services: Services, mail: MailMessage): Promise<void> {
  try {
    await mailTransportFor(services).send(mail);
  } catch (error) {
    services.log?.error({ err: error }, 'sending mail failed');
    throw new ApiError('Error sending confirmation email');
  }
}

interface PasswordWork {
  oldMatches: boolean;
  /** Long enough, short enough and hard enough to guess. */
  acceptable: boolean;
  newHash: string | null;
}

/**
 * The password checks of a change, done before the transaction: each is a scrypt run, and the
 * transaction would hold the store for as long. The action decides with the results.
 */
async function passwordChange(user: UserRow, request: SettingsRequest): Promise<PasswordWork | null> {
  if (request.newPassword === undefined) return null;
  // Without old_password the check fails like a wrong one, as the reference answers.
  const oldMatches = request.oldPassword !== undefined && (await verifyPassword(request.oldPassword, user.password_hash));
  if (!oldMatches) return { oldMatches, acceptable: false, newHash: null };
  const acceptable = [...request.newPassword].length <= MAX_PASSWORD_LENGTH && (await isStrongPassword(request.newPassword));
  return { oldMatches, acceptable, newHash: acceptable ? await hashPassword(request.newPassword) : null };
}

export async function checkUpdateSettings(
  ctx: ActionContext,
  request: SettingsRequest,
  passwordWork?: PasswordWork | null,
): Promise<MailMessage | null> {
  requireHuman(ctx.actor);
  const changes = parseSettings(PERSONAL_SETTINGS, request.settings);

  if (request.newPassword !== undefined) {
    const work = passwordWork ?? (await passwordChange(ctx.actor, request));
    if (!work?.oldMatches) throw new ApiError('Wrong password!');
    if (!work.acceptable || work.newHash === null) throw new ApiError('New password is too weak!');
    await ctx.tx.updateTable('user_profile').set({ password_hash: work.newHash }).where('id', '=', ctx.actor.id).execute();
  }

  let mail: MailMessage | null = null;
  if (request.email !== undefined) {
    const newEmail = request.email.trim();
    if (newEmail !== ctx.actor.delivery_email) mail = await requestEmailChange(ctx, newEmail);
  }

  if (request.fullName !== undefined && request.fullName !== ctx.actor.full_name) {
    // Names locked by the organization are left alone without an error, as the reference does.
    if (!realmSettings(ctx.realm).name_changes_disabled || isAdmin(ctx.actor)) await doChangeFullName(ctx, ctx.realm, ctx.actor, request.fullName);
  }

  await applyPersonalSettings(ctx, changes);
  return mail;
}


/** Stores the settings that differ from the user's current values and announces each one. */
async function applyPersonalSettings(ctx: ActionContext, requested: Readonly<Settings>): Promise<void> {
  const user = ctx.actor;
  const current: Settings = { ...resolveSettings(user.settings), timezone: user.timezone };
  const changed = Object.entries(requested).filter(([name, value]) => current[name] !== value);
  if (changed.length === 0) return;

  const { timezone, ...stored } = Object.fromEntries(changed) as Settings;
  await ctx.tx
    .updateTable('user_profile')
    .set({
      settings: mergeSettings(user.settings, stored),
      ...(timezone !== undefined ? { timezone: String(timezone) } : {}),
    })
    .where('id', '=', user.id)
    .execute();

  for (const [name, value] of changed) {
    for (const event of settingEvents(user, name, value)) ctx.events.send(event, [user.id]);
    if (name === 'timezone') {
      ctx.events.send(
        { type: 'realm_user', op: 'update', person: { user_id: user.id, email: user.email, timezone: value } },
        await activeUserIds(ctx.tx, ctx.realm.id),
      );
    }
    if (name === 'enable_drafts_synchronization' && value === false) await deleteAllDrafts(ctx, user.id);
    if (name === 'presence_enabled' && (await storedStatusOf(ctx.tx, user.id))) {
      // Users with a status show this setting to everyone as the deprecated "away".
      ctx.events.send(userStatusEvent(user.id, { away: value === false }), await activeUserIds(ctx.tx, ctx.realm.id));
    }
  }
}

/**
 * The user_settings event and, for settings older than it, the legacy event of their family;
 * event queues hand the legacy form only to clients without the user_settings_object capability.
 */
export function settingEvents(user: Pick<UserRow, 'email'>, name: string, value: SettingValue): Record<string, unknown>[] {
  const language = name === 'default_language' ? { language_name: languageName(String(value)) } : {};
  const events: Record<string, unknown>[] = [{ type: 'user_settings', op: 'update', property: name, value, ...language }];
  const legacy = SETTINGS[name]?.legacy;
  if (LEGACY_TOP_LEVEL.has(name) && legacy === 'display') {
    events.push({ type: 'update_display_settings', user: user.email, setting_name: name, setting: value, ...language });
  } else if (LEGACY_TOP_LEVEL.has(name) && legacy === 'notification') {
    events.push({ type: 'update_global_notifications', user: user.email, notification_name: name, setting: value });
  }
  return events;
}

/** The settings PATCH /realm/user_settings_defaults accepts (column R). */
export const REALM_DEFAULT_SETTINGS: readonly string[] = Object.entries(SETTINGS)
  .filter(([, spec]) => spec.realmDefault)
  .map(([name]) => name);

/** PATCH /realm/user_settings_defaults: what users joining from now on start with; existing users keep theirs. */
export async function checkUpdateRealmUserDefaults(ctx: ActionContext, raw: Record<string, string | undefined>): Promise<void> {
  requireAdmin(ctx.actor);
  const requested = parseSettings(REALM_DEFAULT_SETTINGS, raw);
  const storedText = await realmUserDefaultsText(ctx.tx, ctx.realm.id);
  const current = resolveSettings(storedText);
  const changed = Object.entries(requested).filter(([name, value]) => current[name] !== value);
  if (changed.length === 0) return;
  const settings = mergeSettings(storedText, Object.fromEntries(changed));
  if (storedText === null) await ctx.tx.insertInto('realm_user_default').values({ realm_id: ctx.realm.id, settings }).execute();
  else await ctx.tx.updateTable('realm_user_default').set({ settings }).where('realm_id', '=', ctx.realm.id).execute();
  const everyone = await activeUserIds(ctx.tx, ctx.realm.id);
  for (const [property, value] of changed) {
    ctx.events.send({ type: 'realm_user_settings_defaults', op: 'update', property, value }, everyone);
  }
}
