// Realms, users, streams, recipients, subscriptions, messages, reactions, groups, and full-text search.
import type { Kysely } from 'kysely';
import { bigint, dialectOf, sql, withId } from '../migration-helpers.js';

export async function up(db: Kysely<any>): Promise<void> {
  const d = dialectOf(db);

  await withId(db.schema.createTable('realm'), d)
    .addColumn('string_id', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('date_created', bigint, (c) => c.notNull())
    .addColumn('deactivated', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('settings', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('notification_bot_id', 'integer')
    .execute();

  await withId(db.schema.createTable('recipient'), d)
    .addColumn('type', 'integer', (c) => c.notNull())
    .addColumn('type_id', 'integer', (c) => c.notNull())
    .addUniqueConstraint('recipient_type_type_id', ['type', 'type_id'])
    .execute();

  await withId(db.schema.createTable('user_profile'), d)
    .addColumn('realm_id', 'integer', (c) => c.notNull().references('realm.id'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('delivery_email', 'text', (c) => c.notNull())
    .addColumn('full_name', 'text', (c) => c.notNull())
    .addColumn('role', 'integer', (c) => c.notNull())
    .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('is_bot', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('bot_type', 'integer')
    .addColumn('bot_owner_id', 'integer')
    .addColumn('api_key', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text')
    .addColumn('date_joined', bigint, (c) => c.notNull())
    .addColumn('timezone', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('avatar_source', 'text', (c) => c.notNull().defaultTo('G'))
    .addColumn('avatar_version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('settings', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('recipient_id', 'integer')
    .execute();
  await sql`CREATE UNIQUE INDEX user_profile_realm_email ON user_profile (realm_id, lower(email))`.execute(db);
  await sql`CREATE UNIQUE INDEX user_profile_realm_delivery_email ON user_profile (realm_id, lower(delivery_email))`.execute(db);
  await db.schema.createIndex('user_profile_api_key').on('user_profile').column('api_key').execute();

  await withId(db.schema.createTable('stream'), d)
    .addColumn('realm_id', 'integer', (c) => c.notNull().references('realm.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('rendered_description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('invite_only', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_web_public', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('history_public_to_subscribers', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('stream_post_policy', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('message_retention_days', 'integer')
    .addColumn('can_remove_subscribers_group_id', 'integer')
    .addColumn('date_created', bigint, (c) => c.notNull())
    .addColumn('deactivated', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('recipient_id', 'integer')
    .addColumn('first_message_id', 'integer')
    .addColumn('creator_id', 'integer')
    .execute();
  await sql`CREATE UNIQUE INDEX stream_realm_name ON stream (realm_id, lower(name))`.execute(db);

  await db.schema
    .createTable('default_stream')
    .addColumn('realm_id', 'integer', (c) => c.notNull())
    .addColumn('stream_id', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('default_stream_pk', ['realm_id', 'stream_id'])
    .execute();

  await withId(db.schema.createTable('direct_message_group'), d)
    .addColumn('huddle_hash', 'text', (c) => c.notNull().unique())
    .addColumn('group_size', 'integer', (c) => c.notNull())
    .addColumn('recipient_id', 'integer')
    .execute();

  await withId(db.schema.createTable('subscription'), d)
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('recipient_id', 'integer', (c) => c.notNull())
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('is_muted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('pin_to_top', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('color', 'text', (c) => c.notNull().defaultTo('#c2c2c2'))
    .addColumn('desktop_notifications', 'integer')
    .addColumn('audible_notifications', 'integer')
    .addColumn('push_notifications', 'integer')
    .addColumn('email_notifications', 'integer')
    .addColumn('wildcard_mentions_notify', 'integer')
    .addUniqueConstraint('subscription_user_recipient', ['user_id', 'recipient_id'])
    .execute();
  await db.schema.createIndex('subscription_recipient').on('subscription').columns(['recipient_id', 'active']).execute();

  await withId(db.schema.createTable('message'), d)
    .addColumn('realm_id', 'integer', (c) => c.notNull())
    .addColumn('sender_id', 'integer', (c) => c.notNull())
    .addColumn('recipient_id', 'integer', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('rendered_content', 'text', (c) => c.notNull())
    .addColumn('rendered_content_version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('date_sent', bigint, (c) => c.notNull())
    .addColumn('sending_client', 'text', (c) => c.notNull().defaultTo('API'))
    .addColumn('last_edit_time', bigint)
    .addColumn('last_moved_time', bigint)
    .addColumn('edit_history', 'text')
    .addColumn('has_link', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('has_image', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('has_attachment', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_me_message', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`CREATE INDEX message_recipient_topic ON message (recipient_id, lower(subject), id)`.execute(db);
  await db.schema.createIndex('message_recipient_id').on('message').columns(['recipient_id', 'id']).execute();
  await db.schema.createIndex('message_sender_id').on('message').columns(['sender_id', 'id']).execute();
  await db.schema.createIndex('message_realm_id').on('message').columns(['realm_id', 'id']).execute();

  await db.schema
    .createTable('user_message')
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('message_id', 'integer', (c) => c.notNull())
    .addColumn('flags', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('user_message_pk', ['user_id', 'message_id'])
    .execute();
  await db.schema.createIndex('user_message_message_id').on('user_message').column('message_id').execute();
  // Unread lookups touch only the unread rows.
  await sql`CREATE INDEX user_message_unread ON user_message (user_id, message_id) WHERE (flags & 1) = 0`.execute(db);
  // Starred and mentioned lookups, likewise.
  await sql`CREATE INDEX user_message_starred ON user_message (user_id, message_id) WHERE (flags & 2) <> 0`.execute(db);

  await withId(db.schema.createTable('reaction'), d)
    .addColumn('message_id', 'integer', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('emoji_name', 'text', (c) => c.notNull())
    .addColumn('emoji_code', 'text', (c) => c.notNull())
    .addColumn('reaction_type', 'text', (c) => c.notNull())
    .addUniqueConstraint('reaction_unique', ['message_id', 'user_id', 'emoji_code', 'reaction_type'])
    .execute();

  await withId(db.schema.createTable('user_group'), d)
    .addColumn('realm_id', 'integer', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('is_system_group', 'integer', (c) => c.notNull().defaultTo(0))
    .addUniqueConstraint('user_group_realm_name', ['realm_id', 'name'])
    .execute();
  await db.schema
    .createTable('user_group_member')
    .addColumn('group_id', 'integer', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('user_group_member_pk', ['group_id', 'user_id'])
    .execute();

  // Full-text search over topic and content, maintained by the store itself.
  if (d === 'postgres') {
    await sql`ALTER TABLE message ADD COLUMN search_tsv tsvector
      GENERATED ALWAYS AS (to_tsvector('english', subject || ' ' || content)) STORED`.execute(db);
    await sql`CREATE INDEX message_search_tsv ON message USING gin (search_tsv)`.execute(db);
  } else {
    await sql`CREATE VIRTUAL TABLE message_fts USING fts5(subject, content, content='',
      contentless_delete=1, tokenize='porter unicode61 remove_diacritics 2')`.execute(db);
    await sql`CREATE TRIGGER message_fts_insert AFTER INSERT ON message BEGIN
      INSERT INTO message_fts (rowid, subject, content) VALUES (new.id, new.subject, new.content); END`.execute(db);
    await sql`CREATE TRIGGER message_fts_update AFTER UPDATE OF subject, content ON message BEGIN
      DELETE FROM message_fts WHERE rowid = old.id;
      INSERT INTO message_fts (rowid, subject, content) VALUES (new.id, new.subject, new.content); END`.execute(db);
    await sql`CREATE TRIGGER message_fts_delete AFTER DELETE ON message BEGIN
      DELETE FROM message_fts WHERE rowid = old.id; END`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) === 'sqlite') await sql`DROP TABLE IF EXISTS message_fts`.execute(db);
  for (const table of [
    'user_group_member', 'user_group', 'reaction', 'user_message', 'message', 'subscription',
    'direct_message_group', 'default_stream', 'stream', 'user_profile', 'recipient', 'realm',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
