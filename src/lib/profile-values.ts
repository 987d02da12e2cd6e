// Checks of a user's value for one custom profile field, with the reference's texts (the field's
// label names the value in them). Person fields are checked against the users they name.
import type { CustomProfileFieldRow, UserRow } from '../types/rows.js';
import { fail, FieldType, isPlainObject, isUrl, parseFieldData } from './profile-fields.js';

/** A value as sent: text, or user ids for person fields. */
export type ProfileValue = string | number[];

const SHORT = 50;
const LONG = 500;

function checkString(name: string, value: unknown, max?: number): string {
  if (typeof value !== 'string') return fail(`${name} is not a string`);
  if (max !== undefined && [...value].length > max) fail(`${name} is too long (limit: ${max} characters)`);
  if (value.includes('\u0000')) fail(`${name} contains NULL (0x00) characters.`);
  return value;
}

/** A calendar date written exactly as YYYY-MM-DD. */
function isIsoDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < 1) return false;
  const date = new Date(Date.UTC(2000, month - 1, day));
  date.setUTCFullYear(year);
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** The user ids a person field may hold: the realm's active, human users, looked up by the caller. */
export function checkUserIds(value: unknown, found: ReadonlyMap<number, Pick<UserRow, 'is_active' | 'is_bot'>>): number[] {
  if (!Array.isArray(value)) return fail('User IDs is not a list');
  value.forEach((id, i) => {
    if (typeof id !== 'number' || !Number.isInteger(id)) fail(`User IDs[${i}] is not an integer`);
  });
  const ids = value as number[];
  const missing = ids.find((id) => !found.has(id));
  if (missing !== undefined) fail(`Invalid user ID: ${missing}`);
  for (const id of ids) {
    const user = found.get(id)!;
    if (!user.is_active) fail(`User with ID ${id} is deactivated`);
    if (user.is_bot) fail(`User with ID ${id} is a bot`);
  }
  return ids;
}

/** Checks a value and returns the text it is stored as (user ids as a JSON list). */
export function checkProfileValue(
  field: Pick<CustomProfileFieldRow, 'name' | 'field_type' | 'field_data'>,
  value: unknown,
  users: ReadonlyMap<number, Pick<UserRow, 'is_active' | 'is_bot'>>,
): string {
  const name = field.name;
  switch (field.field_type) {
    case FieldType.LONG_TEXT:
      return checkString(name, value, LONG);
    case FieldType.DATE: {
      const text = checkString(name, value);
      if (!isIsoDate(text)) fail(`${name} is not a date`);
      return text;
    }
    case FieldType.URL: {
      const text = checkString(name, value);
      if (!isUrl(text)) fail(`${name} is not a URL`);
      return text;
    }
    case FieldType.SELECT: {
      const text = checkString(name, value);
      if (!(text in parseFieldData(field.field_data))) fail(`'${text}' is not a valid choice for '${name}'.`);
      return text;
    }
    case FieldType.USER:
      return JSON.stringify(checkUserIds(value, users));
    default:
      // Short text, external account and pronouns.
      return checkString(name, value, SHORT);
  }
}

export interface ProfileDataEntry {
  id: number;
  value: ProfileValue | null;
}

/**
 * The `data`/`profile_data` list: objects with exactly id (integer) and value (text or a list of
 * integers; null too where `allowNull`).
 */
export function checkProfileDataList(value: unknown, varName: string, allowNull: boolean): ProfileDataEntry[] {
  if (!Array.isArray(value)) return fail(`${varName} is not a list`);
  return value.map((item, i) => {
    const at = `${varName}[${i}]`;
    if (!isPlainObject(item)) return fail(`${at} is not a dict`);
    for (const key of ['id', 'value']) if (!(key in item)) fail(`${key} key is missing from ${at}`);
    if (typeof item.id !== 'number' || !Number.isInteger(item.id)) fail(`${at}["id"] is not an integer`);
    const v = item.value;
    const ok =
      typeof v === 'string' ||
      (Array.isArray(v) && v.every((id) => typeof id === 'number' && Number.isInteger(id))) ||
      (allowNull && v === null);
    if (!ok) fail(`${at}["value"] is not an allowed_type`);
    const extra = Object.keys(item).filter((key) => key !== 'id' && key !== 'value');
    if (extra.length > 0) fail(`Unexpected arguments: ${extra.join(', ')}`);
    return { id: item.id as number, value: v as ProfileValue | null };
  });
}
