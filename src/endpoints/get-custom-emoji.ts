// GET /realm/emoji: the organization's custom emoji, for anyone in it.
import { endpoint } from '../http/endpoint.js';
import { realmEmojiOf } from '../queries/realm-emoji.js';

export default endpoint({
  method: 'GET',
  url: '/realm/emoji',
  params: {},
  async handler({ realm, services }) {
    return { emoji: await realmEmojiOf(services.db, realm.id) };
  },
});
