// Loads everything message dictionaries need in a fixed number of queries, whatever the count.
import type { DbOrTx, MessageRow, RealmRow, UserRow } from '../db/schema.js';
import { RecipientType } from '../db/schema.js';
import { type DisplayRecipient, type MessageDictOptions, type MessageParts, messageDict } from '../lib/message-format.js';
import { realmLinkifiers } from './linkifier-cache.js';
import { realmSettings } from '../lib/realm-settings.js';

/** Every message column but the store's search index. */
export const MESSAGE_COLUMNS = [
  'id', 'realm_id', 'sender_id', 'recipient_id', 'subject', 'content', 'rendered_content',
  'rendered_content_version', 'date_sent', 'sending_client', 'last_edit_time', 'last_moved_time',
  'edit_history', 'has_link', 'has_image', 'has_attachment', 'is_me_message',
] as const;

const uniq = (values: Iterable<number>) => [...new Set(values)];

/** Display recipients of the given recipient ids: stream names, or the people in a conversation. */
async function loadRecipients(db: DbOrTx, messages: MessageRow[]) {
  const recipientIds = uniq(messages.map((m) => m.recipient_id));
  const recipients = await db.selectFrom('recipient').selectAll().where('id', 'in', recipientIds).execute();
  const streamIds = recipients.filter((r) => r.type === RecipientType.STREAM).map((r) => r.type_id);
  const groupIds = recipients.filter((r) => r.type === RecipientType.DIRECT_MESSAGE_GROUP).map((r) => r.type_id);
  const streams = streamIds.length
    ? await db.selectFrom('stream').select(['id', 'name']).where('id', 'in', streamIds).execute()
    : [];
  const groups = groupIds.length
    ? await db.selectFrom('direct_message_group').select(['id', 'huddle_hash']).where('id', 'in', groupIds).execute()
    : [];
  const streamName = new Map(streams.map((s) => [s.id, s.name]));
  const groupMembers = new Map(groups.map((g) => [g.id, g.huddle_hash.split(',').map(Number)]));
  return { recipients: new Map(recipients.map((r) => [r.id, r])), streamName, groupMembers };
}

export async function loadMessageParts(db: DbOrTx, messages: MessageRow[]): Promise<Map<number, MessageParts>> {
  const out = new Map<number, MessageParts>();
  if (messages.length === 0) return out;
  const { recipients, streamName, groupMembers } = await loadRecipients(db, messages);
  const reactions = await db
    .selectFrom('reaction')
    .selectAll()
    .where('message_id', 'in', messages.map((m) => m.id))
    .orderBy('id')
    .execute();
  const submessages = await db
    .selectFrom('submessage')
    .selectAll()
    .where('message_id', 'in', messages.map((m) => m.id))
    .orderBy('id')
    .execute();

  // Everyone the dictionaries name: senders, conversation members, reactors.
  const conversationOf = (m: MessageRow): number[] => {
    const recipient = recipients.get(m.recipient_id)!;
    if (recipient.type === RecipientType.PERSONAL) return uniq([m.sender_id, recipient.type_id]);
    if (recipient.type === RecipientType.DIRECT_MESSAGE_GROUP) return groupMembers.get(recipient.type_id) ?? [];
    return [];
  };
  const userIds = uniq([
    ...messages.map((m) => m.sender_id),
    ...messages.flatMap(conversationOf),
    ...reactions.map((r) => r.user_id),
  ]);
  const users = new Map(
    (await db.selectFrom('user_profile').selectAll().where('id', 'in', userIds).execute()).map((u) => [u.id, u]),
  );

  const reactionsOf = new Map<number, MessageParts['reactions']>();
  for (const reaction of reactions) {
    const list = reactionsOf.get(reaction.message_id) ?? [];
    list.push({ reaction, user: users.get(reaction.user_id)! });
    reactionsOf.set(reaction.message_id, list);
  }

  const submessagesOf = new Map<number, MessageParts['submessages']>();
  for (const submessage of submessages) {
    const list = submessagesOf.get(submessage.message_id) ?? [];
    list.push(submessage);
    submessagesOf.set(submessage.message_id, list);
  }

  for (const message of messages) {
    const recipient = recipients.get(message.recipient_id)!;
    const display: DisplayRecipient =
      recipient.type === RecipientType.STREAM
        ? { type: RecipientType.STREAM, streamId: recipient.type_id, streamName: streamName.get(recipient.type_id) ?? '' }
        : {
            type: recipient.type as 1 | 3,
            users: conversationOf(message).map((id) => users.get(id)).filter((u): u is UserRow => u !== undefined),
          };
    out.set(message.id, {
      message,
      sender: users.get(message.sender_id)!,
      recipient: display,
      reactions: reactionsOf.get(message.id) ?? [],
      submessages: submessagesOf.get(message.id) ?? [],
    });
  }
  return out;
}

export async function getMessagesByIds(db: DbOrTx, realmId: number, ids: number[]): Promise<MessageRow[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('message').select(MESSAGE_COLUMNS).where('realm_id', '=', realmId).where('id', 'in', ids).execute();
}

export interface MessageDictsOptions extends MessageDictOptions {
  /** The viewer's realm, when the caller has it already. */
  realm?: RealmRow;
}

/** Message dictionaries in the order of `rows`, with each row's flags as names. */
export async function messageDicts(
  db: DbOrTx,
  viewer: UserRow,
  rows: Array<{ id: number; flags: number }>,
  options: MessageDictsOptions,
): Promise<Record<string, unknown>[]> {
  if (rows.length === 0) return [];
  const realm =
    options.realm ?? (await db.selectFrom('realm').selectAll().where('id', '=', viewer.realm_id).executeTakeFirstOrThrow());
  const messages = await getMessagesByIds(db, viewer.realm_id, rows.map((r) => r.id));
  const parts = await loadMessageParts(db, messages);
  const realmView = { string_id: realm.string_id, settings: realmSettings(realm), linkifiers: await realmLinkifiers(db, realm.id) };
  return rows
    .filter((row) => parts.has(row.id))
    .map((row) => messageDict(parts.get(row.id)!, viewer, realmView, options, row.flags));
}
