// The one list of personal settings: type, allowed values, default, and whether
// PATCH /settings (personal) and PATCH /realm/user_settings_defaults (realmDefault) accept it.
// Validation, /register state, events and realm defaults all derive from it.

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
  // Accepted only as realm defaults by PATCH /realm/user_settings_defaults in this API era;
  // users still hold a value of their own.
  automatically_follow_topics_where_mentioned: bool(true, 'notification', false, true),
  presence_enabled: bool(true, 'notification', false, true),
  enter_sends: bool(false, null, false, true),
  send_private_typing_notifications: bool(true, null, false, true),
  send_stream_typing_notifications: bool(true, null, false, true),
  send_read_receipts: bool(true, null, false, true),
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

export function defaultSettings(): Settings {
  return { ...DEFAULTS };
}

/** Stored overrides (JSON text) laid over the registry defaults (or `base`); the result is read-only. */
export function resolveSettings(stored: string | null | undefined, base: Readonly<Settings> = DEFAULTS): Readonly<Settings> {
  if (!stored || stored === '{}') return base;
  const overrides = JSON.parse(stored) as Settings;
  return { ...base, ...overrides };
}

export const EMAIL_VISIBILITY = { EVERYONE: 1, MEMBERS: 2, ADMINS: 3, NOBODY: 4, MODERATORS: 5 } as const;
