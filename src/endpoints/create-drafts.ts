// POST /drafts: store one or more drafts; returns their ids in the order given.
import { z } from 'zod';
import { runAction } from '../actions/context.js';
import { doCreateDrafts } from '../actions/drafts.js';
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';
import { draftInput } from '../lib/drafts.js';
import { MAX_DRAFTS_PER_CALL } from '../lib/limits.js';

export default endpoint({
  method: 'POST',
  url: '/drafts',
  params: { drafts: p.json(z.array(draftInput), { maxItems: MAX_DRAFTS_PER_CALL }) },
  async handler({ params, user, realm, services }) {
    const ids = await runAction(services, user, realm, (ctx) => doCreateDrafts(ctx, params.drafts));
    return { ids };
  },
});
