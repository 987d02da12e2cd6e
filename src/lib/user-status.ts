// User status rules: what a POST /users/me/status asks to change, checked in the reference's
// order, and how a stored status looks to clients (only the fields that are set).

/** Characters of a status text, after trimming. */
export const MAX_STATUS_TEXT_LENGTH = 60;

export const UNICODE_EMOJI = 'unicode_emoji';

export interface StatusRequest {
  away?: boolean;
  statusText?: string;
  emojiName?: string;
  emojiCode?: string;
  reactionType?: string;
}

/** The change to store: undefined leaves a field as it is. */
export interface StatusChange {
  away?: boolean;
  statusText?: string;
  /** Set together: an emoji, or ('', '', unicode_emoji) to clear it. */
  emoji?: { name: string; code: string; type: string };
}

export interface StoredStatus {
  status_text: string;
  emoji_name: string;
  emoji_code: string;
  reaction_type: string;
}

export interface UserStatusDict {
  away?: true;
  status_text?: string;
  emoji_name?: string;
  emoji_code?: string;
  reaction_type?: string;
}

/** The status as clients see it; `away` is the deprecated mirror of presence_enabled. */
export function userStatusDict(row: StoredStatus, presenceEnabled: boolean): UserStatusDict {
  const dict: UserStatusDict = {};
  if (!presenceEnabled) dict.away = true;
  if (row.status_text !== '') dict.status_text = row.status_text;
  if (row.emoji_name !== '') {
    dict.emoji_name = row.emoji_name;
    dict.emoji_code = row.emoji_code;
    dict.reaction_type = row.reaction_type;
  }
  return dict;
}

/** The user_status event of a change: the user and each field the change names. */
export function userStatusEvent(userId: number, change: StatusChange): Record<string, unknown> & { type: string } {
  const event: Record<string, unknown> & { type: string } = { type: 'user_status', user_id: userId };
  if (change.away !== undefined) event.away = change.away;
  if (change.statusText !== undefined) event.status_text = change.statusText;
  if (change.emoji) {
    event.emoji_name = change.emoji.name;
    event.emoji_code = change.emoji.code;
    event.reaction_type = change.emoji.type;
  }
  return event;
}
