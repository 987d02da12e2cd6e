// Builds the API's Stream and Subscription dictionaries from rows (feature-level-229 field set).
import type { StreamRow, SubscriptionRow } from '../types/rows.js';

/** stream_post_policy values: 1 everyone, 2 administrators, 3 full members, 4 moderators. */
export const StreamPostPolicy = { EVERYONE: 1, ADMINS: 2, RESTRICT_NEW_MEMBERS: 3, MODERATORS: 4 } as const;
export const STREAM_POST_POLICIES: readonly number[] = Object.values(StreamPostPolicy);

export interface StreamDict {
  stream_id: number;
  name: string;
  description: string;
  rendered_description: string;
  date_created: number;
  creator_id: number | null;
  invite_only: boolean;
  is_web_public: boolean;
  history_public_to_subscribers: boolean;
  first_message_id: number | null;
  message_retention_days: number | null;
  stream_post_policy: number;
  is_announcement_only: boolean;
  can_remove_subscribers_group: number | null;
  /** Traffic statistics are not kept: always null ("no information"). */
  stream_weekly_traffic: number | null;
  is_default?: boolean;
}

export function streamDict(stream: StreamRow): StreamDict {
  return {
    stream_id: stream.id,
    name: stream.name,
    description: stream.description,
    rendered_description: stream.rendered_description,
    date_created: stream.date_created,
    creator_id: stream.creator_id,
    invite_only: Boolean(stream.invite_only),
    is_web_public: Boolean(stream.is_web_public),
    history_public_to_subscribers: Boolean(stream.history_public_to_subscribers),
    first_message_id: stream.first_message_id,
    message_retention_days: stream.message_retention_days,
    stream_post_policy: stream.stream_post_policy,
    // Kept for clients older than stream_post_policy.
    is_announcement_only: stream.stream_post_policy === StreamPostPolicy.ADMINS,
    can_remove_subscribers_group: stream.can_remove_subscribers_group_id,
    stream_weekly_traffic: null,
  };
}

type SubscriptionSettings = Pick<
  SubscriptionRow,
  | 'color'
  | 'is_muted'
  | 'pin_to_top'
  | 'desktop_notifications'
  | 'audible_notifications'
  | 'push_notifications'
  | 'email_notifications'
  | 'wildcard_mentions_notify'
>;

/** A nullable 0/1 column: null means "follow the user's global setting". */
const optionalBool = (value: number | null): boolean | null => (value === null ? null : Boolean(value));

export function subscriptionDict(stream: StreamRow, sub: SubscriptionSettings, subscribers?: number[]) {
  const dict: Record<string, unknown> = {
    ...streamDict(stream),
    color: sub.color,
    is_muted: Boolean(sub.is_muted),
    // Kept for clients older than is_muted.
    in_home_view: !sub.is_muted,
    pin_to_top: Boolean(sub.pin_to_top),
    desktop_notifications: optionalBool(sub.desktop_notifications),
    audible_notifications: optionalBool(sub.audible_notifications),
    push_notifications: optionalBool(sub.push_notifications),
    email_notifications: optionalBool(sub.email_notifications),
    wildcard_mentions_notify: optionalBool(sub.wildcard_mentions_notify),
  };
  if (subscribers) dict.subscribers = [...subscribers].sort((a, b) => a - b);
  return dict;
}

/** Streams are listed by name, as the reference does. */
export function byStreamName(a: { name: string }, b: { name: string }): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}
