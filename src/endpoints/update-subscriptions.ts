// PATCH /users/me/subscriptions: join and leave streams in one request.
import { z } from 'zod';
import { runAction } from '../actions/context.js';
import { checkUpdateSubscriptions } from '../actions/update-subscriptions.js';
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';
import { checkSubscriptionChanges } from '../lib/limits.js';
import { streamRequests } from './subscribe.js';

export default endpoint({
  method: 'PATCH',
  url: '/users/me/subscriptions',
  params: {
    add: p.json(z.unknown()).then(streamRequests).default([]),
    delete: p.json(z.array(z.string())).default([]),
  },
  async handler({ params, user, realm, services }) {
    checkSubscriptionChanges(params.add.length + params.delete.length, 1);
    const result = await runAction(services, user, realm, (ctx) => checkUpdateSubscriptions(ctx, params.add, params.delete));
    return { ...result };
  },
});
