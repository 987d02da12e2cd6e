// PATCH /user_groups/{user_group_id}: rename a group, change its description or who may mention it.
import { runAction } from '../actions/context.js';
import { updateUserGroup } from '../actions/user-groups.js';
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';
import { MAX_USER_GROUP_DESCRIPTION_LENGTH } from '../lib/limits.js';
import { checkStorableText } from '../lib/user-groups.js';

export default endpoint({
  method: 'PATCH',
  url: '/user_groups/:user_group_id',
  params: {
    user_group_id: p.pathInt(),
    name: p.string().optional(),
    description: p
      .string({ maxLength: MAX_USER_GROUP_DESCRIPTION_LENGTH })
      .then((d) => checkStorableText(d, 'user group description'))
      .optional(),
    can_mention_group: p.int().optional(),
  },
  async handler({ params, user, realm, services }) {
    const changes = { name: params.name, description: params.description, canMentionGroup: params.can_mention_group };
    await runAction(services, user, realm, (ctx) => updateUserGroup(ctx, params.user_group_id, changes));
    return {};
  },
});
