// Register state for custom profile fields, and folding their events: the field list, and the
// values held in each user's profile_data.
import type { DbOrTx } from '../../db/schema.js';
import { listProfileFields } from '../../queries/profile-fields.js';
import { CUSTOM_PROFILE_FIELD_TYPES } from './catalogs.js';

type Dict = Record<string, any>;

export async function profileFieldsState(db: DbOrTx, realmId: number) {
  return {
    custom_profile_fields: await listProfileFields(db, realmId),
    custom_profile_field_types: structuredClone(CUSTOM_PROFILE_FIELD_TYPES),
  };
}

function eachProfileData(state: Dict, visit: (profileData: Dict, user: Dict) => void): void {
  for (const key of ['realm_users', 'realm_non_active_users']) {
    for (const user of (state[key] as Dict[] | undefined) ?? []) {
      if (user.profile_data && typeof user.profile_data === 'object') visit(user.profile_data, user);
    }
  }
}

/** custom_profile_fields carries the whole list; values of fields no longer listed drop out. */
export function applyProfileFieldsEvent(state: Dict, event: Dict): void {
  if (Array.isArray(state.custom_profile_fields)) state.custom_profile_fields = event.fields;
  const live = new Set((event.fields as Dict[]).map((field) => String(field.id)));
  eachProfileData(state, (profileData) => {
    for (const id of Object.keys(profileData)) if (!live.has(id)) delete profileData[id];
  });
}

/** A realm_user update with custom_profile_field sets (value null: clears) one user's value. */
export function applyProfileDataUpdate(state: Dict, event: Dict): void {
  const change = event.person?.custom_profile_field as Dict | undefined;
  if (event.op !== 'update' || !change) return;
  eachProfileData(state, (profileData, user) => {
    if (user.user_id !== event.person.user_id) return;
    const key = String(change.id);
    if (change.value === null) delete profileData[key];
    else profileData[key] = 'rendered_value' in change ? { value: change.value, rendered_value: change.rendered_value } : { value: change.value };
  });
}
