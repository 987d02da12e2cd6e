// The shapes a narrow passes through: as sent (NarrowTerm), normalised (Term),
// and resolved against the store (Condition), which both the SQL builder and the
// in-memory predicate read.

/** One term as the client sent it, after the structural checks of the parameter layer. */
export interface NarrowTerm {
  operator: string;
  operand: string | number | number[];
  negated: boolean;
}

export const IS_OPERANDS = ['dm', 'starred', 'unread', 'mentioned', 'alerted', 'resolved', 'followed', 'muted'] as const;
export const HAS_OPERANDS = ['attachment', 'image', 'link', 'reaction'] as const;
export const IN_OPERANDS = ['home', 'all'] as const;
export const CHANNELS_OPERANDS = ['public', 'web-public'] as const;

export type IsOperand = (typeof IS_OPERANDS)[number];
export type HasOperand = (typeof HAS_OPERANDS)[number];
export type InOperand = (typeof IN_OPERANDS)[number];
export type ChannelsOperand = (typeof CHANNELS_OPERANDS)[number];

/** A term under its current operator name, with its operand checked. */
export type Term = { negated: boolean } & (
  | { operator: 'channel'; operand: string | number }
  | { operator: 'channels'; operand: ChannelsOperand }
  | { operator: 'topic'; operand: string }
  | { operator: 'sender'; operand: string | number }
  | { operator: 'dm'; operand: string | number[] }
  | { operator: 'dm-including'; operand: string | number }
  | { operator: 'group-pm-with'; operand: string | number }
  | { operator: 'is'; operand: IsOperand }
  | { operator: 'has'; operand: HasOperand }
  | { operator: 'in'; operand: InOperand }
  | { operator: 'near'; operand: string }
  | { operator: 'id'; operand: number }
  | { operator: 'with'; operand: number }
  | { operator: 'search'; operand: string }
);

export type Operator = Term['operator'];

/** Words to look up in the full-text index, and quoted phrases to find verbatim. */
export interface SearchQuery {
  /** The operands as sent, joined: what PostgreSQL's own query parser reads. */
  text: string;
  /** Lower-cased words, stop words removed; empty means nothing can match. */
  words: string[];
  phrases: string[];
}

/** A message matches when it fits any one of these (empty list: never). */
export interface ConversationClause {
  senderId?: number;
  recipientIds: number[];
}

/** A term resolved against the store: ids instead of names, ready to become SQL or a predicate. */
export type Condition = { negated: boolean } & (
  /** `direct`: the clauses name direct-message recipients only (the store may use its private-message index). */
  | { kind: 'conversation'; anyOf: ConversationClause[]; direct?: boolean }
  /**
   * `streamRecipientIds`: every stream recipient of the realm, when no channel term narrows the
   * recipients already; it restates "stream messages only" in a form the topic index can use.
   */
  | { kind: 'topic'; topic: string; streamRecipientIds?: number[] }
  | { kind: 'sender'; userId: number }
  | { kind: 'is-dm' }
  | { kind: 'flags'; mask: number; set: boolean }
  | { kind: 'resolved' }
  | { kind: 'followed' }
  | { kind: 'muted' }
  | { kind: 'home' }
  | { kind: 'has'; what: HasOperand }
  | { kind: 'id'; id: number }
  | { kind: 'search'; query: SearchQuery }
);

export interface ResolvedNarrow {
  viewerId: number;
  realmId: number;
  conditions: Condition[];
  /** Words of the non-negated search terms, for highlighting; null when the narrow has none. */
  highlight: SearchQuery | null;
  /** Whether messages the viewer never received may be returned (shared stream history). */
  includeHistory: boolean;
  /** The stream of the first channel term: muting rules inside it are all that apply to first_unread. */
  scopeStreamId: number | null;
  /** Whether any condition reads per-topic visibility (is:followed, is:muted, in:home). */
  needsTopicState: boolean;
}

/** What the in-memory predicate knows about one message and the viewer's copy of it. */
export interface MessageFacts {
  id: number;
  senderId: number;
  recipientId: number;
  /** 1 personal, 2 stream, 3 direct-message group. */
  recipientType: number;
  topic: string;
  content: string;
  /** The viewer's user_message flags (lib/message-flags.ts bits). */
  flags: number;
  hasLink: boolean;
  hasImage: boolean;
  hasAttachment: boolean;
  hasReaction: boolean;
}

/** The viewer's muting state: muted stream recipients and per-topic visibility policies. */
export interface TopicState {
  mutedStreamRecipientIds: ReadonlySet<number>;
  /** Keyed by topicKey(recipientId, topic). */
  policies: ReadonlyMap<string, number>;
}

export const VisibilityPolicy = { INHERIT: 0, MUTED: 1, UNMUTED: 2, FOLLOWED: 3 } as const;

/** Topics match case-insensitively. */
export function foldTopic(topic: string): string {
  return topic.toLowerCase();
}

export function topicKey(recipientId: number, topic: string): string {
  return `${recipientId}\u0000${foldTopic(topic)}`;
}

/** Message ids are 32-bit in PostgreSQL's serial column; nothing larger can exist. */
export const MAX_MESSAGE_ID = 2147483647;
