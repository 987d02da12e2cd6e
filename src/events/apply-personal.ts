// Folds the personal events (drafts, scheduled messages, muted users, alert words, topic visibility and
// subscription property updates) into a POST /register state.
import { byNewestEdit, type DraftDict } from '../lib/drafts.js';
import type { ScheduledMessageDict } from '../lib/scheduled-messages.js';
import type { UserTopicDict } from '../queries/user-topics.js';
import type { InitialState } from './initial-state.js';
import { MAX_DRAFTS_IN_REGISTER } from './state/personal.js';

type Dict = Record<string, any>;

export function applyPersonalEvent(state: InitialState, event: Dict): void {
  switch (event.type) {
    case 'drafts':
      return applyDrafts(state, event);
    case 'scheduled_messages':
      return applyScheduledMessages(state, event);
    case 'muted_users':
      if (Array.isArray(state.muted_users)) state.muted_users = structuredClone(event.muted_users);
      return;
    case 'alert_words':
      if (Array.isArray(state.alert_words)) state.alert_words = [...event.alert_words];
      return;
    case 'muted_topics':
      if (Array.isArray(state.muted_topics)) state.muted_topics = structuredClone(event.muted_topics);
      return;
    case 'user_topic':
      return applyUserTopic(state, event);
    default:
      return;
  }
}

function applyDrafts(state: InitialState, event: Dict): void {
  let drafts = state.drafts as DraftDict[] | undefined;
  if (!drafts) return;
  if (event.op === 'add') drafts.push(...(event.drafts as DraftDict[]).map((d) => ({ ...d })));
  else if (event.op === 'update') drafts = drafts.map((d) => (d.id === event.draft.id ? { ...event.draft } : d));
  else if (event.op === 'remove') drafts = drafts.filter((d) => d.id !== event.draft_id);
  state.drafts = drafts.sort(byNewestEdit).slice(0, MAX_DRAFTS_IN_REGISTER);
}

function applyScheduledMessages(state: InitialState, event: Dict): void {
  let list = state.scheduled_messages as ScheduledMessageDict[] | undefined;
  if (!list) return;
  if (event.op === 'add') list.push(...structuredClone(event.scheduled_messages as ScheduledMessageDict[]));
  else if (event.op === 'update') list = list.map((m) => (m.scheduled_message_id === event.scheduled_message.scheduled_message_id ? structuredClone(event.scheduled_message) : m));
  else if (event.op === 'remove') list = list.filter((m) => m.scheduled_message_id !== event.scheduled_message_id);
  state.scheduled_messages = list.sort((a, b) => a.scheduled_delivery_timestamp - b.scheduled_delivery_timestamp || a.scheduled_message_id - b.scheduled_message_id);
}

const sameTopic = (row: UserTopicDict, event: Dict) =>
  row.stream_id === event.stream_id && row.topic_name.toLowerCase() === String(event.topic_name).toLowerCase();

function applyUserTopic(state: InitialState, event: Dict): void {
  const rows = state.user_topics as UserTopicDict[] | undefined;
  if (!rows) return;
  const index = rows.findIndex((row) => sameTopic(row, event));
  if (event.visibility_policy === 0) {
    if (index >= 0) rows.splice(index, 1);
    return;
  }
  const row = {
    stream_id: event.stream_id,
    topic_name: event.topic_name,
    last_updated: event.last_updated,
    visibility_policy: event.visibility_policy,
  };
  if (index >= 0) rows[index] = row;
  else rows.push(row);
}

/** subscription/update: one property of one of the user's subscriptions. */
export function applySubscriptionUpdate(state: InitialState, event: Dict): void {
  const subscriptions = state.subscriptions as Dict[] | undefined;
  const sub = subscriptions?.find((s) => s.stream_id === event.stream_id);
  if (sub) sub[event.property] = event.value;
}
