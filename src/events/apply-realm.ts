// Folds realm setting changes (PATCH /realm) into a POST /register state.
import { passesPolicy } from '../lib/permissions.js';
import { renderRealmDescription } from '../lib/realm-format.js';
import { Policy } from '../lib/realm-settings.js';
import { isGuest } from '../lib/roles.js';

type Dict = Record<string, any>;

/** Abilities the realm_user state derives from realm policies. */
const DERIVED_ABILITIES: Record<string, string[]> = {
  create_public_stream_policy: ['can_create_public_streams'],
  create_private_stream_policy: ['can_create_private_streams'],
  invite_to_stream_policy: ['can_subscribe_other_users'],
  invite_to_realm_policy: ['can_invite_others_to_realm'],
};

const KNOWN_POLICIES: readonly number[] = Object.values(Policy);

/** Whether a role passes a policy, when the role alone decides (full members also need their join date). */
function passesByRole(role: number, policy: number): boolean | undefined {
  if (policy === Policy.FULL_MEMBERS || !KNOWN_POLICIES.includes(policy)) return undefined;
  return passesPolicy({ role, date_joined: 0 }, policy, 0, 0);
}

function setProperty(state: Dict, property: string, value: unknown, role: number): void {
  const key = `realm_${property}`;
  if (property === 'description') {
    if (key in state) state[key] = renderRealmDescription(String(value));
    return;
  }
  if (key in state) state[key] = value;
  if (property === 'message_edit_history_visibility_policy' && 'realm_allow_edit_history' in state) {
    state.realm_allow_edit_history = value !== 'none';
  }
  for (const ability of DERIVED_ABILITIES[property] ?? []) {
    if (!(ability in state)) continue;
    const passes = passesByRole(role, Number(value));
    if (passes === undefined) continue;
    state[ability] = ability === 'can_invite_others_to_realm' ? passes && !isGuest({ role }) : passes;
  }
  if ((property === 'create_public_stream_policy' || property === 'create_private_stream_policy') && 'can_create_streams' in state) {
    state.can_create_streams = Boolean(state.can_create_public_streams) || Boolean(state.can_create_private_streams);
  }
}

export function applyRealmEvent(state: Dict, event: Dict, role: number): void {
  if (event.op === 'update') setProperty(state, event.property, event.value, role);
  else if (event.op === 'update_dict') {
    for (const [property, value] of Object.entries(event.data as Dict)) setProperty(state, property, value, role);
  }
}
