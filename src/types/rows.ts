// The rows both stores hold, one interface per table, and the row types built from them. They sit
// beneath every layer: the rules in lib/ take these rows without depending on the store, and
// db/schema.ts maps table names to them for the query builder. Booleans are stored as 0/1 integers
// on both dialects, timestamps as integer UNIX seconds, settings as JSON text.
import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

export interface RealmTable {
  id: Generated<number>;
  string_id: string;
  name: string;
  description: string;
  url: string;
  date_created: number;
  deactivated: number;
  /** JSON object of realm settings that differ from lib/realm-settings defaults. */
  settings: string;
  notification_bot_id: number | null;
  /** The organization's icon and logos: 'G'/'D' default, 'U' uploaded; versions bump per upload. */
  icon_source: Generated<string>;
  icon_version: Generated<number>;
  logo_source: Generated<string>;
  logo_version: Generated<number>;
  night_logo_source: Generated<string>;
  night_logo_version: Generated<number>;
}

export interface UserProfileTable {
  id: Generated<number>;
  realm_id: number;
  email: string;
  delivery_email: string;
  full_name: string;
  role: number;
  is_active: number;
  is_bot: number;
  bot_type: number | null;
  bot_owner_id: number | null;
  api_key: string;
  password_hash: string | null;
  date_joined: number;
  timezone: string;
  avatar_source: string;
  avatar_version: number;
  /** JSON object of personal settings that differ from the realm defaults at join time. */
  settings: string;
  recipient_id: number | null;
  /** Bots only: the stream the bot's messages go to when they name none. */
  default_sending_stream_id: number | null;
  /** Bots only: the stream the bot's event queues follow by default. */
  default_events_register_stream_id: number | null;
  /** Bots only: whether the bot's event queues follow every public stream. */
  default_all_public_streams: Generated<number>;
}

export interface RecipientTable {
  id: Generated<number>;
  /** 1 personal, 2 stream, 3 direct-message group. */
  type: number;
  type_id: number;
}

export interface StreamTable {
  id: Generated<number>;
  realm_id: number;
  name: string;
  description: string;
  rendered_description: string;
  invite_only: number;
  is_web_public: number;
  history_public_to_subscribers: number;
  stream_post_policy: number;
  message_retention_days: number | null;
  can_remove_subscribers_group_id: number | null;
  date_created: number;
  deactivated: number;
  recipient_id: number | null;
  first_message_id: number | null;
  creator_id: number | null;
}

export interface DefaultStreamTable {
  realm_id: number;
  stream_id: number;
}

export interface DirectMessageGroupTable {
  id: Generated<number>;
  /** Sorted, comma-joined member ids: the group's identity. */
  huddle_hash: string;
  group_size: number;
  recipient_id: number | null;
}

export interface SubscriptionTable {
  id: Generated<number>;
  user_id: number;
  recipient_id: number;
  active: Generated<number>;
  is_muted: Generated<number>;
  pin_to_top: Generated<number>;
  color: string;
  desktop_notifications: number | null;
  audible_notifications: number | null;
  push_notifications: number | null;
  email_notifications: number | null;
  wildcard_mentions_notify: number | null;
}

export interface MessageTable {
  id: Generated<number>;
  realm_id: number;
  sender_id: number;
  recipient_id: number;
  subject: string;
  content: string;
  rendered_content: string;
  rendered_content_version: number;
  date_sent: number;
  sending_client: string;
  last_edit_time: number | null;
  last_moved_time: number | null;
  /** JSON array, newest first. */
  edit_history: string | null;
  has_link: number;
  has_image: number;
  has_attachment: number;
  is_me_message: number;
}

export interface UserMessageTable {
  user_id: number;
  message_id: number;
  flags: Generated<number>;
}

export interface ReactionTable {
  id: Generated<number>;
  message_id: number;
  user_id: number;
  emoji_name: string;
  emoji_code: string;
  reaction_type: string;
}

export interface UserGroupTable {
  id: Generated<number>;
  realm_id: number;
  name: string;
  description: string;
  is_system_group: number;
  /** The group whose members may mention this one (null only before the realm's groups all exist). */
  can_mention_group_id: number | null;
}

export interface UserGroupMemberTable {
  group_id: number;
  user_id: number;
}

/** A group directly inside another: its members count as the supergroup's members too. */
export interface UserGroupSubgroupTable {
  supergroup_id: number;
  subgroup_id: number;
}

export interface UserTopicTable {
  id: Generated<number>;
  user_id: number;
  stream_id: number;
  recipient_id: number;
  topic_name: string;
  last_updated: number;
  /** 1 muted, 2 unmuted, 3 followed (no row: inherit). */
  visibility_policy: number;
}

/** An event queue saved at shutdown and loaded (then deleted) at the next start. */
export interface EventQueueSnapshotTable {
  queue_id: string;
  user_id: number;
  /** The whole queue (spec, pending events, counters) as JSON. */
  data: string;
}

/** A linkifier; a realm's linkifiers apply in ascending `order`. */
export interface RealmFilterTable {
  id: Generated<number>;
  realm_id: number;
  pattern: string;
  url_template: string;
  order: number;
}

export interface RealmPlaygroundTable {
  id: Generated<number>;
  realm_id: number;
  name: string;
  highlighter_language: string;
  url_template: string;
}

/** An email domain admitted for sign-up; allow_subdomains is 0 or 1. */
export interface RealmDomainTable {
  id: Generated<number>;
  realm_id: number;
  domain: string;
  allow_subdomains: number;
}

/** A draft kept on the server; recipient_id null for a draft not yet addressed. */
export interface DraftTable {
  id: Generated<number>;
  user_id: number;
  recipient_id: number | null;
  topic: string;
  content: string;
  last_edit_time: number;
}

export interface ScheduledMessageTable {
  id: Generated<number>;
  realm_id: number;
  sender_id: number;
  recipient_id: number;
  subject: string;
  content: string;
  rendered_content: string;
  sending_client: string;
  /** UNIX seconds. */
  scheduled_timestamp: number;
  read_by_sender: number;
  delivered: number;
  delivered_message_id: number | null;
  failed: number;
  failure_message: string | null;
}
export type ScheduledMessageRow = Selectable<ScheduledMessageTable>;

export interface UserSessionTable {
  id: Generated<number>;
  /** SHA-256 of the cookie's token, hex. */
  token_hash: string;
  user_id: number;
  realm_id: number;
  csrf_token: string;
  /** Derived from the password and API key when the session began: a change to either ends it. */
  auth_stamp: string;
  /** UNIX seconds. */
  expires: number;
}
export type UserSessionRow = Selectable<UserSessionTable>;

export interface PasswordResetTokenTable {
  id: Generated<number>;
  /** SHA-256 of the link's token, hex. */
  token_hash: string;
  user_id: number;
  realm_id: number;
  /** UNIX seconds. */
  expires: number;
}
export type PasswordResetTokenRow = Selectable<PasswordResetTokenTable>;

export interface MutedUserTable {
  id: Generated<number>;
  user_id: number;
  muted_user_id: number;
  date_muted: number;
}

/** A user's status text and emoji (absent until they first set one). */
export interface UserStatusTable {
  id: Generated<number>;
  user_id: number;
  status_text: string;
  emoji_name: string;
  emoji_code: string;
  reaction_type: string;
  timestamp: number;
}

/** A custom profile field; a realm's fields show in ascending `order`. */
export interface CustomProfileFieldTable {
  id: Generated<number>;
  realm_id: number;
  name: string;
  hint: string;
  /** 1 short text ... 8 pronouns (lib/profile-fields). */
  field_type: number;
  /** JSON text: choices of a list field, subtype of an external account; '' for other types. */
  field_data: string;
  order: number;
  display_in_profile_summary: number;
}

/** One user's value for one custom profile field (user ids are stored as JSON list text). */
export interface CustomProfileFieldValueTable {
  id: Generated<number>;
  user_id: number;
  field_id: number;
  value: string;
  rendered_value: string | null;
}

/** An uploaded file; its bytes are in file storage under path_id. create_time is in milliseconds. */
export interface AttachmentTable {
  id: Generated<number>;
  realm_id: number;
  owner_id: number;
  file_name: string;
  path_id: string;
  content_type: string;
  size: number;
  create_time: number;
  secret: string;
}

export interface AttachmentMessageTable {
  attachment_id: number;
  message_id: number;
}

/** An answered send's key, so a retry within the window gets the same answer (see actions/idempotency.ts). */
export interface IdempotencyKeyTable {
  id: Generated<number>;
  user_id: number;
  /** SHA-256 (hex) of the client's key. */
  key_hash: string;
  /** SHA-256 (hex) of the route and parameters the key was first used with. */
  request_hash: string;
  /** The JSON answered then. */
  response: string;
  /** UNIX seconds; after this the key is forgotten (and swept). */
  expires: number;
}

/** The webhook an outgoing-webhook bot calls. */
export interface BotServiceTable {
  id: Generated<number>;
  bot_id: number;
  name: string;
  base_url: string;
  /** 1 generic, 2 Slack-compatible. */
  interface: number;
  token: string;
}

/** One key of a bot's state, as the bots framework stores it (GET/PUT/DELETE /bot_storage). */
export interface BotStorageDataTable {
  id: Generated<number>;
  bot_id: number;
  key: string;
  value: string;
}

/** Data a message's readers attach to it, such as a widget's definition or a vote in a poll. */
export interface SubmessageTable {
  id: Generated<number>;
  message_id: number;
  sender_id: number;
  msg_type: string;
  /** JSON text, kept as sent. */
  content: string;
}

/** An upload Confab can preview: its pixel size (one frame) and frame count. */
export interface ImageAttachmentTable {
  attachment_id: number;
  width: number;
  height: number;
  frames: number;
}

export interface UserPresenceTable {
  user_id: number;
  realm_id: number;
  last_active_time: number | null;
  last_connected_time: number;
}

export interface AlertWordTable {
  id: Generated<number>;
  realm_id: number;
  user_id: number;
  word: string;
}

/** A mobile device registered for push notifications. */
export interface PushDeviceTokenTable {
  id: Generated<number>;
  user_id: number;
  /** 1 APNs (iOS), 2 FCM (Android). */
  kind: number;
  token: string;
  ios_app_id: string | null;
  last_updated: number;
}

/** A requested change of a user's email address, waiting for its confirmation link to be followed. */
export interface EmailChangeRequestTable {
  id: Generated<number>;
  realm_id: number;
  user_id: number;
  old_email: string;
  new_email: string;
  confirmation_key: string;
  date_sent: number;
  /** 0 pending, 1 confirmed, 2 replaced by a newer request. */
  status: Generated<number>;
}

/** A reusable invitation link: anyone who follows it in time may create an account. */
export interface MultiuseInviteTable {
  id: Generated<number>;
  realm_id: number;
  referred_by_id: number;
  /** The role the new accounts get. */
  invited_as: number;
  confirmation_key: string;
  /** UNIX seconds. */
  date_sent: number;
  /** UNIX seconds; null never expires. */
  expiry_date: number | null;
  /** 0 usable, 1 revoked. */
  status: Generated<number>;
}
export type MultiuseInviteRow = Selectable<MultiuseInviteTable>;

/** The streams an invitation link's new accounts join (none listed: the default streams). */
export interface MultiuseInviteStreamTable {
  invite_id: number;
  stream_id: number;
}

/** The personal settings a realm's new users start with (JSON over the registry defaults). */
export interface RealmUserDefaultTable {
  realm_id: number;
  settings: string;
}

/**
 * Moved on by the store's own triggers at every change to an organization's rows of one table;
 * the realm table's counter, for the list of organizations, is kept under realm_id 0.
 */
export interface RealmVersionTable {
  realm_id: number;
  /** The table counted: user_profile, stream or realm. */
  kind: string;
  version: number;
}

/** A custom emoji; its image is in file storage (see lib/emoji-image.ts). Deleting deactivates. */
export interface RealmEmojiTable {
  id: Generated<number>;
  realm_id: number;
  author_id: number | null;
  name: string;
  file_name: string;
  /** The first frame of an animated emoji; null for still images. */
  still_file_name: string | null;
  deactivated: number;
  date_created: number;
}

export type RealmRow = Selectable<RealmTable>;
export type UserRow = Selectable<UserProfileTable>;
export type BotServiceRow = Selectable<BotServiceTable>;
export type StreamRow = Selectable<StreamTable>;
export type AttachmentRow = Selectable<AttachmentTable>;
export type ImageAttachmentRow = Selectable<ImageAttachmentTable>;
export type RecipientRow = Selectable<RecipientTable>;
export type SubscriptionRow = Selectable<SubscriptionTable>;
export type MessageRow = Selectable<MessageTable>;
export type UserMessageRow = Selectable<UserMessageTable>;
export type ReactionRow = Selectable<ReactionTable>;
export type SubmessageRow = Selectable<SubmessageTable>;
export type UserGroupRow = Selectable<UserGroupTable>;
export type UserTopicRow = Selectable<UserTopicTable>;
export type UserPresenceRow = Selectable<UserPresenceTable>;
export type CustomProfileFieldRow = Selectable<CustomProfileFieldTable>;
export type RealmEmojiRow = Selectable<RealmEmojiTable>;
export type NewMessage = Insertable<MessageTable>;
export type NewUser = Insertable<UserProfileTable>;
export type UserUpdate = Updateable<UserProfileTable>;
export type StreamUpdate = Updateable<StreamTable>;

export const RecipientType = { PERSONAL: 1, STREAM: 2, DIRECT_MESSAGE_GROUP: 3 } as const;
