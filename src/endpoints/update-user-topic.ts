// POST /user_topics: set the user's visibility policy for a topic.
import { runAction } from '../actions/context.js';
import { doUpdateUserTopic } from '../actions/user-topics.js';
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';
import { MAX_TOPIC_LENGTH } from '../lib/message-content.js';

export default endpoint({
  method: 'POST',
  url: '/user_topics',
  params: {
    stream_id: p.int(),
    topic: p.string({ maxLength: MAX_TOPIC_LENGTH }),
    visibility_policy: p.int(),
  },
  async handler({ params, user, realm, services }) {
    await runAction(services, user, realm, (ctx) => doUpdateUserTopic(ctx, params.stream_id, params.topic, params.visibility_policy));
    return {};
  },
});
