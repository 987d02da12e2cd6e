import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createBot, undocumented } from '../support/bots.js';
import { expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

for (const dialect of testDialects()) {
  describe(`GET /bots [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    it("lists the requester's own active bots", async () => {
      const first = await createBot(ctx, 'mark', 'first', { default_sending_stream: 'general' });
      const gone = await createBot(ctx, 'mark', 'gone');
      await createBot(ctx, 'mona', 'other');
      expectSuccess(await ctx.as('mark').delete(`/bots/${gone.id}`, {}, undocumented));
      const { bots } = expectSuccess(await ctx.as('mark').get('/bots', {}, undocumented));
      assert.deepEqual(
        bots.map((b: any) => ({ ...b, avatar_url: typeof b.avatar_url })),
        [
          {
            username: 'first-bot@confab.test',
            full_name: 'first Bot',
            api_key: first.apiKey,
            avatar_url: 'string',
            default_sending_stream: 'general',
            default_events_register_stream: null,
            default_all_public_streams: false,
          },
        ],
      );
    });

    it('is refused to guests', async () => {
      expectError(await ctx.as('gus').get('/bots', {}, undocumented), 'Not allowed for guest users');
    });
  });
}
