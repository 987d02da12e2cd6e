// The password rules /register announces are the ones the server holds passwords to: at least
// password_min_length characters and, by the zxcvbn estimate, at least password_min_guesses guesses.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { isStrongPassword } from '../../src/lib/password-strength.js';
import { expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';

describe('password strength', () => {
  let ctx: TestContext;
  before(async () => (ctx = await setup('sqlite')));
  after(() => ctx.close());

  it('announces the reference’s rules in /register', async () => {
    const state = expectSuccess(await ctx.as('mark').post('/register', { fetch_event_types: JSON.stringify(['realm']) }));
    assert.deepEqual([state.password_min_length, state.password_min_guesses, state.password_max_length], [6, 10000, 100]);
  });

  it('refuses short and guessable passwords and accepts short unguessable ones', async () => {
    const verdicts = await Promise.all(['abc12', 'password123', 'qwertyuiop', 'aaaaaaaaaaaa', 'Xq7#vR', 'plum orchard lantern'].map(isStrongPassword));
    assert.deepEqual(verdicts, [false, false, false, false, true, true]);
  });
});
