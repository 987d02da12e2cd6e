// Every migration, in order. Listed statically so the compiled build needs no file scanning.
import type { Migration } from 'kysely';
import * as createCore from './2026_11_22_000000_create_core.js';
import * as createUserTopic from './2026_11_22_010000_create_user_topic.js';
import * as indexPrivateMessages from './2026_11_22_010100_index_private_messages.js';
import * as createEventQueueSnapshot from './2026_11_22_020000_create_event_queue_snapshot.js';
import * as createRealmFilter from './2026_11_22_030000_create_realm_filter.js';
import * as createRealmPlayground from './2026_11_22_030100_create_realm_playground.js';
import * as createDraft from './2026_11_22_040000_create_draft.js';
import * as createMutedUser from './2026_11_22_040100_create_muted_user.js';
import * as createAlertWord from './2026_11_22_040200_create_alert_word.js';
import * as createPushDeviceToken from './2026_11_22_050000_create_push_device_token.js';
import * as createEmailChangeAndUserDefaults from './2026_11_22_060000_create_email_change_and_user_defaults.js';
import * as coverUnreadIndex from './2026_11_22_070000_cover_unread_index.js';
import * as indexMessageSummary from './2026_11_22_070100_index_message_summary.js';
import * as createRealmVersion from './2026_11_23_000000_create_realm_version.js';
import * as hidePrivateAddresses from './2026_11_25_000000_hide_private_addresses.js';
import * as createUserPresence from './2026_11_25_010000_create_user_presence.js';
import * as createUserStatus from './2026_11_26_000000_create_user_status.js';
import * as createAttachment from './2026_11_26_020000_create_attachment.js';
import * as createCustomProfileField from './2026_11_26_010000_create_custom_profile_field.js';
import * as createScheduledMessage from './2026_11_26_100000_create_scheduled_message.js';
import * as createUserSession from './2026_11_26_110000_create_user_session.js';
import * as addUserGroupSettings from './2026_11_26_120000_add_user_group_settings.js';
import * as createRealmEmoji from './2026_11_26_130000_create_realm_emoji.js';
import * as createImageAttachment from './2026_11_26_150000_create_image_attachment.js';
import * as createMultiuseInvite from './2026_11_27_100000_create_multiuse_invite.js';
import * as createIdempotencyKey from './2026_12_07_000000_create_idempotency_key.js';
import * as createPasswordResetToken from './2026_12_07_100000_create_password_reset_token.js';
import * as createBotTables from './2026_12_07_110000_create_bot_tables.js';
import * as createRealmDomain from './2026_12_07_120000_create_realm_domain.js';
import * as createSubmessage from './2026_12_07_130000_create_submessage.js';

export const migrations: Record<string, Migration> = {
  '2026_11_22_000000_create_core': createCore,
  '2026_11_22_010000_create_user_topic': createUserTopic,
  '2026_11_22_010100_index_private_messages': indexPrivateMessages,
  '2026_11_22_020000_create_event_queue_snapshot': createEventQueueSnapshot,
  '2026_11_22_030000_create_realm_filter': createRealmFilter,
  '2026_11_22_030100_create_realm_playground': createRealmPlayground,
  '2026_11_22_040000_create_draft': createDraft,
  '2026_11_22_040100_create_muted_user': createMutedUser,
  '2026_11_22_040200_create_alert_word': createAlertWord,
  '2026_11_22_050000_create_push_device_token': createPushDeviceToken,
  '2026_11_22_060000_create_email_change_and_user_defaults': createEmailChangeAndUserDefaults,
  '2026_11_22_070000_cover_unread_index': coverUnreadIndex,
  '2026_11_22_070100_index_message_summary': indexMessageSummary,
  '2026_11_23_000000_create_realm_version': createRealmVersion,
  '2026_11_25_000000_hide_private_addresses': hidePrivateAddresses,
  '2026_11_25_010000_create_user_presence': createUserPresence,
  '2026_11_26_000000_create_user_status': createUserStatus,
  '2026_11_26_020000_create_attachment': createAttachment,
  '2026_11_26_010000_create_custom_profile_field': createCustomProfileField,
  '2026_11_26_100000_create_scheduled_message': createScheduledMessage,
  '2026_11_26_110000_create_user_session': createUserSession,
  '2026_11_26_120000_add_user_group_settings': addUserGroupSettings,
  '2026_11_26_130000_create_realm_emoji': createRealmEmoji,
  '2026_11_26_150000_create_image_attachment': createImageAttachment,
  '2026_11_27_100000_create_multiuse_invite': createMultiuseInvite,
  '2026_12_07_000000_create_idempotency_key': createIdempotencyKey,
  '2026_12_07_100000_create_password_reset_token': createPasswordResetToken,
  '2026_12_07_110000_create_bot_tables': createBotTables,
  '2026_12_07_120000_create_realm_domain': createRealmDomain,
  '2026_12_07_130000_create_submessage': createSubmessage,
};
