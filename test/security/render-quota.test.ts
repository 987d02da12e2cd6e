// A render holds the event loop until it ends or uses up its 250 ms budget. A member who keeps
// sending renders that use the budget up (text crafted against a linkifier, or huge Markdown)
// gets a small share of render time, failed renders included, and then 429s; other members and
// the member's own later renders are unaffected.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { RENDER_TIME_LIMIT_MS } from '../../src/lib/limits.js';
import { RENDER_MS_PER_MINUTE } from '../../src/lib/render-quota.js';
import { type ApiResponse, expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

/**
 * Matches at every "a" but reads on to the end of the text each time, looking for a "q" that
 * never comes: quadratic in any engine that finds matches one at a time, RE2 included.
 */
const SLOW_LINKIFIER = { pattern: '(?P<id>a(( a)*q)?)', url_template: 'https://tracker.example/{id}' };
const HOSTILE = ' a'.repeat(4950);
/** Each refused render spent its whole budget, so the share allows this many at most. */
const MAX_SLOW_RENDERS = RENDER_MS_PER_MINUTE / RENDER_TIME_LIMIT_MS;

function expectRateLimited(res: ApiResponse) {
  expectError(res, 'API usage exceeded rate limit', 'RATE_LIMIT_HIT', 429);
  assert.ok(Number(res.headers['retry-after']) > 0);
}

for (const dialect of testDialects()) {
  describe(`Render time per user [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => {
      ctx = await setup(dialect, { config: { rateLimits: true } });
      expectSuccess(await ctx.as('adam').post('/realm/filters', SLOW_LINKIFIER));
    });
    after(() => ctx.close());

    it('stops a member whose renders keep using their budget up, and no one else', async () => {
      let slow = 0;
      let res = await ctx.as('mark').post('/messages/render', { content: HOSTILE });
      while (res.status !== 429) {
        expectError(res, 'Unable to render message', 'BAD_REQUEST');
        assert.ok(++slow <= MAX_SLOW_RENDERS, `${slow} slow renders allowed`);
        res = await ctx.as('mark').post('/messages/render', { content: HOSTILE });
      }
      expectRateLimited(res);
      assert.ok(slow >= 2, `only ${slow} slow renders before the limit`);
      // Sending and editing render too, against the same share.
      expectRateLimited(await ctx.as('mark').post('/messages', { type: 'stream', to: 'general', topic: 'x', content: 'hello' }));

      // Another member still renders, hostile text included.
      expectError(await ctx.as('mona').post('/messages/render', { content: HOSTILE }), 'Unable to render message', 'BAD_REQUEST');
      assert.equal(expectSuccess(await ctx.as('mona').post('/messages/render', { content: '**hi**' })).rendered, '<p><strong>hi</strong></p>');

      // The share comes back with time.
      ctx.clock.advance(60);
      assert.equal(expectSuccess(await ctx.as('mark').post('/messages/render', { content: '**hi**' })).rendered, '<p><strong>hi</strong></p>');
      expectSuccess(await ctx.as('mark').post('/messages', { type: 'stream', to: 'general', topic: 'x', content: 'hello' }));
    });
  });
}
