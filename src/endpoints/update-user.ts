// PATCH /users/{user_id}: an administrator changes another account's name, role or profile values.
import { z } from 'zod';
import { runAction } from '../actions/context.js';
import { checkUpdateUser } from '../actions/user-update.js';
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';
import { checkProfileDataList } from '../lib/profile-values.js';

export default endpoint({
  method: 'PATCH',
  url: '/users/:user_id(^\\d+$)',
  params: {
    user_id: p.pathInt(),
    full_name: p.string().optional(),
    role: p.role().optional(),
    profile_data: p.json(z.unknown()).then((value, name) => checkProfileDataList(value, name, true)).optional(),
  },
  async handler({ params, user, realm, services }) {
    await runAction(services, user, realm, (ctx) =>
      checkUpdateUser(ctx, params.user_id, { fullName: params.full_name, role: params.role, profileData: params.profile_data }),
    );
    return {};
  },
});
