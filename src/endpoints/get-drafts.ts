// GET /drafts: the user's drafts, oldest edit first.
import { checkDraftsEnabled } from '../actions/drafts.js';
import { endpoint } from '../http/endpoint.js';
import { byOldestEdit } from '../lib/drafts.js';
import { draftsOf } from '../queries/drafts.js';

export default endpoint({
  method: 'GET',
  url: '/drafts',
  params: {},
  async handler({ user, services }) {
    checkDraftsEnabled(user);
    const drafts = (await draftsOf(services.db, user.id)).sort(byOldestEdit);
    return { count: drafts.length, drafts };
  },
});
