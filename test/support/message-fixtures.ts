// Messages written straight into the store, with exactly the flags and attributes a test
// wants, and the facts the in-memory narrow predicate reads about each of them.
import type { DevUserName } from '../../src/dev-seed.js';
import type { Db, UserRow } from '../../src/db/schema.js';
import { RecipientType } from '../../src/db/schema.js';
import { renderMarkdown } from '../../src/lib/markdown/index.js';
import { FLAG_BITS } from '../../src/lib/message-flags.js';
import type { MessageFacts } from '../../src/lib/narrow/types.js';
import { huddleHashOf } from '../../src/queries/recipients.js';
import type { TestContext } from './context.js';

type StreamName = keyof TestContext['seed']['streams'];

export interface FixtureOptions {
  /** Extra flag bits per user (the sender's copy is read already). */
  flags?: Partial<Record<DevUserName, number>>;
  /** Users who get no user_message row although they would receive the message. */
  without?: DevUserName[];
  hasLink?: boolean;
  hasImage?: boolean;
  hasAttachment?: boolean;
  /** Users who react to the message. */
  reactions?: DevUserName[];
}

export interface FixtureMessage {
  id: number;
  senderId: number;
  recipientId: number;
  recipientType: number;
  topic: string;
  content: string;
  /** Flags per receiving user id. */
  flags: Map<number, number>;
  hasLink: boolean;
  hasImage: boolean;
  hasAttachment: boolean;
  hasReaction: boolean;
}

export class MessageFixtures {
  readonly messages: FixtureMessage[] = [];
  private readonly db: Db;

  constructor(private readonly ctx: TestContext) {
    this.db = ctx.services.db;
  }

  private user(name: DevUserName): UserRow {
    return this.ctx.seed.users[name];
  }

  async toStream(sender: DevUserName, stream: StreamName, topic: string, content: string, options: FixtureOptions = {}) {
    const row = this.ctx.seed.streams[stream];
    const subscribers = await this.db
      .selectFrom('subscription')
      .select('user_id')
      .where('recipient_id', '=', row.recipient_id!)
      .where('active', '=', 1)
      .execute();
    const receivers = new Set([...subscribers.map((s) => s.user_id), this.user(sender).id]);
    return this.insert(sender, row.recipient_id!, RecipientType.STREAM, topic, content, receivers, options);
  }

  /** A direct message: one-on-one (or to oneself) with one recipient, a group with more. */
  async direct(sender: DevUserName, to: DevUserName[], content: string, options: FixtureOptions = {}) {
    const senderRow = this.user(sender);
    const people = new Set([senderRow.id, ...to.map((name) => this.user(name).id)]);
    if (people.size <= 2) {
      const other = to.map((name) => this.user(name)).find((u) => u.id !== senderRow.id) ?? senderRow;
      return this.insert(sender, other.recipient_id!, RecipientType.PERSONAL, '', content, people, options);
    }
    return this.insert(sender, await this.groupRecipient(people), RecipientType.DIRECT_MESSAGE_GROUP, '', content, people, options);
  }

  private async groupRecipient(people: Set<number>): Promise<number> {
    const hash = huddleHashOf(people);
    const existing = await this.db.selectFrom('direct_message_group').select('recipient_id').where('huddle_hash', '=', hash).executeTakeFirst();
    if (existing?.recipient_id) return existing.recipient_id;
    const group = await this.db
      .insertInto('direct_message_group')
      .values({ huddle_hash: hash, group_size: people.size, recipient_id: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    const recipient = await this.db
      .insertInto('recipient')
      .values({ type: RecipientType.DIRECT_MESSAGE_GROUP, type_id: group.id })
      .returning('id')
      .executeTakeFirstOrThrow();
    await this.db.updateTable('direct_message_group').set({ recipient_id: recipient.id }).where('id', '=', group.id).execute();
    return recipient.id;
  }

  private async insert(
    sender: DevUserName,
    recipientId: number,
    recipientType: number,
    topic: string,
    content: string,
    receivers: Set<number>,
    options: FixtureOptions,
  ): Promise<number> {
    const senderId = this.user(sender).id;
    const { id } = await this.db
      .insertInto('message')
      .values({
        realm_id: this.ctx.seed.realm.id,
        sender_id: senderId,
        recipient_id: recipientId,
        subject: topic,
        content,
        rendered_content: renderMarkdown(content).html,
        rendered_content_version: 1,
        date_sent: Math.floor(this.ctx.clock.now()),
        sending_client: 'test',
        last_edit_time: null,
        last_moved_time: null,
        edit_history: null,
        has_link: options.hasLink ? 1 : 0,
        has_image: options.hasImage ? 1 : 0,
        has_attachment: options.hasAttachment ? 1 : 0,
        is_me_message: 0,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const skipped = new Set((options.without ?? []).map((name) => this.user(name).id));
    const flags = new Map<number, number>();
    for (const userId of receivers) {
      if (skipped.has(userId)) continue;
      let bits = recipientType === RecipientType.STREAM ? 0 : FLAG_BITS.is_private;
      if (userId === senderId) bits |= FLAG_BITS.read;
      flags.set(userId, bits);
    }
    for (const [name, bits] of Object.entries(options.flags ?? {})) {
      const userId = this.user(name as DevUserName).id;
      if (flags.has(userId)) flags.set(userId, flags.get(userId)! | bits!);
    }
    if (flags.size > 0) {
      await this.db
        .insertInto('user_message')
        .values([...flags].map(([user_id, bits]) => ({ user_id, message_id: id, flags: bits })))
        .execute();
    }
    for (const name of options.reactions ?? []) {
      await this.db
        .insertInto('reaction')
        .values({ message_id: id, user_id: this.user(name).id, emoji_name: 'smile', emoji_code: '1f642', reaction_type: 'unicode_emoji' })
        .execute();
    }
    this.messages.push({
      id,
      senderId,
      recipientId,
      recipientType,
      topic,
      content,
      flags,
      hasLink: Boolean(options.hasLink),
      hasImage: Boolean(options.hasImage),
      hasAttachment: Boolean(options.hasAttachment),
      hasReaction: (options.reactions ?? []).length > 0,
    });
    return id;
  }

  /** Sets a user's visibility policy for a topic (1 muted, 2 unmuted, 3 followed). */
  async topicPolicy(user: DevUserName, stream: StreamName, topic: string, policy: number): Promise<void> {
    const row = this.ctx.seed.streams[stream];
    await this.db
      .insertInto('user_topic')
      .values({
        user_id: this.user(user).id,
        stream_id: row.id,
        recipient_id: row.recipient_id!,
        topic_name: topic,
        last_updated: Math.floor(this.ctx.clock.now()),
        visibility_policy: policy,
      })
      .execute();
  }

  async muteStream(user: DevUserName, stream: StreamName): Promise<void> {
    await this.db
      .updateTable('subscription')
      .set({ is_muted: 1 })
      .where('user_id', '=', this.user(user).id)
      .where('recipient_id', '=', this.ctx.seed.streams[stream].recipient_id!)
      .execute();
  }

  /** What the predicate sees of a message for one viewer; messages without a row read as history. */
  facts(message: FixtureMessage, viewerId: number): MessageFacts {
    return {
      id: message.id,
      senderId: message.senderId,
      recipientId: message.recipientId,
      recipientType: message.recipientType,
      topic: message.topic,
      content: message.content,
      flags: message.flags.get(viewerId) ?? FLAG_BITS.read | FLAG_BITS.historical,
      hasLink: message.hasLink,
      hasImage: message.hasImage,
      hasAttachment: message.hasAttachment,
      hasReaction: message.hasReaction,
    };
  }
}
