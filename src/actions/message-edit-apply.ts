// Carrying out a checked edit: content, moves, edit history, and the update_message and
// delete_message events to everyone who can see the message (or just lost it).
import type { MessageRow, StreamRow } from '../db/schema.js';
import { topicLinks } from '../lib/linkifiers/index.js';
import { realmLinkifiers } from '../queries/linkifier-cache.js';
import { flagNames, groupByFlags } from '../lib/message-flags.js';
import type { EditHistoryEntry } from '../lib/message-format.js';
import type { ActionContext } from './context.js';
import { applyContentEdit, type ContentEdit } from './message-edit-content.js';
import { afterMove } from './message-move-aftermath.js';
import {
  type MovePlan,
  moveUserMessages,
  selectMovedIds,
  streamChanged,
  streamMembers,
  streamMoveAccess,
  subscriberAudience,
  topicChanged,
  writeEditedRow,
  writeMovedRows,
} from './message-move.js';

export interface CheckedEdit {
  message: MessageRow;
  /** The message's stream; null for direct messages. */
  stream: StreamRow | null;
  content: ContentEdit | null;
  move: MovePlan | null;
  notifyOld: boolean;
  notifyNew: boolean;
}

/** One event per distinct set of flags, so each recipient learns their own. */
function sendPerFlags(ctx: ActionContext, event: Record<string, unknown>, flagsByUser: Map<number, number>, readOnly: number[]) {
  for (const [bits, users] of groupByFlags(flagsByUser)) ctx.events.send({ ...event, flags: flagNames(bits) }, users);
  ctx.events.send({ ...event, flags: ['read'] }, readOnly);
}

async function holderFlags(ctx: ActionContext, messageId: number): Promise<Map<number, number>> {
  const rows = await ctx.tx.selectFrom('user_message').select(['user_id', 'flags']).where('message_id', '=', messageId).execute();
  return new Map(rows.map((r) => [r.user_id, r.flags]));
}

const activeMembers = (ctx: ActionContext, stream: StreamRow) => streamMembers(ctx, stream.recipient_id!, true);

export async function doUpdateMessage(ctx: ActionContext, edit: CheckedEdit): Promise<void> {
  const { message, stream, move } = edit;
  const entry: EditHistoryEntry = { user_id: ctx.actor.id, timestamp: ctx.now };
  const event: Record<string, unknown> = {
    type: 'update_message',
    user_id: ctx.actor.id,
    edit_timestamp: ctx.now,
    message_id: message.id,
    rendering_only: false,
  };
  let flags: Map<number, number> | null = null;
  if (edit.content) flags = await applyContentEdit(ctx, message, edit.content, entry, event);
  if (stream) Object.assign(event, { stream_name: stream.name, stream_id: stream.id });
  // Direct messages never move.
  if (!stream || !move) {
    await writeEditedRow(ctx, message.id, entry);
    const holders = flags ?? (await holderFlags(ctx, message.id));
    const others = stream ? subscriberAudience(stream, new Set(holders.keys()), null, await activeMembers(ctx, stream), []) : [];
    sendPerFlags(ctx, { ...event, message_ids: [message.id] }, holders, others);
    return;
  }

  event.propagate_mode = move.propagateMode;
  const moveEntry: EditHistoryEntry = { user_id: ctx.actor.id, timestamp: ctx.now };
  if (streamChanged(move)) {
    Object.assign(moveEntry, { prev_stream: move.origStream.id, stream: move.targetStream.id });
    Object.assign(event, { orig_subject: move.origTopic, new_stream_id: move.targetStream.id });
  }
  if (topicChanged(move)) {
    Object.assign(moveEntry, { prev_topic: move.origTopic, topic: move.targetTopic });
    const links = topicLinks(move.targetTopic, await realmLinkifiers(ctx.tx, ctx.realm.id));
    Object.assign(event, { orig_subject: move.origTopic, subject: move.targetTopic, topic_links: links });
  }
  Object.assign(entry, moveEntry);

  const ids = await selectMovedIds(ctx, move);
  const access = streamChanged(move) ? await streamMoveAccess(ctx, move, ids) : null;
  const oldActive = await activeMembers(ctx, move.origStream);
  const newActive = access ? await activeMembers(ctx, move.targetStream) : [];
  const before = await afterMove.prepare(ctx, move);
  if (access) await moveUserMessages(ctx, move, ids, access);
  await writeMovedRows(ctx, move, ids, historyOrder(entry), moveEntry);

  // A topic move keeps every user_message row, so the flags a content edit returned still hold.
  const holders = (!access && flags) || (await holderFlags(ctx, message.id));
  const others = subscriberAudience(move.origStream, new Set(holders.keys()), access, oldActive, newActive);
  sendPerFlags(ctx, { ...event, message_ids: ids }, holders, others);
  if (access && access.losingAccess.length > 0) {
    const deletion = { type: 'delete_message', message_ids: ids, message_type: 'stream', stream_id: move.origStream.id, topic: move.origTopic };
    ctx.events.send(deletion, access.losingAccess);
  }
  await afterMove.finish(ctx, move, ids, before, {
    notifyOld: edit.notifyOld,
    notifyNew: edit.notifyNew,
    contentEdited: edit.content !== null,
  });
}

/** The stored entry lists its keys in one order whatever the edit (user, time, content, stream, topic). */
function historyOrder(entry: EditHistoryEntry): EditHistoryEntry {
  const keys: Array<keyof EditHistoryEntry> = [
    'user_id',
    'timestamp',
    'prev_content',
    'prev_rendered_content',
    'prev_rendered_content_version',
    'prev_stream',
    'stream',
    'prev_topic',
    'topic',
  ];
  const out: Record<string, unknown> = {};
  for (const key of keys) if (entry[key] !== undefined) out[key] = entry[key];
  return out as unknown as EditHistoryEntry;
}
