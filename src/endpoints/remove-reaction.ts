// DELETE /messages/{message_id}/reactions: take back one's own emoji reaction.
import { runAction } from '../actions/context.js';
import { checkRemoveReaction } from '../actions/reactions.js';
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';

export default endpoint({
  method: 'DELETE',
  url: '/messages/:message_id/reactions',
  params: {
    message_id: p.pathInt(),
    emoji_name: p.string().optional(),
    emoji_code: p.string().optional(),
    reaction_type: p.string().default('unicode_emoji'),
  },
  async handler({ params, user, realm, services }) {
    await runAction(services, user, realm, (ctx) =>
      checkRemoveReaction(ctx, params.message_id, {
        emojiName: params.emoji_name,
        emojiCode: params.emoji_code,
        reactionType: params.reaction_type,
      }),
    );
    return {};
  },
});
