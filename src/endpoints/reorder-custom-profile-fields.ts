// PATCH /realm/profile_fields: set the order the fields show in (administrators).
import { z } from 'zod';
import { runAction } from '../actions/context.js';
import { reorderProfileFields } from '../actions/profile-fields.js';
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';

export default endpoint({
  method: 'PATCH',
  url: '/realm/profile_fields',
  params: { order: p.json(z.array(z.number().int())) },
  async handler({ params, user, realm, services }) {
    await runAction(services, user, realm, (ctx) => reorderProfileFields(ctx, params.order));
    return {};
  },
});
