// Custom profile field definitions: types, the dict clients see, and the checks an administrator's
// field must pass. Texts and limits follow the reference at feature level 229.
import type { CustomProfileFieldRow } from '../types/rows.js';
import { ApiError } from '../errors.js';

export const FieldType = {
  SHORT_TEXT: 1,
  LONG_TEXT: 2,
  SELECT: 3,
  DATE: 4,
  URL: 5,
  USER: 6,
  EXTERNAL_ACCOUNT: 7,
  PRONOUNS: 8,
} as const;

/** realm_default_external_accounts (POST /register): external-account profile fields an administrator can pick ready-made. */
export const DEFAULT_EXTERNAL_ACCOUNTS = {
  twitter: { text: 'Twitter', url_pattern: 'https://twitter.com/%(username)s', name: 'Twitter username', hint: '' },
  github: { text: 'GitHub', url_pattern: 'https://github.com/%(username)s', name: 'GitHub username', hint: '' },
} as const;

export const FIELD_NAME_MAX_LENGTH = 40;
export const FIELD_HINT_MAX_LENGTH = 80;
export const MAX_SUMMARY_FIELDS = 2;

/** Field data as sent: each value a string or an object of strings (checked further per type). */
export type FieldData = Record<string, unknown>;

export interface ProfileFieldDict {
  id: number;
  name: string;
  type: number;
  hint: string;
  field_data: string;
  order: number;
  display_in_profile_summary?: true;
}

export function profileFieldDict(row: CustomProfileFieldRow): ProfileFieldDict {
  const dict: ProfileFieldDict = {
    id: row.id,
    name: row.name,
    type: row.field_type,
    hint: row.hint,
    field_data: row.field_data,
    order: row.order,
  };
  // The reference sends the flag only when it is set.
  if (row.display_in_profile_summary) dict.display_in_profile_summary = true;
  return dict;
}

/** Text fields have their values rendered as Markdown. */
export const isRenderable = (fieldType: number) => fieldType === FieldType.SHORT_TEXT || fieldType === FieldType.LONG_TEXT;

export const fail = (msg: string): never => {
  throw new ApiError(msg);
};

export const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

const length = (s: string) => [...s].length;

/** The parameter-level shape: an object whose values are strings or objects of strings. */
export function checkFieldDataShape(value: unknown): FieldData {
  if (!isPlainObject(value)) return fail('field_data is not a dict');
  for (const item of Object.values(value)) {
    const ok = typeof item === 'string' || (isPlainObject(item) && Object.values(item).every((v) => typeof v === 'string'));
    if (!ok) fail('field_data contains a value that is not an allowed_type');
  }
  return value;
}

/** Only the listed keys, each a string that is not blank (the reference's check_dict_only). */
function checkOnlyKeys(value: unknown, required: string[], optional: string[] = []): Record<string, unknown> {
  if (!isPlainObject(value)) return fail('field_data is not a dict');
  for (const key of required) {
    if (!(key in value)) fail(`${key} key is missing from field_data`);
    const item = value[key];
    if (typeof item !== 'string') fail(`field_data["${key}"] is not a string`);
    if ((item as string).trim() === '') fail(`field_data["${key}"] cannot be blank.`);
  }
  for (const key of optional) {
    if (key in value && typeof value[key] !== 'string') fail(`field_data["${key}"] is not a string`);
  }
  const extra = Object.keys(value).filter((key) => !required.includes(key) && !optional.includes(key));
  if (extra.length > 0) fail(`Unexpected arguments: ${extra.join(', ')}`);
  return value;
}

function checkSelectData(data: FieldData): void {
  if (Object.keys(data).length < 1) fail('Field must have at least one choice.');
  const texts = new Set<string>();
  for (const [key, choice] of Object.entries(data)) {
    if (key.trim() === '') fail("'value' cannot be blank.");
    texts.add(checkOnlyKeys(choice, ['text', 'order']).text as string);
  }
  if (texts.size !== Object.keys(data).length) fail('Field must not have duplicate choices.');
}

/** A web address the way the reference's URL check takes it: http(s) or ftp(s) with a host. */
export function isUrl(value: string): boolean {
  if (/\s/.test(value)) return false;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (!['http:', 'https:', 'ftp:', 'ftps:'].includes(url.protocol)) return false;
  return url.hostname === 'localhost' || /^[^.]+(\.[^.]+)+$/.test(url.hostname) || url.hostname.startsWith('[');
}

function checkUrlPattern(pattern: string): void {
  if (pattern === '') return;
  if (pattern.split('%(username)s').length !== 2) fail("URL pattern must contain '%(username)s'.");
  if (!isUrl(pattern.replace('%(username)s', 'username'))) fail('field_data["url_pattern"] is not a URL');
}

function checkExternalAccountData(data: FieldData): void {
  checkOnlyKeys(data, ['subtype'], ['url_pattern']);
  if (typeof data.url_pattern === 'string') checkUrlPattern(data.url_pattern);
  const subtype = data.subtype as string;
  if (subtype in DEFAULT_EXTERNAL_ACCOUNTS) return;
  if (subtype !== 'custom') fail('Invalid external account type');
  if (!('url_pattern' in data)) fail('Custom external account must define URL pattern');
}

/** An external account field of a ready-made subtype takes its name and hint from the catalog. */
export function defaultExternalSubtype(fieldType: number, data: FieldData): keyof typeof DEFAULT_EXTERNAL_ACCOUNTS | null {
  if (fieldType !== FieldType.EXTERNAL_ACCOUNT) return null;
  const subtype = data.subtype;
  return typeof subtype === 'string' && subtype in DEFAULT_EXTERNAL_ACCOUNTS ? (subtype as keyof typeof DEFAULT_EXTERNAL_ACCOUNTS) : null;
}

export interface FieldDefinition {
  name: string;
  hint: string;
  fieldType: number;
  fieldData: FieldData;
  displayInProfileSummary: boolean;
}

function checkText(value: string, name: string, max: number): void {
  if (length(value) > max) fail(`${name} is too long (limit: ${max} characters)`);
  if (value.includes('\u0000')) fail(`${name} contains NULL (0x00) characters.`);
}

/** Every check of a field as it would be stored, in the reference's order. */
export function checkFieldDefinition(def: FieldDefinition): void {
  if (def.fieldType === FieldType.SELECT) checkSelectData(def.fieldData);
  else if (def.fieldType === FieldType.EXTERNAL_ACCOUNT) checkExternalAccountData(def.fieldData);
  if (defaultExternalSubtype(def.fieldType, def.fieldData) === null) {
    if (def.name.trim() === '') fail('Label cannot be blank.');
    checkText(def.hint, 'hint', FIELD_HINT_MAX_LENGTH);
    checkText(def.name, 'name', FIELD_NAME_MAX_LENGTH);
  }
  if (!(Object.values(FieldType) as number[]).includes(def.fieldType)) fail('Invalid field type.');
  if (def.displayInProfileSummary && (def.fieldType === FieldType.LONG_TEXT || def.fieldType === FieldType.USER)) {
    fail('Field type not supported for display in profile summary.');
  }
  if (JSON.stringify(def.fieldData).includes('\\u0000')) fail('field_data contains NULL (0x00) characters.');
}

/** What field_data is stored as: JSON for list and external account fields, empty otherwise. */
export function storedFieldData(fieldType: number, data: FieldData): string {
  return fieldType === FieldType.SELECT || fieldType === FieldType.EXTERNAL_ACCOUNT ? JSON.stringify(data) : '';
}

export function parseFieldData(stored: string): FieldData {
  if (stored === '') return {};
  try {
    const value: unknown = JSON.parse(stored);
    return isPlainObject(value) ? value : {};
  } catch {
    return {};
  }
}
