// GET /messages: a range of messages around an anchor, through a narrow.
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';
import { MAX_NARROW_TERMS } from '../lib/limits.js';
import { narrowSchema } from '../lib/narrow/parse.js';
import { getMessages } from '../queries/message-fetch.js';

export default endpoint({
  method: 'GET',
  url: '/messages',
  params: {
    // A message id or newest / oldest / first_unread: read by parseAnchor.
    anchor: p.raw().optional(),
    include_anchor: p.bool().default(true),
    num_before: p.int({ min: 0 }).default(0),
    num_after: p.int({ min: 0 }).default(0),
    narrow: p.json(narrowSchema.nullable(), { maxItems: MAX_NARROW_TERMS }).then((terms) => terms ?? []).default([]),
    client_gravatar: p.bool().default(true),
    apply_markdown: p.bool().default(true),
    use_first_unread_anchor: p.bool().default(false),
  },
  handler({ params, user, realm, services }) {
    return getMessages(services.db, {
      realm,
      user,
      narrow: params.narrow,
      anchor: params.anchor,
      useFirstUnreadAnchor: params.use_first_unread_anchor,
      numBefore: params.num_before,
      numAfter: params.num_after,
      includeAnchor: params.include_anchor,
      applyMarkdown: params.apply_markdown,
      clientGravatar: params.client_gravatar,
    });
  },
});
