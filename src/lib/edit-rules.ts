// Who may edit or move a message and until when: pure rules over rows already loaded,
// with `now` passed in. The texts are the reference's.
import type { StreamRow, UserRow } from '../types/rows.js';
import { ApiError } from '../errors.js';
import { RESOLVED_TOPIC_PREFIX } from './message-content.js';
import { passesPolicy } from './permissions.js';
import type { RealmSettings } from './realm-settings.js';
import { isGuest, isModerator } from './roles.js';

/** Clients offer editing a little past the limit; the server allows this much extra. */
const EDIT_LIMIT_GRACE_SECONDS = 20;
/** Wildcard mentions reach this many people before the realm's policy applies. */
const WILDCARD_MENTION_THRESHOLD = 15;

export type PropagateMode = 'change_one' | 'change_later' | 'change_all';
export const PROPAGATE_MODES: readonly PropagateMode[] = ['change_one', 'change_later', 'change_all'];

type Actor = Pick<UserRow, 'id' | 'role' | 'date_joined'>;
type Settings = Pick<
  RealmSettings,
  | 'allow_message_editing'
  | 'message_content_edit_limit_seconds'
  | 'edit_topic_policy'
  | 'move_messages_between_streams_policy'
  | 'move_messages_within_stream_limit_seconds'
  | 'move_messages_between_streams_limit_seconds'
  | 'waiting_period_threshold'
>;

/** Whether the limit (plus the grace) has run out for a message sent at `sentAt`. */
function pastLimit(limit: number | null, sentAt: number, now: number): boolean {
  return limit !== null && now - sentAt > limit + EDIT_LIMIT_GRACE_SECONDS;
}

/** Content edits: only the sender, only while the realm allows editing and the limit lasts. */
export function checkContentEdit(actor: Actor, senderId: number, sentAt: number, settings: Settings, now: number): void {
  if (!settings.allow_message_editing) throw new ApiError('Your organization has turned off message editing');
  if (senderId !== actor.id) throw new ApiError("You don't have permission to edit this message");
  if (pastLimit(settings.message_content_edit_limit_seconds, sentAt, now)) {
    throw new ApiError('The time limit for editing this message has passed');
  }
}

/** Administrators and moderators are exempt from every move time limit. */
const exemptFromMoveLimits = (actor: Actor) => isModerator(actor);

/** Topic edits (resolving included): edit_topic_policy, then the within-stream time limit. */
export function checkTopicEdit(actor: Actor, sentAt: number, settings: Settings, now: number): void {
  if (!passesPolicy(actor, settings.edit_topic_policy, settings.waiting_period_threshold, now)) {
    throw new ApiError("You don't have permission to edit this message");
  }
  if (!exemptFromMoveLimits(actor) && pastLimit(settings.move_messages_within_stream_limit_seconds, sentAt, now)) {
    throw new ApiError("The time limit for editing this message's topic has passed.");
  }
}

/** Stream moves: move_messages_between_streams_policy, then the between-streams time limit. */
export function checkStreamMove(actor: Actor, sentAt: number, settings: Settings, now: number): void {
  if (!passesPolicy(actor, settings.move_messages_between_streams_policy, settings.waiting_period_threshold, now)) {
    throw new ApiError("You don't have permission to move this message");
  }
  if (!exemptFromMoveLimits(actor) && pastLimit(settings.move_messages_between_streams_limit_seconds, sentAt, now)) {
    throw new ApiError("The time limit for editing this message's channel has passed");
  }
}

/**
 * The strictest applicable move limit (with the grace) for moving a whole topic, or null when
 * none applies: the actor is exempt, or no limit is set for what changes.
 */
export function moveDeadlineSeconds(actor: Actor, settings: Settings, topicChanged: boolean, streamChanged: boolean): number | null {
  if (exemptFromMoveLimits(actor)) return null;
  const limits: number[] = [];
  if (topicChanged && settings.move_messages_within_stream_limit_seconds !== null) {
    limits.push(settings.move_messages_within_stream_limit_seconds + EDIT_LIMIT_GRACE_SECONDS);
  }
  if (streamChanged && settings.move_messages_between_streams_limit_seconds !== null) {
    limits.push(settings.move_messages_between_streams_limit_seconds + EDIT_LIMIT_GRACE_SECONDS);
  }
  return limits.length === 0 ? null : Math.min(...limits);
}

/**
 * MOVE_MESSAGES_TIME_LIMIT_EXCEEDED when some of the topic's messages (those the actor may
 * access, oldest first) are older than the deadline; nothing when all may move.
 */
export function checkWholeTopicMove(messages: ReadonlyArray<{ id: number; date_sent: number }>, deadline: number, now: number): void {
  const allowed = messages.filter((m) => now - m.date_sent <= deadline).map((m) => m.id);
  if (allowed.length === messages.length) return;
  throw new MoveMessagesTimeLimitError(allowed.length > 0 ? Math.min(...allowed) : null, messages.length, allowed.length);
}

export class MoveMessagesTimeLimitError extends ApiError {
  constructor(firstAllowed: number | null, total: number, allowed: number) {
    super(`You only have permission to move the ${allowed}/${total} most recent messages in this topic.`, {
      code: 'MOVE_MESSAGES_TIME_LIMIT_EXCEEDED',
      data: {
        first_message_id_allowed_to_move: firstAllowed,
        total_messages_in_topic: total,
        total_messages_allowed_to_move: allowed,
      },
    });
  }
}

type StreamKind = Pick<StreamRow, 'invite_only' | 'is_web_public'>;

/** A destination stream must be one the actor could post in: subscribed, or public (web-public for guests). */
export function canMoveInto(actor: Pick<UserRow, 'role'>, stream: StreamKind, subscribed: boolean): boolean {
  if (subscribed) return true;
  if (stream.invite_only) return false;
  return !isGuest(actor) || Boolean(stream.is_web_public);
}

/**
 * stream_post_policy's restricting values (2 admins, 3 full members, 4 moderators) are the common
 * policy values of the same meaning; each refusal has the reference's text.
 */
const POST_POLICY_REFUSALS: Readonly<Record<number, string>> = {
  2: 'Only organization administrators can send to this channel.',
  3: 'New members cannot send to this channel.',
  4: 'Only organization administrators and moderators can send to this channel.',
};

/** The destination's stream_post_policy. */
export function checkStreamPostPolicy(actor: Actor, stream: Pick<StreamRow, 'stream_post_policy'>, waitingDays: number, now: number): void {
  const refusal = POST_POLICY_REFUSALS[stream.stream_post_policy];
  if (refusal !== undefined && !passesPolicy(actor, stream.stream_post_policy, waitingDays, now)) throw new ApiError(refusal);
}

/**
 * The era's wildcard_mention_policy values (1 everyone, 2 members, 3 full members, 5 admins,
 * 6 nobody, 7 moderators) as the common policy values passesPolicy judges; anything else is nobody.
 */
const WILDCARD_AS_COMMON_POLICY: Readonly<Record<number, number>> = { 1: 5, 2: 1, 3: 3, 5: 2, 7: 4 };
const NOBODY = 6;

function wildcardPolicyAllows(sender: Actor, policy: number, waitingDays: number, now: number): boolean {
  return passesPolicy(sender, WILDCARD_AS_COMMON_POLICY[policy] ?? NOBODY, waitingDays, now);
}

/** Small audiences may always be mentioned at once; larger ones only under the realm's policy. */
export function wildcardMentionAllowed(sender: Actor, audience: number, policy: number, waitingDays: number, now: number): boolean {
  return audience <= WILDCARD_MENTION_THRESHOLD || wildcardPolicyAllows(sender, policy, waitingDays, now);
}

export class StreamWildcardMentionNotAllowedError extends ApiError {
  constructor() {
    super('You do not have permission to use channel wildcard mentions in this channel.', {
      code: 'STREAM_WILDCARD_MENTION_NOT_ALLOWED',
    });
  }
}

export class TopicWildcardMentionNotAllowedError extends ApiError {
  constructor() {
    super('You do not have permission to use topic wildcard mentions in this topic.', {
      code: 'TOPIC_WILDCARD_MENTION_NOT_ALLOWED',
    });
  }
}

/** Whether a topic change only adds or removes the resolved mark. */
export function resolveChange(oldTopic: string, newTopic: string): 'resolved' | 'unresolved' | null {
  const wasResolved = oldTopic.startsWith(RESOLVED_TOPIC_PREFIX);
  const isResolved = newTopic.startsWith(RESOLVED_TOPIC_PREFIX);
  if (isResolved && !wasResolved && newTopic.slice(RESOLVED_TOPIC_PREFIX.length) === oldTopic) return 'resolved';
  if (wasResolved && !isResolved && stripResolvedMarks(oldTopic) === newTopic) return 'unresolved';
  return null;
}

/** Removes any run of leading check marks and spaces ("✔ ✔ x" unresolves to "x"). */
function stripResolvedMarks(topic: string): string {
  return topic.replace(/^[✔ ]+/u, '');
}
