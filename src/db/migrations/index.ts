// Every migration, in order. Listed statically so the compiled build needs no file scanning.
import type { Migration } from 'kysely';
import * as createCore from './2026_11_22_000000_create_core.js';
import * as createUserTopic from './2026_11_22_010000_create_user_topic.js';
import * as indexPrivateMessages from './2026_11_22_010100_index_private_messages.js';
import * as createEventQueueSnapshot from './2026_11_22_020000_create_event_queue_snapshot.js';

export const migrations: Record<string, Migration> = {
  '2026_11_22_000000_create_core': createCore,
  '2026_11_22_010000_create_user_topic': createUserTopic,
  '2026_11_22_010100_index_private_messages': indexPrivateMessages,
  '2026_11_22_020000_create_event_queue_snapshot': createEventQueueSnapshot,
};
