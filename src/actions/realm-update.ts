// PATCH /realm: administrators change the organization's name, description and settings;
// every active user hears of each change in the event form the reference uses for it.
import { ApiError, RequestVariableInvalidError, UnauthorizedPrincipalError } from '../errors.js';
import { isLanguageCode } from '../lib/languages.js';
import {
  MAX_REALM_DESCRIPTION_LENGTH,
  MAX_REALM_NAME_LENGTH,
  REALM_PATCH_SPECS,
  REALM_SETTING_DEFAULTS,
  type RealmSettingRule,
  realmSettings,
} from '../lib/realm-settings.js';
import { isOwner } from '../lib/roles.js';
import { notInList, parseJsonValue } from '../lib/settings-registry.js';
import { requireAdmin } from '../lib/permissions.js';
import { activeUserIds } from '../queries/users.js';
import type { ActionContext } from './context.js';

type Value = boolean | number | string | null;

/** The settings PATCH /realm reads, besides name, description and the legacy allow_edit_history. */
export const REALM_PATCH_NAMES: readonly string[] = Object.keys(REALM_PATCH_SPECS);

const SPECIAL_WORDS = new Set(['unlimited', 'forever']);

function checkText(name: string, raw: string, maxLength?: number): string {
  if (raw.includes('\u0000')) throw new ApiError(`${name} contains NULL (0x00) characters.`);
  if (maxLength !== undefined && [...raw].length > maxLength) throw new ApiError(`${name} is too long (limit: ${maxLength} characters)`);
  return raw;
}

/** Parses one raw value by its rule, with the reference's texts. */
export function parseRealmSetting(name: string, rule: RealmSettingRule, raw: string): Value {
  switch (rule.kind) {
    case 'bool': {
      const value = parseJsonValue(raw, name);
      if (typeof value !== 'boolean') throw new ApiError(`${name} is not a boolean`);
      return value;
    }
    case 'int': {
      const value = parseJsonValue(raw, name);
      if (typeof value !== 'number' || !Number.isInteger(value)) throw new ApiError(`${name} is not an integer`);
      if (rule.min !== undefined && value < rule.min) throw new ApiError(`${name} is too small`);
      if (rule.values && !rule.values.includes(value)) throw rule.invalidText ? new ApiError(rule.invalidText(value)) : notInList(name);
      return value;
    }
    case 'time_limit':
    case 'retention': {
      // The special words are JSON strings; taken bare as well, as clients often send them.
      const value = SPECIAL_WORDS.has(raw) ? raw : parseJsonValue(raw, name);
      if (typeof value !== 'string' && (typeof value !== 'number' || !Number.isInteger(value))) {
        throw new ApiError(`${name} is not a string or an integer`);
      }
      if (value === 'unlimited' || (rule.kind === 'retention' && value === 'forever')) return rule.kind === 'retention' ? -1 : null;
      if (typeof value === 'string' || value <= 0 || value > 2_147_483_647) throw new RequestVariableInvalidError(name, value);
      return value;
    }
    case 'string': {
      checkText(name, raw, rule.maxLength);
      if (rule.values && !rule.values.includes(raw)) throw notInList(name);
      if (name === 'default_language' && !isLanguageCode(raw)) throw new ApiError(`Invalid language '${raw}'`);
      return raw;
    }
  }
}

export interface RealmUpdateRequest {
  name?: string;
  description?: string;
  /** The era's boolean form of message_edit_history_visibility_policy. */
  allowEditHistory?: string;
  settings: Record<string, string | undefined>;
}

/** Applies the changes; returns each changed value ("updated" for text), as the reference answers. */
export async function checkUpdateRealm(ctx: ActionContext, request: RealmUpdateRequest): Promise<Record<string, Value>> {
  requireAdmin(ctx.actor);
  const wanted: Record<string, Value> = {};
  for (const name of REALM_PATCH_NAMES) {
    const raw = request.settings[name];
    if (raw !== undefined) wanted[name] = parseRealmSetting(name, REALM_PATCH_SPECS[name]!.rule, raw);
  }
  let allowEditHistory: boolean | undefined;
  if (request.allowEditHistory !== undefined) {
    allowEditHistory = parseRealmSetting('allow_edit_history', { kind: 'bool' }, request.allowEditHistory) as boolean;
    wanted.message_edit_history_visibility_policy ??= allowEditHistory ? 'all' : 'none';
  }
  const name = request.name === undefined ? undefined : checkText('name', request.name, MAX_REALM_NAME_LENGTH);
  const description = request.description === undefined ? undefined : checkText('description', request.description, MAX_REALM_DESCRIPTION_LENGTH);
  if (Object.keys(wanted).some((key) => REALM_PATCH_SPECS[key]!.ownerOnly) && !isOwner(ctx.actor)) {
    throw new UnauthorizedPrincipalError('Must be an organization owner');
  }

  const current = realmSettings(ctx.realm) as Record<string, Value>;
  const changed = Object.entries(wanted).filter(([key, value]) => current[key] !== value);
  const response: Record<string, Value> = {};
  const columns: { name?: string; description?: string; settings?: string } = {};
  if (name !== undefined && name !== ctx.realm.name) columns.name = name;
  if (description !== undefined && description !== ctx.realm.description) columns.description = description;
  if (changed.length > 0) {
    const stored: Record<string, Value> = ctx.realm.settings ? JSON.parse(ctx.realm.settings) : {};
    const defaults = REALM_SETTING_DEFAULTS as Record<string, Value>;
    for (const [key, value] of changed) {
      if (defaults[key] === value) delete stored[key];
      else stored[key] = value;
    }
    columns.settings = JSON.stringify(stored);
  }
  if (Object.keys(columns).length === 0) return response;
  await ctx.tx.updateTable('realm').set(columns).where('id', '=', ctx.realm.id).execute();

  const everyone = await activeUserIds(ctx.tx, ctx.realm.id);
  const announce = (property: string, value: Value, form: 'update' | 'update_dict' = 'update') => {
    const event =
      form === 'update_dict'
        ? { type: 'realm', op: 'update_dict', property: 'default', data: { [property]: value } }
        : { type: 'realm', op: 'update', property, value };
    ctx.events.send(event, everyone);
    response[property] = typeof value === 'string' ? 'updated' : value;
  };
  if (columns.name !== undefined) announce('name', columns.name);
  if (columns.description !== undefined) announce('description', columns.description);
  for (const [key, value] of changed) {
    announce(key, value, REALM_PATCH_SPECS[key]!.event);
    if (key === 'message_edit_history_visibility_policy') {
      // Clients of the era read the boolean form.
      const allowed = value !== 'none';
      if (allowed !== (current[key] !== 'none')) announce('allow_edit_history', allowed);
    }
  }
  return response;
}
