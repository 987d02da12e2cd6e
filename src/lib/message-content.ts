// Rules for what a message's content and topic may be, applied before anything is stored.
import { ApiError } from '../errors.js';

export const MAX_MESSAGE_LENGTH = 10000;
export const MAX_TOPIC_LENGTH = 60;
const TRUNCATION_NOTE = '\n[message truncated]';
const TOPIC_ELLIPSIS = '...';
/** What an empty topic is stored as: clients of this API era do not know empty topics. */
export const EMPTY_TOPIC = '(no topic)';

function codePointLength(text: string): number {
  // A string of at most n UTF-16 units has at most n code points: only long strings need counting.
  return text.length <= MAX_MESSAGE_LENGTH ? text.length : [...text].length;
}

/** Right-strips, drops leading blank lines, refuses empty or NUL-carrying content, truncates long content. */
export function normalizeContent(raw: string, maxLength = MAX_MESSAGE_LENGTH): string {
  const content = raw.trimEnd().replace(/^\n+/, '');
  if (content.trim() === '') throw new ApiError('Message must not be empty');
  if (content.includes('\u0000')) throw new ApiError('Message must not contain null bytes');
  if (codePointLength(content) <= maxLength) return content;
  return [...content].slice(0, maxLength - TRUNCATION_NOTE.length).join('') + TRUNCATION_NOTE;
}

/** Whether a character may not appear in a topic: control, format, surrogate, private-use or unassigned. */
const FORBIDDEN_IN_TOPIC = /[\p{Cc}\p{Cs}\p{Co}\p{Cn}]/u;

/** Strips the topic, refuses unprintable characters, truncates long topics with an ellipsis. */
export function normalizeTopic(raw: string, maxLength = MAX_TOPIC_LENGTH): string {
  const topic = raw.trim();
  const chars = [...topic];
  const bad = chars.findIndex((ch) => FORBIDDEN_IN_TOPIC.test(ch));
  if (bad >= 0) throw new ApiError(`Invalid character in topic, at position ${bad + 1}!`);
  if (topic === '') return EMPTY_TOPIC;
  return truncateTopic(topic, maxLength);
}

/** A topic over the limit is cut, by characters, to end in an ellipsis. */
export function truncateTopic(topic: string, maxLength = MAX_TOPIC_LENGTH): string {
  const chars = [...topic];
  if (chars.length <= maxLength) return topic;
  return chars.slice(0, maxLength - TOPIC_ELLIPSIS.length).join('') + TOPIC_ELLIPSIS;
}

/** Topics match case-insensitively everywhere. */
export function topicKey(topic: string): string {
  return topic.toLowerCase();
}

export const RESOLVED_TOPIC_PREFIX = '✔ ';
