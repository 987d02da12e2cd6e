// Realm settings: defaults of the feature-level-229 era, with the stored overrides laid over them.
// realm.settings holds only the values that differ from these defaults (JSON text).
import type { RealmRow } from '../db/schema.js';

/** The integer permission policies of the era (1 members, 2 admins, 3 full members, 4 moderators, 5 everyone, 6 nobody). */
export const Policy = { MEMBERS: 1, ADMINS: 2, FULL_MEMBERS: 3, MODERATORS: 4, EVERYONE: 5, NOBODY: 6 } as const;

export const REALM_SETTING_DEFAULTS = {
  allow_message_editing: true,
  message_content_edit_limit_seconds: 600 as number | null,
  message_content_delete_limit_seconds: 600 as number | null,
  move_messages_within_stream_limit_seconds: 604800 as number | null,
  move_messages_between_streams_limit_seconds: 604800 as number | null,
  edit_topic_policy: Policy.EVERYONE as number,
  move_messages_between_streams_policy: Policy.MEMBERS as number,
  delete_own_message_policy: Policy.EVERYONE as number,
  wildcard_mention_policy: Policy.EVERYONE as number,
  message_edit_history_visibility_policy: 'all' as 'all' | 'moves' | 'none',
  mandatory_topics: false,
  waiting_period_threshold: 0,
  email_address_visibility: 1,
  // Further realm settings POST /register reports; nothing changes them yet.
  add_custom_emoji_policy: Policy.MEMBERS as number,
  bot_creation_policy: 1,
  create_public_stream_policy: Policy.MEMBERS as number,
  create_private_stream_policy: Policy.MEMBERS as number,
  create_web_public_stream_policy: 7,
  invite_to_realm_policy: Policy.MEMBERS as number,
  invite_to_stream_policy: Policy.MEMBERS as number,
  private_message_policy: 1,
  user_group_edit_policy: Policy.MEMBERS as number,
  default_language: 'en',
  default_code_block_language: '',
  digest_emails_enabled: false,
  digest_weekday: 1,
  disallow_disposable_email_addresses: true,
  email_changes_disabled: false,
  emails_restricted_to_domains: false,
  enable_read_receipts: false,
  enable_spectator_access: false,
  enable_guest_user_indicator: true,
  giphy_rating: 2,
  inline_image_preview: true,
  inline_url_embed_preview: false,
  invite_required: true,
  message_content_allowed_in_email_notifications: true,
  message_retention_days: -1,
  name_changes_disabled: false,
  avatar_changes_disabled: false,
  presence_disabled: false,
  send_welcome_emails: true,
  video_chat_provider: 1,
  want_advertise_in_communities_directory: false,
  org_type: 0,
  plan_type: 1,
};

export type RealmSettings = typeof REALM_SETTING_DEFAULTS;

export function realmSettings(realm: Pick<RealmRow, 'settings'>): RealmSettings {
  if (!realm.settings || realm.settings === '{}') return REALM_SETTING_DEFAULTS;
  return { ...REALM_SETTING_DEFAULTS, ...(JSON.parse(realm.settings) as Partial<RealmSettings>) };
}
