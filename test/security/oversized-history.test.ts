// GET /messages/{message_id}/history diffs every pair of versions, and every diff holds the event
// loop. A member who edits a long message over and over (each edit replacing every word) must not
// be able to make one history request, or a stream of them, stall every other client.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

/** Edits the per-user rate limit allows within about a minute. */
const EDITS = 120;
const WORDS = 2000;
/**
 * Generous, and in CPU time (the test machines are shared): these requests took over 6 s each when
 * every pair was diffed in full; now about 100 ms, most of it writing a few megabytes of JSON.
 */
const MAX_REQUEST_CPU_MS = 1000;

const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

interface Snapshot {
  rendered_content: string;
  prev_rendered_content?: string;
  content_html_diff?: string;
}

for (const dialect of testDialects()) {
  describe(`Edit history of a heavily edited long message [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    it('answers every request in bounded time, with plain diffs past the work bound', async () => {
      const version = (n: number) => Array.from({ length: WORDS }, () => (n % 2 === 0 ? 'ab' : 'cd')).join(' ');
      const { id } = expectSuccess(await ctx.as('mark').post('/messages', { type: 'stream', to: 'general', topic: 'long', content: version(0) }));
      for (let n = 1; n <= EDITS; n++) expectSuccess(await ctx.as('mark').patch(`/messages/${id}`, { content: version(n) }));
      // A small edit last: cheap to diff, so it keeps its highlighting.
      expectSuccess(await ctx.as('mark').patch(`/messages/${id}`, { content: `${version(EDITS)} end` }));

      for (let attempt = 0; attempt < 3; attempt++) {
        const started = cpuMs();
        const res = await ctx.as('mona').get(`/messages/${id}/history`);
        const spent = cpuMs() - started;
        const history = expectSuccess(res).message_history as Snapshot[];
        assert.ok(spent < MAX_REQUEST_CPU_MS, `history request ${attempt + 1} took ${Math.round(spent)} ms of CPU`);

        assert.equal(history.length, EDITS + 2);
        const [original, ...edits] = history;
        assert.equal(original!.content_html_diff, undefined);
        const last = edits.pop()!;
        assert.match(last.content_html_diff!, /^<div><p>.*<span class="highlight_text_inserted">end<\/span><\/p><\/div>$/);
        // Past the bound each edit still has its diff field, the newer rendering unmarked.
        const plain = edits.filter((e) => e.content_html_diff === `<div>${e.rendered_content}</div>`);
        assert.ok(plain.length > EDITS / 2, `${plain.length} of ${EDITS} long edits unmarked`);
        for (const edit of edits) {
          assert.equal(typeof edit.prev_rendered_content, 'string');
          assert.equal(typeof edit.content_html_diff, 'string');
        }
      }
    });
  });
}
