// POST /typing: tell the people who would receive a message that the user started or stopped typing it.
import { z } from 'zod';
import { sendTypingNotification, type TypingTarget } from '../actions/typing.js';
import { ApiError } from '../errors.js';
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';
import { MAX_DM_RECIPIENTS } from '../lib/limits.js';

/**
 * The stream typing is addressed to. `stream_id` names it; without it, a one-element `to` list
 * (the form clients used before stream_id existed) is still understood, and a longer list is
 * refused as several streams.
 */
function streamTarget(streamId: number | undefined, to: number[] | undefined, topic: string | undefined): TypingTarget {
  let id = streamId;
  if (id === undefined && to !== undefined) {
    if (to.length > 1) throw new ApiError('Cannot send to multiple channels');
    id = to[0];
  }
  if (id === undefined) throw new ApiError('Missing channel ID');
  if (topic === undefined) throw new ApiError('Missing topic');
  return { kind: 'stream', streamId: id, topic };
}

export default endpoint({
  method: 'POST',
  url: '/typing',
  params: {
    // `private` and `channel` are the older and newer names of `direct` and `stream`.
    type: p.choice(['direct', 'private', 'stream', 'channel']).default('direct'),
    op: p.choice(['start', 'stop']),
    to: p.json(z.array(z.number().int()), { maxItems: MAX_DM_RECIPIENTS }).optional(),
    stream_id: p.int().optional(),
    topic: p.string().optional(),
  },
  async handler({ params, user, services }) {
    const isStream = params.type === 'stream' || params.type === 'channel';
    if (!isStream && params.to === undefined) throw new ApiError("Missing 'to' argument");
    const target: TypingTarget = isStream
      ? streamTarget(params.stream_id, params.to, params.topic)
      : { kind: 'direct', userIds: params.to! };
    await sendTypingNotification(services, user, params.op, target);
    return {};
  },
});
