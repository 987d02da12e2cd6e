// The rules a linkifier or code playground must pass before it is stored, reported with the
// reference's texts. Field checks come first (in field order), then the cross-field checks.
import { ApiError } from '../../errors.js';
import { compilePattern } from './pattern.js';
import { hasWebScheme, templateVariables } from './url-template.js';

const BLANK = 'This field cannot be blank.';
const INVALID_TEMPLATE = 'Invalid URL template.';
// The reference accepts any scheme; clients follow the expanded links, so only web ones are kept.
const NOT_WEB_TEMPLATE = 'URL template must start with http:// or https://';

/** The first (lowest) name of a set, as the reference reports only one at a time. */
const lowest = (names: string[]) => [...names].sort()[0]!;

/** Checks a linkifier's pattern and URL template; the template's variables must be the pattern's named groups. */
export function checkLinkifier(pattern: string, urlTemplate: string): void {
  if (pattern === '') throw new ApiError(BLANK);
  const { groupNames } = compilePattern(pattern);
  if (urlTemplate === '') throw new ApiError(BLANK);
  const variables = templateVariables(urlTemplate);
  if (variables === null) throw new ApiError(INVALID_TEMPLATE);
  if (!hasWebScheme(urlTemplate)) throw new ApiError(NOT_WEB_TEMPLATE);
  const notInPattern = variables.filter((name) => !groupNames.includes(name));
  if (notInPattern.length > 0) {
    throw new ApiError(`Group '${lowest(notInPattern)}' in URL template is not present in linkifier pattern.`);
  }
  const notInTemplate = groupNames.filter((name) => !variables.includes(name));
  if (notInTemplate.length > 0) {
    throw new ApiError(`Group '${lowest(notInTemplate)}' in linkifier pattern is not present in URL template.`);
  }
}

const MAX_HIGHLIGHTER_LANGUAGE_LENGTH = 40;
/** Letters, digits, space and `_ + , - . / #` (the reference's class includes the range "+" to "."). */
const HIGHLIGHTER_LANGUAGE = /^[ a-zA-Z0-9_+,\-./#]*$/;

/** Checks a playground's language name and URL template (exactly one variable, `code`). */
export function checkPlayground(highlighterLanguage: string, urlTemplate: string): void {
  const length = [...highlighterLanguage].length;
  if (length > MAX_HIGHLIGHTER_LANGUAGE_LENGTH) {
    throw new ApiError(`Ensure this value has at most ${MAX_HIGHLIGHTER_LANGUAGE_LENGTH} characters (it has ${length}).`);
  }
  if (!HIGHLIGHTER_LANGUAGE.test(highlighterLanguage)) throw new ApiError('Invalid characters in pygments language');
  const variables = templateVariables(urlTemplate);
  if (variables === null) throw new ApiError(INVALID_TEMPLATE);
  if (!hasWebScheme(urlTemplate)) throw new ApiError(NOT_WEB_TEMPLATE);
  if (!variables.includes('code')) throw new ApiError('Missing the required variable "code" in the URL template');
  if (variables.length !== 1) throw new ApiError('"code" should be the only variable present in the URL template');
}
