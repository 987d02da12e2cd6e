// The state POST /register returns: one read per requested area, keyed by the event type
// that keeps it current. apply.ts folds later events into what this builds.
import type { DbOrTx, RealmRow, UserRow } from '../db/schema.js';
import { CREATE_MULTIUSE_INVITE_GROUP } from '../lib/invites.js';
import { presenceResponse } from '../queries/presence-state.js';
import { realmUserDefaultsText } from '../queries/realm-user-defaults.js';
import { realmEmojiOf } from '../queries/realm-emoji.js';
import { listUserGroups, systemGroupIds } from '../queries/user-groups.js';
import { realmUserStatuses } from '../queries/user-status.js';
import { maxMessageIdForUser } from '../queries/users.js';
import { realmBotsState } from './state/bots.js';
import { recentPrivateConversationsState, starredState, unreadState } from './state/messages.js';
import { realmDomainsState, realmLinkifiersState, realmPlaygroundsState } from './state/linkifiers.js';
import { personalState } from './state/personal.js';
import { placeholderState } from './state/placeholders.js';
import { profileFieldsState } from './state/profile-fields.js';
import { realmState, type UploadLimits } from './state/realm.js';
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
  /** The configured upload limits (the defaults when absent). */
  uploads?: UploadLimits;
  /** Presences keyed by user id in the slim form (the register parameter slim_presence). */
  slimPresence?: boolean;
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
  // The areas are independent reads; on PostgreSQL they run side by side on the pool's connections.
  // Each is merged in this order, whichever finishes first.
  const parts: Array<InitialState | Promise<InitialState>> = [];
  const area = <T>(key: string, read: Promise<T>) => parts.push(read.then((value) => ({ [key]: value })));

  if (want('realm')) {
    parts.push(realmState(realm, options));
    // The two group-valued realm settings of feature level 229, at their defaults.
    parts.push(
      systemGroupIds(db, realm.id).then((ids) => ({
        realm_create_multiuse_invite_group: ids.get(CREATE_MULTIUSE_INVITE_GROUP) ?? -1,
        realm_can_access_all_users_group: ids.get('role:everyone') ?? -1,
      })),
    );
  }
  if (want('realm_user')) parts.push(realmUserState(db, user, realm, options.now, options.clientGravatar));
  if (want('subscription') || want('stream')) {
    parts.push(
      loadUserStreams(db, user).then(async (known) => ({
        ...(want('subscription') ? await subscriptionState(db, user, options.includeSubscribers, known) : {}),
        ...(want('stream') ? streamState(user, known) : {}),
      })),
    );
  }
  if (want('default_streams')) parts.push(defaultStreamsState(db, user));
  if (want('message')) area('max_message_id', maxMessageIdForUser(db, user.id));
  if (want('message') && want('update_message_flags')) area('unread_msgs', unreadState(db, user.id));
  if (want('starred_messages')) area('starred_messages', starredState(db, user.id));
  if (want('recent_private_conversations')) area('recent_private_conversations', recentPrivateConversationsState(db, user.id));

  if (want('user_settings')) parts.push({ user_settings: userSettingsState(user) });
  if (!options.capabilities.user_settings_object) {
    parts.push(legacySettingsState(user, want('update_display_settings'), want('update_global_notifications')));
  }
  if (want('realm_user_settings_defaults')) {
    area('realm_user_settings_defaults', realmUserDefaultsText(db, realm.id).then(realmUserSettingsDefaultsState));
  }

  if (want('realm_linkifiers')) area('realm_linkifiers', realmLinkifiersState(db, realm.id, options.capabilities));
  // The legacy realm_filters list is always empty (the reference keeps the key for old clients).
  if (want('realm_filters')) parts.push({ realm_filters: [] });
  if (want('realm_playgrounds')) area('realm_playgrounds', realmPlaygroundsState(db, realm.id));
  if (want('realm_domains')) area('realm_domains', realmDomainsState(db, realm.id));

  if (want('realm_user_groups')) area('realm_user_groups', listUserGroups(db, realm, options.now));
  if (want('custom_profile_fields')) parts.push(profileFieldsState(db, realm.id));
  if (want('realm_bot')) area('realm_bots', realmBotsState(db, user, realm));
  if (want('realm_emoji')) area('realm_emoji', realmEmojiOf(db, realm.id));
  if (want('user_status')) area('user_status', realmUserStatuses(db, realm.id));
  if (want('presence')) parts.push(presenceResponse(db, realm, options.slimPresence ?? false, options.now));
  parts.push(placeholderState(want));
  parts.push(personalState(db, user, want, wanted === null));
  const state: InitialState = {};
  for (const part of await Promise.all(parts)) Object.assign(state, part);
  return state;
}
