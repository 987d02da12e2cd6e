// Folds personal-settings events into a POST /register state: user_settings updates, their legacy
// twins for clients without user_settings_object, and changes to the user's own identity.
type Dict = Record<string, any>;

export function applySettingsEvent(state: Dict, event: Dict): void {
  switch (event.type) {
    case 'user_settings':
      if (event.op === 'update' && state.user_settings) state.user_settings[event.property] = event.value;
      // The one setting legacy clients read top-level without a legacy event of its own.
      if (event.op === 'update' && event.property === 'enter_sends' && 'enter_sends' in state) state.enter_sends = event.value;
      return;
    case 'update_display_settings':
      if (event.setting_name in state) state[event.setting_name] = event.setting;
      return;
    case 'update_global_notifications':
      if (event.notification_name in state) state[event.notification_name] = event.setting;
      return;
    case 'realm_user_settings_defaults':
      if (event.op === 'update' && state.realm_user_settings_defaults) state.realm_user_settings_defaults[event.property] = event.value;
      return;
    default:
      return;
  }
}

/** Fields of an avatar change that only the user's own top-level state carries, not user dicts. */
const OWN_AVATAR_FIELDS = ['avatar_source', 'avatar_url_medium'];

/**
 * A realm_user update about the queue's own user changes the top-level identity keys too; returns
 * the event as the user lists should take it (without the fields user dicts do not have).
 */
export function applyOwnIdentity(state: Dict, event: Dict, userId: number): Dict {
  const person = event.person as Dict | undefined;
  if (event.op !== 'update' || !person) return event;
  if (person.user_id === userId && 'user_id' in state) {
    if (typeof person.delivery_email === 'string') state.delivery_email = person.delivery_email;
    if (typeof person.new_email === 'string') state.email = person.new_email;
    if (typeof person.avatar_url === 'string') {
      for (const key of ['avatar_url', ...OWN_AVATAR_FIELDS]) if (key in person) state[key] = person[key];
    }
  }
  if (!OWN_AVATAR_FIELDS.some((key) => key in person)) return event;
  const trimmed = { ...person };
  for (const key of OWN_AVATAR_FIELDS) delete trimmed[key];
  return { ...event, person: trimmed };
}
