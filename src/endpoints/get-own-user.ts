// GET /users/me: the requester's own User record.
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';
import { userDict } from '../lib/user-format.js';

export default endpoint({
  method: 'GET',
  url: '/users/me',
  params: {
    client_gravatar: p.bool().default(true),
    include_custom_profile_fields: p.bool().default(false),
  },
  handler({ user, params }) {
    const dict = userDict(user, user, {
      clientGravatar: params.client_gravatar,
      ...(params.include_custom_profile_fields ? { profileData: {} } : {}),
    });
    return { ...dict, max_message_id: -1 };
  },
});
