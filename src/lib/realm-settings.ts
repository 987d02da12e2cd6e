// Realm settings: defaults of the feature-level-229 era, with the stored overrides laid over them.
// realm.settings holds only the values that differ from these defaults (JSON text).
import type { RealmRow } from '../db/schema.js';

/** The integer permission policies of the era (1 members, 2 admins, 3 full members, 4 moderators, 5 everyone, 6 nobody). */
export const Policy = { MEMBERS: 1, ADMINS: 2, FULL_MEMBERS: 3, MODERATORS: 4, EVERYONE: 5, NOBODY: 6 } as const;

export const REALM_SETTING_DEFAULTS = {
  allow_message_editing: true,
  message_content_edit_limit_seconds: 600 as number | null,
  message_content_delete_limit_seconds: 600 as number | null,
  move_messages_within_stream_limit_seconds: 604800 as number | null,
  move_messages_between_streams_limit_seconds: 604800 as number | null,
  edit_topic_policy: Policy.EVERYONE as number,
  move_messages_between_streams_policy: Policy.MEMBERS as number,
  delete_own_message_policy: Policy.EVERYONE as number,
  wildcard_mention_policy: Policy.EVERYONE as number,
  message_edit_history_visibility_policy: 'all' as 'all' | 'moves' | 'none',
  mandatory_topics: false,
  waiting_period_threshold: 0,
  email_address_visibility: 1,
};

export type RealmSettings = typeof REALM_SETTING_DEFAULTS;

export function realmSettings(realm: Pick<RealmRow, 'settings'>): RealmSettings {
  if (!realm.settings || realm.settings === '{}') return REALM_SETTING_DEFAULTS;
  return { ...REALM_SETTING_DEFAULTS, ...(JSON.parse(realm.settings) as Partial<RealmSettings>) };
}
