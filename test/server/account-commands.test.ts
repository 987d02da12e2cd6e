// The commands that fix an account from the shell, run as the confab command is run: set-password
// reading the password from standard input, and change-email, each with a one-line refusal and a
// non-zero exit when the input is wrong.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openStore, type Store } from '../../src/db/connect.js';
import { verifyPassword } from '../../src/lib/credentials.js';
import { tokenHash } from '../../src/lib/sessions.js';
import { freshDatabase, testDialects } from '../support/dialects.js';

interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

for (const dialect of testDialects()) {
  describe(`confab set-password and change-email [${dialect}]`, () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'confab-accounts-'));
    let database: Awaited<ReturnType<typeof freshDatabase>> | null = null;
    let storeFlags: string[] = [];
    let store: Store;

    function cli(args: string[], input = ''): Promise<Outcome> {
      return new Promise((resolve, reject) => {
        const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', ...args, '--data-dir', dataDir, ...storeFlags], {
          env: { ...process.env, CONFAB_LOG_LEVEL: 'fatal' },
        });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
        child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
        child.on('error', reject);
        child.on('close', (code) => resolve({ code, stdout, stderr }));
        child.stdin.end(input);
      });
    }
    const userRow = (email: string) => store.db.selectFrom('user_profile').selectAll().where('delivery_email', '=', email).executeTakeFirst();

    before(async () => {
      if (dialect === 'postgres') {
        database = await freshDatabase('confab_accounts');
        storeFlags = ['--database-url', database.url];
      }
      const created = await cli(['create-realm', '--name', 'Acme', '--url', 'http://acme.test', '--owner-email', 'olga@acme.test', '--owner-name', 'Olga Owner']);
      assert.equal(created.code, 0, created.stderr);
      assert.equal((await cli(['create-user', '--email', 'pat@acme.test', '--name', 'Pat Person'])).code, 0);
      store = dialect === 'postgres' ? openStore({ databaseUrl: storeFlags[1]! }) : openStore({ sqlitePath: join(dataDir, 'confab.db') });
    });
    after(async () => {
      await store?.close();
      rmSync(dataDir, { recursive: true, force: true });
      await database?.drop();
    });

    it('sets the password read from standard input and ends the user’s sessions', async () => {
      const pat = (await userRow('pat@acme.test'))!;
      await store.db
        .insertInto('user_session')
        .values({ token_hash: tokenHash('a session'), user_id: pat.id, realm_id: pat.realm_id, csrf_token: 'c', auth_stamp: 's', expires: 4_000_000_000 })
        .execute();
      const set = await cli(['set-password', '--email', 'Pat@Acme.test'], 'quiet meadow harbor\n');
      assert.deepEqual(set, { code: 0, stdout: 'Set a new password for pat@acme.test; their sessions have ended.\n', stderr: '' });
      const after = (await userRow('pat@acme.test'))!;
      assert.equal(await verifyPassword('quiet meadow harbor', after.password_hash), true);
      assert.equal(after.api_key, pat.api_key);
      assert.deepEqual(await store.db.selectFrom('user_session').select('id').where('user_id', '=', pat.id).execute(), []);
    });

    it('refuses a weak password, an empty one and an unknown user in one line', async () => {
      const before = (await userRow('pat@acme.test'))!.password_hash;
      assert.deepEqual(await cli(['set-password', '--email', 'pat@acme.test'], 'password123\n'), { code: 2, stdout: '', stderr: 'The password is too weak.\n' });
      assert.deepEqual(await cli(['set-password', '--email', 'pat@acme.test'], 'abc12'), { code: 2, stdout: '', stderr: 'The password is too weak.\n' });
      assert.deepEqual(await cli(['set-password', '--email', 'pat@acme.test'], ''), { code: 2, stdout: '', stderr: 'This field is required.\n' });
      assert.deepEqual(await cli(['set-password', '--email', 'nobody@acme.test'], 'quiet meadow harbor\n'), {
        code: 2,
        stdout: '',
        stderr: 'No user nobody@acme.test in http://acme.test\n',
      });
      assert.equal((await userRow('pat@acme.test'))!.password_hash, before);
    });

    it('holds create-user and create-realm passwords to the same rules', async () => {
      const weakUser = await cli(['create-user', '--email', 'weak@acme.test', '--name', 'Weak Person', '--password', 'password123']);
      assert.deepEqual(weakUser, { code: 2, stdout: '', stderr: 'The password is too weak.\n' });
      const weakOwner = await cli(['create-realm', '--name', 'Beta', '--url', 'http://beta.test', '--owner-email', 'b@beta.test', '--owner-name', 'Bea Owner', '--owner-password', 'qwerty']);
      assert.deepEqual(weakOwner, { code: 2, stdout: '', stderr: 'The password is too weak.\n' });
      assert.equal(await userRow('weak@acme.test'), undefined);
    });

    it('changes an address to a free, well-formed one', async () => {
      const taken = await cli(['change-email', '--email', 'pat@acme.test', '--new-email', 'olga@acme.test']);
      assert.deepEqual(taken, { code: 2, stdout: '', stderr: 'Already has an account.\n' });
      const malformed = await cli(['change-email', '--email', 'pat@acme.test', '--new-email', 'not an address']);
      assert.deepEqual(malformed, { code: 2, stdout: '', stderr: 'Invalid address.\n' });
      const unknown = await cli(['change-email', '--email', 'nobody@acme.test', '--new-email', 'free@acme.test']);
      assert.deepEqual(unknown, { code: 2, stdout: '', stderr: 'No user nobody@acme.test in http://acme.test\n' });
      const changed = await cli(['change-email', '--email', 'pat@acme.test', '--new-email', 'patricia@acme.test']);
      assert.deepEqual(changed, { code: 0, stdout: 'Changed the email of pat@acme.test to patricia@acme.test.\n', stderr: '' });
      assert.equal(await userRow('pat@acme.test'), undefined);
      assert.equal((await userRow('patricia@acme.test'))?.full_name, 'Pat Person');
    });
  });
}
