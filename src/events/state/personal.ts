// The personal parts of the POST /register state: drafts, scheduled messages, muted users, alert words and
// topic visibility policies.
import type { DbOrTx, UserRow } from '../../db/schema.js';
import { byNewestEdit } from '../../lib/drafts.js';
import { alertWordsOf } from '../../queries/alert-words.js';
import { draftsOf } from '../../queries/drafts.js';
import { scheduledMessagesOf } from '../../queries/scheduled-messages.js';
import { mutedUsersOf } from '../../queries/muted-users.js';
import { mutedTopicsOf, userTopicsOf } from '../../queries/user-topics.js';

/** /register returns at most this many drafts, the most recently edited. */
export const MAX_DRAFTS_IN_REGISTER = 1000;

export async function personalState(
  db: DbOrTx,
  user: Pick<UserRow, 'id'>,
  want: (type: string) => boolean,
  everything = false,
): Promise<Record<string, unknown>> {
  const state: Record<string, unknown> = {};
  if (want('drafts')) state.drafts = (await draftsOf(db, user.id)).sort(byNewestEdit).slice(0, MAX_DRAFTS_IN_REGISTER);
  if (want('scheduled_messages')) state.scheduled_messages = await scheduledMessagesOf(db, user.id);
  if (want('muted_users')) state.muted_users = await mutedUsersOf(db, user.id);
  if (want('alert_words')) state.alert_words = await alertWordsOf(db, user.id);
  if (want('user_topic')) state.user_topics = await userTopicsOf(db, user.id);
  // The legacy list serves clients that do not follow user_topic, and those that asked for every area.
  if (want('muted_topics') && (everything || !want('user_topic'))) state.muted_topics = await mutedTopicsOf(db, user.id);
  return state;
}
