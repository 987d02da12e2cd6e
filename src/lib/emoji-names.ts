// The reference's rules for custom emoji names: lowercase English letters, digits, dashes and
// underscores (spaces in a request become underscores), ending with a letter or digit.
import { ApiError } from '../errors.js';

/** Long enough for any sensible name; the reference has no limit, but a name is a path segment. */
export const MAX_EMOJI_NAME_LENGTH = 100;

/** The name as the reference stores it: trimmed, with spaces as underscores. */
export function normaliseEmojiName(raw: string): string {
  return raw.trim().replace(/ /g, '_');
}

/** Throws the reference's error for a name no custom emoji may have. */
export function checkEmojiName(name: string): void {
  if (name === '') throw new ApiError('Emoji name is missing');
  if (name.length <= MAX_EMOJI_NAME_LENGTH && /^[0-9a-z_-]+$/.test(name)) {
    if (/[_-]$/.test(name)) throw new ApiError('Emoji names must end with either a letter or digit.');
    return;
  }
  if (name.length > MAX_EMOJI_NAME_LENGTH) throw new ApiError(`Emoji name is too long (limit: ${MAX_EMOJI_NAME_LENGTH} characters)`);
  throw new ApiError('Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores.');
}
