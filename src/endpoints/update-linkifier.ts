// PATCH /realm/filters/{filter_id}: change a linkifier's pattern and URL template (administrators).
import { runAction } from '../actions/context.js';
import { updateLinkifier } from '../actions/linkifiers.js';
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';
import { MAX_LINKIFIER_PATTERN_LENGTH, MAX_URL_TEMPLATE_LENGTH } from '../lib/limits.js';

export default endpoint({
  method: 'PATCH',
  url: '/realm/filters/:filter_id',
  params: {
    filter_id: p.pathInt(),
    pattern: p.string({ maxLength: MAX_LINKIFIER_PATTERN_LENGTH }),
    url_template: p.string({ maxLength: MAX_URL_TEMPLATE_LENGTH }),
  },
  async handler({ params, user, realm, services }) {
    await runAction(services, user, realm, (ctx) => updateLinkifier(ctx, params.filter_id, params.pattern, params.url_template));
    return {};
  },
});
