// POST /users/me/status: change one's status text, emoji or (deprecated) away flag.
import { runAction } from '../actions/context.js';
import { checkUpdateUserStatus } from '../actions/user-status.js';
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';

export default endpoint({
  method: 'POST',
  url: '/users/me/status',
  params: {
    away: p.bool().optional(),
    status_text: p.string().optional(),
    emoji_name: p.string().optional(),
    emoji_code: p.string().optional(),
    reaction_type: p.string().optional(),
  },
  async handler({ params, user, realm, services }) {
    await runAction(services, user, realm, (ctx) =>
      checkUpdateUserStatus(ctx, {
        away: params.away,
        statusText: params.status_text,
        emojiName: params.emoji_name,
        emojiCode: params.emoji_code,
        reactionType: params.reaction_type,
      }),
    );
    return {};
  },
});
