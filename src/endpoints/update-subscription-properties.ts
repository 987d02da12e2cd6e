// POST /users/me/subscriptions/properties: change personal settings of subscribed streams.
import { z } from 'zod';
import { runAction } from '../actions/context.js';
import { doUpdateSubscriptionProperties } from '../actions/subscription-properties.js';
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';

const change = z.strictObject({
  stream_id: z.number().int(),
  property: z.string(),
  value: z.union([z.boolean(), z.string(), z.null()]),
});

export default endpoint({
  method: 'POST',
  url: '/users/me/subscriptions/properties',
  params: { subscription_data: p.json(z.array(change)) },
  async handler({ params, user, realm, services }) {
    await runAction(services, user, realm, (ctx) => doUpdateSubscriptionProperties(ctx, params.subscription_data));
    return {};
  },
});
