// HTTP Basic authentication: "email:api_key". Every failure is a 401 UNAUTHORIZED carrying
// the specific reason, with the WWW-Authenticate header, as the reference server does.
import { sql } from 'kysely';
import { prepare } from '../db/prepared.js';
import type { RealmRow, UserRow } from '../db/schema.js';
import { ApiError, UnauthorizedError } from '../errors.js';
import { API_KEY_LENGTH, safeEqual } from '../lib/credentials.js';
import { getRealmForHost } from '../queries/realms.js';
import type { Services } from '../services.js';
import { CredentialCache, type Stamp } from './credential-cache.js';

export interface Credentials {
  email: string;
  apiKey: string;
}

export function parseBasicAuth(header: string | undefined): Credentials {
  if (!header) throw new UnauthorizedError();
  const [scheme, encoded] = header.trim().split(/\s+/, 2);
  if (scheme?.toLowerCase() !== 'basic') throw new ApiError('This endpoint requires HTTP basic authentication.');
  const decoded = Buffer.from(encoded ?? '', 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (!encoded || colon < 0) throw new UnauthorizedError('Invalid authorization header for basic auth');
  return { email: decoded.slice(0, colon), apiKey: decoded.slice(colon + 1) };
}

// Every authenticated request runs this, so it is compiled once; both lower() forms are indexed.
const userByLogin = prepare<[number, string], UserRow>(2, (db, realmId, lowered) =>
  db
    .selectFrom('user_profile')
    .selectAll()
    .where('realm_id', '=', realmId)
    .where((eb) => eb.or([eb(sql`lower(email)`, '=', lowered), eb(sql`lower(delivery_email)`, '=', lowered)]))
    .limit(1),
);

export interface Authenticated {
  user: UserRow;
  realm: RealmRow;
}

const caches = new WeakMap<Services, CredentialCache>();

/** The credentials a running server has checked, shared by its routes and its event polls. */
export function credentialCacheFor(services: Services): CredentialCache {
  let cache = caches.get(services);
  if (!cache) caches.set(services, (cache = new CredentialCache(services.store)));
  return cache;
}

export async function authenticate(
  services: Services,
  header: string | undefined,
  host: string | undefined,
): Promise<Authenticated> {
  if (header === undefined) return checkCredentials(services, header, host);
  const cache = credentialCacheFor(services);
  const lookup = await cache.lookup(header, host);
  if ('found' in lookup) return lookup.found;
  return checkAndRemember(services, header, host, lookup.stamp);
}

/**
 * The full check, remembered under the counters as they stood before it (`known`, or read now),
 * so a change made meanwhile is seen by the next request.
 */
export async function checkAndRemember(services: Services, header: string, host: string | undefined, known: Stamp | null): Promise<Authenticated> {
  const cache = credentialCacheFor(services);
  const stamp = known ?? (await cache.stampFor(host));
  const checked = await checkCredentials(services, header, host);
  if (stamp) cache.remember(header, host, checked, stamp);
  return checked;
}

/** The full check against the store, remembering nothing. */
async function checkCredentials(services: Services, header: string | undefined, host: string | undefined): Promise<Authenticated> {
  const { email, apiKey } = parseBasicAuth(header);
  if (apiKey.length !== API_KEY_LENGTH) throw new UnauthorizedError('Malformed API key');
  const realm = await getRealmForHost(services.db, host);
  if (!realm) throw new UnauthorizedError('Invalid API key');
  const lowered = email.toLowerCase();
  const user = await userByLogin.first(services.db, realm.id, lowered);
  if (!user || !safeEqual(user.api_key, apiKey)) {
    // Looked up on every failure, so a wrong key costs the same whether or not the address is known here.
    const elsewhere = await existsInAnotherRealm(services, realm.id, lowered, apiKey);
    if (!user && elsewhere) throw new UnauthorizedError('Account is not associated with this subdomain');
    throw new UnauthorizedError('Invalid API key');
  }
  if (!user.is_active) throw new UnauthorizedError('Account is deactivated');
  if (realm.deactivated) throw new UnauthorizedError('This organization has been deactivated');
  return { user, realm };
}

async function existsInAnotherRealm(services: Services, realmId: number, email: string, apiKey: string) {
  const other = await services.db
    .selectFrom('user_profile')
    .select('api_key')
    .where('realm_id', '<>', realmId)
    .where('api_key', '=', apiKey)
    .where(sql`lower(delivery_email)`, '=', email)
    .executeTakeFirst();
  return other !== undefined;
}
