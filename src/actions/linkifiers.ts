// Creating, changing, deleting and reordering linkifiers. Administrators only; every change
// sends the realm's whole ordered list to everyone, and drops the compiled-list cache (in every
// process of a cluster).
import { ApiError } from '../errors.js';
import { invalidateRealmLinkifiers } from '../queries/linkifier-cache.js';
import { hasWebScheme } from '../lib/linkifiers/url-template.js';
import { checkLinkifier } from '../lib/linkifiers/validate.js';
import { requireAdmin } from '../lib/permissions.js';
import { getLinkifier, linkifierByPattern, listLinkifiers } from '../queries/linkifiers.js';
import { activeUserIds } from '../queries/users.js';
import type { ActionContext } from './context.js';

const NOT_FOUND = 'Linkifier not found.';
const DUPLICATE = 'Realm filter with this Realm and Pattern already exists.';


async function announce(ctx: ActionContext): Promise<void> {
  // Dropped now for reads later in this transaction, and again once committed, so that a list read
  // from before the change while it ran is not kept.
  invalidateRealmLinkifiers(ctx.realm.id);
  ctx.events.afterCommit(() => invalidateRealmLinkifiers(ctx.realm.id));
  ctx.events.notify({ kind: 'linkifiers', realmId: ctx.realm.id });
  const linkifiers = await listLinkifiers(ctx.tx, ctx.realm.id);
  ctx.events.send({ type: 'realm_linkifiers', realm_linkifiers: linkifiers }, await activeUserIds(ctx.tx, ctx.realm.id));
}

async function checkPatternFree(ctx: ActionContext, pattern: string, exceptId?: number): Promise<void> {
  const existing = await linkifierByPattern(ctx.tx, ctx.realm.id, pattern);
  if (!existing || existing.id === exceptId) return;
  // A row whose template is no longer served (see listLinkifiers) is invisible to administrators,
  // so it must not hold its pattern against them: it gives way.
  if (!hasWebScheme(existing.url_template)) {
    await ctx.tx.deleteFrom('realm_filter').where('realm_id', '=', ctx.realm.id).where('id', '=', existing.id).execute();
    return;
  }
  throw new ApiError(DUPLICATE);
}

/** Adds a linkifier at the end of the realm's list; returns its id. */
export async function addLinkifier(ctx: ActionContext, pattern: string, urlTemplate: string): Promise<number> {
  requireAdmin(ctx.actor);
  checkLinkifier(pattern, urlTemplate);
  await checkPatternFree(ctx, pattern);
  const last = await ctx.tx
    .selectFrom('realm_filter')
    .select((eb) => eb.fn.max('order').as('max'))
    .where('realm_id', '=', ctx.realm.id)
    .executeTakeFirst();
  const order = last?.max === null || last?.max === undefined ? 0 : Number(last.max) + 1;
  const row = await ctx.tx
    .insertInto('realm_filter')
    .values({ realm_id: ctx.realm.id, pattern, url_template: urlTemplate, order })
    .returning('id')
    .executeTakeFirstOrThrow();
  await announce(ctx);
  return row.id;
}

export async function updateLinkifier(ctx: ActionContext, id: number, pattern: string, urlTemplate: string): Promise<void> {
  requireAdmin(ctx.actor);
  if (!(await getLinkifier(ctx.tx, ctx.realm.id, id))) throw new ApiError(NOT_FOUND);
  checkLinkifier(pattern, urlTemplate);
  await checkPatternFree(ctx, pattern, id);
  await ctx.tx.updateTable('realm_filter').set({ pattern, url_template: urlTemplate }).where('realm_id', '=', ctx.realm.id).where('id', '=', id).execute();
  await announce(ctx);
}

export async function removeLinkifier(ctx: ActionContext, id: number): Promise<void> {
  requireAdmin(ctx.actor);
  if (!(await getLinkifier(ctx.tx, ctx.realm.id, id))) throw new ApiError(NOT_FOUND);
  await ctx.tx.deleteFrom('realm_filter').where('realm_id', '=', ctx.realm.id).where('id', '=', id).execute();
  await announce(ctx);
}

/** Puts the realm's linkifiers in the given order; the list must name each of them exactly once. */
export async function reorderLinkifiers(ctx: ActionContext, orderedIds: number[]): Promise<void> {
  requireAdmin(ctx.actor);
  const wanted = new Set(orderedIds);
  if (wanted.size < orderedIds.length) throw new ApiError('The ordered list must not contain duplicated linkifiers');
  const existing = await listLinkifiers(ctx.tx, ctx.realm.id);
  if (existing.length !== wanted.size || existing.some((l) => !wanted.has(l.id))) {
    throw new ApiError('The ordered list must enumerate all existing linkifiers exactly once');
  }
  for (const [order, id] of orderedIds.entries()) {
    await ctx.tx.updateTable('realm_filter').set({ order }).where('realm_id', '=', ctx.realm.id).where('id', '=', id).execute();
  }
  await announce(ctx);
}
