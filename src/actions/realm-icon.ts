// The organization's icon and logos: administrators upload or reset them. Each change bumps the
// image's version (so clients fetch it again) and tells everyone with a realm update_dict event.
import type { RealmRow } from '../db/schema.js';
import { requireAdmin } from '../lib/permissions.js';
import { ImageSource, type RealmImageKind, realmImageEventData } from '../lib/realm-images.js';
import { activeUserIds } from '../queries/users.js';
import type { ActionContext } from './context.js';

const COLUMNS = {
  icon: { source: 'icon_source', version: 'icon_version', fallback: ImageSource.GRAVATAR },
  logo: { source: 'logo_source', version: 'logo_version', fallback: ImageSource.DEFAULT },
  night_logo: { source: 'night_logo_source', version: 'night_logo_version', fallback: ImageSource.DEFAULT },
} as const;

/** Points the organization at its uploaded image (`uploaded`) or back at the default one. */
export async function doChangeRealmImage(ctx: ActionContext, kind: RealmImageKind, uploaded: boolean): Promise<RealmRow> {
  requireAdmin(ctx.actor);
  const columns = COLUMNS[kind];
  const current = await ctx.tx.selectFrom('realm').selectAll().where('id', '=', ctx.realm.id).executeTakeFirstOrThrow();
  const source = uploaded ? ImageSource.UPLOADED : columns.fallback;
  const version = current[columns.version] + 1;
  await ctx.tx
    .updateTable('realm')
    .set({ [columns.source]: source, [columns.version]: version })
    .where('id', '=', ctx.realm.id)
    .execute();
  const realm: RealmRow = { ...current, [columns.source]: source, [columns.version]: version };
  ctx.events.send(
    { type: 'realm', op: 'update_dict', property: kind, data: realmImageEventData(realm, kind) },
    await activeUserIds(ctx.tx, ctx.realm.id),
  );
  return realm;
}
