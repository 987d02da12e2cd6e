// Send throughput with 20 linkifiers configured against none, in one run on one store.
// Two organizations built alike (an owner, six members, one stream everyone is in); one has 20
// linkifiers. POST /messages goes through the whole app (fastify inject: routing, auth,
// parameters, rendering, storage, events), alternating between the two every few messages so
// that load from other processes and warm-up hit both alike. Target: at most 10% slower.
// Usage: npx tsx bench/linkifiers.ts [--messages 1500] [--batch 10]
import { parseArgs } from 'node:util';
import { runAction, runSystemAction } from '../src/actions/context.js';
import { addLinkifier } from '../src/actions/linkifiers.js';
import { doCreateRealm } from '../src/actions/realm-create.js';
import { doCreateStream } from '../src/actions/stream-create.js';
import { bulkAddSubscriptions } from '../src/actions/subscriptions.js';
import { doCreateUser } from '../src/actions/user-create.js';
import type { UserRow } from '../src/db/schema.js';
import { compileLinkifiers, findLinkifierMatches, topicLinks } from '../src/lib/linkifiers/index.js';
import { setup } from '../test/support/context.js';
import { positiveInt } from './lib/store-options.js';

const { values } = parseArgs({ options: { messages: { type: 'string' }, batch: { type: 'string' } } });
const perOrganization = positiveInt('messages', values.messages, 1500);
const batch = positiveInt('batch', values.batch, 10);

/** Patterns of the kinds organizations configure: issue numbers, ticket keys, repositories, revisions. */
const LINKIFIERS: Array<[string, string]> = [
  ['#(?P<id>[0-9]{2,8})', 'https://trac.example.com/ticket/{id}'],
  ['ZUL-(?P<id>[0-9]+)', 'https://jira.example.com/browse/ZUL-{id}'],
  ['(?P<org>[a-zA-Z0-9_-]+)/(?P<repo>[a-zA-Z0-9_.-]+)#(?P<id>[0-9]+)', 'https://github.com/{org}/{repo}/issues/{id}'],
  ['CVE-(?P<year>[0-9]{4})-(?P<num>[0-9]{4,})', 'https://cve.example.org/CVE-{year}-{num}'],
  ['RFC ?(?P<num>[0-9]+)', 'https://www.rfc-editor.org/rfc/rfc{num}'],
  ['PR(?P<num>[0-9]+)', 'https://review.example.com/pull/{num}'],
  ['T(?P<num>[0-9]{4,})', 'https://phabricator.example.com/T{num}'],
  ['bug (?P<num>[0-9]+)', 'https://bugs.example.com/show_bug.cgi?id={num}'],
  ['r(?P<rev>[0-9a-f]{7,40})', 'https://git.example.com/commit/{rev}'],
  ['INC(?P<num>[0-9]{6})', 'https://servicedesk.example.com/incident/INC{num}'],
  ['OPS-(?P<num>[0-9]+)', 'https://jira.example.com/browse/OPS-{num}'],
  ['DOC-(?P<num>[0-9]+)', 'https://jira.example.com/browse/DOC-{num}'],
  ['!(?P<mr>[0-9]+)', 'https://gitlab.example.com/merge_requests/{mr}'],
  ['gh:(?P<user>[a-z0-9-]+)', 'https://github.com/{user}'],
  ['PEP ?(?P<num>[0-9]+)', 'https://peps.python.org/pep-{num}/'],
  ['SO(?P<num>[0-9]+)', 'https://stackoverflow.com/q/{num}'],
  ['wiki:(?P<page>[A-Za-z0-9_]+)', 'https://wiki.example.com/{page}'],
  ['ticket (?P<num>[0-9]+)', 'https://tickets.example.com/{num}'],
  ['(?P<key>[A-Z]{2,6})-(?P<num>[0-9]+)', 'https://tracker.example.com/{key}/{num}'],
  ['sentry:(?P<id>[0-9a-f]{8})', 'https://sentry.example.com/issues/{id}'],
];

const WORDS = 'the build is green again after we reverted that change; please review when you can and tell me if the numbers look right to you'.split(' ');
/** About 300-500 characters of chat, a third of them mentioning something a linkifier links. */
function message(i: number): string {
  const words = Array.from({ length: 60 + (i % 30) }, (_, k) => WORDS[(i * 7 + k * 3) % WORDS.length]);
  if (i % 3 === 0) words.splice(10, 0, `#${1000 + i}`, 'and', `zulip/zulip#${i}`, 'plus', `ZUL-${i}`);
  if (i % 5 === 0) words.push('see', 'RFC', String(i), 'and', 'ABC-12');
  return words.join(' ');
}

const ctx = await setup('sqlite', { dev: false });
ctx.services.checkEvents = false;

interface Organization {
  host: string;
  authorization: string;
  seconds: number;
  cpuMs: number;
  sent: number;
  /** Seconds of each batch, in order. */
  batches: number[];
}

async function organization(name: string, linkifiers: Array<[string, string]>): Promise<Organization> {
  const host = `${name}.bench.test`;
  const { realm, owner, sender } = await runSystemAction(ctx.services, async (sctx) => {
    const { realm, owner } = await doCreateRealm(sctx, {
      name: `Linkifier bench ${name}`,
      stringId: name,
      url: `http://${host}`,
      owner: { email: `owner@${host}`, fullName: 'Owner', password: null },
      withGeneralStream: false,
    });
    const members: UserRow[] = [];
    for (let i = 0; i < 6; i++) {
      members.push(await doCreateUser(sctx, realm, { email: `user${i}@${host}`, fullName: `User ${i}`, subscribeToDefaults: false }));
    }
    const stream = await doCreateStream(sctx, realm, { name: 'general', creatorId: owner.id });
    await bulkAddSubscriptions(sctx, realm, [stream], [owner, ...members]);
    return { realm, owner, sender: members[0]! };
  });
  await runAction(ctx.services, owner, realm, async (actx) => {
    for (const [pattern, template] of linkifiers) await addLinkifier(actx, pattern, template);
  });
  const authorization = `Basic ${Buffer.from(`${sender.delivery_email}:${sender.api_key}`).toString('base64')}`;
  return { host, authorization, seconds: 0, cpuMs: 0, sent: 0, batches: [] };
}

async function sendBatch(org: Organization, count: number): Promise<void> {
  const start = performance.now();
  const cpu = process.cpuUsage();
  for (let i = 0; i < count; i++) {
    const n = org.sent++;
    const payload = new URLSearchParams({ type: 'stream', to: 'general', topic: `topic ${n % 20} #${(n % 97) + 10}`, content: message(n) });
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/messages',
      headers: { authorization: org.authorization, host: org.host, 'content-type': 'application/x-www-form-urlencoded' },
      payload: payload.toString(),
    });
    if (res.statusCode !== 200) throw new Error(`send failed: ${res.statusCode} ${res.body}`);
  }
  const used = process.cpuUsage(cpu);
  const seconds = (performance.now() - start) / 1000;
  org.seconds += seconds;
  org.batches.push(seconds);
  org.cpuMs += (used.user + used.system) / 1000;
}

const none = await organization('plain', []);
const twenty = await organization('linked', LINKIFIERS);
const began = performance.now();
for (const org of [none, twenty]) await sendBatch(org, 100); // warm-up
for (const org of [none, twenty]) Object.assign(org, { seconds: 0, cpuMs: 0, batches: [] });
const warm = none.sent;
for (let done = 0; done < perOrganization; done += batch) {
  const count = Math.min(batch, perOrganization - done);
  const order = (done / batch) % 2 === 0 ? [none, twenty] : [twenty, none];
  for (const org of order) await sendBatch(org, count);
}

// The linkifier work alone, on the same messages and topics, for scale.
const compiled = compileLinkifiers(LINKIFIERS.map(([pattern, url_template], id) => ({ id, pattern, url_template })));
let linkifyMicros = 0;
for (let pass = 0; pass < 3; pass++) {
  // The last of three passes: warm, as a running server is.
  const probeStart = performance.now();
  for (let n = 0; n < perOrganization; n++) {
    findLinkifierMatches(message(n), compiled);
    topicLinks(`topic ${n % 20} #${(n % 97) + 10}`, compiled);
  }
  linkifyMicros = ((performance.now() - probeStart) * 1000) / perOrganization;
}

const rate = (org: Organization) => (org.sent - warm) / org.seconds;
const cpuPer = (org: Organization) => org.cpuMs / (org.sent - warm);
// Other processes on the machine come and go within seconds; neighbouring batches see the same
// load, so the figure is the median over pairs of neighbouring batches of their time ratio.
const ratios = none.batches.map((seconds, i) => twenty.batches[i]! / seconds).sort((a, b) => a - b);
const slower = (ratios[Math.floor(ratios.length / 2)]! - 1) * 100;
const overall = (1 - rate(twenty) / rate(none)) * 100;
console.log(`messages per organization: ${perOrganization} (+100 warm-up), alternating every ${batch}`);
console.log(`no linkifiers:  ${rate(none).toFixed(0)} messages/s, ${cpuPer(none).toFixed(3)} CPU ms/message`);
console.log(`20 linkifiers:  ${rate(twenty).toFixed(0)} messages/s, ${cpuPer(twenty).toFixed(3)} CPU ms/message`);
console.log(`throughput:     ${slower.toFixed(1)}% slower with 20 linkifiers, median of ${ratios.length} batch pairs (target: at most 10%) -> ${slower <= 10 ? 'PASS' : 'FAIL'}`);
console.log(`                (${overall.toFixed(1)}% from the totals)`);
console.log(`linkifier work: ${linkifyMicros.toFixed(1)} us/message (matches in the content and topic_links, measured alone)`);
console.log(`elapsed:        ${((performance.now() - began) / 1000).toFixed(1)} s`);
await ctx.close();
