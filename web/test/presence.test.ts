// People's presence, status and order in the people list, and their events folded into the model.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyEvent, fromRegister } from '../src/model.js';
import { peopleRows, presenceState, statusEmoji } from '../src/presence.js';

const NOW = 1_800_000_000;

function model() {
  return fromRegister({
    user_id: 1,
    full_name: 'Zed Self',
    email: 'zed@x.test',
    realm_icon_url: 'https://icon.test/r.png',
    realm_users: [
      { user_id: 1, full_name: 'Zed Self', email: 'zed@x.test', avatar_url: '/a/1.png', is_bot: false, date_joined: '2026-01-01T00:00:00+00:00' },
      { user_id: 2, full_name: 'Bea Idle', email: 'bea@x.test', avatar_url: null, is_bot: false, date_joined: '2026-01-01T00:00:00+00:00' },
      { user_id: 3, full_name: 'Cal Active', email: 'cal@x.test', is_bot: false, date_joined: '2026-01-01T00:00:00+00:00' },
      { user_id: 4, full_name: 'Abe Away', email: 'abe@x.test', is_bot: false, date_joined: '2026-01-01T00:00:00+00:00' },
      { user_id: 5, full_name: 'Bot', email: 'bot@x.test', is_bot: true, date_joined: '2026-01-01T00:00:00+00:00' },
    ],
    presences: {
      '2': { active_timestamp: NOW - 600, idle_timestamp: NOW - 30 },
      '3': { active_timestamp: NOW - 100, idle_timestamp: NOW - 100 },
      '4': { active_timestamp: NOW - 3600, idle_timestamp: NOW - 3600 },
    },
    user_status: { '3': { status_text: 'In a meeting', emoji_name: 'calendar', emoji_code: '1f4c5', reaction_type: 'unicode_emoji' } },
  });
}

describe('presence', () => {
  it('is active, idle or offline by the 140-second threshold', () => {
    assert.equal(presenceState({ active_timestamp: NOW - 140, idle_timestamp: NOW - 140 }, NOW), 'active');
    assert.equal(presenceState({ active_timestamp: NOW - 141, idle_timestamp: NOW - 10 }, NOW), 'idle');
    assert.equal(presenceState({ active_timestamp: NOW - 141, idle_timestamp: NOW - 141 }, NOW), 'offline');
    assert.equal(presenceState(undefined, NOW), 'offline');
  });

  it('lists oneself first, then active, idle and offline people by name, without bots', () => {
    const rows = peopleRows(model(), NOW);
    assert.deepEqual(
      rows.map((r) => [r.person.full_name, r.presence]),
      [['Zed Self', 'offline'], ['Cal Active', 'active'], ['Bea Idle', 'idle'], ['Abe Away', 'offline']],
    );
    assert.equal(rows[1]!.status?.status_text, 'In a meeting');
    assert.equal(statusEmoji(rows[1]!.status), '📅');
    assert.equal(statusEmoji({ emoji_code: '1f469-200d-1f4bb', emoji_name: 'technologist' }), '👩‍💻');
    assert.equal(statusEmoji({ emoji_code: 'zulip', emoji_name: 'zulip', reaction_type: 'zulip_extra_emoji' }), '');
  });

  it('folds presence events: active sets both times, idle only the connection', () => {
    const m = model();
    applyEvent(m, { id: 1, type: 'presence', user_id: 4, email: 'abe@x.test', server_timestamp: NOW, presence: { website: { client: 'website', status: 'idle', timestamp: NOW, pushable: false } } });
    assert.deepEqual(m.presences.get(4), { active_timestamp: NOW - 3600, idle_timestamp: NOW });
    applyEvent(m, { id: 2, type: 'presence', user_id: 4, email: 'abe@x.test', server_timestamp: NOW, presence: { website: { client: 'website', status: 'active', timestamp: NOW + 5, pushable: false } } });
    assert.deepEqual(m.presences.get(4), { active_timestamp: NOW + 5, idle_timestamp: NOW + 5 });
    // Someone never active before counts as active when they joined.
    applyEvent(m, { id: 3, type: 'presence', user_id: 1, email: 'zed@x.test', server_timestamp: NOW, presence: { website: { client: 'website', status: 'idle', timestamp: NOW, pushable: false } } });
    assert.deepEqual(m.presences.get(1), { active_timestamp: Date.parse('2026-01-01T00:00:00Z') / 1000, idle_timestamp: NOW });
  });

  it('folds user_status events, dropping a status emptied', () => {
    const m = model();
    applyEvent(m, { id: 1, type: 'user_status', user_id: 2, status_text: 'Lunch', emoji_name: 'taco', emoji_code: '1f32e', reaction_type: 'unicode_emoji' });
    assert.deepEqual(m.userStatus.get(2), { status_text: 'Lunch', emoji_name: 'taco', emoji_code: '1f32e', reaction_type: 'unicode_emoji' });
    applyEvent(m, { id: 2, type: 'user_status', user_id: 3, status_text: '', emoji_name: '', emoji_code: '', reaction_type: 'unicode_emoji' });
    assert.equal(m.userStatus.has(3), false);
    applyEvent(m, { id: 3, type: 'user_status', user_id: 2, away: true });
    assert.equal(m.userStatus.get(2)?.away, true);
  });

  it('keeps avatars and the realm icon, and their changes', () => {
    const m = model();
    assert.equal(m.realmIcon, 'https://icon.test/r.png');
    assert.equal(m.people.get(1)?.avatar_url, '/a/1.png');
    applyEvent(m, { id: 1, type: 'realm_user', op: 'update', person: { user_id: 1, avatar_url: '/a/1.png?v=2' } });
    assert.equal(m.people.get(1)?.avatar_url, '/a/1.png?v=2');
    applyEvent(m, { id: 2, type: 'realm', op: 'update_dict', property: 'icon', data: { icon_url: '/icon.png?v=3', icon_source: 'U' } });
    assert.equal(m.realmIcon, '/icon.png?v=3');
    applyEvent(m, { id: 3, type: 'realm_user', op: 'update', person: { user_id: 3, is_active: false } });
    assert.equal(m.people.has(3), false);
    assert.equal(m.userStatus.has(3), false);
  });
});
