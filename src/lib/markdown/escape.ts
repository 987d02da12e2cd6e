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
let loadingCpuMs = 0;

/** Runs a one-time load, keeping its time out of every render's budget. */
export function loadOnce<T>(load: () => T): T {
  const started = Date.now();
  const startedCpu = cpuMs();
  try {
    return load();
  } finally {
    loadingMs += Date.now() - started;
    loadingCpuMs += cpuMs() - startedCpu;
  }
}

/** The process's CPU time in milliseconds, less the time spent loading libraries. */
export function budgetCpuClock(): number {
  return cpuMs() - loadingCpuMs;
}

function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** The clock render budgets run on: wall time less the time spent loading libraries. */
export function budgetClock(): number {
  return Date.now() - loadingMs;
}

/**
 * Stops a render that has run past its time budget. The wall clock is cheap to read, so it is
 * checked first; a render past its wall-clock deadline stops only if it has also used its budget in
 * CPU time: on a busy machine a render can wait for a core far longer than it runs, and a message
 * must not be refused because the machine was busy.
 */
export function checkBudget(env: RenderEnv): void {
  if (budgetClock() <= env.deadline) return;
  const spentCpu = budgetCpuClock() - env.cpuStart;
  if (spentCpu >= env.budgetMs) throw new MarkdownRenderingError('Rendering took too long');
  env.deadline = budgetClock() + (env.budgetMs - spentCpu);
}
