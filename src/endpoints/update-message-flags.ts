// POST /messages/flags: add or remove a personal flag on messages by id.
import { z } from 'zod';
import { runAction } from '../actions/context.js';
import { doUpdateMessageFlags } from '../actions/message-flags.js';
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';
import { MAX_FLAG_MESSAGE_IDS } from '../lib/limits.js';

export default endpoint({
  method: 'POST',
  url: '/messages/flags',
  params: {
    messages: p.json(z.array(z.number().int()), { maxItems: MAX_FLAG_MESSAGE_IDS }),
    op: p.string(),
    flag: p.string(),
  },
  async handler({ params, user, realm, services }) {
    await runAction(services, user, realm, (ctx) => doUpdateMessageFlags(ctx, params.flag, params.op, params.messages));
    return { messages: params.messages };
  },
});
