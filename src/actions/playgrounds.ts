// Adding and removing code playgrounds. Administrators only; every change sends the realm's
// whole list to everyone, with the language under both of its names.
import { ApiError } from '../errors.js';
import { checkPlayground } from '../lib/linkifiers/validate.js';
import { requireAdmin } from '../lib/permissions.js';
import { getPlayground, listPlaygrounds } from '../queries/linkifiers.js';
import { activeUserIds } from '../queries/users.js';
import type { ActionContext } from './context.js';

const DUPLICATE = 'Realm playground with this Realm, Pygments language and Name already exists.';

async function announce(ctx: ActionContext): Promise<void> {
  const playgrounds = await listPlaygrounds(ctx.tx, ctx.realm.id);
  ctx.events.send({ type: 'realm_playgrounds', realm_playgrounds: playgrounds }, await activeUserIds(ctx.tx, ctx.realm.id));
}

export interface NewPlayground {
  name: string;
  highlighterLanguage: string;
  urlTemplate: string;
}

/** Adds a playground; returns its id. */
export async function addPlayground(ctx: ActionContext, playground: NewPlayground): Promise<number> {
  requireAdmin(ctx.actor);
  const { name, highlighterLanguage, urlTemplate } = playground;
  checkPlayground(highlighterLanguage, urlTemplate);
  const clash = await ctx.tx
    .selectFrom('realm_playground')
    .select('id')
    .where('realm_id', '=', ctx.realm.id)
    .where('highlighter_language', '=', highlighterLanguage)
    .where('name', '=', name)
    .executeTakeFirst();
  if (clash) throw new ApiError(DUPLICATE);
  const row = await ctx.tx
    .insertInto('realm_playground')
    .values({ realm_id: ctx.realm.id, name, highlighter_language: highlighterLanguage, url_template: urlTemplate })
    .returning('id')
    .executeTakeFirstOrThrow();
  await announce(ctx);
  return row.id;
}

export async function removePlayground(ctx: ActionContext, id: number): Promise<void> {
  requireAdmin(ctx.actor);
  if (!(await getPlayground(ctx.tx, ctx.realm.id, id))) throw new ApiError('Invalid playground');
  await ctx.tx.deleteFrom('realm_playground').where('realm_id', '=', ctx.realm.id).where('id', '=', id).execute();
  await announce(ctx);
}
