// PATCH /drafts/{draft_id}: replace one of the user's drafts.
import { runAction } from '../actions/context.js';
import { doEditDraft } from '../actions/drafts.js';
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';
import { draftInput } from '../lib/drafts.js';

export default endpoint({
  method: 'PATCH',
  url: '/drafts/:draft_id',
  params: { draft_id: p.pathInt(), draft: p.json(draftInput) },
  async handler({ params, user, realm, services }) {
    await runAction(services, user, realm, (ctx) => doEditDraft(ctx, params.draft_id, params.draft));
    return {};
  },
});
