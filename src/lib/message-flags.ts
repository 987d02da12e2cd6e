// Personal message flags, stored as one bit field per user_message row.
// Bit positions are part of the stored data: never reorder, only append.

export const FLAG_BITS = {
  read: 1 << 0,
  starred: 1 << 1,
  collapsed: 1 << 2,
  mentioned: 1 << 3,
  stream_wildcard_mentioned: 1 << 4,
  topic_wildcard_mentioned: 1 << 5,
  group_mentioned: 1 << 6,
  force_expand: 1 << 7,
  force_collapse: 1 << 8,
  has_alert_word: 1 << 9,
  historical: 1 << 10,
  is_private: 1 << 11,
  active_mobile_push_notification: 1 << 12,
} as const;

export type FlagName = keyof typeof FLAG_BITS;

/** Flags a client may add or remove through the flags endpoints. */
export const EDITABLE_FLAGS: readonly FlagName[] = ['read', 'starred', 'collapsed'];

/** Flags kept for the server's own use and never shown to clients. */
const INTERNAL: readonly FlagName[] = ['is_private', 'active_mobile_push_notification'];

/** Any mention of the user: by name, by wildcard, or through a group. */
export const MENTION_MASK =
  FLAG_BITS.mentioned |
  FLAG_BITS.stream_wildcard_mentioned |
  FLAG_BITS.topic_wildcard_mentioned |
  FLAG_BITS.group_mentioned;

/** What is_alerted means: an alert word matched. */
export const ALERTED_MASK = FLAG_BITS.has_alert_word;

const VISIBLE = (Object.entries(FLAG_BITS) as Array<[FlagName, number]>).filter(([name]) => !INTERNAL.includes(name));

/** The flag names a client sees for a bit field, in bit order, plus the legacy wildcard_mentioned. */
export function flagNames(bits: number): string[] {
  const names: string[] = [];
  for (const [name, bit] of VISIBLE) {
    if (bits & bit) names.push(name);
    if (name === 'topic_wildcard_mentioned' && bits & (FLAG_BITS.stream_wildcard_mentioned | FLAG_BITS.topic_wildcard_mentioned)) {
      names.push('wildcard_mentioned');
    }
  }
  return names;
}

export function isFlagName(name: string): name is FlagName {
  return Object.hasOwn(FLAG_BITS, name);
}

/** Users grouped by their flag bits (one event or update per distinct set of flags). */
export function groupByFlags(flagsByUser: Iterable<[number, number]>): Map<number, number[]> {
  const groups = new Map<number, number[]>();
  for (const [userId, bits] of flagsByUser) {
    const group = groups.get(bits);
    if (group) group.push(userId);
    else groups.set(bits, [userId]);
  }
  return groups;
}
