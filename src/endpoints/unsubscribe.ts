// DELETE /users/me/subscriptions: unsubscribe the requester (or others) from streams.
import { z } from 'zod';
import { runAction } from '../actions/context.js';
import { checkRemoveSubscriptions } from '../actions/unsubscribe.js';
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';
import { checkSubscriptionChanges } from '../lib/limits.js';
import { principalList } from './subscribe.js';

export default endpoint({
  method: 'DELETE',
  url: '/users/me/subscriptions',
  params: {
    subscriptions: p.json(z.array(z.string())),
    principals: p.json(z.unknown()).then(principalList).optional(),
  },
  async handler({ params, user, realm, services }) {
    checkSubscriptionChanges(params.subscriptions.length, params.principals?.length ?? 1);
    const result = await runAction(services, user, realm, (ctx) =>
      checkRemoveSubscriptions(ctx, params.subscriptions, params.principals ?? null),
    );
    return { ...result };
  },
});
