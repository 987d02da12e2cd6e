// Browser sessions' rules that need no store: tokens, the stamp that ties a session to the
// credentials it began with, and the cookies.
import { createHash, randomBytes } from 'node:crypto';

export const SESSION_COOKIE = 'confab_session';
/** Readable by the page's script, which echoes it in the X-CSRFToken header of every change. */
export const CSRF_COOKIE = 'csrftoken';
export const CSRF_HEADER = 'x-csrftoken';
/** Two weeks, the reference's session lifetime. */
export const SESSION_SECONDS = 14 * 24 * 3600;

export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Changes whenever the password or the API key changes, which ends the sessions made before. */
export function authStamp(user: { password_hash: string | null; api_key: string }): string {
  return createHash('sha256').update(`${user.password_hash ?? ''}\n${user.api_key}`).digest('hex').slice(0, 32);
}

export function parseCookies(header: string | undefined): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim();
    if (name === '' || cookies.has(name)) continue;
    const raw = part.slice(eq + 1).trim().replace(/^"(.*)"$/, '$1');
    try {
      cookies.set(name, decodeURIComponent(raw));
    } catch {
      cookies.set(name, raw);
    }
  }
  return cookies;
}

function cookieAttributes(maxAge: number, secure: boolean): string {
  return `Path=/; Max-Age=${maxAge}; SameSite=Lax${secure ? '; Secure' : ''}`;
}

/** The Set-Cookie values that start a session (maxAge in seconds) or, with maxAge 0, end it. */
export function sessionCookies(token: string, csrf: string, maxAge: number, secure: boolean): string[] {
  const common = cookieAttributes(maxAge, secure);
  return [`${SESSION_COOKIE}=${token}; ${common}; HttpOnly`, `${CSRF_COOKIE}=${csrf}; ${common}`];
}

/** The csrftoken cookie alone, set before any session for the token of the login and sign-up forms. */
export function csrfCookie(token: string, secure: boolean): string {
  return `${CSRF_COOKIE}=${token}; ${cookieAttributes(SESSION_SECONDS, secure)}`;
}
