// Creating, changing, deleting and reordering an organization's custom profile fields.
// Administrators only; every change sends the whole ordered list to everyone.
import type { CustomProfileFieldRow } from '../db/schema.js';
import { ApiError } from '../errors.js';
import { DEFAULT_EXTERNAL_ACCOUNTS } from '../events/state/catalogs.js';
import { requireAdmin } from '../lib/permissions.js';
import {
  checkFieldDefinition,
  defaultExternalSubtype,
  type FieldData,
  FieldType,
  MAX_SUMMARY_FIELDS,
  parseFieldData,
  storedFieldData,
} from '../lib/profile-fields.js';
import { getProfileField, listProfileFieldRows, listProfileFields } from '../queries/profile-fields.js';
import { activeUserIds } from '../queries/users.js';
import type { ActionContext } from './context.js';
import { announceProfileValue, fieldNotFound } from './profile-data.js';

const DUPLICATE = 'A field with that label already exists.';
const SUMMARY_LIMIT = `Only ${MAX_SUMMARY_FIELDS} custom profile fields can be displayed in the profile summary.`;

async function announce(ctx: ActionContext): Promise<void> {
  const fields = await listProfileFields(ctx.tx, ctx.realm.id);
  ctx.events.send({ type: 'custom_profile_fields', fields }, await activeUserIds(ctx.tx, ctx.realm.id));
}

async function summaryLimitReached(ctx: ActionContext, exceptId?: number): Promise<boolean> {
  const shown = (await listProfileFieldRows(ctx.tx, ctx.realm.id)).filter((f) => f.display_in_profile_summary && f.id !== exceptId);
  return shown.length >= MAX_SUMMARY_FIELDS;
}

/** Labels are unique in a realm; checked before writing, so that no store error decides it. */
async function checkNameFree(ctx: ActionContext, name: string, exceptId?: number): Promise<void> {
  const rows = await listProfileFieldRows(ctx.tx, ctx.realm.id);
  if (rows.some((row) => row.name === name && row.id !== exceptId)) throw new ApiError(DUPLICATE);
}

export interface NewFieldSpec {
  name: string;
  hint: string;
  fieldType: number;
  fieldData: FieldData;
  displayInProfileSummary: boolean;
}

/** Adds a field at the end of the list; returns its id. */
export async function addProfileField(ctx: ActionContext, spec: NewFieldSpec): Promise<number> {
  requireAdmin(ctx.actor);
  if (spec.displayInProfileSummary && (await summaryLimitReached(ctx))) throw new ApiError(SUMMARY_LIMIT);
  const name = spec.name.trim();
  checkFieldDefinition({ ...spec, name });
  const subtype = defaultExternalSubtype(spec.fieldType, spec.fieldData);
  // A ready-made external account takes its label and hint from the catalog, and stores only its subtype.
  const values = subtype
    ? { name: DEFAULT_EXTERNAL_ACCOUNTS[subtype].name, hint: DEFAULT_EXTERNAL_ACCOUNTS[subtype].hint, field_data: JSON.stringify({ subtype }) }
    : { name, hint: spec.hint, field_data: storedFieldData(spec.fieldType, spec.fieldData) };
  await checkNameFree(ctx, values.name);
  const { id } = await ctx.tx
    .insertInto('custom_profile_field')
    .values({
      realm_id: ctx.realm.id,
      ...values,
      field_type: spec.fieldType,
      order: 0,
      display_in_profile_summary: spec.displayInProfileSummary ? 1 : 0,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  // As in the reference, a new field's order is its id: after every field so far.
  await ctx.tx.updateTable('custom_profile_field').set({ order: id }).where('id', '=', id).execute();
  await announce(ctx);
  return id;
}

export interface FieldChanges {
  name?: string;
  hint?: string;
  fieldData?: FieldData;
  displayInProfileSummary?: boolean;
}

/** A ready-made external account field may only change whether it shows in the summary. */
function onlySummaryChanges(field: CustomProfileFieldRow, changes: FieldChanges): boolean {
  if (changes.name !== undefined && changes.name !== field.name) return false;
  if (changes.hint !== undefined && changes.hint !== field.hint) return false;
  return changes.fieldData === undefined || JSON.stringify(changes.fieldData) === JSON.stringify(parseFieldData(field.field_data));
}

export async function updateProfileField(ctx: ActionContext, id: number, changes: FieldChanges): Promise<void> {
  requireAdmin(ctx.actor);
  const field = await getProfileField(ctx.tx, ctx.realm.id, id);
  if (!field) throw fieldNotFound(id);
  if (changes.displayInProfileSummary && (await summaryLimitReached(ctx, id))) throw new ApiError(SUMMARY_LIMIT);
  const stored = parseFieldData(field.field_data);
  if (defaultExternalSubtype(field.field_type, stored) && !onlySummaryChanges(field, changes)) {
    throw new ApiError('Default custom field cannot be updated.');
  }
  const name = changes.name?.trim() ?? field.name;
  const hint = changes.hint ?? field.hint;
  const fieldData = changes.fieldData ?? stored;
  const display = changes.displayInProfileSummary ?? Boolean(field.display_in_profile_summary);
  checkFieldDefinition({ name, hint, fieldType: field.field_type, fieldData, displayInProfileSummary: display });
  if (name !== field.name) await checkNameFree(ctx, name, id);
  if (changes.fieldData !== undefined && field.field_type === FieldType.SELECT) await dropRemovedChoices(ctx, field, fieldData);
  const keepsData = field.field_type === FieldType.SELECT || field.field_type === FieldType.EXTERNAL_ACCOUNT;
  await ctx.tx
    .updateTable('custom_profile_field')
    .set({
      name,
      hint,
      display_in_profile_summary: display ? 1 : 0,
      ...(keepsData && changes.fieldData !== undefined ? { field_data: storedFieldData(field.field_type, fieldData) } : {}),
    })
    .where('id', '=', id)
    .execute();
  await announce(ctx);
}

/** Users whose chosen option is gone lose their value, and everyone hears of it. */
async function dropRemovedChoices(ctx: ActionContext, field: CustomProfileFieldRow, next: FieldData): Promise<void> {
  const removed = Object.keys(parseFieldData(field.field_data)).filter((key) => !(key in next));
  if (removed.length === 0) return;
  const rows = await ctx.tx
    .selectFrom('custom_profile_field_value')
    .select(['id', 'user_id'])
    .where('field_id', '=', field.id)
    .where('value', 'in', removed)
    .orderBy('user_id')
    .execute();
  if (rows.length === 0) return;
  await ctx.tx.deleteFrom('custom_profile_field_value').where('id', 'in', rows.map((r) => r.id)).execute();
  for (const row of rows) await announceProfileValue(ctx, row.user_id, { id: field.id, value: null, rendered_value: null });
}

/** Deleting a field deletes every user's value for it. */
export async function removeProfileField(ctx: ActionContext, id: number): Promise<void> {
  requireAdmin(ctx.actor);
  if (!(await getProfileField(ctx.tx, ctx.realm.id, id))) throw fieldNotFound(id);
  await ctx.tx.deleteFrom('custom_profile_field_value').where('field_id', '=', id).execute();
  await ctx.tx.deleteFrom('custom_profile_field').where('id', '=', id).execute();
  await announce(ctx);
}

/** Sets each field's order to its place in the list, which must name every field of the realm. */
export async function reorderProfileFields(ctx: ActionContext, order: number[]): Promise<void> {
  requireAdmin(ctx.actor);
  const place = new Map<number, number>();
  // As in the reference, a repeated id keeps its last place.
  order.forEach((id, index) => place.set(id, index));
  const rows = await listProfileFieldRows(ctx.tx, ctx.realm.id);
  if (rows.some((row) => !place.has(row.id))) throw new ApiError('Invalid order mapping.');
  for (const row of rows) {
    await ctx.tx.updateTable('custom_profile_field').set({ order: place.get(row.id)! }).where('id', '=', row.id).execute();
  }
  await announce(ctx);
}
