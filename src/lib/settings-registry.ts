// The one list of personal settings: type, allowed values, default, and whether
// PATCH /settings (personal) and PATCH /realm/user_settings_defaults (realmDefault) accept it.
// Validation, /register state, events and realm defaults all derive from it.
import { ApiError } from '../errors.js';
import { isLanguageCode } from './languages.js';

export type SettingValue = boolean | number | string;

export interface SettingSpec {
  type: 'bool' | 'int' | 'string';
  default: SettingValue;
  /** Allowed values, when the setting is an enumeration. */
  values?: readonly SettingValue[];
  personal: boolean;
  realmDefault: boolean;
  /** Legacy event family for clients without the user_settings_object capability. */
  legacy: 'display' | 'notification' | null;
}

const bool = (value: boolean, legacy: SettingSpec['legacy'], personal = true, realmDefault = true): SettingSpec => ({
  type: 'bool', default: value, personal, realmDefault, legacy,
});
const int = (value: number, values: readonly number[], legacy: SettingSpec['legacy'], personal = true, realmDefault = true): SettingSpec => ({
  type: 'int', default: value, values, personal, realmDefault, legacy,
});
const str = (value: string, values: readonly string[] | undefined, legacy: SettingSpec['legacy'], personal = true, realmDefault = true): SettingSpec => ({
  type: 'string', default: value, ...(values ? { values } : {}), personal, realmDefault, legacy,
});

const FOLLOW_POLICIES = [1, 2, 3, 4] as const;

export const SETTINGS: Record<string, SettingSpec> = {
  // Display settings.
  twenty_four_hour_time: bool(false, 'display'),
  dense_mode: bool(true, 'display'),
  starred_message_counts: bool(true, 'display'),
  fluid_layout_width: bool(false, 'display'),
  high_contrast_mode: bool(false, 'display'),
  color_scheme: int(1, [1, 2, 3], 'display'),
  enable_drafts_synchronization: bool(true, 'display'),
  translate_emoticons: bool(false, 'display'),
  display_emoji_reaction_users: bool(true, 'display'),
  default_language: str('en', undefined, 'display', true, false),
  web_home_view: str('inbox', ['recent_topics', 'inbox', 'all_messages'], 'display'),
  web_escape_navigates_to_home_view: bool(true, 'display'),
  left_side_userlist: bool(false, 'display'),
  emojiset: str('vendora', ['vendora', 'vendora-blob', 'vendorb', 'text'], 'display'),
  demote_inactive_streams: int(1, [1, 2, 3], 'display'),
  user_list_style: int(3, [1, 2, 3], 'display'),
  web_stream_unreads_count_display_policy: int(2, [1, 2, 3], 'display'),
  timezone: str('', undefined, 'display', true, false),
  // Notification settings.
  enable_stream_desktop_notifications: bool(false, 'notification'),
  enable_stream_email_notifications: bool(false, 'notification'),
  enable_stream_push_notifications: bool(false, 'notification'),
  enable_stream_audible_notifications: bool(false, 'notification'),
  notification_sound: str('zulip', undefined, 'notification'),
  enable_desktop_notifications: bool(true, 'notification'),
  enable_sounds: bool(true, 'notification'),
  email_notifications_batching_period_seconds: int(120, [], 'notification'),
  enable_offline_email_notifications: bool(true, 'notification'),
  enable_offline_push_notifications: bool(true, 'notification'),
  enable_online_push_notifications: bool(true, 'notification'),
  enable_followed_topic_desktop_notifications: bool(true, 'notification'),
  enable_followed_topic_email_notifications: bool(true, 'notification'),
  enable_followed_topic_push_notifications: bool(true, 'notification'),
  enable_followed_topic_audible_notifications: bool(true, 'notification'),
  enable_digest_emails: bool(true, 'notification'),
  enable_marketing_emails: bool(true, 'notification', true, false),
  enable_login_emails: bool(true, 'notification', true, false),
  message_content_in_email_notifications: bool(true, 'notification'),
  pm_content_in_desktop_notifications: bool(true, 'notification'),
  wildcard_mentions_notify: bool(true, 'notification'),
  enable_followed_topic_wildcard_mentions_notify: bool(true, 'notification'),
  desktop_icon_count_display: int(1, [1, 2, 3, 4], 'notification'),
  realm_name_in_email_notifications_policy: int(1, [1, 2, 3], 'notification'),
  automatically_follow_topics_policy: int(3, FOLLOW_POLICIES, 'notification'),
  automatically_unmute_topics_in_muted_streams_policy: int(2, FOLLOW_POLICIES, 'notification'),
  // SPEC.md's table stops listing PATCH /settings parameters before these; the reference
  // accepts them there too.
  automatically_follow_topics_where_mentioned: bool(true, 'notification'),
  presence_enabled: bool(true, 'notification'),
  enter_sends: bool(false, null),
  send_private_typing_notifications: bool(true, null),
  send_stream_typing_notifications: bool(true, null),
  send_read_receipts: bool(true, null),
  // Changing it would change what everyone else sees of the user; only new users get it, from
  // the realm's defaults.
  email_address_visibility: int(1, [1, 2, 3, 4, 5], null, false, true),
};

/** SPEC's emojiset names, and the vendor names clients also send. */
export const EMOJISET_ALIASES: Record<string, string> = {
  google: 'vendora',
  'google-blob': 'vendora-blob',
  twitter: 'vendorb',
};

export type Settings = Record<string, SettingValue>;

const DEFAULTS: Readonly<Settings> = Object.freeze(
  Object.fromEntries(Object.entries(SETTINGS).map(([name, spec]) => [name, spec.default])),
);

/** Stored overrides (JSON text) laid over the registry defaults (or `base`); the result is read-only. */
export function resolveSettings(stored: string | null | undefined, base: Readonly<Settings> = DEFAULTS): Readonly<Settings> {
  if (!stored || stored === '{}') return base;
  const overrides = JSON.parse(stored) as Settings;
  return { ...base, ...overrides };
}

export const EMAIL_VISIBILITY = { EVERYONE: 1, MEMBERS: 2, ADMINS: 3, NOBODY: 4, MODERATORS: 5 } as const;

/** Sounds a client may pick for notifications ("none" also turns them off). */
export const NOTIFICATION_SOUNDS: readonly string[] = ['zulip'];

/** The longest wait for batching notification emails: one week. */
export const MAX_EMAIL_BATCHING_SECONDS = 7 * 24 * 3600;

/** A raw request value read as JSON, with the reference's text when it is not. */
export function parseJsonValue(raw: string, name: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    throw new ApiError(`${name} is not valid JSON`);
  }
}

/** The reference's text for a value outside a setting's choices. */
export const notInList = (name: string) => new ApiError(`Invalid ${name}: Value error, Not in the list of possible values`);

/** Whether the name is an IANA time zone identifier (aliases included) the runtime knows. */
export function isTimeZone(name: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(name)) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/**
 * One setting's value from its raw request string: JSON for booleans and integers, plain text
 * for strings; checked against the registry's type and allowed values, with the reference's
 * error texts. Emoji set vendor names come back as SPEC.md's names.
 */
export function parseSetting(name: string, raw: string): SettingValue {
  const spec = SETTINGS[name];
  if (!spec) throw new ApiError(`Unknown setting ${name}`);
  if (spec.type === 'bool') {
    const value = parseJsonValue(raw, name);
    if (typeof value !== 'boolean') throw new ApiError(`${name} is not a boolean`);
    return value;
  }
  if (spec.type === 'int') {
    const value = parseJsonValue(raw, name);
    if (typeof value !== 'number' || !Number.isInteger(value)) throw new ApiError(`${name} is not an integer`);
    if (name === 'email_notifications_batching_period_seconds' && (value <= 0 || value > MAX_EMAIL_BATCHING_SECONDS)) {
      throw new ApiError(`Invalid email batching period: ${value} seconds`);
    }
    if (spec.values && spec.values.length > 0 && !spec.values.includes(value)) throw notInList(name);
    return value;
  }
  switch (name) {
    case 'emojiset': {
      const value = EMOJISET_ALIASES[raw] ?? raw;
      if (!spec.values!.includes(value)) throw notInList(name);
      return value;
    }
    case 'default_language':
      if (!isLanguageCode(raw)) throw new ApiError('Invalid default_language');
      return raw;
    case 'timezone':
      if (!isTimeZone(raw)) throw new ApiError('Invalid timezone: Value error, Not a recognized time zone');
      return raw;
    case 'notification_sound':
      if (raw !== 'none' && !NOTIFICATION_SOUNDS.includes(raw)) throw new ApiError(`Invalid notification sound '${raw}'`);
      return raw;
    default:
      if (spec.values && !spec.values.includes(raw)) throw notInList(name);
      return raw;
  }
}

/** Stored overrides (JSON text) with `changes` applied; values equal to the registry default are dropped. */
export function mergeSettings(stored: string | null | undefined, changes: Readonly<Settings>): string {
  const overrides: Settings = stored ? (JSON.parse(stored) as Settings) : {};
  for (const [name, value] of Object.entries(changes)) {
    if (SETTINGS[name]?.default === value) delete overrides[name];
    else overrides[name] = value;
  }
  return JSON.stringify(overrides);
}
