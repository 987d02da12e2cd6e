// PATCH /streams/{stream_id}: change a stream's properties (administrators).
import { runAction } from '../actions/context.js';
import { checkUpdateStream } from '../actions/stream-update.js';
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';
import { checkPostPolicy, parseRetentionDays, requestedPostPolicy } from '../lib/stream-update-rules.js';

export default endpoint({
  method: 'PATCH',
  url: '/streams/:stream_id',
  params: {
    stream_id: p.pathInt(),
    description: p.string().optional(),
    new_name: p.string().optional(),
    is_private: p.bool().optional(),
    is_web_public: p.bool().optional(),
    history_public_to_subscribers: p.bool().optional(),
    is_default_stream: p.bool().optional(),
    stream_post_policy: p.int().then(checkPostPolicy).optional(),
    message_retention_days: p.raw().then(parseRetentionDays).optional(),
    can_remove_subscribers_group: p.int().optional(),
    is_announcement_only: p.bool().optional(),
  },
  async handler({ params, user, realm, services }) {
    await runAction(services, user, realm, (ctx) =>
      checkUpdateStream(ctx, params.stream_id, {
        description: params.description,
        newName: params.new_name,
        isPrivate: params.is_private,
        isWebPublic: params.is_web_public,
        historyPublicToSubscribers: params.history_public_to_subscribers,
        isDefaultStream: params.is_default_stream,
        streamPostPolicy: requestedPostPolicy(params.stream_post_policy, params.is_announcement_only),
        messageRetentionDays: params.message_retention_days,
        canRemoveSubscribersGroup: params.can_remove_subscribers_group,
      }),
    );
    return {};
  },
});
