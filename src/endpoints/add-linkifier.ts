// POST /realm/filters: add a linkifier (administrators).
import { runAction } from '../actions/context.js';
import { addLinkifier } from '../actions/linkifiers.js';
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';
import { MAX_LINKIFIER_PATTERN_LENGTH, MAX_URL_TEMPLATE_LENGTH } from '../lib/limits.js';

export default endpoint({
  method: 'POST',
  url: '/realm/filters',
  params: {
    pattern: p.string({ maxLength: MAX_LINKIFIER_PATTERN_LENGTH }),
    url_template: p.string({ maxLength: MAX_URL_TEMPLATE_LENGTH }),
  },
  async handler({ params, user, realm, services }) {
    const id = await runAction(services, user, realm, (ctx) => addLinkifier(ctx, params.pattern, params.url_template));
    return { id };
  },
});
