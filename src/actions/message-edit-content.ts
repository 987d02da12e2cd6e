// Content edits: the new text and its rendering, the wildcard-mention policy, the stored
// columns and the recipients' mention flags.
import type { MessageRow, StreamRow } from '../db/schema.js';
import type { RenderResult } from '../lib/markdown/index.js';
import { normalizeContent } from '../lib/message-content.js';
import { FLAG_BITS, groupByFlags } from '../lib/message-flags.js';
import type { EditHistoryEntry } from '../lib/message-format.js';
import { subscriberIds } from '../queries/streams.js';
import { syncMessageAttachments } from './attachments.js';
import type { ActionContext } from './context.js';
import { checkWildcardPolicy, renderForSend } from './message-render.js';

/** What an edit leaves of blank content. */
const DELETED_CONTENT = '(deleted)';

export interface ContentEdit {
  content: string;
  rendered: RenderResult;
  /** The flags of everyone who holds the message, read once for rendering and for the new flags. */
  holders: Map<number, number>;
}

/** Blank content becomes "(deleted)"; otherwise the send path's rules (NUL refused, long text truncated). */
export function normalizeEditedContent(raw: string): string {
  return raw.trimEnd() === '' ? DELETED_CONTENT : normalizeContent(raw);
}

/**
 * Renders as sending does (mentions, groups, linkifiers), for the message's conversation and the
 * people who hold it.
 */
export async function renderEditedContent(ctx: ActionContext, message: MessageRow, recipientType: number, content: string): Promise<ContentEdit> {
  const rows = await ctx.tx.selectFrom('user_message').select(['user_id', 'flags']).where('message_id', '=', message.id).execute();
  const holders = new Map(rows.map((r) => [r.user_id, r.flags]));
  const target = { recipientId: message.recipient_id, recipientType, topic: message.subject, userIds: [...holders.keys()] };
  const rendered = await renderForSend(ctx, target, content);
  return { content, rendered, holders };
}

/**
 * Wildcard mentions in a stream message's new content must pass the realm's policy, as when
 * sending. Only the sender edits content, so the actor is the one judged; the topic's audience is
 * its participants, which rendering already gathered.
 */
export async function checkWildcardMentions(ctx: ActionContext, stream: StreamRow, edit: ContentEdit): Promise<void> {
  await checkWildcardPolicy(ctx, edit.rendered, async () => (await subscriberIds(ctx.tx, stream.recipient_id!)).length);
}

/**
 * The uploads the new content links; the edit only ever comes from the sender. A message with no
 * links (has_attachment 0) whose new content names no upload has nothing to sync: skip the queries,
 * as the send path does.
 */
async function linkUploads(ctx: ActionContext, message: MessageRow, html: string): Promise<void> {
  if (!message.has_attachment && !html.includes('user_uploads/')) return;
  const linked = await syncMessageAttachments(ctx, message, ctx.actor, html);
  if (linked !== Boolean(message.has_attachment)) {
    await ctx.tx.updateTable('message').set({ has_attachment: linked ? 1 : 0 }).where('id', '=', message.id).execute();
  }
}

const RENDERED_MENTIONS = FLAG_BITS.mentioned | FLAG_BITS.stream_wildcard_mentioned | FLAG_BITS.topic_wildcard_mentioned;

/**
 * Stores the new content, recomputes each recipient's mention flags the way sending does,
 * and returns every recipient's flags afterwards. Fills the history entry and the event.
 */
export async function applyContentEdit(
  ctx: ActionContext,
  message: MessageRow,
  edit: ContentEdit,
  entry: EditHistoryEntry,
  event: Record<string, unknown>,
): Promise<Map<number, number>> {
  const { rendered } = edit;
  entry.prev_content = message.content;
  entry.prev_rendered_content = message.rendered_content;
  entry.prev_rendered_content_version = message.rendered_content_version;
  Object.assign(event, {
    orig_content: message.content,
    orig_rendered_content: message.rendered_content,
    content: edit.content,
    rendered_content: rendered.html,
    is_me_message: rendered.isMeMessage,
  });
  await ctx.tx
    .updateTable('message')
    .set({
      content: edit.content,
      rendered_content: rendered.html,
      rendered_content_version: 1,
      has_link: rendered.hasLink ? 1 : 0,
      has_image: rendered.hasImage ? 1 : 0,
      is_me_message: rendered.isMeMessage ? 1 : 0,
    })
    .where('id', '=', message.id)
    .execute();
  await linkUploads(ctx, message, rendered.html);
  const after = new Map<number, number>();
  const changed: Array<[number, number]> = [];
  for (const [user_id, flags] of edit.holders) {
    let bits = flags & ~RENDERED_MENTIONS;
    if (rendered.mentionedUserIds.has(user_id)) bits |= FLAG_BITS.mentioned;
    if (rendered.streamWildcard && user_id !== message.sender_id) bits |= FLAG_BITS.stream_wildcard_mentioned;
    if (rendered.topicWildcard && user_id !== message.sender_id && (rendered.topicWildcardUserIds?.has(user_id) ?? true)) {
      bits |= FLAG_BITS.topic_wildcard_mentioned;
    }
    after.set(user_id, bits);
    if (bits !== flags) changed.push([user_id, bits]);
  }
  for (const [bits, userIds] of groupByFlags(changed)) {
    await ctx.tx
      .updateTable('user_message')
      .set({ flags: bits })
      .where('message_id', '=', message.id)
      .where('user_id', 'in', userIds)
      .execute();
  }
  return after;
}
