// TeX through KaTeX, with untrusted commands off and macro expansion bounded. Results are cached
// because the same formulas recur and KaTeX dominates the cost of a message that has one.
import { createRequire } from 'node:module';
import type KaTeX from 'katex';
import { BoundedMap } from '../bounded-map.js';
import { escapeText, loadOnce } from './escape.js';

// KaTeX is about 10 MB in memory; most servers render math rarely, so it loads on first use.
let katex: typeof KaTeX | undefined;
function loadKatex(): typeof KaTeX {
  katex ??= loadOnce(() => createRequire(import.meta.url)('katex') as typeof KaTeX);
  return katex;
}

const CACHE_SIZE = 500;
/** Long formulas are rare and would make the cache large: render them every time. */
const CACHEABLE_LENGTH = 200;
const cache = new BoundedMap<string, string>(CACHE_SIZE);

function renderTex(tex: string, displayMode: boolean): string {
  try {
    return loadKatex().renderToString(tex, { displayMode, throwOnError: true, trust: false, maxExpand: 100, maxSize: 50, strict: 'ignore' });
  } catch {
    return '';
  }
}

/** KaTeX HTML for the formula, or the reference's tex-error span holding `original` when it does not parse. */
export function texHtml(tex: string, displayMode: boolean, original: string): string {
  const key = `${displayMode ? 'D' : 'I'}${tex}`;
  let html = cache.get(key);
  if (html === undefined) {
    html = renderTex(tex, displayMode);
    if (tex.length <= CACHEABLE_LENGTH) cache.set(key, html);
  }
  return html === '' ? `<span class="tex-error">${escapeText(original)}</span>` : html;
}
