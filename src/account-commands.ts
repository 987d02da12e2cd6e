// The confab commands that fix an account from the server's shell: set-password (for someone
// locked out, or a new account) and change-email (without the confirmation mail the web asks for).
import { sql } from 'kysely';
import { runSystemAction } from './actions/context.js';
import { changeEmail } from './actions/email-change.js';
import { checkNewPassword, setPasswordHash } from './actions/password-reset.js';
import type { DbOrTx, RealmRow, UserRow } from './db/schema.js';
import { ApiError } from './errors.js';
import type { Services } from './services.js';

/** A user of the organization by their real address, whatever its case. */
async function userByAddress(db: DbOrTx, realm: RealmRow, email: string): Promise<UserRow> {
  const user = await db
    .selectFrom('user_profile')
    .selectAll()
    .where('realm_id', '=', realm.id)
    .where(sql`lower(delivery_email)`, '=', email.toLowerCase())
    .executeTakeFirst();
  if (!user) throw new ApiError(`No user ${email} in ${realm.url}`);
  return user;
}

/** One line typed on the terminal without echoing it. */
function askHidden(question: string): Promise<string> {
  const input = process.stdin;
  process.stderr.write(question);
  return new Promise((resolve, reject) => {
    let typed = '';
    input.setRawMode(true);
    input.resume();
    input.setEncoding('utf8');
    const done = (error?: Error) => {
      input.setRawMode(false);
      input.pause();
      input.off('data', onData);
      process.stderr.write('\n');
      if (error) reject(error);
      else resolve(typed);
    };
    const onData = (chunk: string) => {
      for (const char of chunk) {
        if (char === '\r' || char === '\n') return done();
        if (char === '\u0003') return done(new ApiError('Cancelled.'));
        if (char === '\u007f' || char === '\b') typed = [...typed].slice(0, -1).join('');
        else typed += char;
      }
    };
    input.on('data', onData);
  });
}

/** The new password: asked twice on a terminal, else standard input up to its end (less one final newline). */
async function readNewPassword(): Promise<[string, string]> {
  if (process.stdin.isTTY) return [await askHidden('New password: '), await askHidden('Confirm password: ')];
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  const password = Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
  return [password, password];
}

export async function setPasswordCommand(services: Services, realm: RealmRow, email: string): Promise<string> {
  const user = await userByAddress(services.db, realm, email);
  const [password, confirmation] = await readNewPassword();
  const hash = await checkNewPassword(password, confirmation);
  await runSystemAction(services, (ctx) => setPasswordHash(ctx, user, hash));
  return `Set a new password for ${user.delivery_email}; their sessions have ended.`;
}

export async function changeEmailCommand(services: Services, realm: RealmRow, email: string, newEmail: string): Promise<string> {
  const changed = await runSystemAction(services, async (ctx) => changeEmail(ctx, realm, await userByAddress(ctx.tx, realm, email), newEmail.trim()));
  return `Changed the email of ${email} to ${changed.delivery_email}.`;
}
