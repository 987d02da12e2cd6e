// Which email addresses an organization admits: the domain syntax its domain list accepts, the
// domain and subdomain matching of emails_restricted_to_domains, and the disposable-address rule.
import { createRequire } from 'node:module';
import type { RealmRow } from '../types/rows.js';
import { realmSettings } from './realm-settings.js';

/** One entry of an organization's domain list. */
export interface AllowedDomain {
  domain: string;
  allow_subdomains: boolean;
}

const MAX_DOMAIN_LENGTH = 255;

/** The reason a domain may not join the list, in the reference's words; null when it may. */
export function domainSyntaxError(domain: string): string | null {
  if (domain.length === 0) return "Domain can't be empty.";
  if (!domain.includes('.')) return 'Domain must have at least one dot (.)';
  if (domain.length > MAX_DOMAIN_LENGTH) return 'Domain is too long';
  if (domain.startsWith('.') || domain.endsWith('.')) return 'Domain cannot start or end with a dot (.)';
  for (const label of domain.split('.')) {
    if (label === '') return "Consecutive '.' are not allowed.";
    if (label.startsWith('-') || label.endsWith('-')) return "Subdomains cannot start or end with a '-'.";
    if (!/^[a-z0-9-]*$/.test(label)) return "Domain can only have letters, numbers, '.' and '-'s.";
  }
  return null;
}

let disposableDomains: Set<string> | undefined;

// Address-masking services on the published list that the reference nevertheless admits.
const ADMITTED_DESPITE_LIST = new Set(['airsi.de', 'opayq.com', 'abinemail.com', 'blurmail.net', 'maskmemail.com']);

/** The published list of throwaway-mail domains, read on first use (it is large). */
export function isDisposableDomain(domain: string): boolean {
  const lower = domain.toLowerCase();
  if (ADMITTED_DESPITE_LIST.has(lower)) return false;
  disposableDomains ??= new Set(createRequire(import.meta.url)('disposable-email-domains') as string[]);
  return disposableDomains.has(lower);
}

function splitAddress(email: string): { local: string; domain: string } {
  const at = email.lastIndexOf('@');
  return { local: email.slice(0, at), domain: email.slice(at + 1).toLowerCase() };
}

/** Whether the domain is listed, or lies under a listed domain that allows subdomains. */
export function domainMatches(domain: string, allowed: readonly AllowedDomain[]): boolean {
  const lower = domain.toLowerCase();
  if (allowed.some((entry) => entry.domain === lower)) return true;
  const parents = lower.split('.').map((_, i, labels) => labels.slice(i + 1).join('.'));
  return parents.some((parent) => parent !== '' && allowed.some((entry) => entry.allow_subdomains && entry.domain === parent));
}

/** Why the organization refuses an address: each caller words the refusal its own way. */
export type EmailRefusal = 'domain' | 'disposable' | 'plus';

/** Whether only the organization's listed domains may hold accounts. */
export function emailsRestrictedToDomains(realm: RealmRow): boolean {
  return realmSettings(realm).emails_restricted_to_domains;
}

/**
 * The organization's rule for a well-formed address, given its domain list (needed only when
 * restricted). A restricted organization checks only its own list (which is short and chosen), so
 * the disposable rule applies only when unrestricted.
 */
export function addressRefusal(realm: RealmRow, email: string, allowed: readonly AllowedDomain[]): EmailRefusal | null {
  const settings = realmSettings(realm);
  const { local, domain } = splitAddress(email);
  if (!settings.emails_restricted_to_domains) {
    return settings.disallow_disposable_email_addresses && isDisposableDomain(domain) ? 'disposable' : null;
  }
  if (local.includes('+')) return 'plus';
  return domainMatches(domain, allowed) ? null : 'domain';
}

/** The sign-up form's texts. */
export function signupRefusalText(refusal: EmailRefusal, email: string): string {
  switch (refusal) {
    case 'domain':
      return `Your email address, ${email}, is not in one of the domains that are allowed to register for accounts in this organization.`;
    case 'disposable':
      return 'Please use your real email address.';
    case 'plus':
      return 'Email addresses containing + are not allowed in this organization.';
  }
}

/** The texts of POST /users, where an administrator creates the account. */
export function createUserRefusalText(refusal: EmailRefusal, email: string): string {
  switch (refusal) {
    case 'domain':
      return `Email '${email}' not allowed in this organization`;
    case 'disposable':
      return 'Disposable email addresses are not allowed in this organization';
    case 'plus':
      return 'Email addresses containing + are not allowed.';
  }
}

/** The texts of an email change and of invitations by address. */
export function addressRefusalText(refusal: EmailRefusal): string {
  switch (refusal) {
    case 'domain':
      return 'Outside your domain.';
    case 'disposable':
      return 'Please use your real email address.';
    case 'plus':
      return 'Email addresses containing + are not allowed.';
  }
}
