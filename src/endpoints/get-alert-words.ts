// GET /users/me/alert_words: the user's alert words.
import { endpoint } from '../http/endpoint.js';
import { alertWordsOf } from '../queries/alert-words.js';

export default endpoint({
  method: 'GET',
  url: '/users/me/alert_words',
  params: {},
  async handler({ user, services }) {
    return { alert_words: await alertWordsOf(services.db, user.id) };
  },
});
