// The README's screenshots of the web client: light and dark, wide and narrow, on the dev
// organization, taken in headless Chromium (CHROMIUM_PATH, default Debian's /usr/bin/chromium).
// Run with `npx tsx scripts/screenshots.ts` after `npm run build:web`; writes docs/screenshots/*.png.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { loadConfig } from '../src/config.js';
import { DEV_PASSWORD } from '../src/dev-seed.js';
import { startServer } from '../src/server.js';

const OUT = join(process.cwd(), 'docs', 'screenshots');
const dataDir = mkdtempSync(join(tmpdir(), 'confab-screenshots-'));
const quiet = console.log;
console.log = () => undefined;
const server = await startServer(loadConfig({ port: '0', 'data-dir': dataDir, dev: true, 'log-level': 'fatal' }, {}));
console.log = quiet;
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(`${server.url}/login/`);
  await page.getByLabel('Email').fill('mark@confab.test');
  await page.getByLabel('Password').fill(DEV_PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.getByRole('navigation').getByRole('link', { name: /# general/ }).click();
  await page.locator('main .feed[aria-busy="false"]').waitFor();
  const setScheme = (scheme: number) =>
    page.evaluate(async (value) => {
      const csrf = /csrftoken=([^;]*)/.exec(document.cookie)![1]!;
      await fetch('/json/settings', { method: 'PATCH', headers: { 'X-CSRFToken': csrf, 'Content-Type': 'application/x-www-form-urlencoded' }, body: `color_scheme=${value}` });
    }, scheme);
  for (const [scheme, name] of [[3, 'light'], [2, 'dark']] as const) {
    await setScheme(scheme);
    await page.waitForFunction((theme) => document.documentElement.dataset.theme === theme, name);
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.keyboard.press('End');
    await page.waitForTimeout(400);
    await page.screenshot({ path: join(OUT, `wide-${name}.png`) });
    await page.setViewportSize({ width: 420, height: 800 });
    await page.waitForTimeout(400);
    await page.screenshot({ path: join(OUT, `narrow-${name}.png`) });
  }
  await setScheme(1);
} finally {
  await browser.close();
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
