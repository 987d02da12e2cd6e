// POST /messages/{message_id}/reactions: react to a message with an emoji.
import { runAction } from '../actions/context.js';
import { checkAddReaction } from '../actions/reactions.js';
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';

export default endpoint({
  method: 'POST',
  url: '/messages/:message_id/reactions',
  params: {
    message_id: p.pathInt(),
    emoji_name: p.string(),
    emoji_code: p.string().optional(),
    reaction_type: p.string().optional(),
  },
  async handler({ params, user, realm, services }) {
    await runAction(services, user, realm, (ctx) =>
      checkAddReaction(ctx, params.message_id, {
        emojiName: params.emoji_name,
        emojiCode: params.emoji_code,
        reactionType: params.reaction_type,
      }),
    );
    return {};
  },
});
