// How user_status events fold into the /register `user_status` (read by realmUserStatuses).
import { UNICODE_EMOJI } from '../../lib/user-status.js';

type Dict = Record<string, any>;

/** Sets or, for an empty value, removes one field of a status. */
function setField(status: Dict, key: string, value: unknown): void {
  if (value === '') delete status[key];
  else status[key] = value;
}

/**
 * A user_status event changes the fields it names; a user left with nothing set drops out, as
 * the register lists only users whose status shows something. A deactivated user drops out too.
 */
export function applyUserStatusEvent(state: Record<string, unknown>, event: Dict): void {
  const statuses = state.user_status as Record<string, Dict> | undefined;
  if (!statuses) return;
  if (event.type === 'realm_user') {
    if (event.op === 'update' && event.person?.is_active === false) delete statuses[String(event.person.user_id)];
    return;
  }
  const key = String(event.user_id);
  const status: Dict = { ...statuses[key] };
  if (typeof event.away === 'boolean') {
    if (event.away) status.away = true;
    else delete status.away;
  }
  if (typeof event.status_text === 'string') setField(status, 'status_text', event.status_text);
  if (typeof event.emoji_name === 'string') {
    setField(status, 'emoji_name', event.emoji_name);
    setField(status, 'emoji_code', event.emoji_code ?? '');
    if (event.emoji_name === '' && (event.reaction_type ?? UNICODE_EMOJI) === UNICODE_EMOJI) delete status.reaction_type;
    else status.reaction_type = event.reaction_type;
  }
  if (Object.keys(status).length === 0) delete statuses[key];
  else statuses[key] = status;
}
