// POST /users/me/alert_words: add alert words; returns the whole list.
import { z } from 'zod';
import { doAddAlertWords } from '../actions/alert-words.js';
import { runAction } from '../actions/context.js';
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';
import { MAX_ALERT_WORD_LENGTH, MAX_ALERT_WORDS_PER_CALL } from '../lib/limits.js';

const word = z
  .string()
  .max(MAX_ALERT_WORD_LENGTH)
  .refine((text) => !text.includes('\u0000'), { message: '{var_name} must not contain null bytes' });

export default endpoint({
  method: 'POST',
  url: '/users/me/alert_words',
  params: { alert_words: p.json(z.array(word), { maxItems: MAX_ALERT_WORDS_PER_CALL }) },
  async handler({ params, user, realm, services }) {
    return { alert_words: await runAction(services, user, realm, (ctx) => doAddAlertWords(ctx, params.alert_words)) };
  },
});
