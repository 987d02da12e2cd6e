import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError } from '../errors.js';
import {
  checkRemoveSubscribersGroup,
  parseRetentionDays,
  passesWebPublicPolicy,
  proposedPermissions,
  requestedPostPolicy,
  streamUpdateEvent,
} from './stream-update-rules.js';

const publicStream = { invite_only: 0, is_web_public: 0, history_public_to_subscribers: 1 };
const privateStream = { invite_only: 1, is_web_public: 0, history_public_to_subscribers: 0 };
const fails = (work: () => unknown, msg: string) => assert.throws(work, (e: unknown) => e instanceof ApiError && e.message === msg);

describe('proposedPermissions', () => {
  it('hides history when a stream goes private and shares it when it goes public, unless told', () => {
    assert.deepEqual(proposedPermissions(publicStream, { isPrivate: true, isDefault: false }), {
      inviteOnly: true, isWebPublic: false, historyPublicToSubscribers: false,
    });
    assert.deepEqual(proposedPermissions(publicStream, { isPrivate: true, historyPublicToSubscribers: true, isDefault: false }), {
      inviteOnly: true, isWebPublic: false, historyPublicToSubscribers: true,
    });
    assert.deepEqual(proposedPermissions(privateStream, { isPrivate: false, isDefault: false }), {
      inviteOnly: false, isWebPublic: false, historyPublicToSubscribers: true,
    });
    assert.deepEqual(proposedPermissions(privateStream, { isDefault: false }), {
      inviteOnly: true, isWebPublic: false, historyPublicToSubscribers: false,
    });
  });

  it('refuses combinations no stream may have', () => {
    fails(() => proposedPermissions(publicStream, { historyPublicToSubscribers: false, isDefault: false }), 'Invalid parameters');
    fails(() => proposedPermissions(privateStream, { isWebPublic: true, isDefault: false }), 'Invalid parameters');
    fails(() => proposedPermissions(publicStream, { isWebPublic: true, historyPublicToSubscribers: false, isDefault: false }), 'Invalid parameters');
    fails(() => proposedPermissions(publicStream, { isPrivate: true, isDefault: true }), 'A default channel cannot be private.');
    fails(() => proposedPermissions(privateStream, { isDefault: true }), 'A default channel cannot be private.');
  });
});

describe('parseRetentionDays', () => {
  it('reads positive days and the special values, as JSON or bare words', () => {
    assert.equal(parseRetentionDays('30'), 30);
    assert.equal(parseRetentionDays('unlimited'), -1);
    assert.equal(parseRetentionDays('"unlimited"'), -1);
    assert.equal(parseRetentionDays('forever'), -1);
    assert.equal(parseRetentionDays('realm_default'), null);
  });

  it('refuses anything else with the reference wording', () => {
    for (const [raw, shown] of [['0', '0'], ['-5', '-5'], ['1.5', '1.5'], ['soon', 'soon'], ['2147483648', '2147483648']]) {
      fails(() => parseRetentionDays(raw!), `Bad value for 'message_retention_days': ${shown}`);
    }
    fails(() => parseRetentionDays('null'), 'message_retention_days is not a string or an integer');
    fails(() => parseRetentionDays('toString'), "Bad value for 'message_retention_days': toString");
  });
});

describe('web-public policy, removal group, posting policy, events', () => {
  it('follows create_web_public_stream_policy', () => {
    assert.deepEqual([100, 200, 300, 400].map((role) => passesWebPublicPolicy({ role }, 7)), [true, false, false, false]);
    assert.deepEqual([100, 200, 300, 400].map((role) => passesWebPublicPolicy({ role }, 2)), [true, true, false, false]);
    assert.deepEqual([100, 200, 300, 400].map((role) => passesWebPublicPolicy({ role }, 4)), [true, true, true, false]);
    assert.equal(passesWebPublicPolicy({ role: 100 }, 6), false);
  });

  it('takes system groups other than role:internet and role:owners', () => {
    checkRemoveSubscribersGroup({ name: 'role:members', is_system_group: 1 });
    fails(() => checkRemoveSubscribersGroup(undefined), 'Invalid user group');
    fails(() => checkRemoveSubscribersGroup({ name: 'team', is_system_group: 0 }), "'can_remove_subscribers_group' must be a system user group.");
    fails(
      () => checkRemoveSubscribersGroup({ name: 'role:owners', is_system_group: 1 }),
      "'can_remove_subscribers_group' setting cannot be set to 'role:owners' group.",
    );
  });

  it('lets is_announcement_only decide the posting policy when sent', () => {
    assert.equal(requestedPostPolicy(4, undefined), 4);
    assert.equal(requestedPostPolicy(4, true), 2);
    assert.equal(requestedPostPolicy(undefined, false), 1);
    assert.equal(requestedPostPolicy(undefined, undefined), undefined);
  });

  it('builds update events', () => {
    assert.deepEqual(streamUpdateEvent({ id: 3, name: 'old' }, 'name', 'new'), {
      type: 'stream', op: 'update', property: 'name', value: 'new', stream_id: 3, name: 'old',
    });
  });
});
