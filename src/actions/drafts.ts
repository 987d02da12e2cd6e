// Creating, editing and deleting server-side drafts, and dropping them all when the user
// turns synchronization off. Each change is announced to the user's other clients.
import type { UserRow } from '../db/schema.js';
import { ApiError, NotFoundError } from '../errors.js';
import { type DraftInput, draftText } from '../lib/drafts.js';
import { resolveSettings } from '../lib/settings-registry.js';
import { draftsByIds, ownsDraft } from '../queries/drafts.js';
import { accessStreamById } from '../queries/stream-access.js';
import type { ActionContext, SystemContext } from './context.js';
import { directRecipientOf } from './message-send.js';

/** Every draft endpoint refuses users who keep their drafts to themselves. */
export function checkDraftsEnabled(user: Pick<UserRow, 'settings'>): void {
  if (!resolveSettings(user.settings).enable_drafts_synchronization) {
    throw new ApiError('User has disabled synchronizing drafts.');
  }
}

/** The row values for a draft, after every check. */
async function draftValues(ctx: ActionContext, draft: DraftInput) {
  const text = draftText(draft, ctx.now);
  let recipientId: number | null = null;
  if (draft.type === 'stream') {
    recipientId = (await accessStreamById(ctx.tx, ctx.actor, draft.to[0]!)).stream.recipient_id!;
  } else if (draft.type === 'private' && draft.to.length > 0) {
    // The people must exist here and be active, as for sending.
    recipientId = await directRecipientOf(ctx, [...new Set(draft.to)]);
  }
  return { recipient_id: recipientId, topic: text.topic, content: text.content, last_edit_time: text.lastEditTime };
}

/** POST /drafts: all or none are created; returns the new ids in the order given. */
export async function doCreateDrafts(ctx: ActionContext, drafts: DraftInput[]): Promise<number[]> {
  checkDraftsEnabled(ctx.actor);
  const rows = [];
  for (const draft of drafts) rows.push(await draftValues(ctx, draft));
  const ids: number[] = [];
  for (const row of rows) {
    const { id } = await ctx.tx.insertInto('draft').values({ user_id: ctx.actor.id, ...row }).returning('id').executeTakeFirstOrThrow();
    ids.push(id);
  }
  if (ids.length > 0) {
    const byId = new Map((await draftsByIds(ctx.tx, ctx.actor.id, ids)).map((d) => [d.id, d]));
    ctx.events.send({ type: 'drafts', op: 'add', drafts: ids.map((id) => byId.get(id)!) }, [ctx.actor.id]);
  }
  return ids;
}

async function requireOwnDraft(ctx: ActionContext, draftId: number): Promise<void> {
  if (!(await ownsDraft(ctx.tx, ctx.actor.id, draftId))) throw new NotFoundError('Draft does not exist');
}

/** PATCH /drafts/{draft_id}: replaces the draft's content and addressees. */
export async function doEditDraft(ctx: ActionContext, draftId: number, draft: DraftInput): Promise<void> {
  checkDraftsEnabled(ctx.actor);
  await requireOwnDraft(ctx, draftId);
  const values = await draftValues(ctx, draft);
  await ctx.tx.updateTable('draft').set(values).where('id', '=', draftId).execute();
  const [updated] = await draftsByIds(ctx.tx, ctx.actor.id, [draftId]);
  ctx.events.send({ type: 'drafts', op: 'update', draft: updated }, [ctx.actor.id]);
}

/** DELETE /drafts/{draft_id}. */
export async function doDeleteDraft(ctx: ActionContext, draftId: number): Promise<void> {
  checkDraftsEnabled(ctx.actor);
  await requireOwnDraft(ctx, draftId);
  await ctx.tx.deleteFrom('draft').where('id', '=', draftId).execute();
  ctx.events.send({ type: 'drafts', op: 'remove', draft_id: draftId }, [ctx.actor.id]);
}

/**
 * For the settings change that turns enable_drafts_synchronization off: the server forgets
 * every draft of the user. Clients keep their local copies, so no event is sent.
 */
export async function deleteAllDrafts(ctx: SystemContext, userId: number): Promise<void> {
  await ctx.tx.deleteFrom('draft').where('user_id', '=', userId).execute();
}
