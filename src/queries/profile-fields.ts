// Reads of a realm's custom profile fields and of users' values for them.
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

/**
 * Each user's values, keyed by field id: only fields the user has a value for; text fields also
 * carry their rendering. `userIds` narrows the read; absent, every user of the realm is read.
 */
export async function profileDataOf(db: DbOrTx, realmId: number, userIds?: number[]): Promise<Map<number, ProfileData>> {
  const out = new Map<number, ProfileData>();
  const ids = userIds?.filter(isStorableId);
  if (ids && ids.length === 0) return out;
  let query = db
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
  if (ids) query = query.where('custom_profile_field_value.user_id', 'in', ids);
  for (const row of await query.orderBy('custom_profile_field_value.field_id').execute()) {
    const data = out.get(row.user_id) ?? {};
    data[String(row.field_id)] = isRenderable(row.field_type)
      ? { value: row.value, rendered_value: row.rendered_value ?? '' }
      : { value: row.value };
    out.set(row.user_id, data);
  }
  return out;
}

/** One user's values (an empty object when they have none). */
export async function profileDataOfUser(db: DbOrTx, realmId: number, userId: number): Promise<ProfileData> {
  return (await profileDataOf(db, realmId, [userId])).get(userId) ?? {};
}
