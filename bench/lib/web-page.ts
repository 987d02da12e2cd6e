// The web client's figures, read from headless Chromium (playwright-core): the JavaScript a first
// load fetches (gzipped), the time from navigation to the first rendered message list, the longest
// main-thread task while scrolling through many loaded messages, and the tab's JS heap.
import { gzipSync } from 'node:zlib';
import type { BrowserContext, Page, Response } from 'playwright-core';

/** Before any page script: note when the first message list is in the page, and every long task. */
export const PAGE_PROBE = `
  window.__bench = { firstList: null, longTasks: [] };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__bench.longTasks.push({ start: e.startTime, duration: e.duration });
  }).observe({ type: 'longtask', buffered: true });
  new MutationObserver((_, observer) => {
    if (document.querySelector('main article')) {
      window.__bench.firstList = performance.now();
      observer.disconnect();
    }
  }).observe(document, { childList: true, subtree: true });
`;

export async function logIn(page: Page, base: string, email: string, password: string): Promise<void> {
  await page.goto(`${base}/login/`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.locator('main article').first().waitFor({ timeout: 30_000 });
}

export interface FirstLoad {
  /** Navigation start to the first message article in the page, ms. */
  firstListMs: number;
  /** Gzipped size of every script fetched until then, bytes. */
  jsGzipBytes: number;
  scripts: { url: string; gzipBytes: number }[];
}

/** One first load in a fresh context (empty cache) that already holds the session cookie. */
export async function firstLoad(context: BrowserContext, base: string): Promise<FirstLoad> {
  const page = await context.newPage();
  await page.addInitScript(PAGE_PROBE);
  const responses: Response[] = [];
  page.on('response', (r) => {
    if (r.request().resourceType() === 'script') responses.push(r);
  });
  await page.goto(`${base}/`);
  await page.waitForFunction(() => (window as unknown as { __bench: { firstList: number | null } }).__bench.firstList !== null, null, { timeout: 30_000 });
  const firstListMs = await page.evaluate(() => (window as unknown as { __bench: { firstList: number } }).__bench.firstList);
  const scripts = await Promise.all(responses.map(async (r) => ({ url: new URL(r.url()).pathname, gzipBytes: gzipSync(await r.body()).length })));
  await page.close();
  return { firstListMs, jsGzipBytes: scripts.reduce((sum, s) => sum + s.gzipBytes, 0), scripts };
}

export interface ScrollFigures {
  loaded: number;
  /** Longest task while fetching and adding batches by scrolling to the ends, ms (0: none over 50 ms). */
  longestWhileLoadingMs: number;
  /** Longest task while scrolling from the oldest loaded message to the newest, ms. */
  longestWhileScrollingMs: number;
  /** How many tasks took over 50 ms while scrolling. */
  longTasksWhileScrolling: number;
  /**
   * The most CPU time any one main-thread task used while scrolling, ms (from a Chromium trace): on a
   * busy machine a task waits for a core, and its wall time says more about the machine than the page.
   */
  mostTaskCpuWhileScrollingMs: number;
  /** The same while fetching and adding batches. */
  mostTaskCpuWhileLoadingMs: number;
  scrollSeconds: number;
  heapMb: number;
}

/**
 * Loads `target` messages into the open view by scrolling to its ends, then scrolls through all of
 * them, `step` pixels per frame. Marking messages read is answered in the browser, so the data set
 * stays as it was.
 */
export async function scrollThrough(page: Page, target: number, step: number, log: (line: string) => void): Promise<ScrollFigures> {
  const ids = new Set<number>();
  const ends = { oldest: false, newest: false };
  page.on('response', async (r) => {
    if (!/\/json\/messages\?/.test(r.url())) return;
    const body = (await r.json().catch(() => null)) as { messages?: { id: number }[]; found_oldest?: boolean; found_newest?: boolean } | null;
    for (const m of body?.messages ?? []) ids.add(m.id);
    ends.oldest ||= !!body?.found_oldest;
    ends.newest ||= !!body?.found_newest;
  });
  await page.route(/\/json\/messages\/flags$/, (route) => route.fulfill({ contentType: 'application/json', body: '{"result":"success","msg":"","messages":[]}' }));
  await page.addInitScript(PAGE_PROBE);
  await page.reload();
  await page.locator('main article').first().waitFor({ timeout: 30_000 });

  const tasks = () => page.evaluate(() => (window as unknown as { __bench: { longTasks: { duration: number }[] } }).__bench.longTasks.map((t) => t.duration));
  const longest = async () => Math.max(0, ...(await tasks()));
  const clearTasks = () => page.evaluate(() => ((window as unknown as { __bench: { longTasks: unknown[] } }).__bench.longTasks = []));
  await clearTasks();
  const browser = page.context().browser()!;
  await browser.startTracing(page, { categories: TRACE_CATEGORIES });
  // Fetch older batches from the top, then newer ones from the bottom, until enough are loaded.
  for (const end of ['oldest', 'newest'] as const) {
    let still = 0;
    while (ids.size < target && !ends[end] && still < 20) {
      const before = ids.size;
      await page.evaluate((top) => {
        const feed = document.querySelector('main .feed') as HTMLElement;
        feed.scrollTop = top ? 0 : feed.scrollHeight;
      }, end === 'oldest');
      await page.waitForTimeout(150);
      still = ids.size === before ? still + 1 : 0;
      if (ids.size !== before && ids.size % 1000 < 200) log(`    ${ids.size} messages loaded`);
    }
  }
  const mostTaskCpuWhileLoadingMs = mostTaskCpu(await browser.stopTracing());
  const longestWhileLoadingMs = await longest();

  await clearTasks();
  await page.evaluate(() => ((document.querySelector('main .feed') as HTMLElement).scrollTop = 0));
  await page.waitForTimeout(300);
  await browser.startTracing(page, { categories: TRACE_CATEGORIES });
  const scrollSeconds = await page.evaluate(async (px) => {
    const feed = document.querySelector('main .feed') as HTMLElement;
    const started = performance.now();
    for (;;) {
      const before = feed.scrollTop;
      feed.scrollTop = before + px;
      await new Promise((resolve) => requestAnimationFrame(resolve));
      if (feed.scrollTop <= before) break;
    }
    return (performance.now() - started) / 1000;
  }, step);
  const mostTaskCpuWhileScrollingMs = mostTaskCpu(await browser.stopTracing());
  const longestWhileScrollingMs = await longest();
  const longTasksWhileScrolling = (await tasks()).length;

  const cdp = await page.context().newCDPSession(page);
  await cdp.send('HeapProfiler.collectGarbage');
  const heap = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number };
  await cdp.detach();
  return { loaded: ids.size, longestWhileLoadingMs, longestWhileScrollingMs, longTasksWhileScrolling, mostTaskCpuWhileScrollingMs, mostTaskCpuWhileLoadingMs, scrollSeconds, heapMb: heap.usedSize / 2 ** 20 };
}

/** Enough of a trace for each main-thread task's wall and thread (CPU) time. */
const TRACE_CATEGORIES = ['toplevel', 'devtools.timeline', 'disabled-by-default-devtools.timeline'];

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string };
}

/** The largest thread time (CPU) of a task on the busiest renderer main thread of a trace, ms. */
export function mostTaskCpu(trace: Buffer): number {
  const parsed = JSON.parse(trace.toString('utf8')) as { traceEvents: TraceEvent[] } | TraceEvent[];
  const events = Array.isArray(parsed) ? parsed : parsed.traceEvents;
  const mains = new Set(events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
  const byThread = new Map<string, number[]>();
  for (const e of events) {
    const thread = `${e.pid}:${e.tid}`;
    if (e.ph !== 'X' || !mains.has(thread) || (e.name !== 'RunTask' && e.name !== 'ThreadControllerImpl::RunTask')) continue;
    const list = byThread.get(thread) ?? [];
    list.push(e.tdur ?? 0);
    byThread.set(thread, list);
  }
  const busiest = [...byThread.values()].sort((a, b) => b.length - a.length)[0] ?? [];
  return busiest.reduce((most, t) => Math.max(most, t), 0) / 1000;
}
