import assert, { AssertionError } from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import { dirname, relative } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { ApiResponse } from './client.js';
import { BUNDLED_REFERENCE_PATH, checkResponse, readReference, referenceOperationId } from './openapi-check.js';
import { mergeSchemas } from './openapi-schema.js';
import { SPEC_DIFFERENCES } from './spec-differences.js';

const respond = (status: number, body: Record<string, unknown>): ApiResponse => ({ status, body, headers: {} });
const ok = (fields: Record<string, unknown> = {}) => respond(200, { result: 'success', msg: '', ...fields });
const apiKey = { api_key: 'gjA04ZYcqXKalvYMA8OeXSfzUOLrtbZv', email: 'iago@zulip.com', user_id: 5 };

/** Asserts that the check fails with a message containing every fragment. */
function rejects(method: string, path: string, response: ApiResponse, ...fragments: string[]) {
  assert.throws(
    () => checkResponse(method, path, response),
    (error: unknown) => {
      assert.ok(error instanceof AssertionError, `expected an AssertionError, got ${String(error)}`);
      for (const fragment of fragments) assert.ok(error.message.includes(fragment), `"${fragment}" not in: ${error.message}`);
      return true;
    },
  );
}

describe('OpenAPI response check', () => {
  it('accepts a body that fits the documented schema', () => {
    checkResponse('POST', '/fetch_api_key', ok(apiKey));
    checkResponse('POST', '/fetch_api_key', ok({ ...apiKey, ignored_parameters_unsupported: ['extra'] }));
  });

  it('rejects a field of the wrong type, naming the operation, the path and the value', () => {
    rejects('POST', '/fetch_api_key', ok({ ...apiKey, api_key: 42 }), 'fetch-api-key', 'POST /fetch_api_key', 'at /api_key', 'must be string', 'value 42');
  });

  it('rejects a body without a required field', () => {
    const { email: _omitted, ...withoutEmail } = apiKey;
    rejects('POST', '/fetch_api_key', ok(withoutEmail), 'fetch-api-key', "missing required property 'email'");
  });

  it('rejects fields the reference does not know, even when allOf parts define the others', () => {
    rejects('POST', '/fetch_api_key', ok({ ...apiKey, password: 'x' }), 'at /password', 'not allowed', 'value "x"');
    rejects('GET', '/server_settings', ok({ authentication_methods: { password: true, carrier_pigeon: true } }), 'at /authentication_methods/carrier_pigeon');
  });

  it('rejects a success status with an error body, and any 5xx', () => {
    rejects('POST', '/fetch_api_key', respond(200, { result: 'error', msg: 'x', code: 'BAD_REQUEST' }), 'result must be "success"');
    rejects('POST', '/fetch_api_key', respond(500, { result: 'error', msg: 'Internal server error', code: 'INTERNAL_SERVER_ERROR' }), 'unexpected status');
  });

  it('finds operations by path template, preferring literal segments and integer parameters', () => {
    assert.equal(referenceOperationId('GET', '/messages/42'), 'get-message');
    assert.equal(referenceOperationId('PATCH', '/messages/42'), 'update-message');
    assert.equal(referenceOperationId('GET', '/users/me'), 'get-own-user');
    assert.equal(referenceOperationId('GET', '/users/12'), 'get-user');
    assert.equal(referenceOperationId('GET', '/users/iago%40zulip.com'), 'get-user-by-email');
    assert.equal(referenceOperationId('POST', '/messages/flags'), 'update-message-flags');
    assert.equal(referenceOperationId('GET', '/server_settings?x=1'), 'get-server-settings');
    // A malformed id still belongs to the operation of that route (its error answer is checked).
    assert.equal(referenceOperationId('GET', '/messages/abc'), 'get-message');
    assert.equal(referenceOperationId('POST', '/server_settings'), undefined);
  });

  it('fails loudly for an operation the reference lacks', () => {
    rejects('GET', '/no/such/route', ok(), 'GET /no/such/route', 'no such operation', 'undocumented: true');
  });

  it('checks error answers against the documented and the shared error shapes', () => {
    checkResponse('POST', '/fetch_api_key', respond(401, { result: 'error', msg: 'Your username or password is incorrect', code: 'AUTHENTICATION_FAILED' }));
    checkResponse('POST', '/fetch_api_key', respond(400, { result: 'error', msg: "Missing 'password' argument", code: 'REQUEST_VARIABLE_MISSING', var_name: 'password' }));
    checkResponse('DELETE', '/users/me', respond(400, { result: 'error', msg: 'Cannot deactivate the only user', code: 'CANNOT_DEACTIVATE_LAST_USER', is_last_owner: false, entity: 'user' }));
    rejects('POST', '/fetch_api_key', respond(400, { result: 'error', msg: 'x', code: 'BAD_REQUEST', secret: 1 }), 'at /secret', 'not allowed');
    rejects('POST', '/fetch_api_key', respond(400, { result: 'error', msg: 'x' }), "missing required property 'code'");
    rejects('POST', '/fetch_api_key', respond(401, { result: 'error', msg: 7, code: 'X' }), 'at /msg', 'must be string');
  });

  it('reads nullable as allowing null and nothing else', () => {
    const own = { user_id: 1, email: 'a@b.c', full_name: 'A', avatar_url: 'https://x/a.png', bot_type: null, bot_owner_id: null };
    checkResponse('GET', '/users/me', ok(own));
    rejects('GET', '/users/me', ok({ ...own, bot_type: 'generic' }), 'at /bot_type');
    rejects('GET', '/users/me', ok({ ...own, avatar_url: null }), 'at /avatar_url', 'must be string', 'value null');
  });

  it('picks the closest alternative when reporting a oneOf mismatch', () => {
    const event = { id: 0, type: 'alert_words', alert_words: [5] };
    rejects('GET', '/events', ok({ queue_id: 'q', events: [event] }), 'at /events/0/alert_words/0', 'must be string');
  });

  describe('with SPEC.md\'s differences applied', () => {
    it('lists a reason for every difference', () => {
      for (const difference of SPEC_DIFFERENCES) assert.ok(difference.why.length > 30, difference.why);
    });

    it('accepts the service_* version twins and checks their types', () => {
      const versions = { zulip_feature_level: 229, zulip_version: '8.0', zulip_merge_base: '8.0' };
      checkResponse('GET', '/server_settings', ok({ ...versions, service_feature_level: 229, service_version: '8.0', service_merge_base: '8.0' }));
      rejects('GET', '/server_settings', ok({ ...versions, service_feature_level: '229' }), 'at /service_feature_level', 'must be integer');
      checkResponse('POST', '/register', ok({ queue_id: 'q', ...versions, service_feature_level: 229 }));
    });

    it('allows only SPEC.md\'s emojiset names', () => {
      checkResponse('POST', '/register', ok({ user_settings: { emojiset: 'vendora-blob' } }));
      rejects('POST', '/register', ok({ user_settings: { emojiset: 'google' } }), 'at /user_settings/emojiset', 'allowed values', 'value "google"');
    });

    it('wants both playground language keys', () => {
      const playground = { id: 1, name: 'Python', pygments_language: 'Python', highlighter_language: 'Python', url_template: 'https://p.example/{code}' };
      checkResponse('POST', '/register', ok({ realm_playgrounds: [playground] }));
      const { highlighter_language: _dropped, ...onlyPygments } = playground;
      rejects('POST', '/register', ok({ realm_playgrounds: [onlyPygments] }), "missing required property 'highlighter_language'");
    });

    it('accepts the integer editing policies of the era', () => {
      checkResponse('POST', '/register', ok({ realm_edit_topic_policy: 5, realm_move_messages_between_streams_policy: 1 }));
      rejects('POST', '/register', ok({ realm_edit_topic_policy: 'everyone' }), 'at /realm_edit_topic_policy', 'must be integer');
      const event = { id: 1, type: 'realm', op: 'update_dict', property: 'default', data: { edit_topic_policy: 2 } };
      checkResponse('GET', '/events', ok({ queue_id: 'q', events: [event] }));
    });

    it('allows visibility_policy 0 to 3 only', () => {
      const topic = { stream_id: 1, topic_name: 't', last_updated: 1, visibility_policy: 3 };
      checkResponse('POST', '/register', ok({ user_topics: [topic] }));
      rejects('POST', '/register', ok({ user_topics: [{ ...topic, visibility_policy: 4 }] }), 'at /user_topics/0/visibility_policy', 'value 4');
    });

    it('keeps is_billing_admin in user dictionaries and the deprecated user object in reactions', () => {
      checkResponse('GET', '/users/12', ok({ user: { user_id: 12, is_billing_admin: false, bot_type: null } }));
      rejects('GET', '/users/12', ok({ user: { user_id: 12, is_billing_admin: 'no' } }), 'at /user/is_billing_admin');
      const reaction = { emoji_name: 'smile', emoji_code: '1f642', reaction_type: 'unicode_emoji', user_id: 6 };
      const user = { id: 6, email: 'mona@confab.test', full_name: 'Mona', is_mirror_dummy: false };
      const message = (reactions: unknown[]) => ok({ anchor: 1, found_anchor: true, found_newest: true, found_oldest: true, history_limited: false, messages: [{ id: 1, reactions }] });
      checkResponse('GET', '/messages', message([{ ...reaction, user }]));
      rejects('GET', '/messages', message([{ ...reaction, user: { id: 6 } }]), "missing required property 'email'");
    });

    it('takes REQUEST_VARIABLE_INVALID errors with var_name and bad_value', () => {
      checkResponse('POST', '/users/me/subscriptions', respond(400, { result: 'error', msg: "Bad value for 'x': -3", code: 'REQUEST_VARIABLE_INVALID', var_name: 'x', bad_value: -3 }));
    });

    it('takes fractional retry-after and the BAD_NARROW desc field', () => {
      checkResponse('GET', '/messages', respond(429, { result: 'error', msg: 'API usage exceeded rate limit', code: 'RATE_LIMIT_HIT', 'retry-after': 2.5 }));
      checkResponse('GET', '/messages', respond(400, { result: 'error', msg: 'Invalid narrow operator: unknown operator', code: 'BAD_NARROW', desc: 'unknown operator' }));
    });
  });
});

describe('mergeSchemas', () => {
  it('unites the fields of allOf parts and keeps additionalProperties: false', () => {
    const merged = mergeSchemas(
      { type: 'object', required: ['a'], properties: { a: { type: 'string' } } },
      { additionalProperties: false, required: ['b'], properties: { a: {}, b: { type: 'integer' } } },
    );
    assert.deepEqual(merged, {
      type: 'object',
      required: ['a', 'b'],
      properties: { a: { type: 'string' }, b: { type: 'integer' } },
      additionalProperties: false,
    });
  });

  it('narrows enums and lets nullable from either part through', () => {
    assert.deepEqual(mergeSchemas({ type: 'string', enum: ['x', 'y'] }, { enum: ['y'], nullable: true }), {
      type: 'string',
      enum: ['y'],
      nullable: true,
    });
  });

  it('keeps conflicting keywords as a strict allOf', () => {
    assert.deepEqual(mergeSchemas({ type: 'string' }, { type: 'integer' }), { type: 'string', allOf: [{ type: 'integer' }] });
  });
});

describe('the reference document the repository carries', () => {
  const root = fileURLToPath(new URL('../../', import.meta.url));

  it('is read from the repository by default, and stays under 1 MB', () => {
    assert.equal(relative(root, BUNDLED_REFERENCE_PATH), 'test/support/reference/zulip-openapi.json');
    assert.ok(statSync(BUNDLED_REFERENCE_PATH).size < 1024 * 1024, `${statSync(BUNDLED_REFERENCE_PATH).size} bytes`);
    if (!process.env.CONFAB_OPENAPI_YAML) {
      assert.deepEqual(readReference(), JSON.parse(readFileSync(BUNDLED_REFERENCE_PATH, 'utf8')));
    }
  });

  it('notes its source and license beside it', () => {
    const notice = readFileSync(`${dirname(BUNDLED_REFERENCE_PATH)}/README.md`, 'utf8');
    for (const fragment of ['zerver/openapi/zulip.yaml', '10.2', 'Apache-2.0', 'Kandra Labs']) {
      assert.ok(notice.includes(fragment), `"${fragment}" not in the notice`);
    }
  });

  it('keeps the schema descriptions that say when a register key is present and since when it exists', () => {
    const doc = JSON.parse(readFileSync(BUNDLED_REFERENCE_PATH, 'utf8'));
    const register = doc.paths['/register'].post.responses['200'].content['application/json'].schema;
    const own = register.allOf.find((part: { properties?: object }) => part.properties);
    assert.match(own.properties.realm_playgrounds.description, /^Present if `realm_playgrounds` is present in `fetch_event_types`\./);
    assert.match(own.properties.realm_playgrounds.description, /New in Zulip 4\.0 \(feature level 49\)/);
    const texts = JSON.stringify(doc.paths['/events'].get.responses['200']);
    assert.ok(texts.includes('New in Zulip'), 'event schemas keep their descriptions');
  });

  it('drops what no check reads: examples, request bodies and operation prose', () => {
    const doc = JSON.parse(readFileSync(BUNDLED_REFERENCE_PATH, 'utf8'));
    const operation = doc.paths['/fetch_api_key'].post;
    assert.deepEqual(Object.keys(operation), ['operationId', 'responses']);
    assert.equal(JSON.stringify(doc).includes('"example":'), false);
    assert.equal(referenceOperationId('POST', '/fetch_api_key'), 'fetch-api-key');
  });
});
