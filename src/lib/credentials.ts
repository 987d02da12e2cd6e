// API keys and password hashes (scrypt from node:crypto), compared in constant time. Password
// work runs in libuv's thread pool (async scrypt): each check costs tens of milliseconds, which on
// the event loop would stall every other request.
import { randomBytes, scrypt, type ScryptOptions, timingSafeEqual } from 'node:crypto';

const KEY_ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
export const API_KEY_LENGTH = 32;

export function generateApiKey(): string {
  const bytes = randomBytes(API_KEY_LENGTH * 2);
  let key = '';
  // Rejection sampling keeps every character equally likely.
  for (const byte of bytes) {
    if (byte >= 248) continue;
    key += KEY_ALPHABET[byte % KEY_ALPHABET.length];
    if (key.length === API_KEY_LENGTH) return key;
  }
  return key + generateApiKey().slice(key.length);
}

const CONFIRMATION_KEY_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
export const CONFIRMATION_KEY_LENGTH = 24;

/** The key of a confirmation link (an email change, an invitation): 24 characters, about 124 bits. */
export function generateConfirmationKey(): string {
  let key = '';
  for (const byte of randomBytes(CONFIRMATION_KEY_LENGTH * 2)) {
    // 252 is the largest multiple of 36 below 256: every character stays equally likely.
    if (byte >= 252) continue;
    key += CONFIRMATION_KEY_ALPHABET[byte % CONFIRMATION_KEY_ALPHABET.length];
    if (key.length === CONFIRMATION_KEY_LENGTH) return key;
  }
  return key + generateConfirmationKey().slice(key.length);
}

const DOMAIN_LABEL = '[\\p{L}\\p{N}](?:[\\p{L}\\p{N}-]{0,61}[\\p{L}\\p{N}])?';
const LOGIN_EMAIL = new RegExp(`^[^\\s@]{1,64}@(?:localhost|(?:${DOMAIN_LABEL}\\.)+${DOMAIN_LABEL})$`, 'u');

/** Whether an address can be a username of the login form (every account made by signing up must be). */
export function isLoginEmail(email: string): boolean {
  return email.length <= 254 && LOGIN_EMAIL.test(email);
}

export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  if (left.length !== right.length) {
    timingSafeEqual(left, left);
    return false;
  }
  return timingSafeEqual(left, right);
}

const N = 16384;
const R = 8;
const P = 1;

function derive(password: string, salt: Buffer, length: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password, salt, length, options, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

async function hash(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, 32, { N, r: R, p: P });
  return `scrypt$${N}$${R}$${P}$${salt.toString('base64')}$${key.toString('base64')}`;
}

async function verify(password: string, stored: string | null): Promise<boolean> {
  if (!stored) return false;
  const [scheme, n, r, p, salt, expectedText] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !expectedText) return false;
  const expected = Buffer.from(expectedText, 'base64');
  try {
    const actual = await derive(password, Buffer.from(salt, 'base64'), expected.length, { N: Number(n), r: Number(r), p: Number(p) });
    return timingSafeEqual(actual, expected);
  } catch {
    // Parameters scrypt refuses (a damaged stored hash) match no password.
    return false;
  }
}

/** The password functions, as one object so tests can watch which checks run. */
export const passwords = { hash, verify };

export function hashPassword(password: string): Promise<string> {
  return passwords.hash(password);
}

export function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  return passwords.verify(password, stored);
}

let dummy: Promise<string> | undefined;

/** A hash of no one's password: checked when no account matches, so a refusal costs the same either way. */
export function dummyPasswordHash(): Promise<string> {
  dummy ??= hashPassword('not the password of anyone');
  return dummy;
}
