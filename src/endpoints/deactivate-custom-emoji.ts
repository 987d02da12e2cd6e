// DELETE /realm/emoji/{emoji_name}: deactivate a custom emoji (administrators, or its author).
import { runAction } from '../actions/context.js';
import { doRemoveRealmEmoji } from '../actions/realm-emoji.js';
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';

export default endpoint({
  method: 'DELETE',
  url: '/realm/emoji/:emoji_name',
  params: { emoji_name: p.pathString() },
  async handler({ params, user, realm, services }) {
    await runAction(services, user, realm, (ctx) => doRemoveRealmEmoji(ctx, params.emoji_name));
    return {};
  },
});
