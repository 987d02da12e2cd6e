// Resetting a forgotten password: a form asks for an address, a mail carries a single-use link,
// and the link's page sets a new password, which ends every session the user had. As in the
// reference, the form's answer never says whether the address has an account; the mail does, to
// whoever owns the address. The API key stays as it was, as the reference keeps it.
import { sql } from 'kysely';
import type { MailMessage } from '../adapters/mail/transport.js';
import type { DbOrTx, RealmRow, UserRow } from '../db/schema.js';
import { ApiError } from '../errors.js';
import { hashPassword } from '../lib/credentials.js';
import { escapeHtml } from '../lib/markdown/escape.js';
import { isStrongPassword, MAX_PASSWORD_LENGTH, PASSWORD_TOO_WEAK } from '../lib/password-strength.js';
import { newToken, tokenHash } from '../lib/sessions.js';
import { getRealmById } from '../queries/realms.js';
import type { SystemContext } from './context.js';

export const PASSWORD_RESET_PATH = '/accounts/password/reset';
/** Django's PASSWORD_RESET_TIMEOUT, which the reference leaves at its default of three days. */
export const PASSWORD_RESET_SECONDS = 3 * 24 * 3600;

const WELL_FORMED_TOKEN = /^[\w-]{43}$/;

/** The answers of the set-password form that the reference gives in Django's words. */
export const PASSWORDS_DIFFER = 'The two password fields didn’t match.';

export class ResetLinkError extends ApiError {
  constructor() {
    super('The password reset link is invalid, has already been used or has expired.', { status: 404 });
  }
}

function activeAccount(db: DbOrTx, realmId: number, email: string): Promise<UserRow | undefined> {
  return db
    .selectFrom('user_profile')
    .selectAll()
    .where('realm_id', '=', realmId)
    .where('is_bot', '=', 0)
    .where(sql`lower(delivery_email)`, '=', email.toLowerCase())
    .executeTakeFirst();
}

/**
 * The mail a reset request sends, if any: a link for an active account, otherwise a note that
 * there is no (active) account here. A deactivated organization gets nothing, as in the reference.
 */
export async function requestPasswordReset(ctx: SystemContext, realm: RealmRow, email: string): Promise<MailMessage | null> {
  if (realm.deactivated) return null;
  const user = await activeAccount(ctx.tx, realm.id, email);
  const subject = `Password reset request for ${realm.name}`;
  if (!user?.is_active) {
    const why = user
      ? `You previously had an account on ${realm.url}, but it has been deactivated. You can contact an organization administrator to reactivate your account.`
      : 'You do not have an account in that organization.';
    return { to: email, subject, ...resetMailBody(realm, email, [why]) };
  }
  const token = newToken();
  await ctx.tx.deleteFrom('password_reset_token').where('user_id', '=', user.id).where('expires', '<=', ctx.now).execute();
  await ctx.tx
    .insertInto('password_reset_token')
    .values({ token_hash: tokenHash(token), user_id: user.id, realm_id: realm.id, expires: Math.floor(ctx.now) + PASSWORD_RESET_SECONDS })
    .execute();
  const link = `${realm.url}${PASSWORD_RESET_PATH}/${token}/`;
  const closing = 'The link works once, within three days. If you did not ask for a new password, ignore this message.';
  return { to: user.delivery_email, subject, ...resetMailBody(realm, email, [closing], link) };
}

/** The mail's text and HTML: who asked for what, the link if there is one, then `notes`. */
function resetMailBody(realm: RealmRow, email: string, notes: string[], link?: string): { text: string; html: string } {
  const opening = `Somebody (possibly you) requested a new password for the account ${email} on ${realm.url}.`;
  const text = [opening, ...(link ? [`Click the link below to reset your password.\n${link}`] : []), ...notes].join('\n\n');
  const url = escapeHtml(realm.url);
  const paragraphs = [
    `Somebody (possibly you) requested a new password for the account <strong>${escapeHtml(email)}</strong> on <a href="${url}">${url}</a>.`,
    ...(link
      ? [
          'Click the button below to reset your password.',
          `<a href="${escapeHtml(link)}" style="display:inline-block;padding:10px 18px;border-radius:6px;background:#2f6fde;color:#fff;text-decoration:none">Reset password</a>`,
        ]
      : []),
    ...notes.map(escapeHtml),
  ];
  const html = `<!doctype html><html lang="en"><body style="margin:0;padding:24px;font:16px/1.5 system-ui,sans-serif;color:#222">${paragraphs.map((p) => `<p>${p}</p>`).join('')}</body></html>`;
  return { text: `${text}\n`, html };
}

/** The user a reset link is for, while it is unused, unexpired and its account and organization are active. */
export async function userOfResetLink(db: DbOrTx, hostRealm: RealmRow | undefined, token: string, now: number): Promise<UserRow> {
  if (!hostRealm || !WELL_FORMED_TOKEN.test(token)) throw new ResetLinkError();
  const row = await db.selectFrom('password_reset_token').selectAll().where('token_hash', '=', tokenHash(token)).executeTakeFirst();
  if (!row || row.expires <= now || row.realm_id !== hostRealm.id) throw new ResetLinkError();
  const realm = await getRealmById(db, row.realm_id);
  const user = await db.selectFrom('user_profile').selectAll().where('id', '=', row.user_id).executeTakeFirst();
  if (!realm || realm.deactivated || !user?.is_active) throw new ResetLinkError();
  return user;
}

/** A new password must be given, at most the longest allowed, and hard enough to guess. */
export async function checkPasswordAcceptable(password: string): Promise<void> {
  const length = [...password].length;
  if (length === 0) throw new ApiError('This field is required.');
  if (length > MAX_PASSWORD_LENGTH) throw new ApiError(`Ensure this value has at most ${MAX_PASSWORD_LENGTH} characters (it has ${length}).`);
  if (!(await isStrongPassword(password))) throw new ApiError(PASSWORD_TOO_WEAK);
}

/** The form's checks, in the reference's order; the new password's hash (slow, so outside any transaction). */
export async function checkNewPassword(password: string, confirmation: string): Promise<string> {
  await checkPasswordAcceptable(password);
  if (password !== confirmation) throw new ApiError(PASSWORDS_DIFFER);
  return hashPassword(password);
}

/**
 * Uses the link: the new password, every link of the user gone, and every session ended (each
 * would end anyway at its next request, its credentials having changed; this frees the rows).
 */
export async function doResetPassword(ctx: SystemContext, hostRealm: RealmRow | undefined, token: string, passwordHash: string): Promise<UserRow> {
  const user = await userOfResetLink(ctx.tx, hostRealm, token, ctx.now);
  await setPasswordHash(ctx, user, passwordHash);
  return { ...user, password_hash: passwordHash };
}

/** A new password for `user`, ending all their sessions and reset links; the API key is kept. */
export async function setPasswordHash(ctx: SystemContext, user: UserRow, passwordHash: string): Promise<void> {
  await ctx.tx.updateTable('user_profile').set({ password_hash: passwordHash }).where('id', '=', user.id).execute();
  await ctx.tx.deleteFrom('user_session').where('user_id', '=', user.id).execute();
  await ctx.tx.deleteFrom('password_reset_token').where('user_id', '=', user.id).execute();
}
