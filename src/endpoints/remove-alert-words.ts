// DELETE /users/me/alert_words: remove alert words; returns the whole list.
import { z } from 'zod';
import { doRemoveAlertWords } from '../actions/alert-words.js';
import { runAction } from '../actions/context.js';
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';
import { MAX_ALERT_WORDS_PER_CALL } from '../lib/limits.js';

export default endpoint({
  method: 'DELETE',
  url: '/users/me/alert_words',
  params: { alert_words: p.json(z.array(z.string()), { maxItems: MAX_ALERT_WORDS_PER_CALL }) },
  async handler({ params, user, realm, services }) {
    return { alert_words: await runAction(services, user, realm, (ctx) => doRemoveAlertWords(ctx, params.alert_words)) };
  },
});
