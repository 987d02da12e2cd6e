// Every bound on the work one request may ask for, in one place so that the README can list
// them. Each aims to keep one request under ~100 ms of event-loop time on a store of a million
// messages; a request past one gets a 400 naming the limit (413 for a body), never a slow answer
// or a 500.
import { ApiError } from '../errors.js';

/**
 * Bytes of a request body (form, JSON, multipart; an upload's one file has its own limit). Parsing
 * is work done before any parameter is looked at: 4 MB holds the largest legitimate request (a
 * thousand subscriptions with descriptions) and parses in a few tens of milliseconds.
 */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;
/**
 * Parameters in one request body (form, JSON or multipart; a name sent twice counts twice). Zulip's
 * largest requests send a few dozen; a 4 MB form of 400,000 names took 0.4 s just to decode.
 */
export const MAX_BODY_FIELDS = 1000;
/** Characters of a linkifier's pattern: it is compiled, and run over every message. */
export const MAX_LINKIFIER_PATTERN_LENGTH = 1000;
/** Characters of a linkifier's URL template. */
export const MAX_URL_TEMPLATE_LENGTH = 2000;
/** Items in any JSON list parameter (ids, emails, names, objects) unless the parameter says otherwise. */
export const MAX_LIST_ITEMS = 1000;
/** Nesting of any JSON parameter value (lists and objects inside each other). */
export const MAX_JSON_DEPTH = 32;
/** Message ids in one POST /messages/flags. */
export const MAX_FLAG_MESSAGE_IDS = 1000;
/** Terms in one narrow (GET /messages, POST /messages/flags/narrow, event queues). */
export const MAX_NARROW_TERMS = 50;
/** Characters of all the search operands of one narrow together. */
export const MAX_SEARCH_LENGTH = 1000;
/** Words of all the search operands of one narrow together (quoted phrases count their words). */
export const MAX_SEARCH_WORDS = 50;
/** Users named by one direct-message recipient list (sending, typing, a dm narrow). */
export const MAX_DM_RECIPIENTS = 100;
/** Drafts in one POST /drafts. */
export const MAX_DRAFTS_PER_CALL = 100;
/** Alert words in one add or remove call. */
export const MAX_ALERT_WORDS_PER_CALL = 200;
/**
 * Alert words one user may keep: each message is searched for every word of every recipient,
 * so this bounds the cost of sending to a large stream.
 */
export const MAX_ALERT_WORDS_PER_USER = 200;
/** Characters of one alert word. */
export const MAX_ALERT_WORD_LENGTH = 100;
/** Subscription rows one subscribe or unsubscribe call may touch: users times channels. */
export const MAX_SUBSCRIPTION_CHANGES = 10_000;
/** Event queues one user may hold; registering another drops their least recently used one. */
export const MAX_QUEUES_PER_USER = 50;
/**
 * Wall time one Markdown render may take before the message is refused (linkifier scans included).
 * Longer than the 100 ms the other limits aim at: plain Markdown of 10,000 characters (a list of
 * 2,500 items) can take 200 ms, and such messages must still go through.
 */
export const RENDER_TIME_LIMIT_MS = 250;
/** Values per `IN (...)` list sent to the store: under SQLite's 32,766 variables with room to spare. */
export const SQL_IN_CHUNK = 5000;

/** The 400 a body of more than MAX_BODY_FIELDS parameters gets. */
export function tooManyFields(): ApiError {
  return new ApiError(`The request has too many parameters (limit: ${MAX_BODY_FIELDS})`);
}

/** The 400 a request past a list limit gets. */
export function tooManyItems(name: string, limit: number): ApiError {
  return new ApiError(`${name} is too long (limit: ${limit} items)`);
}

/** Subscribe and unsubscribe touch one row per user and channel: bound the product, not each list alone. */
export function checkSubscriptionChanges(channels: number, users: number): void {
  if (channels * users > MAX_SUBSCRIPTION_CHANGES) {
    throw new ApiError(`Too many subscription changes: ${users} users and ${channels} channels (limit: ${MAX_SUBSCRIPTION_CHANGES} pairs)`);
  }
}

/** Splits a list into pieces of at most `size` items, for IN lists that must stay short. */
export function chunks<T>(items: readonly T[], size = SQL_IN_CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
/** Characters of a user group's description (unbounded on the reference; every group list carries it). */
export const MAX_USER_GROUP_DESCRIPTION_LENGTH = 10_000;
