// Changing a user's email address: PATCH /settings records the request and mails a confirmation
// link to the new address; the address changes only when that link is followed.
import type { RealmRow, UserRow } from '../db/schema.js';
import { ApiError } from '../errors.js';
import type { MailMessage } from '../adapters/mail/transport.js';
import { CONFIRMATION_KEY_LENGTH, generateConfirmationKey } from '../lib/credentials.js';
import { addressRefusalText } from '../lib/email-domains.js';
import { emailRefusal } from '../queries/realm-domains.js';
import { realmSettings } from '../lib/realm-settings.js';
import { isAdmin } from '../lib/roles.js';
import { avatarUrl, canSeeDeliveryEmail, emailIsPublic, isGravatarEnabled, placeholderUserId } from '../lib/user-format.js';
import { getRealmById } from '../queries/realms.js';
import { getUserByEmail, getUserById, listUsers } from '../queries/users.js';
import { mediumAvatarUrl } from '../events/state/users.js';
import type { ActionContext, SystemContext } from './context.js';

/** Where the confirmation link points, under the API prefix (so the route table serves it). */
export const CONFIRM_EMAIL_PATH = '/accounts/confirm_new_email';
const API_PREFIX = '/api/v1';

/** Links stay valid for a day. */
export const CONFIRMATION_VALIDITY_SECONDS = 24 * 3600;

export const EmailChangeStatus = { PENDING: 0, CONFIRMED: 1, REPLACED: 2 } as const;

const ADDRESS = /^[^\s@\p{C}]+@[^\s@\p{C}.]+(\.[^\s@\p{C}.]+)+$/u;

async function checkAddressAvailable(ctx: SystemContext, realm: RealmRow, email: string): Promise<void> {
  // Placeholder addresses stand in for hidden ones; a real account may not take their form.
  if (placeholderUserId(email, realm.url) !== undefined) throw new ApiError('Invalid address.');
  const existing = await getUserByEmail(ctx.tx, realm.id, email);
  if (existing) throw new ApiError(existing.is_active ? 'Already has an account.' : 'Account has been deactivated.');
}

function checkChangesAllowed(realm: RealmRow, user: UserRow): void {
  if (realmSettings(realm).email_changes_disabled && !isAdmin(user)) {
    throw new ApiError('Email address changes are disabled in this organization.');
  }
}

/**
 * Validates the new address and records the request (replacing any earlier one of the user);
 * returns the confirmation message for the caller to send once the transaction has committed.
 */
export async function requestEmailChange(ctx: ActionContext, newEmail: string): Promise<MailMessage> {
  checkChangesAllowed(ctx.realm, ctx.actor);
  if (!ADDRESS.test(newEmail) || newEmail.length > 254) throw new ApiError('Invalid address.');
  const refusal = await emailRefusal(ctx.tx, ctx.realm, newEmail);
  if (refusal) throw new ApiError(addressRefusalText(refusal));
  await checkAddressAvailable(ctx, ctx.realm, newEmail);
  await ctx.tx
    .updateTable('email_change_request')
    .set({ status: EmailChangeStatus.REPLACED })
    .where('user_id', '=', ctx.actor.id)
    .where('status', '=', EmailChangeStatus.PENDING)
    .execute();
  const key = generateConfirmationKey();
  await ctx.tx
    .insertInto('email_change_request')
    .values({
      realm_id: ctx.realm.id,
      user_id: ctx.actor.id,
      old_email: ctx.actor.delivery_email,
      new_email: newEmail,
      confirmation_key: key,
      date_sent: ctx.now,
    })
    .execute();
  const link = `${ctx.realm.url}${API_PREFIX}${CONFIRM_EMAIL_PATH}/${key}`;
  return {
    to: newEmail,
    subject: `Verify your new email address for ${ctx.realm.name}`,
    text:
      `Hi ${ctx.actor.full_name},\n\n` +
      `We received a request to change the email address of your account in ${ctx.realm.name} ` +
      `(${ctx.realm.url}) from ${ctx.actor.delivery_email} to ${newEmail}.\n\n` +
      `To confirm the change, follow this link:\n${link}\n\n` +
      'The link is valid for 24 hours. If you did not ask for this change, ignore this message.\n',
  };
}

export class ConfirmationLinkError extends ApiError {
  constructor(msg: string) {
    super(msg, { status: 404 });
  }
}

export interface ConfirmedChange {
  oldEmail: string;
  newEmail: string;
  /** A notice for the old address. */
  notice: MailMessage;
}

/** Following the link: the address changes, and everyone who may see it hears of the change. */
export async function confirmEmailChange(ctx: SystemContext, key: string): Promise<ConfirmedChange> {
  if (key.length !== CONFIRMATION_KEY_LENGTH || !/^[a-z0-9]+$/.test(key)) throw new ConfirmationLinkError('The confirmation link is malformed.');
  const request = await ctx.tx.selectFrom('email_change_request').selectAll().where('confirmation_key', '=', key).executeTakeFirst();
  if (!request) throw new ConfirmationLinkError("We couldn't find your confirmation link in the system.");
  const expired = ctx.now - request.date_sent > CONFIRMATION_VALIDITY_SECONDS;
  const realm = await getRealmById(ctx.tx, request.realm_id);
  const user = await getUserById(ctx.tx, request.realm_id, request.user_id);
  if (request.status !== EmailChangeStatus.PENDING || expired || !realm || !user || !user.is_active || realm.deactivated) {
    throw new ConfirmationLinkError('The confirmation link has expired or been deactivated.');
  }
  if (user.delivery_email !== request.old_email) throw new ConfirmationLinkError('The confirmation link has expired or been deactivated.');
  checkChangesAllowed(realm, user);
  await changeEmail(ctx, realm, user, request.new_email);
  await ctx.tx.updateTable('email_change_request').set({ status: EmailChangeStatus.CONFIRMED }).where('id', '=', request.id).execute();
  return {
    oldEmail: request.old_email,
    newEmail: request.new_email,
    notice: {
      to: request.old_email,
      subject: `Email address changed for ${realm.name}`,
      text:
        `Hi ${user.full_name},\n\nThe email address of your account in ${realm.name} (${realm.url}) ` +
        `was changed from ${request.old_email} to ${request.new_email}.\n\n` +
        'If you did not make this change, contact an administrator of the organization at once.\n',
    },
  };
}

/**
 * The change itself, once it is allowed: the address must be free in the organization, and
 * everyone who may see it hears of it. An operator's change (confab change-email) comes here directly.
 */
export async function changeEmail(ctx: SystemContext, realm: RealmRow, user: UserRow, newEmail: string): Promise<UserRow> {
  if (!ADDRESS.test(newEmail) || newEmail.length > 254) throw new ApiError('Invalid address.');
  await checkAddressAvailable(ctx, realm, newEmail);
  const isPublic = emailIsPublic(user);
  const changed: UserRow = { ...user, delivery_email: newEmail, email: isPublic ? newEmail : user.email };
  await ctx.tx
    .updateTable('user_profile')
    .set({ delivery_email: changed.delivery_email, email: changed.email })
    .where('id', '=', user.id)
    .execute();
  await announceEmailChange(ctx, realm, changed, isPublic);
  return changed;
}

/**
 * realm_user updates: the real address to those who may see it; for a public address also the API
 * email and the avatar (a gravatar follows the API email, so a hidden address changes neither).
 */
async function announceEmailChange(ctx: SystemContext, realm: RealmRow, user: UserRow, isPublic: boolean): Promise<void> {
  const everyone = await listUsers(ctx.tx, realm.id, { activeOnly: true });
  const allIds = everyone.map((viewer) => viewer.id);
  const seers = everyone.filter((viewer) => canSeeDeliveryEmail(viewer, user)).map((viewer) => viewer.id);
  ctx.events.send({ type: 'realm_user', op: 'update', person: { user_id: user.id, delivery_email: user.delivery_email } }, seers);
  if (!isPublic) return;
  // Confab's default avatar does not depend on the address; only a Gravatar follows it.
  if (user.avatar_source === 'G' && isGravatarEnabled()) {
    const url = avatarUrl(user, false)!;
    ctx.events.send(
      {
        type: 'realm_user',
        op: 'update',
        person: {
          user_id: user.id,
          avatar_url: url,
          avatar_source: user.avatar_source,
          avatar_url_medium: mediumAvatarUrl(url),
          avatar_version: user.avatar_version,
        },
      },
      allIds,
    );
  }
  ctx.events.send({ type: 'realm_user', op: 'update', person: { user_id: user.id, new_email: user.email } }, allIds);
}
