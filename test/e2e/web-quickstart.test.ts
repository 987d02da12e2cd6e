// The README's quick start, followed as written: the built server started the way `npm start`
// starts it, on an empty data folder; the owner logs in at the printed URL with the printed email
// and password and makes an invitation link with "Invite people"; a second person signs up through
// it in another browser; and the two chat live, a stream message one way and a direct message back.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe } from 'node:test';
import { type Browser, chromium, type Page } from 'playwright-core';
import { CHROMIUM, checkWithScreenshots, waitUntil, WAIT_MS } from '../support/browser.js';

/** A port nobody listens on now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** package.json's start script, as `npm start -- --port P --data-dir D` runs it (node itself being this one). */
function startCommand(extra: string[]): string[] {
  const script = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: { start: string } }).scripts.start;
  const [program, ...args] = script.split(/\s+/);
  assert.equal(program, 'node');
  return [...args, ...extra];
}

describe('the quick start, in two browsers', () => {
  const pages = new Map<string, Page>();
  const printed: string[] = [];
  let dataDir: string;
  let server: ChildProcess | undefined;
  let browser: Browser | undefined;
  let link = '';

  /** A printed line's last word, for the line starting with `label`. */
  const printedValue = (label: string) => printed.find((line) => line.trim().startsWith(label))?.trim().split(/\s+/).pop() ?? '';

  before(async () => {
    // `npm install` builds the server and the web client; here only what changed since is rebuilt.
    for (const script of ['scripts/build.mjs', 'scripts/build-web.mjs']) {
      const built = spawnSync(process.execPath, [script, '--if-changed'], { encoding: 'utf8' });
      assert.equal(built.status, 0, built.stderr);
    }
    dataDir = mkdtempSync(join(tmpdir(), 'confab-quickstart-'));
    const port = await freePort();
    server = spawn(process.execPath, startCommand(['--port', String(port), '--data-dir', dataDir]), {
      env: { ...process.env, CONFAB_LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let pending = '';
    server.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      const lines = (pending + chunk).split('\n');
      pending = lines.pop()!;
      printed.push(...lines);
    });
    // The first start prints the owner's credentials, then listens.
    await waitUntil(async () => printed.some((line) => line.startsWith('Open ')));
    await waitUntil(async () => (await fetch(`http://127.0.0.1:${port}/api/v1/server_settings`).catch(() => null))?.ok === true);
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
  });

  after(async () => {
    await browser?.close();
    if (server && server.exitCode === null) {
      const exited = new Promise((resolve) => server!.once('exit', resolve));
      server.kill('SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function newPage(who: string): Promise<Page> {
    const context = await browser!.newContext({ viewport: { width: 1100, height: 750 } });
    const page = await context.newPage();
    page.setDefaultTimeout(WAIT_MS);
    pages.set(who, page);
    return page;
  }

  const home = (page: Page) => page.getByRole('navigation').getByRole('link', { name: /All messages/ });

  checkWithScreenshots(pages, 'the owner logs in at the printed URL with the printed email and password', async () => {
    assert.equal(printed[0], 'Created a new organization "Confab" with its owner:');
    const url = /^Open (http:\/\/\S+) in a browser/.exec(printed.find((line) => line.startsWith('Open '))!)![1]!;
    const owner = await newPage('owner');
    await owner.goto(url);
    assert.match(owner.url(), /\/login\/$/);
    await owner.getByLabel('Email').fill(printedValue('email:'));
    await owner.getByLabel('Password').fill(printedValue('password:'));
    await owner.getByRole('button', { name: 'Log in' }).click();
    await home(owner).waitFor();
  });

  checkWithScreenshots(pages, 'the owner makes an invitation link with Invite people', async () => {
    const owner = pages.get('owner')!;
    await owner.getByRole('button', { name: 'Invite people' }).click();
    const dialog = owner.getByRole('dialog', { name: 'Invite people' });
    assert.equal(await dialog.getByLabel('Invite as').inputValue(), '400');
    // The organization's default stream is ticked to start with.
    const general = dialog.getByRole('checkbox', { name: /general/ });
    await general.waitFor();
    assert.equal(await general.isChecked(), true);
    await dialog.getByRole('button', { name: 'Create link' }).click();
    const field = dialog.getByLabel('Invitation link');
    await field.waitFor();
    link = await field.inputValue();
    assert.match(link, /^http:\/\/127\.0\.0\.1:\d+\/join\/[a-z0-9]{24}\/$/);
    await dialog.getByText('Anyone with this link can sign up as a member. It expires in 10 days.').waitFor();
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });
  });

  checkWithScreenshots(pages, 'a second person signs up through the link in another browser', async () => {
    const newcomer = await newPage('newcomer');
    await newcomer.goto(link);
    await newcomer.getByRole('heading', { name: 'Sign up for Confab' }).waitFor();
    await newcomer.getByLabel('Email').fill('nina@example.com');
    await newcomer.getByLabel('Full name').fill('Nina Newcomer');
    await newcomer.getByLabel('Password').fill('a new password');
    await newcomer.getByRole('button', { name: 'Sign up' }).click();
    await home(newcomer).waitFor();
    // She joined the default stream, and she is no administrator: no invitations from her.
    await newcomer.getByRole('navigation').getByRole('link', { name: /# general/ }).waitFor();
    assert.equal(await newcomer.getByRole('button', { name: 'Invite people' }).count(), 0);
  });

  checkWithScreenshots(pages, 'the two chat live: a stream message one way, a direct message back', async () => {
    const owner = pages.get('owner')!;
    const newcomer = pages.get('newcomer')!;
    await owner.getByRole('navigation').getByRole('link', { name: /# general/ }).click();
    await owner.getByLabel('Topic', { exact: true }).fill('hello');
    await owner.getByLabel('Message', { exact: true }).fill('Welcome aboard, Nina!');
    await owner.getByLabel('Message', { exact: true }).press('Control+Enter');
    await newcomer.getByRole('article', { name: /Organization Owner/ }).filter({ hasText: 'Welcome aboard, Nina!' }).waitFor();

    await home(owner).click();
    await newcomer.getByRole('button', { name: 'Direct message instead' }).click();
    await newcomer.getByLabel('To', { exact: true }).fill(printedValue('email:'));
    await newcomer.getByLabel('Message', { exact: true }).fill('Thank you, glad to be here.');
    await newcomer.getByLabel('Message', { exact: true }).press('Control+Enter');
    await owner.getByRole('article', { name: /Nina Newcomer/ }).filter({ hasText: 'Thank you, glad to be here.' }).waitFor();
  });
});
