// Reads of a realm's custom profile fields and of users' values for them.
import type { Store } from '../db/connect.js';
import { prepare } from '../db/prepared.js';
import type { CustomProfileFieldRow, DbOrTx } from '../db/schema.js';
import { isRenderable, type ProfileFieldDict, profileFieldDict } from '../lib/profile-fields.js';
import { isStorableId } from './users.js';

export function listProfileFieldRows(db: DbOrTx, realmId: number): Promise<CustomProfileFieldRow[]> {
  return db.selectFrom('custom_profile_field').selectAll().where('realm_id', '=', realmId).orderBy('order').orderBy('id').execute();
}

/** The realm's fields as clients see them, in display order. */
export async function listProfileFields(db: DbOrTx, realmId: number): Promise<ProfileFieldDict[]> {
  return (await listProfileFieldRows(db, realmId)).map(profileFieldDict);
}

export function getProfileField(db: DbOrTx, realmId: number, id: number): Promise<CustomProfileFieldRow | undefined> {
  if (!isStorableId(id)) return Promise.resolve(undefined);
  return db.selectFrom('custom_profile_field').selectAll().where('realm_id', '=', realmId).where('id', '=', id).executeTakeFirst();
}

export type ProfileData = Record<string, { value: string; rendered_value?: string }>;

function valuesQuery(db: DbOrTx, realmId: number) {
  return db
    .selectFrom('custom_profile_field_value')
    .innerJoin('custom_profile_field', 'custom_profile_field.id', 'custom_profile_field_value.field_id')
    .select([
      'custom_profile_field_value.user_id',
      'custom_profile_field_value.field_id',
      'custom_profile_field_value.value',
      'custom_profile_field_value.rendered_value',
      'custom_profile_field.field_type',
    ])
    .where('custom_profile_field.realm_id', '=', realmId);
}

type ValueRow = Awaited<ReturnType<ReturnType<typeof valuesQuery>['execute']>>[number];

// GET /users/me reads the requester's own values on every call, so the query is compiled once.
const valuesOfUser = prepare<[number, number], ValueRow>(2, (db, realmId, userId) =>
  valuesQuery(db, realmId).where('custom_profile_field_value.user_id', '=', userId).orderBy('custom_profile_field_value.field_id'),
);

/** Rows in field order, by user: text fields also carry their rendering. */
function dataByUser(rows: readonly ValueRow[]): Map<number, ProfileData> {
  const out = new Map<number, ProfileData>();
  for (const row of rows) {
    const data = out.get(row.user_id) ?? {};
    data[String(row.field_id)] = isRenderable(row.field_type)
      ? { value: row.value, rendered_value: row.rendered_value ?? '' }
      : { value: row.value };
    out.set(row.user_id, data);
  }
  return out;
}

/**
 * Each user's values, keyed by field id: only fields the user has a value for; text fields also
 * carry their rendering. `userIds` narrows the read; absent, every user of the realm is read.
 */
export async function profileDataOf(db: DbOrTx, realmId: number, userIds?: number[]): Promise<Map<number, ProfileData>> {
  const ids = userIds?.filter(isStorableId);
  if (ids && ids.length === 0) return new Map();
  let query = valuesQuery(db, realmId);
  if (ids) query = query.where('custom_profile_field_value.user_id', 'in', ids);
  return dataByUser(await query.orderBy('custom_profile_field_value.field_id').execute());
}

/** One user's values (an empty object when they have none). */
export async function profileDataOfUser(db: DbOrTx, realmId: number, userId: number): Promise<ProfileData> {
  if (!isStorableId(userId)) return {};
  return dataByUser(await valuesOfUser.all(db, realmId, userId)).get(userId) ?? {};
}

/** The same for the requester, read at once on SQLite (the user's own values are a few index lookups). */
export async function ownProfileData(store: Store, realmId: number, userId: number): Promise<ProfileData> {
  return dataByUser(await valuesOfUser.allNow(store, realmId, userId)).get(userId) ?? {};
}
