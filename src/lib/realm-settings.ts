// Realm settings: defaults of the feature-level-229 era, with the stored overrides laid over them.
// realm.settings holds only the values that differ from these defaults (JSON text).
import type { RealmRow } from '../types/rows.js';

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

/** Whether spectators may read the realm's web-public streams: the server and the realm both allow it. */
export function webPublicAccessEnabled(config: { webPublicStreamsEnabled: boolean }, settings: RealmSettings): boolean {
  return config.webPublicStreamsEnabled && settings.enable_spectator_access;
}

/** How PATCH /realm reads one setting. */
export type RealmSettingRule =
  | { kind: 'bool' }
  | { kind: 'int'; values?: readonly number[]; min?: number; invalidText?: (value: number) => string }
  /** Positive seconds, or "unlimited" (stored as null). */
  | { kind: 'time_limit' }
  /** Positive days, or "unlimited" / "forever" (stored as -1). */
  | { kind: 'retention' }
  | { kind: 'string'; values?: readonly string[]; maxLength?: number };

export interface RealmPatchSpec {
  rule: RealmSettingRule;
  /** Only organization owners may change it. */
  ownerOnly?: boolean;
  /** The realm event form clients expect for it (the message-editing trio keeps its historical update_dict). */
  event: 'update' | 'update_dict';
}

const COMMON_POLICIES = [1, 2, 3, 4] as const;
const bool = (extra: Partial<RealmPatchSpec> = {}): RealmPatchSpec => ({ rule: { kind: 'bool' }, event: 'update', ...extra });
const int = (values: readonly number[] | undefined, extra: Partial<RealmPatchSpec> = {}): RealmPatchSpec => ({
  rule: { kind: 'int', ...(values ? { values } : {}) },
  event: 'update',
  ...extra,
});
const timeLimit = (event: RealmPatchSpec['event'] = 'update'): RealmPatchSpec => ({ rule: { kind: 'time_limit' }, event });

/** Organization types a realm may declare (the reference's ORG_TYPES ids). */
export const ORG_TYPES = [0, 10, 20, 30, 35, 40, 50, 60, 70, 80, 90, 100, 1000] as const;
export const VIDEO_CHAT_PROVIDERS = [0, 1, 3, 4] as const;
export const GIPHY_RATINGS = [0, 1, 2, 3, 4, 5] as const;

/**
 * The realm_settings PATCH /realm changes (besides name and description, which are realm columns),
 * with the integer policies of SPEC.md's era and their allowed values.
 */
export const REALM_PATCH_SPECS: Readonly<Record<string, RealmPatchSpec>> = {
  allow_message_editing: bool({ event: 'update_dict' }),
  message_content_edit_limit_seconds: timeLimit('update_dict'),
  edit_topic_policy: int([1, 2, 3, 4, 5, 6], { event: 'update_dict' }),
  message_content_delete_limit_seconds: timeLimit(),
  move_messages_within_stream_limit_seconds: timeLimit(),
  move_messages_between_streams_limit_seconds: timeLimit(),
  move_messages_between_streams_policy: int([1, 2, 3, 4, 6]),
  delete_own_message_policy: int([1, 2, 3, 4, 5]),
  wildcard_mention_policy: int([1, 2, 3, 5, 6, 7]),
  message_edit_history_visibility_policy: { rule: { kind: 'string', values: ['all', 'moves', 'none'] }, event: 'update' },
  mandatory_topics: bool(),
  waiting_period_threshold: { rule: { kind: 'int', min: 0 }, event: 'update', ownerOnly: true },
  add_custom_emoji_policy: int(COMMON_POLICIES),
  bot_creation_policy: int([1, 2, 3]),
  create_public_stream_policy: int(COMMON_POLICIES),
  create_private_stream_policy: int(COMMON_POLICIES),
  create_web_public_stream_policy: int([2, 4, 6, 7]),
  invite_to_realm_policy: int([1, 2, 3, 4, 6], { ownerOnly: true }),
  invite_to_stream_policy: int(COMMON_POLICIES),
  private_message_policy: int([1, 2]),
  user_group_edit_policy: int(COMMON_POLICIES),
  default_language: { rule: { kind: 'string' }, event: 'update' },
  default_code_block_language: { rule: { kind: 'string', maxLength: 100 }, event: 'update' },
  digest_emails_enabled: bool(),
  digest_weekday: int([0, 1, 2, 3, 4, 5, 6]),
  disallow_disposable_email_addresses: bool({ ownerOnly: true }),
  email_changes_disabled: bool(),
  emails_restricted_to_domains: bool({ ownerOnly: true }),
  enable_read_receipts: bool(),
  enable_spectator_access: bool(),
  enable_guest_user_indicator: bool(),
  giphy_rating: { rule: { kind: 'int', values: GIPHY_RATINGS, invalidText: (v) => `Invalid giphy_rating ${v}` }, event: 'update' },
  inline_image_preview: bool(),
  inline_url_embed_preview: bool(),
  invite_required: bool({ ownerOnly: true }),
  message_content_allowed_in_email_notifications: bool(),
  message_retention_days: { rule: { kind: 'retention' }, event: 'update', ownerOnly: true },
  name_changes_disabled: bool(),
  avatar_changes_disabled: bool(),
  presence_disabled: bool(),
  send_welcome_emails: bool(),
  video_chat_provider: {
    rule: { kind: 'int', values: VIDEO_CHAT_PROVIDERS, invalidText: (v) => `Invalid video_chat_provider ${v}` },
    event: 'update',
  },
  want_advertise_in_communities_directory: bool(),
  org_type: int(ORG_TYPES),
};

export const MAX_REALM_NAME_LENGTH = 40;
export const MAX_REALM_DESCRIPTION_LENGTH = 1000;
