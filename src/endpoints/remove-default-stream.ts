// DELETE /default_streams: stop adding new users to a stream (administrators).
import { runAction } from '../actions/context.js';
import { checkRemoveDefaultStream } from '../actions/default-streams.js';
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';

export default endpoint({
  method: 'DELETE',
  url: '/default_streams',
  params: {
    stream_id: p.int(),
  },
  async handler({ params, user, realm, services }) {
    await runAction(services, user, realm, (ctx) => checkRemoveDefaultStream(ctx, params.stream_id));
    return {};
  },
});
