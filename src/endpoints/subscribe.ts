// POST /users/me/subscriptions: subscribe the requester (or others) to streams, creating missing ones.
import { z } from 'zod';
import { runAction } from '../actions/context.js';
import { checkAddSubscriptions, type Principals, type StreamRequest } from '../actions/subscribe.js';
import { MAX_STREAM_DESCRIPTION_LENGTH } from '../actions/stream-create.js';
import { ApiError } from '../errors.js';
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';
import { checkSubscriptionChanges } from '../lib/limits.js';
import { checkPostPolicy, parseRetentionDays } from '../lib/stream-update-rules.js';

const STREAM_REQUEST_KEYS = ['name', 'description', 'color'];
const COLOR = /^#([a-fA-F0-9]{3,6})$/;

/** The subscriptions list: [{name, description?, color?}], checked with the reference's wording. */
export function streamRequests(value: unknown, name: string): StreamRequest[] {
  if (!Array.isArray(value)) throw new ApiError(`${name} is not a list`);
  return value.map((item: unknown, i) => {
    const at = `${name}[${i}]`;
    if (!item || typeof item !== 'object' || Array.isArray(item)) throw new ApiError(`${at} is not a dict`);
    const dict = item as Record<string, unknown>;
    if (!('name' in dict)) throw new ApiError(`name key is missing from ${at}`);
    for (const key of ['name', 'description', 'color']) {
      if (key in dict && typeof dict[key] !== 'string') throw new ApiError(`${at}["${key}"] is not a string`);
    }
    const description = dict.description as string | undefined;
    if (description !== undefined && [...description].length > MAX_STREAM_DESCRIPTION_LENGTH) {
      throw new ApiError(`${at}["description"] is too long (limit: ${MAX_STREAM_DESCRIPTION_LENGTH} characters)`);
    }
    const color = dict.color as string | undefined;
    if (color !== undefined && !COLOR.test(color)) throw new ApiError(`${at}["color"] is not a valid hex color code`);
    const unexpected = Object.keys(dict).filter((key) => !STREAM_REQUEST_KEYS.includes(key));
    if (unexpected.length > 0) throw new ApiError(`Unexpected arguments: ${unexpected.join(', ')}`);
    return {
      name: dict.name as string,
      ...(description !== undefined ? { description: description.replace(/\n/g, ' ') } : {}),
      ...(color !== undefined ? { color } : {}),
    };
  });
}

/** A list of API emails or a list of user ids, not a mix. */
export function principalList(value: unknown, name: string): Principals {
  const ok =
    Array.isArray(value) &&
    (value.every((v) => typeof v === 'string') || value.every((v) => typeof v === 'number' && Number.isInteger(v)));
  if (!ok) throw new ApiError(`${name} is not an allowed_type`);
  return value as Principals;
}

export default endpoint({
  method: 'POST',
  url: '/users/me/subscriptions',
  params: {
    subscriptions: p.json(z.unknown()).then(streamRequests),
    principals: p.json(z.unknown()).then(principalList).optional(),
    authorization_errors_fatal: p.bool().default(true),
    announce: p.bool().default(false),
    invite_only: p.bool().default(false),
    is_web_public: p.bool().default(false),
    is_default_stream: p.bool().default(false),
    history_public_to_subscribers: p.bool().optional(),
    stream_post_policy: p.int().then(checkPostPolicy).default(1),
    message_retention_days: p.raw().then(parseRetentionDays).default(null),
    can_remove_subscribers_group: p.int().optional(),
  },
  async handler({ params, user, realm, services }) {
    checkSubscriptionChanges(params.subscriptions.length, params.principals?.length ?? 1);
    const result = await runAction(services, user, realm, (ctx) =>
      checkAddSubscriptions(ctx, {
        subscriptions: params.subscriptions,
        principals: params.principals ?? null,
        authorizationErrorsFatal: params.authorization_errors_fatal,
        announce: params.announce,
        inviteOnly: params.invite_only,
        isWebPublic: params.is_web_public,
        isDefaultStream: params.is_default_stream,
        historyPublicToSubscribers: params.history_public_to_subscribers ?? null,
        streamPostPolicy: params.stream_post_policy,
        messageRetentionDays: params.message_retention_days,
        canRemoveSubscribersGroupId: params.can_remove_subscribers_group ?? null,
      }),
    );
    return { ...result };
  },
});
