// The renderer interface every message, description and preview goes through.
// This is the minimal safe renderer (paragraphs, line breaks, escaped HTML);
// the full Markdown dialect plugs in behind the same function.

export interface RenderContext {
  /** Resolves @**Name** and @**Name|id** mentions; absent means no mentions are recognised. */
  lookupUser?: (name: string, id: number | null) => { id: number; full_name: string } | undefined;
}

export interface RenderResult {
  html: string;
  /** Users mentioned by name (not silently). */
  mentionedUserIds: Set<number>;
  /** @**all**, @**everyone**, @**stream**, @**channel**. */
  streamWildcard: boolean;
  /** @**topic**. */
  topicWildcard: boolean;
  hasLink: boolean;
  hasImage: boolean;
  isMeMessage: boolean;
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

const LINK = /\bhttps?:\/\/[^\s<>"']+/i;
const IMAGE = /\bhttps?:\/\/[^\s<>"']+\.(?:png|jpe?g|gif|webp)\b/i;

export function renderMarkdown(content: string, _context: RenderContext = {}): RenderResult {
  const paragraphs = content
    .replace(/\r\n?/g, '\n')
    .split(/\n{2,}/)
    .map((block) => block.replace(/^\n+|\n+$/g, ''))
    .filter((block) => block.trim() !== '');
  const html = paragraphs.map((block) => `<p>${escapeHtml(block).replace(/\n/g, '<br>\n')}</p>`).join('\n');
  return {
    html,
    mentionedUserIds: new Set(),
    streamWildcard: false,
    topicWildcard: false,
    hasLink: LINK.test(content),
    hasImage: IMAGE.test(content),
    isMeMessage: content.startsWith('/me ') && html.startsWith('<p>/me '),
  };
}
