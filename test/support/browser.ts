// Headless Chromium (Debian's chromium, driven by playwright-core) against a real Confab, for the web
// client's end-to-end tests: one server and browser per suite, people logged in through the login
// page in their own browser contexts, every Content-Security-Policy violation a page reports kept
// for the test to check, and a screenshot of every open page when a test fails.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import { type Browser, chromium, type Page } from 'playwright-core';
import { DEV_PASSWORD } from '../../src/dev-seed.js';
import { startTestServer, type TestServer } from './running-server.js';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SCREENSHOTS = join(process.cwd(), 'test-output', 'screenshots');
export const WAIT_MS = 15_000;

export interface BrowserSuite {
  readonly server: TestServer;
  /** The pages opened so far, by the name given to logIn. */
  readonly pages: Map<string, Page>;
  /** A test whose failure leaves a screenshot of every open page. */
  check(name: string, body: () => Promise<void>): void;
  /** A new browser context logged in as `email` through the login page, showing the home view. */
  logIn(who: string, email: string, viewport?: { width: number; height: number }): Promise<Page>;
}

/** Call inside a describe(): starts a server named `name` and a browser before the suite's tests. */
export function browserSuite(name: string): BrowserSuite {
  let server: TestServer | undefined;
  let browser: Browser | undefined;
  const pages = new Map<string, Page>();

  before(async () => {
    // The client under test is the one in this checkout, built if web/ changed since its last build.
    // The test runner builds it once before its shards start: a suite that rebuilt it anyway would
    // empty dist/web, for seconds, under another shard's suite, whose pages would then load
    // "not built" instead of the client.
    const built = spawnSync(process.execPath, ['scripts/build-web.mjs', '--if-changed'], { encoding: 'utf8' });
    assert.equal(built.status, 0, built.stderr);
    server = await startTestServer(name);
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  return {
    get server() {
      return server!;
    },
    pages,
    check(testName, body) {
      checkWithScreenshots(pages, testName, body);
    },
    async logIn(who, email, viewport = { width: 1100, height: 750 }) {
      const context = await browser!.newContext({ viewport });
      const page = await context.newPage();
      await watchPolicyViolations(page);
      page.setDefaultTimeout(WAIT_MS);
      pages.set(who, page);
      await page.goto(`${server!.url}/`);
      assert.match(page.url(), /\/login\/$/);
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill(DEV_PASSWORD);
      await page.getByRole('button', { name: 'Log in' }).click();
      await page.getByRole('navigation').getByRole('link', { name: /All messages/ }).waitFor();
      return page;
    },
  };
}

const violations = new WeakMap<Page, string[]>();

/** What the page's Content-Security-Policy has blocked so far, as "directive blocked-URL" lines. */
export function policyViolations(page: Page): readonly string[] {
  return violations.get(page) ?? [];
}

/** Collects the securitypolicyviolation events of every document the page loads, from its first byte. */
async function watchPolicyViolations(page: Page): Promise<void> {
  const found: string[] = [];
  violations.set(page, found);
  await page.exposeFunction('reportPolicyViolation', (line: string) => void found.push(line));
  await page.addInitScript(() => {
    const report = (window as unknown as { reportPolicyViolation: (line: string) => void }).reportPolicyViolation;
    document.addEventListener('securitypolicyviolation', (e) => report(`${e.effectiveDirective} ${e.blockedURI} (${location.pathname})`), true);
  });
}

/** A test whose failure leaves a screenshot of each of `pages` (by name) in test-output/screenshots. */
export function checkWithScreenshots(pages: ReadonlyMap<string, Page>, testName: string, body: () => Promise<void>): void {
  it(testName, async () => {
    try {
      await body();
    } catch (error) {
      mkdirSync(SCREENSHOTS, { recursive: true });
      for (const [who, page] of pages) {
        const file = `${testName.replace(/\W+/g, '-').slice(0, 60)}-${who}.png`;
        await page.screenshot({ path: join(SCREENSHOTS, file) }).catch(() => undefined);
      }
      throw error;
    }
  });
}

export async function waitUntil(condition: () => Promise<boolean>): Promise<void> {
  const end = Date.now() + WAIT_MS;
  while (!(await condition())) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A value read again until two reads half a second apart agree. */
export async function steady(read: () => Promise<number>): Promise<number> {
  let last = await read();
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const now = await read();
    if (now === last) return now;
    last = now;
  }
}
