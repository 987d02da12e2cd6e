import { after, before, describe, it } from 'node:test';
import { expectError } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';

describe('GET /calls/bigbluebutton/create', () => {
  let ctx: TestContext;
  before(async () => (ctx = await setup('sqlite')));
  after(() => ctx.close());

  it('answers as a server without BigBlueButton configured', async () => {
    expectError(await ctx.as('mark').get('/calls/bigbluebutton/create', { meeting_name: 'standup' }), 'BigBlueButton is not configured.');
  });

  it('still requires the meeting name first', async () => {
    expectError(await ctx.as('mark').get('/calls/bigbluebutton/create'), "Missing 'meeting_name' argument", 'REQUEST_VARIABLE_MISSING');
  });
});
