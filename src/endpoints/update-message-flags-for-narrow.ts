// POST /messages/flags/narrow: add or remove a personal flag on a range of messages in a narrow.
import { runAction } from '../actions/context.js';
import { doUpdateMessageFlagsForNarrow } from '../actions/message-flags-narrow.js';
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';
import { MAX_NARROW_TERMS } from '../lib/limits.js';
import { narrowSchema } from '../lib/narrow/parse.js';
import { parseAnchor } from '../queries/message-fetch.js';

export default endpoint({
  method: 'POST',
  url: '/messages/flags/narrow',
  params: {
    // A message id or newest / oldest / first_unread: read by parseAnchor.
    anchor: p.raw(),
    include_anchor: p.bool().default(true),
    num_before: p.int({ min: 0 }),
    num_after: p.int({ min: 0 }),
    narrow: p.json(narrowSchema.nullable(), { maxItems: MAX_NARROW_TERMS }).then((terms) => terms ?? []),
    op: p.string(),
    flag: p.string(),
  },
  handler({ params, user, realm, services }) {
    const anchor = parseAnchor(params.anchor, false);
    return runAction(services, user, realm, (ctx) =>
      doUpdateMessageFlagsForNarrow(ctx, {
        anchor,
        includeAnchor: params.include_anchor,
        numBefore: params.num_before,
        numAfter: params.num_after,
        narrow: params.narrow,
        op: params.op,
        flag: params.flag,
      }),
    );
  },
});
