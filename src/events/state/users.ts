// The `realm_user` part of the POST /register state: every user of the realm, and the
// requester's own identity and abilities.
import type { DbOrTx, RealmRow, UserRow } from '../../db/schema.js';
import { passesPolicy } from '../../lib/permissions.js';
import { realmSettings } from '../../lib/realm-settings.js';
import { isAdmin, isGuest, isModerator, isOwner } from '../../lib/roles.js';
import { avatarUrl, userDict } from '../../lib/user-format.js';
import { realmUsers } from '../../queries/kept-lists.js';
import { profileDataOf } from '../../queries/profile-fields.js';

/** The larger avatar: uploaded files have a -medium twin; gravatars are asked for at 500 pixels. */
export function mediumAvatarUrl(url: string): string {
  if (url.includes('gravatar.com')) return `${url}&s=500`;
  return url.replace(/\.png(\?|$)/, '-medium.png$1');
}

export async function realmUserState(db: DbOrTx, user: UserRow, realm: RealmRow, now: number, clientGravatar: boolean) {
  const [users, profiles] = await Promise.all([realmUsers(db, realm.id), profileDataOf(db, realm.id)]);
  const dict = (target: UserRow) => userDict(user, target, { clientGravatar, profileData: profiles.get(target.id) ?? {} });
  const settings = realmSettings(realm);
  const waitingDays = settings.waiting_period_threshold;
  const can = (policy: number) => passesPolicy(user, policy, waitingDays, now);
  const ownAvatar = avatarUrl(user, false)!;
  return {
    realm_users: users.filter((u) => u.is_active).map(dict),
    realm_non_active_users: users.filter((u) => !u.is_active).map(dict),
    cross_realm_bots: [],
    user_id: user.id,
    email: user.email,
    delivery_email: user.delivery_email,
    full_name: user.full_name,
    is_admin: isAdmin(user),
    is_owner: isOwner(user),
    is_moderator: isModerator(user),
    is_guest: isGuest(user),
    avatar_source: user.avatar_source,
    avatar_url: ownAvatar,
    avatar_url_medium: mediumAvatarUrl(ownAvatar),
    can_create_streams: can(settings.create_public_stream_policy) || can(settings.create_private_stream_policy),
    can_create_public_streams: can(settings.create_public_stream_policy),
    can_create_private_streams: can(settings.create_private_stream_policy),
    can_create_web_public_streams: false,
    can_subscribe_other_users: can(settings.invite_to_stream_policy),
    can_invite_others_to_realm: !isGuest(user) && can(settings.invite_to_realm_policy),
  };
}
