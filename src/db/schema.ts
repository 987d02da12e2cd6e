// The typed picture of both stores for the query builder: which table holds which rows. The row
// shapes themselves are in types/rows.ts, beneath lib/; this module re-exports them.
import type { Kysely, Transaction } from 'kysely';
import type {
  AlertWordTable,
  AttachmentMessageTable,
  AttachmentTable,
  BotServiceTable,
  BotStorageDataTable,
  CustomProfileFieldTable,
  CustomProfileFieldValueTable,
  DefaultStreamTable,
  DirectMessageGroupTable,
  DraftTable,
  EmailChangeRequestTable,
  EventQueueSnapshotTable,
  IdempotencyKeyTable,
  ImageAttachmentTable,
  MessageTable,
  MultiuseInviteStreamTable,
  MultiuseInviteTable,
  MutedUserTable,
  PushDeviceTokenTable,
  ReactionTable,
  SubmessageTable,
  RealmEmojiTable,
  RealmFilterTable,
  RealmDomainTable,
  RealmPlaygroundTable,
  RealmTable,
  RealmUserDefaultTable,
  RealmVersionTable,
  RecipientTable,
  ScheduledMessageTable,
  StreamTable,
  SubscriptionTable,
  UserGroupMemberTable,
  UserGroupSubgroupTable,
  UserGroupTable,
  UserMessageTable,
  UserPresenceTable,
  UserProfileTable,
  UserSessionTable,
  UserStatusTable,
  PasswordResetTokenTable,
  UserTopicTable,
} from '../types/rows.js';

export * from '../types/rows.js';

export interface Database {
  realm: RealmTable;
  user_profile: UserProfileTable;
  recipient: RecipientTable;
  stream: StreamTable;
  default_stream: DefaultStreamTable;
  direct_message_group: DirectMessageGroupTable;
  subscription: SubscriptionTable;
  message: MessageTable;
  user_message: UserMessageTable;
  reaction: ReactionTable;
  user_group: UserGroupTable;
  user_group_member: UserGroupMemberTable;
  user_group_subgroup: UserGroupSubgroupTable;
  user_topic: UserTopicTable;
  event_queue_snapshot: EventQueueSnapshotTable;
  realm_filter: RealmFilterTable;
  realm_playground: RealmPlaygroundTable;
  realm_domain: RealmDomainTable;
  draft: DraftTable;
  scheduled_message: ScheduledMessageTable;
  user_session: UserSessionTable;
  password_reset_token: PasswordResetTokenTable;
  muted_user: MutedUserTable;
  alert_word: AlertWordTable;
  user_status: UserStatusTable;
  attachment: AttachmentTable;
  attachment_message: AttachmentMessageTable;
  push_device_token: PushDeviceTokenTable;
  email_change_request: EmailChangeRequestTable;
  realm_user_default: RealmUserDefaultTable;
  realm_version: RealmVersionTable;
  user_presence: UserPresenceTable;
  custom_profile_field: CustomProfileFieldTable;
  custom_profile_field_value: CustomProfileFieldValueTable;
  realm_emoji: RealmEmojiTable;
  image_attachment: ImageAttachmentTable;
  multiuse_invite: MultiuseInviteTable;
  multiuse_invite_stream: MultiuseInviteStreamTable;
  idempotency_key: IdempotencyKeyTable;
  bot_service: BotServiceTable;
  bot_storage_data: BotStorageDataTable;
  submessage: SubmessageTable;
}

export type Db = Kysely<Database>;
export type Tx = Transaction<Database>;
/** Anything queries can run on: the database or an open transaction. */
export type DbOrTx = Kysely<Database>;
