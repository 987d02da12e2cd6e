// POST /default_streams: make a stream one that new users join (administrators).
import { runAction } from '../actions/context.js';
import { checkAddDefaultStream } from '../actions/default-streams.js';
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';

export default endpoint({
  method: 'POST',
  url: '/default_streams',
  params: {
    stream_id: p.int(),
  },
  async handler({ params, user, realm, services }) {
    await runAction(services, user, realm, (ctx) => checkAddDefaultStream(ctx, params.stream_id));
    return {};
  },
});
