// POST /register answers every key the reference documents for each fetch_event_types value it
// knows at feature level 229, and every key of every area when none is given. The keys and their
// areas come from the reference's register response schema ("Present if `X` is present in
// `fetch_event_types`"); keys new after feature level 229 are skipped by reading their changelog text.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';
import { referenceDocument } from '../support/openapi-check.js';
import type { SchemaNode } from '../support/spec-differences.js';

const FEATURE_LEVEL = 229;

/** Keys whose description names no area: where the reference's fetch_initial_state_data puts them. */
const UNDOCUMENTED_AREAS: Record<string, string[]> = {
  drafts: ['drafts'],
  unread_msgs: ['message', 'update_message_flags'],
  realm_date_created: ['realm'],
  realm_video_chat_provider: ['realm'],
  realm_jitsi_server_url: ['realm'],
  server_jitsi_server_url: ['realm'],
  realm_create_multiuse_invite_group: ['realm'],
  realm_can_access_all_users_group: ['realm'],
  server_typing_started_expiry_period_milliseconds: ['realm'],
  server_typing_stopped_wait_period_milliseconds: ['realm'],
  server_typing_started_wait_period_milliseconds: ['realm'],
  server_presence_ping_interval_seconds: ['realm'],
  server_presence_offline_threshold_seconds: ['realm'],
  // A display setting of SPEC.md's era the reference dropped (added by spec-differences.ts).
  dense_mode: ['update_display_settings'],
};

/** Keys present in every response, whatever was asked for. */
const ALWAYS = [
  'result', 'msg', 'queue_id', 'last_event_id', 'zulip_feature_level', 'zulip_version', 'zulip_merge_base',
  // SPEC.md's names for the version fields (added to the schema by spec-differences.ts).
  'service_feature_level', 'service_version', 'service_merge_base',
];

/** Keys this test does not require, each with its reason. */
const EXCEPTIONS: Record<string, string> = {
  ignored_parameters_unsupported: 'only present when the request carried parameters the server ignores',
  demo_organization_scheduled_deletion_date: 'only present for demo organizations, which Confab does not create',
  onboarding_steps: 'replaced hotspots at feature level 233 (the document says so without a "New in" line)',
};

function descriptionOf(schema: SchemaNode): string {
  return [schema.description ?? '', ...((schema.allOf as SchemaNode[] | undefined) ?? []).map((p) => p.description ?? '')].join('\n');
}

/** The feature level a key arrived at, when its changelog says so. */
function newAt(description: string): number | undefined {
  const match = /New in Zulip [^(]*\(feature\s+level\s+(\d+)\)/.exec(description);
  return match ? Number(match[1]) : undefined;
}

interface ExpectedKey {
  key: string;
  /** The fetch_event_types values that must all be asked for; empty for keys always present. */
  areas: string[];
}

function expectedKeys(): ExpectedKey[] {
  const doc = referenceDocument();
  const schema = doc.paths['/register'].post.responses['200'].content['application/json'].schema as SchemaNode;
  const own = (schema.allOf as SchemaNode[]).find((part) => part.properties && !part.$ref)!;
  const keys: ExpectedKey[] = [];
  for (const [key, node] of Object.entries(own.properties as Record<string, SchemaNode>)) {
    if (key in EXCEPTIONS) continue;
    if (ALWAYS.includes(key)) {
      keys.push({ key, areas: [] });
      continue;
    }
    const description = descriptionOf(node);
    const level = newAt(description);
    if (level !== undefined && level > FEATURE_LEVEL) continue;
    const named = [...description.matchAll(/Present if `([a-z_]+)` is present in\s+`fetch_event_types`/g)].map((m) => m[1]!);
    let areas = named.length > 0 ? named : UNDOCUMENTED_AREAS[key];
    // The integer realm policies of feature level 229 are added to the schema by spec-differences.ts.
    if (!areas && description.trim() === '' && /^realm_.*_policy$/.test(key)) areas = ['realm'];
    assert.ok(areas, `${key}: the reference names no fetch_event_types value for it; list it in UNDOCUMENTED_AREAS or EXCEPTIONS`);
    keys.push({ key, areas });
  }
  return keys;
}

const EXPECTED = expectedKeys();
const AREAS = [...new Set(EXPECTED.flatMap((k) => (k.areas.length === 1 ? k.areas : [])))].sort();

function missing(body: Record<string, unknown>, wanted: readonly string[] | null): string[] {
  return EXPECTED.filter(({ areas }) => wanted === null || areas.every((a) => wanted.includes(a)))
    .map(({ key }) => key)
    .filter((key) => !(key in body));
}

for (const dialect of testDialects()) {
  describe(`POST /register completeness [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    it('knows the areas of the reference', () => {
      for (const area of ['realm', 'realm_user', 'realm_emoji', 'realm_user_groups', 'custom_profile_fields', 'realm_bot']) {
        assert.ok(AREAS.includes(area), area);
      }
    });

    it('answers every documented key when no fetch_event_types is given', async () => {
      for (const user of ['olivia', 'mark', 'gus'] as const) {
        const body = expectSuccess(await ctx.as(user).post('/register'));
        assert.deepEqual(missing(body, null), [], user);
      }
    });

    for (const area of AREAS) {
      it(`answers every key of ${area}`, async () => {
        const body = expectSuccess(await ctx.as('mark').post('/register', { fetch_event_types: [area] }));
        assert.deepEqual(missing(body, [area]), []);
      });
    }

    it('answers unread_msgs when message and update_message_flags are both asked for', async () => {
      const wanted = ['message', 'update_message_flags'];
      const body = expectSuccess(await ctx.as('mark').post('/register', { fetch_event_types: wanted }));
      assert.deepEqual(missing(body, wanted), []);
    });
  });
}
