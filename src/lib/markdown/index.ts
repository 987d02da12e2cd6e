// The renderer interface every message, description and preview goes through: the chat dialect of
// Markdown (see engine.ts) turned into the reference's HTML, plus what the message mentions.
import { ApiError } from '../../errors.js';
import { RENDER_TIME_LIMIT_MS } from '../limits.js';
import { markdownEngine } from './engine.js';
import { budgetClock, budgetCpuClock } from './escape.js';
import { MarkdownRenderingError, type RenderContext, type RenderEnv, type RenderResult } from './types.js';

export { escapeHtml } from './escape.js';
export * from './types.js';

/** Longer input is refused outright (messages are truncated to 10000 characters before this). */
export const MAX_RENDER_INPUT = 100_000;
/** Larger output means something went wrong; the reference refuses it too. */
export const MAX_RENDERED_LENGTH = 1_000_000;

export function renderMarkdown(content: string, context: RenderContext = {}): RenderResult {
  if (content.length > MAX_RENDER_INPUT) throw new MarkdownRenderingError(`Content exceeds ${MAX_RENDER_INPUT} characters`);
  const budgetMs = context.timeLimitMs ?? RENDER_TIME_LIMIT_MS;
  const env: RenderEnv = {
    context,
    deadline: budgetClock() + budgetMs,
    budgetMs,
    cpuStart: budgetCpuClock(),
    mentionedUserIds: new Set(),
    mentionedGroupIds: new Set(),
    streamWildcard: false,
    topicWildcard: false,
    hasLink: false,
    hasImage: false,
  };
  const source = content.includes('\r') ? content.replace(/\r\n?/g, '\n') : content;
  const html = trimTrailingNewlines(markdownEngine().render(source, env));
  if (html.length > MAX_RENDERED_LENGTH) throw new MarkdownRenderingError(`Rendered content exceeds ${MAX_RENDERED_LENGTH} characters`);
  return {
    html,
    mentionedUserIds: env.mentionedUserIds,
    mentionedGroupIds: env.mentionedGroupIds,
    streamWildcard: env.streamWildcard,
    topicWildcard: env.topicWildcard,
    hasLink: env.hasLink,
    hasImage: env.hasImage,
    isMeMessage: content.startsWith('/me ') && html.startsWith('<p>/me '),
  };
}

function trimTrailingNewlines(html: string): string {
  let end = html.length;
  while (end > 0 && html.charCodeAt(end - 1) === 0x0a) end--;
  return end === html.length ? html : html.slice(0, end);
}

/** renderMarkdown for API callers: a render that fails its budget is the reference's 400 error. */
export function renderOrReject(content: string, context: RenderContext = {}): RenderResult {
  try {
    return renderMarkdown(content, context);
  } catch (error) {
    if (error instanceof MarkdownRenderingError) throw new ApiError('Unable to render message');
    throw error;
  }
}
