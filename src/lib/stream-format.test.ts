import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { StreamRow } from '../types/rows.js';
import { byStreamName, streamDict, subscriptionDict } from './stream-format.js';

const stream: StreamRow = {
  id: 7,
  realm_id: 1,
  name: 'Denmark',
  description: 'A **Scandinavian** country',
  rendered_description: '<p>A <strong>Scandinavian</strong> country</p>',
  invite_only: 1,
  is_web_public: 0,
  history_public_to_subscribers: 0,
  stream_post_policy: 2,
  message_retention_days: 30,
  can_remove_subscribers_group_id: 11,
  date_created: 1700000000,
  deactivated: 0,
  recipient_id: 20,
  first_message_id: 5,
  creator_id: null,
};

describe('stream dictionaries', () => {
  it('turns a row into the Stream object of the era', () => {
    assert.deepEqual(streamDict(stream), {
      stream_id: 7,
      name: 'Denmark',
      description: 'A **Scandinavian** country',
      rendered_description: '<p>A <strong>Scandinavian</strong> country</p>',
      date_created: 1700000000,
      creator_id: null,
      invite_only: true,
      is_web_public: false,
      history_public_to_subscribers: false,
      first_message_id: 5,
      message_retention_days: 30,
      stream_post_policy: 2,
      is_announcement_only: true,
      can_remove_subscribers_group: 11,
      stream_weekly_traffic: null,
    });
  });

  it('adds the personal settings, and sorted subscribers when given', () => {
    const sub = {
      color: '#76ce90',
      is_muted: 1,
      pin_to_top: 0,
      desktop_notifications: null,
      audible_notifications: 0,
      push_notifications: 1,
      email_notifications: null,
      wildcard_mentions_notify: null,
    };
    const dict = subscriptionDict(stream, sub, [9, 3, 5]);
    assert.equal(dict.is_muted, true);
    assert.equal(dict.in_home_view, false);
    assert.equal(dict.pin_to_top, false);
    assert.equal(dict.desktop_notifications, null);
    assert.equal(dict.audible_notifications, false);
    assert.equal(dict.push_notifications, true);
    assert.deepEqual(dict.subscribers, [3, 5, 9]);
    assert.equal('subscribers' in subscriptionDict(stream, sub), false);
  });

  it('orders by name the way the reference does (code points, case first)', () => {
    const names = ['beta', 'Zeta', 'alpha', 'Alpha'].map((name) => ({ name }));
    assert.deepEqual(names.sort(byStreamName).map((s) => s.name), ['Alpha', 'Zeta', 'alpha', 'beta']);
  });
});
