// A user's values for the organization's custom profile fields: set by the user (or an
// administrator), cleared, and announced to everyone as realm_user updates.
import type { CustomProfileFieldRow, UserRow } from '../db/schema.js';
import { ApiError } from '../errors.js';
import { renderOrReject } from '../lib/markdown/index.js';
import { FieldType, isRenderable } from '../lib/profile-fields.js';
import { checkProfileValue, type ProfileValue } from '../lib/profile-values.js';
import { getProfileField } from '../queries/profile-fields.js';
import { activeUserIds, getUsersByIds } from '../queries/users.js';
import type { ActionContext } from './context.js';

export const fieldNotFound = (id: number) => new ApiError(`Field id ${id} not found.`);

interface ValueChange {
  id: number;
  value: string | null;
  rendered_value: string | null;
}

/** Everyone hears of the change; the rendering goes along only when there is one. */
export async function announceProfileValue(ctx: ActionContext, userId: number, change: ValueChange): Promise<void> {
  const field: Record<string, unknown> = { id: change.id, value: change.value };
  if (change.rendered_value) field.rendered_value = change.rendered_value;
  ctx.events.send(
    { type: 'realm_user', op: 'update', person: { user_id: userId, custom_profile_field: field } },
    await activeUserIds(ctx.tx, ctx.realm.id),
  );
}

async function loadField(ctx: ActionContext, id: number): Promise<CustomProfileFieldRow> {
  const field = await getProfileField(ctx.tx, ctx.realm.id, id);
  if (!field) throw fieldNotFound(id);
  return field;
}

/** Checks every value first, then stores those that differ from what the user has. */
export async function setProfileValues(ctx: ActionContext, target: UserRow, entries: Array<{ id: number; value: ProfileValue }>): Promise<void> {
  const checked: Array<{ field: CustomProfileFieldRow; value: string }> = [];
  for (const entry of entries) {
    const field = await loadField(ctx, entry.id);
    const ids = field.field_type === FieldType.USER && Array.isArray(entry.value) ? entry.value : [];
    const users = new Map((await getUsersByIds(ctx.tx, ctx.realm.id, ids)).map((u) => [u.id, u]));
    checked.push({ field, value: checkProfileValue(field, entry.value, users) });
  }
  for (const { field, value } of checked) {
    const existing = await ctx.tx
      .selectFrom('custom_profile_field_value')
      .select(['id', 'value'])
      .where('user_id', '=', target.id)
      .where('field_id', '=', field.id)
      .executeTakeFirst();
    if (existing && existing.value === value) continue;
    const rendered = isRenderable(field.field_type) ? renderOrReject(value).html : null;
    if (existing) {
      await ctx.tx.updateTable('custom_profile_field_value').set({ value, rendered_value: rendered }).where('id', '=', existing.id).execute();
    } else {
      await ctx.tx
        .insertInto('custom_profile_field_value')
        .values({ user_id: target.id, field_id: field.id, value, rendered_value: rendered })
        .execute();
    }
    await announceProfileValue(ctx, target.id, { id: field.id, value, rendered_value: rendered });
  }
}

/** Clears the user's value for each field; a field without a value is left alone, silently. */
export async function clearProfileValues(ctx: ActionContext, target: UserRow, fieldIds: number[]): Promise<void> {
  for (const id of fieldIds) {
    await loadField(ctx, id);
    const removed = await ctx.tx
      .deleteFrom('custom_profile_field_value')
      .where('user_id', '=', target.id)
      .where('field_id', '=', id)
      .executeTakeFirst();
    if (Number(removed.numDeletedRows) > 0) await announceProfileValue(ctx, target.id, { id, value: null, rendered_value: null });
  }
}
