// Browser sessions in the store: made at login, looked up on every /json request, ended at
// logout, when they expire, or when the credentials they began with change.
import type { DbOrTx, UserRow, UserSessionRow } from '../db/schema.js';
import { authStamp, newToken, SESSION_SECONDS, tokenHash } from '../lib/sessions.js';

export interface NewSession {
  token: string;
  csrfToken: string;
}

export async function createSession(db: DbOrTx, user: UserRow, now: number): Promise<NewSession> {
  const token = newToken();
  const csrfToken = newToken();
  await db
    .insertInto('user_session')
    .values({
      token_hash: tokenHash(token),
      user_id: user.id,
      realm_id: user.realm_id,
      csrf_token: csrfToken,
      auth_stamp: authStamp(user),
      expires: Math.floor(now) + SESSION_SECONDS,
    })
    .execute();
  // Expired sessions of this user go now; nobody else's need be touched on this path.
  await db.deleteFrom('user_session').where('user_id', '=', user.id).where('expires', '<=', Math.floor(now)).execute();
  return { token, csrfToken };
}

export function sessionByToken(db: DbOrTx, token: string): Promise<UserSessionRow | undefined> {
  return db.selectFrom('user_session').selectAll().where('token_hash', '=', tokenHash(token)).executeTakeFirst();
}

export async function endSession(db: DbOrTx, id: number): Promise<void> {
  await db.deleteFrom('user_session').where('id', '=', id).execute();
}

/** After a change made through this session to its own credentials, it carries on under the new ones. */
export async function restampSession(db: DbOrTx, id: number, user: UserRow): Promise<void> {
  await db.updateTable('user_session').set({ auth_stamp: authStamp(user) }).where('id', '=', id).execute();
}
