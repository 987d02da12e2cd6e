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

/** Time spent loading libraries on first use (KaTeX, highlight.js); no message's budget pays for it. */
let loadingMs = 0;

/** Runs a one-time load, keeping its time out of every render's budget. */
export function loadOnce<T>(load: () => T): T {
  const started = Date.now();
  try {
    return load();
  } finally {
    loadingMs += Date.now() - started;
  }
}

/** The clock render budgets run on: wall time less the time spent loading libraries. */
export function budgetClock(): number {
  return Date.now() - loadingMs;
}

/** Stops a render that has run past its time budget. */
export function checkBudget(env: RenderEnv): void {
  if (budgetClock() > env.deadline) throw new MarkdownRenderingError('Rendering took too long');
}
