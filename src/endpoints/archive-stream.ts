// DELETE /streams/{stream_id}: archive a stream (administrators).
import { runAction } from '../actions/context.js';
import { checkArchiveStream } from '../actions/stream-archive.js';
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';

export default endpoint({
  method: 'DELETE',
  url: '/streams/:stream_id',
  params: { stream_id: p.pathInt() },
  async handler({ params, user, realm, services }) {
    await runAction(services, user, realm, (ctx) => checkArchiveStream(ctx, params.stream_id));
    return {};
  },
});
