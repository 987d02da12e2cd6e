// Every route of src/routes.ts, called by a member with malformed and random input: missing
// parameters, wrong types, huge and negative numbers, broken or deeply nested JSON, unicode, NUL
// bytes, very long strings, odd path segments; sent as query strings, form bodies, multipart bodies
// and JSON bodies. Every answer must be a success or a 4xx Zulip error, never a 500.
// The generator is seeded (FUZZ_SEED); a failure names the seed and the exact request.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { routes } from '../../src/routes.js';
import { ApiClient } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';
import {
  BROKEN_JSON_BODIES,
  buildRequest,
  describeRequest,
  type Encoding,
  ENCODINGS,
  type FuzzRequest,
  Fuzzer,
  hash,
  NASTY,
  ODD_BODIES,
  PATH_SEGMENTS,
  pathSegments,
  percentEncode,
  preview,
  sample,
  type Wire,
} from '../support/fuzz-input.js';

const SEED = Number(process.env.FUZZ_SEED ?? 229);
/** Random requests per route on top of the fixed cases. */
const RANDOM_ROUNDS = Number(process.env.FUZZ_ROUNDS ?? 25);
/**
 * Requests sent per route: a seeded sample of all the cases, so the file stays fast as routes are
 * added. FUZZ_PER_ROUTE=all sends every case; another FUZZ_SEED samples other cases.
 */
const PER_ROUTE = process.env.FUZZ_PER_ROUTE === 'all' ? Infinity : Number(process.env.FUZZ_PER_ROUTE ?? 60);
const REQUEST_TIMEOUT_MS = 5000;
/** Requests in flight at once (the PostgreSQL store waits on the network). */
const CONCURRENCY = 6;

function withTimeout<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${REQUEST_TIMEOUT_MS} ms: ${what}`)), REQUEST_TIMEOUT_MS);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

for (const dialect of testDialects()) {
  describe(`Fuzzing every route [${dialect}]`, () => {
    let ctx: TestContext;
    let authorization: string;
    let failures: string[];

    before(async () => {
      ctx = await setup(dialect);
      // Long-polls must not hold a fuzz request for a real heartbeat interval.
      Object.assign(ctx.services.config, { heartbeatMinSeconds: 0.01, heartbeatMaxSeconds: 0.02 });
      const mark = ctx.seed.users.mark;
      authorization = ApiClient.basic(mark.delivery_email, mark.api_key);
    });
    after(() => ctx.close());

    function plausible(name: string): Wire[] {
      const { users, streams } = ctx.seed;
      const ids = [String(users.mark.id), String(users.mona.id), String(users.olivia.id), String(streams.general.id), '1'];
      if (name.includes('email')) return ['mona@confab.test', 'mark@confab.test', 'gus@confab.test'];
      if (name.includes('stream') || name === 'subscriptions') {
        return [String(streams.general.id), String(streams.leadership.id), 'general', '["general"]', '[{"name":"general"}]', '[{"name":"fuzz new"}]'];
      }
      if (name.endsWith('_id') || name.endsWith('_ids') || name === 'principals' || name === 'to') {
        return [...ids, `[${users.mona.id}]`, `["mona@confab.test"]`, `[${streams.general.id}]`];
      }
      if (name === 'narrow') return ['[]', '[{"operator":"stream","operand":"general"}]', '[["is","starred"]]'];
      if (name === 'anchor') return ['newest', 'oldest', 'first_unread', '0'];
      return ['hello', 'general', 'true', 'false', '10', ...ids];
    }

    async function send(req: FuzzRequest, label: string): Promise<void> {
      const what = `[seed ${SEED}, ${label}] ${describeRequest(req)}`;
      let res;
      try {
        res = await withTimeout(ctx.app.inject({ method: req.method, url: req.url, headers: req.headers, payload: req.payload }), what);
      } catch (error) {
        failures.push(`${what}\n    -> ${String(error)}`);
        return;
      }
      let body: any;
      try {
        body = JSON.parse(res.body);
      } catch {
        failures.push(`${what}\n    -> ${res.statusCode} with a body that is not JSON: ${preview(res.body)}`);
        return;
      }
      const success = res.statusCode === 200 && body?.result === 'success' && body.msg === '';
      const clientError =
        res.statusCode >= 400 &&
        res.statusCode < 500 &&
        body?.result === 'error' &&
        typeof body.msg === 'string' &&
        typeof body.code === 'string';
      if (!success && !clientError) failures.push(`${what}\n    -> ${res.statusCode} ${preview(res.body)}`);
      // Members can deactivate themselves; keep the fuzzing account usable.
      if (success && req.method !== 'GET') {
        await ctx.services.db
          .updateTable('user_profile')
          .set({ is_active: 1, role: ctx.seed.users.mark.role, api_key: ctx.seed.users.mark.api_key })
          .where('id', '=', ctx.seed.users.mark.id)
          .execute();
      }
    }

    for (const route of routes) {
      it(`${route.method} ${route.url}`, async () => {
        failures = [];
        const cases: Array<[FuzzRequest, string]> = [];
        const fuzz = new Fuzzer(SEED ^ hash(`${route.method} ${route.url}`), plausible);
        const names = Object.entries(route.params).filter(([, param]) => !param.inPath).map(([name]) => name);
        const pathNames = pathSegments(route.url).flatMap((s) => ('param' in s ? [s.param] : []));
        const plausiblePath = () => Object.fromEntries(pathNames.map((name) => [name, percentEncode(plausible(name)[0]!)]));
        const request = (params: Array<[string, Wire]>, encoding: Encoding, path = plausiblePath(), jsonValues = false) =>
          buildRequest(route, path, params, encoding, authorization, jsonValues);

        for (const encoding of ENCODINGS) cases.push([request([], encoding), `no parameters, ${encoding}`]);
        for (const [i, value] of NASTY.entries()) {
          const encoding = ENCODINGS[i % ENCODINGS.length]!;
          const params = (names.length > 0 ? names : ['unknown']).map((name): [string, Wire] => [name, value]);
          cases.push([request(params, encoding, plausiblePath(), i % 2 === 0), `every parameter = NASTY[${i}], ${encoding}`]);
        }
        for (const name of pathNames) {
          for (const segment of PATH_SEGMENTS) {
            cases.push([request([], 'query', { ...plausiblePath(), [name]: segment }), `path ${name} = ${segment.slice(0, 20)}`]);
          }
        }
        for (const [i, payload] of BROKEN_JSON_BODIES.entries()) {
          const req = request([], 'query');
          cases.push([{ ...req, headers: { ...req.headers, 'content-type': 'application/json' }, payload }, `broken JSON body ${i}`]);
        }
        for (const [i, odd] of ODD_BODIES.entries()) {
          const req = request([], 'query');
          const headers = { ...req.headers };
          if (odd.contentType) headers['content-type'] = odd.contentType;
          cases.push([{ ...req, headers, payload: odd.payload }, `odd body ${i}`]);
        }
        for (let round = 0; round < RANDOM_ROUNDS; round++) {
          const params: Array<[string, Wire]> = names.filter(() => fuzz.random() < 0.7).map((name) => [name, fuzz.value(name)]);
          if (fuzz.random() < 0.2) params.push([fuzz.pick(['subject', 'unknown_param', fuzz.randomString() || 'x']), fuzz.value('')]);
          if (fuzz.random() < 0.1 && params.length > 0) params.push(params[0]!);
          const path = Object.fromEntries(pathNames.map((name) => [name, fuzz.pathValue(name)]));
          const encoding = fuzz.pick(ENCODINGS);
          cases.push([request(params, encoding, path, fuzz.random() < 0.5), `random round ${round}, ${encoding}`]);
        }
        const chosen = sample(cases, PER_ROUTE, fuzz);
        const started = performance.now();
        await inPool(chosen, CONCURRENCY, ([req, label]) => send(req, label));
        if (process.env.FUZZ_STATS) {
          console.log(`${dialect} ${route.method} ${route.url}: ${chosen.length} of ${cases.length} cases in ${Math.round(performance.now() - started)} ms`);
        }
        const shown = failures.slice(0, 15).join('\n  ');
        assert.equal(failures.length, 0, `${failures.length} bad answers:\n  ${shown}`);
      });
    }
  });
}

async function inPool<T>(items: T[], size: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: size }, worker));
}
