// POST /users: an administrator creates an account.
import { runAction } from '../actions/context.js';
import { checkCreateUser } from '../actions/user-create.js';
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';

export default endpoint({
  method: 'POST',
  url: '/users',
  params: {
    email: p.string(),
    password: p.string(),
    full_name: p.string(),
  },
  async handler({ params, user, realm, services }) {
    const created = await runAction(services, user, realm, (ctx) =>
      checkCreateUser(ctx, { email: params.email, password: params.password, fullName: params.full_name }),
    );
    return { user_id: created.id };
  },
});
