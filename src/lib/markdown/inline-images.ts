// Inline previews of uploaded images, placed as the reference places them: after the paragraph
// that links the image (after earlier previews from that paragraph), at the end of a tight list's
// item, or at the end of the message when the link sits inside emphasis, a heading or a table.
// A paragraph (or item) holding nothing but a bare link gives way to its preview. Links in quotes
// get no preview, each URL is previewed once, and a message with more than 24 distinct links gets
// none. The <img> shows the thumbnail the render context names; uploads without one stay links.
import type StateCore from 'markdown-it/lib/rules_core/state_core.mjs';
import type Token from 'markdown-it/lib/token.mjs';
import type { RenderEnv, UploadedImagePreview } from './types.js';

/** The reference's INLINE_PREVIEW_LIMIT_PER_MESSAGE. */
export const INLINE_PREVIEW_LIMIT = 24;

const UPLOAD_HREF = /^\/?user_uploads\/(\d+\/[^?#]+)$/;

/** Attribute values escaped as the reference writes them (apostrophes kept). */
function attribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

interface FoundLink {
  /** Index of the inline token in state.tokens. */
  block: number;
  /** Index of the link_open among its children. */
  child: number;
  href: string;
  /** Inside emphasis or another inline element, rather than directly in its block. */
  nested: boolean;
}

function findLinks(tokens: Token[]): FoundLink[] {
  const found: FoundLink[] = [];
  let quoteDepth = 0;
  tokens.forEach((token, block) => {
    if (token.type === 'blockquote_open') quoteDepth++;
    else if (token.type === 'blockquote_close') quoteDepth--;
    if (token.type !== 'inline' || !token.children || quoteDepth > 0) return;
    let depth = 0;
    token.children.forEach((child, index) => {
      if (child.type === 'link_open') found.push({ block, child: index, href: child.attrGet('href') ?? '', nested: depth > 0 });
      depth += child.nesting;
    });
  });
  return found;
}

/** The text a link starts with (as the reference reads it), or null when it starts with markup. */
function leadingText(children: Token[], open: number): string | null {
  let text = '';
  for (let i = open + 1; i < children.length && children[i]!.type === 'text'; i++) text += children[i]!.content;
  return text === '' ? null : text;
}

function uploadPath(href: string): string | null {
  const match = UPLOAD_HREF.exec(href);
  if (!match) return null;
  try {
    return decodeURIComponent(match[1]!);
  } catch {
    return null;
  }
}

function previewHtml(href: string, title: string | null, preview: UploadedImagePreview): string {
  const titleAttribute = title === null ? '' : ` title="${attribute(title)}"`;
  return `<div class="message_inline_image"><a href="${attribute(href)}"${titleAttribute}><img src="${attribute(preview.src)}"></a></div>`;
}

/** Where a preview goes: the token index it is inserted before. */
function placement(tokens: Token[], link: FoundLink): { at: number; alone: boolean } {
  const inline = tokens[link.block]!;
  const children = inline.children!;
  const opener = tokens[link.block - 1];
  const closeIndex = children.findIndex((c, i) => i > link.child && c.type === 'link_close');
  const alone = link.child === 0 && closeIndex === children.length - 1;
  if (link.nested || opener?.type !== 'paragraph_open') return { at: tokens.length, alone: false };
  if (!opener.hidden) return { at: link.block + 2, alone };
  // A tight list's item: the preview closes the item, after any list nested in it.
  for (let i = link.block + 2; i < tokens.length; i++) {
    if (tokens[i]!.type === 'list_item_close' && tokens[i]!.level < opener.level) return { at: i, alone };
  }
  return { at: tokens.length, alone: false };
}

export function inlineImagesRule(state: StateCore): void {
  const env = state.env as RenderEnv;
  const lookup = env.context.uploadedImage;
  if (!lookup) return;
  const tokens = state.tokens;
  const links = findLinks(tokens);
  if (links.length === 0 || new Set(links.map((l) => l.href)).size > INLINE_PREVIEW_LIMIT) return;

  const inserts = new Map<number, Token[]>();
  const emptied = new Set<number>();
  const seen = new Set<string>();
  for (const link of links) {
    if (seen.has(link.href)) continue;
    seen.add(link.href);
    const path = uploadPath(link.href);
    const preview = path === null ? undefined : lookup(path);
    if (!preview) continue;
    const children = tokens[link.block]!.children!;
    const text = leadingText(children, link.child);
    const bare = text === null || text === link.href;
    const { at, alone } = placement(tokens, link);
    const html = new state.Token('zulip_html', '', 0);
    html.block = true;
    html.content = previewHtml(link.href, bare ? null : text, preview);
    inserts.set(at, [...(inserts.get(at) ?? []), html]);
    // A bare link with nothing beside it is replaced by its preview.
    if (alone && bare) emptied.add(link.block);
    env.hasImage = true;
  }
  for (const block of emptied) {
    tokens[block]!.children = [];
    if (!tokens[block - 1]!.hidden) {
      tokens[block - 1]!.hidden = true;
      tokens[block + 1]!.hidden = true;
    }
  }
  if (inserts.size === 0) return;
  const result: Token[] = [];
  tokens.forEach((token, index) => {
    result.push(...(inserts.get(index) ?? []), token);
  });
  result.push(...(inserts.get(tokens.length) ?? []));
  state.tokens = result;
}
