// The organization's list of email domains for sign-up. Owners change it (the setting it serves
// is owner-only); everyone is told of each change.
import { ApiError, UnauthorizedPrincipalError } from '../errors.js';
import { domainSyntaxError } from '../lib/email-domains.js';
import { realmSettings } from '../lib/realm-settings.js';
import { isOwner } from '../lib/roles.js';
import { getRealmDomain, listRealmDomains } from '../queries/realm-domains.js';
import { activeUserIds } from '../queries/users.js';
import type { ActionContext } from './context.js';
import { checkUpdateRealm } from './realm-update.js';

function requireOwner(ctx: ActionContext): void {
  if (!isOwner(ctx.actor)) throw new UnauthorizedPrincipalError('Must be an organization owner');
}

async function existingDomain(ctx: ActionContext, domain: string) {
  const row = await getRealmDomain(ctx.tx, ctx.realm.id, domain);
  if (!row) throw new ApiError(`No entry found for domain ${domain}.`);
  return row;
}

async function announce(ctx: ActionContext, event: Record<string, unknown>): Promise<void> {
  ctx.events.send({ type: 'realm_domains', ...event }, await activeUserIds(ctx.tx, ctx.realm.id));
}

/** Adds a domain (trimmed and lower-cased first); returns the new row's id and domain. */
export async function addRealmDomain(ctx: ActionContext, rawDomain: string, allowSubdomains: boolean): Promise<[number, string]> {
  requireOwner(ctx);
  const domain = rawDomain.trim().toLowerCase();
  const syntaxError = domainSyntaxError(domain);
  if (syntaxError) throw new ApiError(`Invalid domain: ${syntaxError}`);
  if (await getRealmDomain(ctx.tx, ctx.realm.id, domain)) {
    throw new ApiError(`The domain ${domain} is already a part of your organization.`);
  }
  const row = await ctx.tx
    .insertInto('realm_domain')
    .values({ realm_id: ctx.realm.id, domain, allow_subdomains: allowSubdomains ? 1 : 0 })
    .returning('id')
    .executeTakeFirstOrThrow();
  await announce(ctx, { op: 'add', realm_domain: { domain, allow_subdomains: allowSubdomains } });
  return [row.id, domain];
}

/** The path's domain is matched as given, as the reference does. */
export async function changeRealmDomain(ctx: ActionContext, domain: string, allowSubdomains: boolean): Promise<void> {
  requireOwner(ctx);
  const row = await existingDomain(ctx, domain);
  await ctx.tx.updateTable('realm_domain').set({ allow_subdomains: allowSubdomains ? 1 : 0 }).where('id', '=', row.id).execute();
  await announce(ctx, { op: 'change', realm_domain: { domain: row.domain, allow_subdomains: allowSubdomains } });
}

export async function removeRealmDomain(ctx: ActionContext, domain: string): Promise<void> {
  requireOwner(ctx);
  const row = await existingDomain(ctx, domain);
  await ctx.tx.deleteFrom('realm_domain').where('id', '=', row.id).execute();
  // A restriction to no domains would admit nobody, so removing the last one lifts it.
  if (realmSettings(ctx.realm).emails_restricted_to_domains && (await listRealmDomains(ctx.tx, ctx.realm.id)).length === 0) {
    await checkUpdateRealm(ctx, { settings: { emails_restricted_to_domains: 'false' } });
  }
  await announce(ctx, { op: 'remove', domain: row.domain });
}
