// A queue spec with every capability on, for tests that create queues directly.
import type { UserRow } from '../../src/db/schema.js';
import type { QueueSpec } from '../../src/events/types.js';

export function queueSpec(user: Pick<UserRow, 'id' | 'realm_id'>, extra: Partial<QueueSpec> = {}): QueueSpec {
  return {
    userId: user.id,
    realmId: user.realm_id,
    eventTypes: null,
    narrow: [],
    capabilities: {
      notification_settings_null: false,
      bulk_message_deletion: true,
      user_avatar_url_field_optional: false,
      stream_typing_notifications: true,
      user_settings_object: true,
      linkifier_url_template: true,
    },
    applyMarkdown: true,
    clientGravatar: false,
    allPublicStreams: false,
    ...extra,
  };
}
