// Pure rules of PATCH /streams/{stream_id}: which permission combinations a stream may have,
// the message_retention_days values, web-public permission and the removal-group setting.
import type { StreamRow, UserGroupRow, UserRow } from '../types/rows.js';
import { ApiError, RequestVariableInvalidError } from '../errors.js';
import { isAdmin, isModerator, isOwner } from './roles.js';
import { STREAM_POST_POLICIES } from './stream-format.js';

/** The permission flags of a stream as they will be after the change. */
export interface StreamPermissions {
  inviteOnly: boolean;
  isWebPublic: boolean;
  historyPublicToSubscribers: boolean;
}

export interface PermissionRequest {
  isPrivate?: boolean;
  isWebPublic?: boolean;
  historyPublicToSubscribers?: boolean;
  /** Whether the stream is (or is about to become) a default stream. */
  isDefault: boolean;
}

/**
 * The stream's permissions after the request, or an error for a combination no stream may have.
 * Making a stream private without saying otherwise hides its history, and making it public shares it.
 */
export function proposedPermissions(
  stream: Pick<StreamRow, 'invite_only' | 'is_web_public' | 'history_public_to_subscribers'>,
  request: PermissionRequest,
): StreamPermissions {
  const inviteOnly = request.isPrivate ?? Boolean(stream.invite_only);
  const isWebPublic = request.isWebPublic ?? Boolean(stream.is_web_public);
  const historyPublicToSubscribers =
    request.historyPublicToSubscribers ??
    (request.isPrivate !== undefined ? !request.isPrivate : Boolean(stream.history_public_to_subscribers));
  // Web-public streams are public with shared history; public streams always share history.
  if (isWebPublic && (inviteOnly || !historyPublicToSubscribers)) throw new ApiError('Invalid parameters');
  if (!inviteOnly && !historyPublicToSubscribers) throw new ApiError('Invalid parameters');
  if (inviteOnly && request.isDefault) throw new ApiError('A default channel cannot be private.');
  return { inviteOnly, isWebPublic, historyPublicToSubscribers };
}

/** create_web_public_stream_policy values of the era: 2 admins, 4 moderators, 6 nobody, 7 owners. */
export function passesWebPublicPolicy(user: Pick<UserRow, 'role'>, policy: number): boolean {
  switch (policy) {
    case 2:
      return isAdmin(user);
    case 4:
      return isModerator(user);
    case 7:
      return isOwner(user);
    default:
      return false;
  }
}

/** Bounds of message_retention_days as a stored value: null follows the realm, -1 keeps forever. */
export const RETENTION_SPECIAL_VALUES: Readonly<Record<string, number | null>> = {
  realm_default: null,
  unlimited: -1,
  // The name used before "unlimited".
  forever: -1,
};

/** Parses message_retention_days sent as JSON or as a bare word: a positive integer or a special value. */
export function parseRetentionDays(raw: string, name = 'message_retention_days'): number | null {
  let value: unknown = raw;
  try {
    value = JSON.parse(raw);
  } catch {
    // A bare word such as unlimited is the string it is.
  }
  if (typeof value === 'string' && Object.hasOwn(RETENTION_SPECIAL_VALUES, value)) return RETENTION_SPECIAL_VALUES[value]!;
  if (typeof value === 'number' && Number.isInteger(value) && value > 0 && value <= 2_147_483_647) return value;
  if (typeof value !== 'string' && typeof value !== 'number') throw new ApiError(`${name} is not a string or an integer`);
  throw new RequestVariableInvalidError(name, value);
}

const REMOVE_SUBSCRIBERS_SETTING = 'can_remove_subscribers_group';

/** can_remove_subscribers_group must name a system group other than role:internet and role:owners. */
export function checkRemoveSubscribersGroup(group: Pick<UserGroupRow, 'name' | 'is_system_group'> | undefined): void {
  if (!group) throw new ApiError('Invalid user group');
  if (!group.is_system_group) throw new ApiError(`'${REMOVE_SUBSCRIBERS_SETTING}' must be a system user group.`);
  for (const forbidden of ['role:internet', 'role:owners']) {
    if (group.name === forbidden) throw new ApiError(`'${REMOVE_SUBSCRIBERS_SETTING}' setting cannot be set to '${forbidden}' group.`);
  }
}

/** stream_post_policy, overridden (as the reference does) by the deprecated is_announcement_only. */
export function requestedPostPolicy(streamPostPolicy: number | undefined, isAnnouncementOnly: boolean | undefined): number | undefined {
  if (isAnnouncementOnly !== undefined) return isAnnouncementOnly ? 2 : 1;
  return streamPostPolicy;
}

/** A stream update event: one changed property, named with the stream's name before the change. */
export function streamUpdateEvent(
  stream: Pick<StreamRow, 'id' | 'name'>,
  property: string,
  value: unknown,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return { type: 'stream', op: 'update', property, value, ...extra, stream_id: stream.id, name: stream.name };
}

/** A stream_post_policy value as the API sends it: one of the four policies. */
export function checkPostPolicy(value: number, name = 'stream_post_policy'): number {
  if (!STREAM_POST_POLICIES.includes(value)) throw new ApiError(`Invalid ${name}`);
  return value;
}
