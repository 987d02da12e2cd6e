// What Zulip's own clients do at start-up and all day, through the real zulip-js client against a
// real server: register every state area, ping presence, set a status, mention a group, fill in
// a profile field, schedule a message, list a stream's topics.
// zulip-js posts multipart forms, whose values must be strings, so booleans go as 'true'/'false'.
// The same session runs against one process and against three behind nginx (support/e2e-targets.ts).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import zulip, { type Client } from 'zulip-js';
import { DEV_PASSWORD } from '../../src/dev-seed.js';
import { E2E_TARGETS, type E2eServer, eventsUntil } from '../support/e2e-targets.js';

/** The keys the terminal and mobile clients read from register before they draw anything. */
const START_UP_KEYS = [
  'presences', 'server_timestamp', 'server_presence_ping_interval_seconds', 'server_presence_offline_threshold_seconds',
  'realm_user_groups', 'realm_emoji', 'custom_profile_fields', 'custom_profile_field_types', 'user_status',
  'realm_default_external_accounts', 'max_file_upload_size_mib', 'server_emoji_data_url', 'realm_non_active_users',
  'cross_realm_bots', 'realm_users', 'subscriptions', 'unread_msgs', 'muted_topics', 'user_topics', 'realm_bots',
  'realm_incoming_webhook_bots', 'recent_private_conversations', 'starred_messages', 'drafts', 'user_settings',
];

for (const target of E2E_TARGETS) describe(`zulip-js: an everyday session: ${target.name}`, { skip: target.skip }, () => {
  let server: E2eServer;
  let mark: Client;
  let mona: Client;
  let olivia: Client;
  let markId: number;
  let monaId: number;

  before(async () => {
    server = await target.start('e2e-everyday');
    mark = await zulip({ realm: server.url, username: 'mark@confab.test', password: DEV_PASSWORD });
    mona = await zulip({ realm: server.url, username: 'mona@confab.test', password: DEV_PASSWORD });
    olivia = await zulip({ realm: server.url, username: 'olivia@confab.test', password: DEV_PASSWORD });
    markId = (await mark.users.me.getProfile()).user_id;
    monaId = (await mona.users.me.getProfile()).user_id;
  });

  after(() => server?.stop());

  it('registers with every state area, as the terminal and mobile clients do', async () => {
    const state = await mona.queues.register({ apply_markdown: 'true', client_gravatar: 'true', slim_presence: 'true' });
    assert.equal(state.result, 'success', JSON.stringify(state).slice(0, 300));
    const missing = START_UP_KEYS.filter((key) => !(key in state));
    assert.deepEqual(missing, []);
    assert.equal(state.zulip_feature_level, 229);
    assert.equal(state.server_presence_ping_interval_seconds, 60);
    assert.ok(Array.isArray(state.realm_user_groups) && state.realm_user_groups.length > 0);
    assert.deepEqual(state.realm_emoji, {});
    await mona.queues.deregister({ queue_id: state.queue_id });
  });

  it('pings presence and sees the other person active', async () => {
    const ping = await mark.callEndpoint('/users/me/presence', 'POST', { status: 'active', new_user_input: 'true', slim_presence: 'true' });
    assert.equal(ping.result, 'success', JSON.stringify(ping));
    const monaPing = await mona.callEndpoint('/users/me/presence', 'POST', { status: 'active', slim_presence: 'true' });
    assert.equal(monaPing.result, 'success', JSON.stringify(monaPing));
    assert.equal(monaPing.presences[String(markId)].active_timestamp > 0, true);
    const one = await mona.callEndpoint('/users/mark@confab.test/presence', 'GET');
    assert.equal(one.result, 'success', JSON.stringify(one));
    assert.equal(one.presence.aggregated.status, 'active');
  });

  it('sets a status that another person hears about and reads back', async () => {
    const queue = await mona.queues.register({ event_types: ['user_status'] });
    const set = await mark.callEndpoint('/users/me/status', 'POST', {
      status_text: 'In a meeting', away: 'false', emoji_name: 'calendar', emoji_code: '1f4c5', reaction_type: 'unicode_emoji',
    });
    assert.equal(set.result, 'success', JSON.stringify(set));
    const events = await eventsUntil(mona, queue, (received) => received.some((e) => e.type === 'user_status'));
    const event = events.find((e) => e.type === 'user_status')!;
    assert.equal(event.user_id, markId);
    assert.equal(event.status_text, 'In a meeting');
    const read = await mona.callEndpoint(`/users/${markId}/status`, 'GET');
    assert.equal(read.result, 'success', JSON.stringify(read));
    assert.deepEqual(read.status, { status_text: 'In a meeting', emoji_name: 'calendar', emoji_code: '1f4c5', reaction_type: 'unicode_emoji' });
  });

  it("lists a stream's topics newest first, with the stream found by name", async () => {
    const found = await mona.streams.getStreamId('general');
    assert.equal(found.result, 'success', JSON.stringify(found));
    await mark.messages.send({ type: 'stream', to: 'general', topic: 'older topic', content: 'first' });
    const newer = await mark.messages.send({ type: 'stream', to: 'general', topic: 'newer topic', content: 'second' });
    const topics = await mona.streams.topics.retrieve({ stream_id: found.stream_id });
    assert.equal(topics.result, 'success', JSON.stringify(topics));
    assert.deepEqual(topics.topics.slice(0, 2), [
      { name: 'newer topic', max_id: newer.id },
      { name: 'older topic', max_id: newer.id - 1 },
    ]);
  });

  it("mentions a group, and its members find the message among their mentions", async () => {
    const created = await olivia.callEndpoint('/user_groups/create', 'POST', {
      name: 'support', description: 'First line', members: JSON.stringify([monaId]),
    });
    assert.equal(created.result, 'success', JSON.stringify(created));
    const sent = await mark.messages.send({ type: 'stream', to: 'general', topic: 'help', content: 'Paging @*support*' });
    assert.equal(sent.result, 'success', JSON.stringify(sent));
    const found = await mona.messages.retrieve({ anchor: 'newest', num_before: 5, num_after: 0, narrow: [{ operator: 'is', operand: 'mentioned' }] });
    assert.equal(found.result, 'success', JSON.stringify(found));
    const message = found.messages.find((m: { id: number }) => m.id === sent.id);
    assert.ok(message, 'the group mention reaches its member');
    assert.match(message.content, /<span class="user-group-mention" data-user-group-id="\d+">@support<\/span>/);
    assert.ok(message.flags.includes('mentioned'));
  });

  it('fills in a custom profile field that others read', async () => {
    const field = await olivia.callEndpoint('/realm/profile_fields', 'POST', { name: 'Team', hint: 'Where you work', field_type: '1' });
    assert.equal(field.result, 'success', JSON.stringify(field));
    const filled = await mark.callEndpoint('/users/me/profile_data', 'PATCH', { data: JSON.stringify([{ id: field.id, value: 'Chat' }]) });
    assert.equal(filled.result, 'success', JSON.stringify(filled));
    const read = await mona.callEndpoint(`/users/${markId}`, 'GET', { include_custom_profile_fields: 'true' });
    assert.equal(read.result, 'success', JSON.stringify(read));
    assert.equal(read.user.profile_data[String(field.id)].value, 'Chat');
  });

  it('schedules a message and lists it', async () => {
    const at = Math.floor(Date.now() / 1000) + 3600;
    const scheduled = await mark.callEndpoint('/scheduled_messages', 'POST', {
      type: 'direct', to: JSON.stringify([monaId]), content: 'Tomorrow', scheduled_delivery_timestamp: String(at),
    });
    assert.equal(scheduled.result, 'success', JSON.stringify(scheduled));
    const list = await mark.callEndpoint('/scheduled_messages', 'GET');
    assert.deepEqual(list.scheduled_messages.map((m: { scheduled_message_id: number; to: number[] }) => [m.scheduled_message_id, m.to]), [
      [scheduled.scheduled_message_id, [monaId]],
    ]);
  });
});
