// HTML escaping for the two contexts the renderer writes: attribute values and text.
import { MarkdownRenderingError, type RenderEnv } from './types.js';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Safe anywhere, attribute values included. */
export function escapeHtml(text: string): string {
  if (!/[&<>"']/.test(text)) return text;
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/** Safe in element content only (quotes kept as typed, as the reference renders text). */
export function escapeText(text: string): string {
  if (!/[&<>]/.test(text)) return text;
  return text.replace(/[&<>]/g, (c) => ESCAPES[c]!);
}

/** Stops a render that has run past its time budget. */
export function checkBudget(env: RenderEnv): void {
  if (Date.now() > env.deadline) throw new MarkdownRenderingError('Rendering took too long');
}
