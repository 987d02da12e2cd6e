// The state POST /register returns: one read per requested area, keyed by the event type
// that keeps it current. apply.ts folds later events into what this builds.
import type { DbOrTx, RealmRow, UserRow } from '../db/schema.js';
import { realmUserDefaultsText } from '../queries/realm-user-defaults.js';
import { maxMessageIdForUser } from '../queries/users.js';
import { recentPrivateConversationsState, starredState, unreadState } from './state/messages.js';
import { realmLinkifiersState, realmPlaygroundsState } from './state/linkifiers.js';
import { personalState } from './state/personal.js';
import { realmState } from './state/realm.js';
import { legacySettingsState, realmUserSettingsDefaultsState, userSettingsState } from './state/settings.js';
import { defaultStreamsState } from './state/default-streams.js';
import { loadUserStreams, streamState, subscriptionState } from './state/streams.js';
import { realmUserState } from './state/users.js';
import type { ClientCapabilities } from './types.js';

export interface StateOptions {
  /** Integer UNIX seconds. */
  now: number;
  clientGravatar: boolean;
  includeSubscribers: boolean;
  capabilities: ClientCapabilities;
  /** When the serving process started (server_generation). */
  serverGeneration: number;
  development: boolean;
  /** The server's WEB_PUBLIC_STREAMS_ENABLED setting (off when absent). */
  webPublicStreamsEnabled?: boolean;
}

export type InitialState = Record<string, unknown>;

/** `wanted` null means every area, as an absent fetch_event_types does. */
export async function fetchInitialState(
  db: DbOrTx,
  user: UserRow,
  realm: RealmRow,
  wanted: readonly string[] | null,
  options: StateOptions,
): Promise<InitialState> {
  const want = (type: string) => wanted === null || wanted.includes(type);
  const state: InitialState = {};

  if (want('realm')) Object.assign(state, realmState(realm, options));
  if (want('realm_user')) Object.assign(state, await realmUserState(db, user, realm, options.now, options.clientGravatar));
  if (want('subscription') || want('stream')) {
    const known = await loadUserStreams(db, user);
    if (want('subscription')) Object.assign(state, await subscriptionState(db, user, options.includeSubscribers, known));
    if (want('stream')) Object.assign(state, streamState(user, known));
  }
  if (want('default_streams')) Object.assign(state, await defaultStreamsState(db, user));
  if (want('message')) state.max_message_id = await maxMessageIdForUser(db, user.id);
  if (want('message') && want('update_message_flags')) state.unread_msgs = await unreadState(db, user.id);
  if (want('starred_messages')) state.starred_messages = await starredState(db, user.id);
  if (want('recent_private_conversations')) state.recent_private_conversations = await recentPrivateConversationsState(db, user.id);

  if (want('user_settings')) state.user_settings = userSettingsState(user);
  if (!options.capabilities.user_settings_object) {
    Object.assign(state, legacySettingsState(user, want('update_display_settings'), want('update_global_notifications')));
  }
  if (want('realm_user_settings_defaults')) {
    state.realm_user_settings_defaults = realmUserSettingsDefaultsState(await realmUserDefaultsText(db, realm.id));
  }

  if (want('realm_linkifiers')) state.realm_linkifiers = await realmLinkifiersState(db, realm.id, options.capabilities);
  // The legacy realm_filters list is always empty (the reference keeps the key for old clients).
  if (want('realm_filters')) state.realm_filters = [];
  if (want('realm_playgrounds')) state.realm_playgrounds = await realmPlaygroundsState(db, realm.id);

  Object.assign(state, await personalState(db, user, want));
  return state;
}
