// GET /messages/matches_narrow: which of the given messages a narrow takes in.
import { z } from 'zod';
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';
import { MAX_FLAG_MESSAGE_IDS, MAX_NARROW_TERMS } from '../lib/limits.js';
import { narrowSchema } from '../lib/narrow/parse.js';
import { messagesMatchNarrow } from '../queries/messages-match-narrow.js';

export default endpoint({
  method: 'GET',
  url: '/messages/matches_narrow',
  params: {
    msg_ids: p.json(z.array(z.number().int()), { maxItems: MAX_FLAG_MESSAGE_IDS }),
    narrow: p.json(narrowSchema.nullable(), { maxItems: MAX_NARROW_TERMS }).then((terms) => terms ?? []),
  },
  async handler({ params, user, realm, services }) {
    return { messages: await messagesMatchNarrow(services.db, realm, user, params.msg_ids, params.narrow) };
  },
});
