// A resolved narrow as an in-memory test over one message, for event queues deciding
// whether a new message belongs to a client's narrow. It must select exactly what
// queries/narrow/sql.ts selects; test/queries/narrow-agreement.test.ts holds them together.
//
// Security rule, as for the SQL: a term may only remove messages, never add them. The
// predicate is applied to messages the viewer may already see; it only ever says no.
import { RecipientType } from '../../types/rows.js';
import { RESOLVED_TOPIC_PREFIX } from '../message-content.js';
import { matchesSearch } from './search.js';
import {
  type Condition,
  foldTopic,
  type MessageFacts,
  type ResolvedNarrow,
  type TopicState,
  topicKey,
  VisibilityPolicy,
} from './types.js';

export type MessagePredicate = (message: MessageFacts) => boolean;

const isStream = (m: MessageFacts) => m.recipientType === RecipientType.STREAM;

function topicPolicy(state: TopicState, m: MessageFacts): number {
  if (!isStream(m)) return VisibilityPolicy.INHERIT;
  return state.policies.get(topicKey(m.recipientId, m.topic)) ?? VisibilityPolicy.INHERIT;
}

/** Whether the combined feed shows the message: not in a muted topic, nor in a muted stream unless its topic is unmuted or followed. */
export function inHomeView(state: TopicState, m: MessageFacts): boolean {
  const policy = topicPolicy(state, m);
  if (policy === VisibilityPolicy.MUTED) return false;
  if (isStream(m) && state.mutedStreamRecipientIds.has(m.recipientId)) {
    return policy === VisibilityPolicy.UNMUTED || policy === VisibilityPolicy.FOLLOWED;
  }
  return true;
}

function requireState(state: TopicState | undefined): TopicState {
  if (!state) throw new Error('This narrow needs the viewer topic state (queries/narrow/resolve.ts loadTopicState)');
  return state;
}

function test(condition: Condition, state: TopicState | undefined): MessagePredicate {
  switch (condition.kind) {
    case 'conversation':
      return (m) =>
        condition.anyOf.some(
          (c) => (c.senderId === undefined || c.senderId === m.senderId) && c.recipientIds.includes(m.recipientId),
        );
    case 'topic': {
      const wanted = foldTopic(condition.topic);
      return (m) => isStream(m) && foldTopic(m.topic) === wanted;
    }
    case 'sender':
      return (m) => m.senderId === condition.userId;
    case 'is-dm':
      return (m) => !isStream(m);
    case 'flags':
      return (m) => ((m.flags & condition.mask) !== 0) === condition.set;
    case 'resolved':
      return (m) => isStream(m) && m.topic.startsWith(RESOLVED_TOPIC_PREFIX);
    case 'followed': {
      const known = requireState(state);
      return (m) => topicPolicy(known, m) === VisibilityPolicy.FOLLOWED;
    }
    case 'home': {
      const known = requireState(state);
      return (m) => inHomeView(known, m);
    }
    case 'muted': {
      const known = requireState(state);
      return (m) => !inHomeView(known, m);
    }
    case 'has':
      switch (condition.what) {
        case 'link':
          return (m) => m.hasLink;
        case 'image':
          return (m) => m.hasImage;
        case 'attachment':
          return (m) => m.hasAttachment;
        case 'reaction':
          return (m) => m.hasReaction;
      }
      break;
    case 'id':
      return (m) => m.id === condition.id;
    case 'search':
      return (m) => matchesSearch(condition.query, m.topic, m.content);
  }
  throw new Error(`unhandled narrow condition ${JSON.stringify(condition)}`);
}

/**
 * The narrow as a function of one message. `state` is required when the narrow reads
 * per-topic visibility (narrow.needsTopicState).
 */
export function buildNarrowPredicate(narrow: ResolvedNarrow, state?: TopicState): MessagePredicate {
  const tests = narrow.conditions.map((condition) => {
    const matches = test(condition, state);
    return condition.negated ? (m: MessageFacts) => !matches(m) : matches;
  });
  return (m) => tests.every((t) => t(m));
}
