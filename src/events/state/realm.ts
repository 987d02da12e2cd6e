// The `realm` part of the POST /register state: the organization's settings as realm_<name>,
// and the server's own limits and constants clients read at start-up.
import { MAX_STREAM_DESCRIPTION_LENGTH, MAX_STREAM_NAME_LENGTH } from '../../actions/stream-create.js';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_GUESSES, MIN_PASSWORD_LENGTH } from '../../lib/password-strength.js';
import type { RealmRow } from '../../db/schema.js';
import { EMOJI_DATA_PATH } from '../../lib/emoji.js';
import { MAX_MESSAGE_LENGTH, MAX_TOPIC_LENGTH } from '../../lib/message-content.js';
import { OFFLINE_THRESHOLD_SECONDS, PRESENCE_PING_INTERVAL_SECONDS } from '../../lib/presence.js';
import { renderRealmDescription } from '../../lib/realm-format.js';
import { realmImageState } from '../../lib/realm-images.js';
import { realmSettings } from '../../lib/realm-settings.js';
import {
  DEFAULT_EXTERNAL_ACCOUNTS,
  DEFAULT_JITSI_SERVER_URL,
  SUPPORTED_PERMISSION_SETTINGS,
  VIDEO_CHAT_PROVIDER_TABLE,
} from './catalogs.js';

/** The server's upload limits (0 quota: none). */
export interface UploadLimits {
  maxFileUploadSizeMib: number;
  uploadQuotaMib: number;
}

/** Bounds and timings the server announces (SPEC.md Limits; values from the reference contract). */
const SERVER_CONSTANTS = {
  max_message_length: MAX_MESSAGE_LENGTH,
  max_topic_length: MAX_TOPIC_LENGTH,
  max_stream_name_length: MAX_STREAM_NAME_LENGTH,
  max_stream_description_length: MAX_STREAM_DESCRIPTION_LENGTH,
  server_typing_started_expiry_period_milliseconds: 45000,
  server_typing_stopped_wait_period_milliseconds: 12000,
  server_typing_started_wait_period_milliseconds: 30000,
  event_queue_longpoll_timeout_seconds: 90,
  server_presence_ping_interval_seconds: PRESENCE_PING_INTERVAL_SECONDS,
  server_presence_offline_threshold_seconds: OFFLINE_THRESHOLD_SECONDS,
  max_file_upload_size_mib: 25,
  max_avatar_file_size_mib: 5,
  max_icon_file_size_mib: 5,
  max_logo_file_size_mib: 5,
  password_min_length: MIN_PASSWORD_LENGTH,
  password_max_length: MAX_PASSWORD_LENGTH,
  password_min_guesses: MIN_PASSWORD_GUESSES,
};

/** Settings reported under their own name with the realm_ prefix. */
const PREFIXED_SETTINGS = [
  'allow_message_editing',
  'message_content_edit_limit_seconds',
  'message_content_delete_limit_seconds',
  'move_messages_within_stream_limit_seconds',
  'move_messages_between_streams_limit_seconds',
  'edit_topic_policy',
  'move_messages_between_streams_policy',
  'delete_own_message_policy',
  'wildcard_mention_policy',
  'message_edit_history_visibility_policy',
  'mandatory_topics',
  'waiting_period_threshold',
  'add_custom_emoji_policy',
  'bot_creation_policy',
  'create_public_stream_policy',
  'create_private_stream_policy',
  'create_web_public_stream_policy',
  'invite_to_realm_policy',
  'invite_to_stream_policy',
  'private_message_policy',
  'user_group_edit_policy',
  'default_language',
  'default_code_block_language',
  'digest_emails_enabled',
  'digest_weekday',
  'disallow_disposable_email_addresses',
  'email_changes_disabled',
  'emails_restricted_to_domains',
  'enable_read_receipts',
  'enable_spectator_access',
  'enable_guest_user_indicator',
  'giphy_rating',
  'inline_image_preview',
  'inline_url_embed_preview',
  'invite_required',
  'message_content_allowed_in_email_notifications',
  'message_retention_days',
  'name_changes_disabled',
  'avatar_changes_disabled',
  'presence_disabled',
  'send_welcome_emails',
  'video_chat_provider',
  'want_advertise_in_communities_directory',
  'org_type',
  'plan_type',
] as const;

export function realmState(
  realm: RealmRow,
  options: { serverGeneration: number; development: boolean; webPublicStreamsEnabled?: boolean; uploads?: UploadLimits },
) {
  const settings = realmSettings(realm);
  const state: Record<string, unknown> = {};
  for (const name of PREFIXED_SETTINGS) state[`realm_${name}`] = settings[name];
  const host = hostOf(realm.url);
  Object.assign(state, {
    realm_name: realm.name,
    realm_description: renderRealmDescription(realm.description),
    realm_url: realm.url,
    realm_uri: realm.url,
    realm_date_created: realm.date_created,
    realm_allow_edit_history: settings.message_edit_history_visibility_policy !== 'none',
    ...realmImageState(realm),
    realm_bot_domain: host,
    realm_is_zephyr_mirror_realm: false,
    realm_email_auth_enabled: true,
    realm_password_auth_enabled: true,
    realm_push_notifications_enabled: false,
    realm_push_notifications_enabled_end_timestamp: null,
    realm_upload_quota_mib: null,
    realm_enable_guest_user_dm_warning: true,
    realm_require_unique_names: false,
    realm_jitsi_server_url: null,
    realm_empty_topic_display_name: 'general chat',
    realm_new_stream_announcements_stream_id: -1,
    realm_signup_announcements_stream_id: -1,
    realm_zulip_update_announcements_stream_id: -1,
    realm_authentication_methods: {
      Email: { enabled: true, available: true },
      Dev: { enabled: options.development, available: options.development },
    },
    realm_default_external_accounts: DEFAULT_EXTERNAL_ACCOUNTS,
    realm_available_video_chat_providers: VIDEO_CHAT_PROVIDER_TABLE,
    // The deprecated single URL older clients read: the organization's server, else the server's.
    jitsi_server_url: DEFAULT_JITSI_SERVER_URL,
    server_supported_permission_settings: SUPPORTED_PERMISSION_SETTINGS,
    settings_send_digest_emails: false,
    zulip_plan_is_not_limited: true,
    upgrade_text_for_wide_organization_logo: '',
    development_environment: options.development,
    server_generation: options.serverGeneration,
    server_inline_image_preview: true,
    server_inline_url_embed_preview: false,
    server_avatar_changes_disabled: false,
    server_name_changes_disabled: false,
    server_needs_upgrade: false,
    server_web_public_streams_enabled: options.webPublicStreamsEnabled ?? false,
    server_emoji_data_url: new URL(EMOJI_DATA_PATH, realm.url).href,
    server_jitsi_server_url: DEFAULT_JITSI_SERVER_URL,
    giphy_rating_options: {},
    ...SERVER_CONSTANTS,
    ...(options.uploads ? { max_file_upload_size_mib: options.uploads.maxFileUploadSizeMib, realm_upload_quota_mib: options.uploads.uploadQuotaMib || null } : {}),
  });
  return state;
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return '';
  }
}
