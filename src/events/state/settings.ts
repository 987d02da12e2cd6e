// Personal settings in the POST /register state: the user_settings object, the legacy
// top-level form of clients without user_settings_object, and the realm's defaults.
import type { UserRow } from '../../db/schema.js';
import { NOTIFICATION_SOUNDS, resolveSettings, SETTINGS } from '../../lib/settings-registry.js';

const EMOJISET_CHOICES = [
  { key: 'vendora', text: 'Vendor A style' },
  { key: 'vendora-blob', text: 'Vendor A blob style' },
  { key: 'vendorb', text: 'Vendor B style' },
  { key: 'text', text: 'Plain text' },
];

/** The user's settings as the user_settings object: every registry setting the user holds. */
export function userSettingsState(user: Pick<UserRow, 'settings' | 'timezone'>): Record<string, unknown> {
  const resolved = resolveSettings(user.settings);
  return {
    ...resolved,
    // The time zone has its own column.
    timezone: user.timezone,
    emojiset_choices: EMOJISET_CHOICES,
    available_notification_sounds: NOTIFICATION_SOUNDS,
  };
}

/**
 * Settings that existed when the legacy events were retired (feature level 89): only these
 * appear in the top-level form; later settings are reachable through user_settings alone.
 */
export const LEGACY_TOP_LEVEL: ReadonlySet<string> = new Set([
  'twenty_four_hour_time', 'dense_mode', 'starred_message_counts', 'fluid_layout_width', 'high_contrast_mode',
  'color_scheme', 'enable_drafts_synchronization', 'translate_emoticons', 'default_language', 'web_home_view',
  'left_side_userlist', 'emojiset', 'demote_inactive_streams', 'timezone', 'enable_stream_desktop_notifications',
  'enable_stream_email_notifications', 'enable_stream_push_notifications', 'enable_stream_audible_notifications',
  'notification_sound', 'enable_desktop_notifications', 'enable_sounds', 'email_notifications_batching_period_seconds',
  'enable_offline_email_notifications', 'enable_offline_push_notifications', 'enable_online_push_notifications',
  'enable_digest_emails', 'enable_marketing_emails', 'enable_login_emails', 'message_content_in_email_notifications',
  'pm_content_in_desktop_notifications', 'wildcard_mentions_notify', 'desktop_icon_count_display',
  'realm_name_in_email_notifications_policy', 'presence_enabled',
]);

/** The legacy top-level settings for clients that asked for update_display_settings / update_global_notifications. */
export function legacySettingsState(user: Pick<UserRow, 'settings' | 'timezone'>, wantDisplay: boolean, wantNotifications: boolean) {
  const all = userSettingsState(user);
  const state: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(SETTINGS)) {
    if (!LEGACY_TOP_LEVEL.has(name)) continue;
    if ((spec.legacy === 'display' && wantDisplay) || (spec.legacy === 'notification' && wantNotifications)) state[name] = all[name];
  }
  if (wantDisplay) {
    state.emojiset_choices = EMOJISET_CHOICES;
    // Not a display setting, but the reference reports it with them.
    state.enter_sends = all.enter_sends;
  }
  if (wantNotifications) state.available_notification_sounds = NOTIFICATION_SOUNDS;
  return state;
}

/** realm_user_settings_defaults: what new users start with (the registry's realm-default settings, with the realm's stored overrides). */
export function realmUserSettingsDefaultsState(stored: string | null = null): Record<string, unknown> {
  const state: Record<string, unknown> = {};
  const resolved = resolveSettings(stored);
  for (const [name, spec] of Object.entries(SETTINGS)) if (spec.realmDefault) state[name] = resolved[name];
  state.emojiset_choices = EMOJISET_CHOICES;
  state.available_notification_sounds = NOTIFICATION_SOUNDS;
  return state;
}
