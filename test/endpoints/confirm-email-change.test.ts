import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { defaultConfig } from '../../src/config.js';
import { type MailMessage, mailTransportFor, OutboxTransport, SmtpTransport, senderAddress, setMailTransport } from '../../src/adapters/mail/transport.js';
import type { Services } from '../../src/services.js';
import { ApiClient, expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

const undocumented = { undocumented: true };

for (const dialect of testDialects()) {
  describe(`email change by confirmation link [${dialect}]`, () => {
    let ctx: TestContext;
    const sent: MailMessage[] = [];
    before(async () => {
      ctx = await setup(dialect);
      setMailTransport(ctx.services, { send: async (message) => void sent.push(message) });
    });
    after(() => ctx.close());

    /** The path (under /api/v1) of the link in the last mail. */
    const lastLink = () => {
      const pattern = /http:\/\/confab\.test\/api\/v1(\/accounts\/confirm_new_email\/[a-z0-9]+)/;
      const mail = [...sent].reverse().find((m) => pattern.test(m.text));
      assert.ok(mail, 'no confirmation mail');
      return pattern.exec(mail.text)![1]!;
    };
    const row = (id: number) => ctx.services.db.selectFrom('user_profile').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

    it('mails a link to the new address and changes nothing until it is followed', async () => {
      const { mona, mark, gus } = ctx.seed.users;
      ctx.clearEvents();
      const body = expectSuccess(await ctx.as('mona').patch('/settings', { email: ' mona.new@example.com ' }));
      assert.deepEqual(body, { result: 'success', msg: '' });
      assert.equal(sent.length, 1);
      assert.equal(sent[0]!.to, 'mona.new@example.com');
      assert.match(sent[0]!.subject, /Confab Dev/);
      assert.equal((await row(mona.id)).delivery_email, 'mona@confab.test');
      assert.equal(ctx.events.length, 0);

      const link = lastLink();
      const res = await ctx.anonymous().get(link, {}, undocumented);
      assert.deepEqual(res.body, { result: 'success', msg: '', old_email: 'mona@confab.test', new_email: 'mona.new@example.com' });
      const changed = await row(mona.id);
      assert.equal(changed.delivery_email, 'mona.new@example.com');
      assert.equal(changed.email, 'mona.new@example.com');
      // A notice goes to the old address.
      assert.equal(sent.at(-1)!.to, 'mona@confab.test');

      const persons = ctx.events.filter((d) => d.event.type === 'realm_user').map((d) => d.event.person as Record<string, unknown>);
      assert.deepEqual(persons[0], { user_id: mona.id, delivery_email: 'mona.new@example.com' });
      // Without Gravatar the avatar does not follow the address, so no avatar update is sent.
      assert.deepEqual(persons[1], { user_id: mona.id, new_email: 'mona.new@example.com' });
      assert.equal(persons.length, 2);
      const update = ctx.events.find((d) => (d.event.person as any)?.new_email)!;
      assert.ok(update.users.includes(mark.id) && update.users.includes(gus.id));

      // The new address logs in; the link works once.
      const client = new ApiClient(ctx.app, ApiClient.basic('mona.new@example.com', mona.api_key));
      assert.equal(expectSuccess(await client.get('/users/me')).email, 'mona.new@example.com');
      const state = expectSuccess(await client.post('/register', { fetch_event_types: ['realm_user'] }));
      assert.equal(state.delivery_email, 'mona.new@example.com');
      expectError(await ctx.anonymous().get(link, {}, undocumented), 'The confirmation link has expired or been deactivated.', 'BAD_REQUEST', 404);
    });

    it('checks the new address', async () => {
      const before = sent.length;
      expectError(await ctx.as('milo').patch('/settings', { email: 'not-an-address' }), 'Invalid address.');
      expectError(await ctx.as('milo').patch('/settings', { email: 'milo@localhost' }), 'Invalid address.');
      expectError(await ctx.as('milo').patch('/settings', { email: '' }), 'Invalid address.');
      expectError(await ctx.as('milo').patch('/settings', { email: 'MARK@confab.test' }), 'Already has an account.');
      expectSuccess(await ctx.as('adam').delete(`/users/${ctx.seed.users.gus.id}`));
      expectError(await ctx.as('milo').patch('/settings', { email: 'gus@confab.test' }), 'Account has been deactivated.');
      expectSuccess(await ctx.as('adam').post(`/users/${ctx.seed.users.gus.id}/reactivate`));
      // The current address is no change at all.
      expectSuccess(await ctx.as('milo').patch('/settings', { email: 'milo@confab.test' }));
      assert.equal(sent.length, before);
    });

    it('follows the organization lock on email changes, except for administrators', async () => {
      expectSuccess(await ctx.as('olivia').patch('/realm', { email_changes_disabled: true }, undocumented));
      expectError(await ctx.as('milo').patch('/settings', { email: 'milo2@example.com' }), 'Email address changes are disabled in this organization.');
      expectSuccess(await ctx.as('adam').patch('/settings', { email: 'adam2@example.com' }));
      const link = lastLink();
      expectSuccess(await ctx.as('olivia').patch('/realm', { email_changes_disabled: false }, undocumented));
      expectSuccess(await ctx.anonymous().get(link, {}, undocumented));
      assert.equal((await row(ctx.seed.users.adam.id)).delivery_email, 'adam2@example.com');
    });

    it('keeps only the newest request, and links expire after a day', async () => {
      const { milo } = ctx.seed.users;
      expectSuccess(await ctx.as('milo').patch('/settings', { email: 'milo.first@example.com' }));
      const first = lastLink();
      expectSuccess(await ctx.as('milo').patch('/settings', { email: 'milo.second@example.com' }));
      const second = lastLink();
      expectError(await ctx.anonymous().get(first, {}, undocumented), 'The confirmation link has expired or been deactivated.', 'BAD_REQUEST', 404);
      ctx.clock.advance(24 * 3600 + 1);
      expectError(await ctx.anonymous().get(second, {}, undocumented), 'The confirmation link has expired or been deactivated.', 'BAD_REQUEST', 404);
      assert.equal((await row(milo.id)).delivery_email, 'milo@confab.test');
    });

    it('refuses a link whose address was taken meanwhile', async () => {
      expectSuccess(await ctx.as('milo').patch('/settings', { email: 'contested@example.com' }));
      const link = lastLink();
      expectSuccess(await ctx.as('olivia').post('/users', { email: 'contested@example.com', password: 'long enough password', full_name: 'Quick One' }));
      expectError(await ctx.anonymous().get(link, {}, undocumented), 'Already has an account.');
    });

    it('answers unknown and malformed links with 404', async () => {
      expectError(await ctx.anonymous().get('/accounts/confirm_new_email/abc', {}, undocumented), 'The confirmation link is malformed.', 'BAD_REQUEST', 404);
      expectError(
        await ctx.anonymous().get(`/accounts/confirm_new_email/${'a'.repeat(24)}`, {}, undocumented),
        "We couldn't find your confirmation link in the system.",
        'BAD_REQUEST',
        404,
      );
    });

    it('shows browsers a page', async () => {
      expectSuccess(await ctx.as('maya').patch('/settings', { email: 'maya2@example.com' }));
      const link = lastLink();
      const ok = await ctx.app.inject({ method: 'GET', url: `/api/v1${link}`, headers: { accept: 'text/html,*/*' } });
      assert.equal(ok.statusCode, 200);
      assert.match(String(ok.headers['content-type']), /text\/html/);
      assert.match(ok.body, /changed from maya@confab\.test to maya2@example\.com/);
      const bad = await ctx.app.inject({ method: 'GET', url: `/api/v1${link}`, headers: { accept: 'text/html' } });
      assert.equal(bad.statusCode, 404);
      assert.match(bad.body, /expired or been deactivated/);
    });

    it('writes mail into the outbox folder when no SMTP server is set', async () => {
      const dir = await mkdtemp(join(tmpdir(), 'confab-outbox-'));
      const lines: string[] = [];
      try {
        await new OutboxTransport(dir, 'noreply@confab.test', (line) => lines.push(line)).send({ to: 'x@example.com', subject: 'Hello', text: 'Body' });
        const [file] = await readdir(dir);
        const text = await readFile(join(dir, file!), 'utf8');
        assert.match(text, /^From: noreply@confab\.test\r\nTo: x@example\.com\r\nSubject: Hello\r\n/);
        assert.match(text, /\r\n\r\nBody$/);
        assert.equal(lines.length, 1);
        assert.match(lines[0]!, /mail to x@example\.com \("Hello"\) written to /);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });

    it('picks SMTP when an SMTP URL is configured, else the outbox under the data folder', () => {
      const smtp = mailTransportFor({ config: { ...defaultConfig, smtpUrl: 'smtp://mailer.example.com:2525' } } as Services);
      assert.ok(smtp instanceof SmtpTransport);
      const outbox = mailTransportFor({ config: { ...defaultConfig, dataDir: '/srv/confab' } } as Services);
      assert.ok(outbox instanceof OutboxTransport);
      assert.equal(outbox.dir, '/srv/confab/outbox');
      assert.equal(senderAddress({ ...defaultConfig, externalUrl: 'https://chat.example.org' }), 'noreply@chat.example.org');
      assert.equal(senderAddress({ ...defaultConfig, mailFrom: 'Confab <bot@example.org>' }), 'Confab <bot@example.org>');
    });

    it('delivers through an SMTP server', async () => {
      // A minimal SMTP server on a free local port, keeping what it is told.
      const received: string[] = [];
      const server = createServer((socket) => {
        let inData = false;
        let buffer = '';
        socket.write('220 fake ESMTP\r\n');
        socket.on('data', (chunk) => {
          buffer += chunk.toString('utf8');
          for (;;) {
            if (inData) {
              const end = buffer.indexOf('\r\n.\r\n');
              if (end < 0) return;
              received.push(buffer.slice(0, end));
              buffer = buffer.slice(end + 5);
              inData = false;
              socket.write('250 queued\r\n');
              continue;
            }
            const eol = buffer.indexOf('\r\n');
            if (eol < 0) return;
            const line = buffer.slice(0, eol);
            buffer = buffer.slice(eol + 2);
            const verb = line.slice(0, 4).toUpperCase();
            if (verb === 'EHLO' || verb === 'HELO') socket.write('250 fake\r\n');
            else if (verb === 'DATA') {
              inData = true;
              socket.write('354 go ahead\r\n');
            } else if (verb === 'QUIT') socket.end('221 bye\r\n');
            else socket.write('250 ok\r\n');
          }
        });
      });
      await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
      try {
        const { port } = server.address() as AddressInfo;
        const smtp = new SmtpTransport(`smtp://127.0.0.1:${port}`, 'noreply@confab.test');
        await smtp.send({ to: 'someone@example.com', subject: 'Over SMTP', text: 'Hello by mail' });
        assert.equal(received.length, 1);
        assert.match(received[0]!, /Subject: Over SMTP/);
        assert.match(received[0]!, /To: someone@example\.com/);
        assert.match(received[0]!, /Hello by mail/);
      } finally {
        server.close();
      }
    });
  });
}
