// Signing up through a reusable invitation link (the /join/{key}/ page): the link must belong to
// this organization, be neither revoked nor expired, and its creator must still have the right to
// offer it (an active administrator; an owner for owner links). The new account gets the link's role and
// streams, or the organization's default streams when the link lists none (as the reference did
// before include_realm_default_subscriptions).
import type { DbOrTx, MultiuseInviteRow, RealmRow, UserRow } from '../db/schema.js';
import { ApiError } from '../errors.js';
import { CONFIRMATION_KEY_LENGTH } from '../lib/credentials.js';
import { InviteStatus, inviteExpired, mayOfferMultiuseInvite, signupEmailError, signupFieldError } from '../lib/invites.js';
import { signupRefusalText } from '../lib/email-domains.js';
import { emailRefusal } from '../queries/realm-domains.js';
import { placeholderUserId } from '../lib/user-format.js';
import { getInviteByKey, inviteListsStreams, inviteStreams } from '../queries/invites.js';
import { getUserByEmail, getUserById } from '../queries/users.js';
import type { SystemContext } from './context.js';
import { bulkAddSubscriptions, defaultStreamsOf } from './subscriptions.js';
import { isStrongPassword, PASSWORD_TOO_WEAK } from '../lib/password-strength.js';
import { checkFullName, doCreateUser } from './user-create.js';

/** A link that cannot be used: the page says why, in the reference's words, with a 404. */
export class InviteLinkError extends ApiError {
  constructor(
    readonly heading: string,
    readonly detail: string,
  ) {
    super(heading, { status: 404 });
  }
}

const malformed = () =>
  new InviteLinkError('Whoops. The confirmation link is malformed.', 'Make sure you copied the link correctly in to your browser.');
const notFound = () =>
  new InviteLinkError("Whoops. We couldn't find your confirmation link in the system.", 'Ask the person who invited you for a new link.');
// A revoked link reads as deactivated: the reference's wording for a link that was switched off.
const expired = () =>
  new InviteLinkError('Whoops. The confirmation link has expired or been deactivated.', 'Please contact your organization administrator for a new link.');

/** The address belongs to an active account: the reference sends the person to the login form. */
export class AlreadyRegisteredError extends ApiError {
  constructor(readonly email: string) {
    super("You've already registered with this email address. Please log in below.");
  }
}

/** The invitation behind a join page's key, if it is this organization's and usable at `now`. */
export async function accessInviteByKey(
  db: DbOrTx,
  realm: RealmRow | undefined,
  key: string,
  now: number,
): Promise<{ invite: MultiuseInviteRow; realm: RealmRow }> {
  if (key.length !== CONFIRMATION_KEY_LENGTH || !/^[a-z0-9]+$/.test(key)) throw malformed();
  const invite = await getInviteByKey(db, key);
  if (!invite || !realm || invite.realm_id !== realm.id || realm.deactivated) throw notFound();
  if (invite.status === InviteStatus.REVOKED || inviteExpired(invite, now)) throw expired();
  // A link its creator could no longer make reads as switched off, as a revoked one does.
  const referrer = await getUserById(db, realm.id, invite.referred_by_id);
  if (!referrer || !mayOfferMultiuseInvite(referrer, invite.invited_as)) throw expired();
  return { invite, realm };
}

export interface SignupRequest {
  email: string;
  fullName: string;
  password: string;
}

/** Checks the form in the reference's order (address, name, password), each with its text. */
async function checkSignupForm(ctx: SystemContext, realm: RealmRow, request: SignupRequest): Promise<SignupRequest> {
  const email = request.email.trim();
  const emailError = signupEmailError(email);
  if (emailError) throw new ApiError(emailError);
  const refusal = await emailRefusal(ctx.tx, realm, email);
  if (refusal) throw new ApiError(signupRefusalText(refusal, email));
  // Placeholder addresses stand in for hidden ones; a real account may not take their form.
  if (placeholderUserId(email, realm.url) !== undefined) throw new ApiError('Enter a valid email address.');
  const existing = await getUserByEmail(ctx.tx, realm.id, email);
  if (existing?.is_active) throw new AlreadyRegisteredError(email);
  if (existing) {
    throw new ApiError(`Your account ${email} has been deactivated. Please contact your organization administrator to reactivate it.`);
  }
  const nameError = signupFieldError(request.fullName.trim());
  if (nameError) throw new ApiError(nameError);
  const fullName = checkFullName(request.fullName);
  const passwordError = signupFieldError(request.password);
  if (passwordError) throw new ApiError(passwordError);
  if (!(await isStrongPassword(request.password))) throw new ApiError(PASSWORD_TOO_WEAK);
  return { email, fullName, password: request.password };
}

/** Creates the account the form asks for, in the organization of the page's host. */
export async function doSignUpWithInvite(ctx: SystemContext, hostRealm: RealmRow | undefined, key: string, request: SignupRequest): Promise<UserRow> {
  const { invite, realm } = await accessInviteByKey(ctx.tx, hostRealm, key, ctx.now);
  const form = await checkSignupForm(ctx, realm, request);
  const user = await doCreateUser(ctx, realm, {
    email: form.email,
    fullName: form.fullName,
    password: form.password,
    role: invite.invited_as,
    subscribeToDefaults: false,
  });
  const streams = (await inviteListsStreams(ctx.tx, invite.id)) ? await inviteStreams(ctx.tx, invite.id) : await defaultStreamsOf(ctx.tx, realm.id);
  if (streams.length > 0) await bulkAddSubscriptions(ctx, realm, streams, [user]);
  return user;
}
