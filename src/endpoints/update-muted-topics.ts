// PATCH /users/me/subscriptions/muted_topics (legacy): mute or unmute a topic.
import { runAction } from '../actions/context.js';
import { doUpdateMutedTopic } from '../actions/user-topics.js';
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';
import { MAX_TOPIC_LENGTH } from '../lib/message-content.js';

export default endpoint({
  method: 'PATCH',
  url: '/users/me/subscriptions/muted_topics',
  params: {
    stream_id: p.int().optional(),
    stream: p.string().optional(),
    topic: p.string({ maxLength: MAX_TOPIC_LENGTH }),
    op: p.choice(['add', 'remove'] as const),
  },
  async handler({ params, user, realm, services }) {
    await runAction(services, user, realm, (ctx) =>
      doUpdateMutedTopic(ctx, { streamId: params.stream_id, streamName: params.stream, topic: params.topic, op: params.op }),
    );
    return {};
  },
});
