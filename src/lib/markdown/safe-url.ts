// Which link targets may appear in rendered HTML: http, https, mailto and relative URLs.
// Everything else (javascript:, data:, vbscript:, file:, ...) is refused, whatever its case or encoding.

const ALLOWED_SCHEMES = new Set(['http', 'https', 'mailto']);
// Browsers drop ASCII tab and newline anywhere in a URL and trim C0 controls and spaces at the ends.
const IGNORED_BY_BROWSERS = /[\u0000-\u0020\u007f-\u009f]/g;

/** `url` has been entity-decoded and normalised by markdown-it already. */
export function isSafeUrl(url: string): boolean {
  const compact = decodeLoosely(url).replace(IGNORED_BY_BROWSERS, '');
  const colon = compact.indexOf(':');
  if (colon < 0) return true;
  const beforePath = compact.search(/[/?#]/);
  // A colon after the first / ? or # is part of a relative path, query or fragment.
  if (beforePath >= 0 && beforePath < colon) return true;
  return ALLOWED_SCHEMES.has(compact.slice(0, colon).toLowerCase());
}

/** Percent-decoding that never throws, so %6a%61vascript: is seen for what it is. */
function decodeLoosely(url: string): string {
  if (!url.includes('%')) return url;
  try {
    return decodeURIComponent(url);
  } catch {
    return url;
  }
}
