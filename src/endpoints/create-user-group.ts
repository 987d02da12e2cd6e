// POST /user_groups/create: a new user group (whoever the realm's user_group_edit_policy allows).
import { z } from 'zod';
import { runAction } from '../actions/context.js';
import { checkAddUserGroup } from '../actions/user-groups.js';
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';
import { MAX_USER_GROUP_DESCRIPTION_LENGTH } from '../lib/limits.js';
import { checkStorableText } from '../lib/user-groups.js';

export default endpoint({
  method: 'POST',
  url: '/user_groups/create',
  params: {
    name: p.string(),
    description: p.string({ maxLength: MAX_USER_GROUP_DESCRIPTION_LENGTH }).then((d) => checkStorableText(d, 'user group description')),
    members: p.json(z.array(z.number().int())).default([]),
    can_mention_group: p.int().optional(),
  },
  async handler({ params, user, realm, services }) {
    const spec = { name: params.name, description: params.description, members: params.members, canMentionGroup: params.can_mention_group };
    return { group_id: await runAction(services, user, realm, (ctx) => checkAddUserGroup(ctx, spec)) };
  },
});
