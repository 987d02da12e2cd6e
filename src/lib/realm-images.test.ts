// URLs and register fields of the organization's images, and the drawn default icon.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defaultIconPattern } from './realm-icon-image.js';
import { DEFAULT_REALM_IMAGES, realmEmojiDict, realmImageEventData, realmImageState } from './realm-images.js';

const realm = { id: 7, url: 'https://chat.example.com/', ...DEFAULT_REALM_IMAGES };

describe('organization images', () => {
  it('start with the local default icon and no logos', () => {
    assert.deepEqual(realmImageState(realm), {
      realm_icon_url: 'https://chat.example.com/user_avatars/7/realm/default_icon.png?version=1',
      realm_icon_source: 'G',
      realm_logo_url: '',
      realm_logo_source: 'D',
      realm_night_logo_url: '',
      realm_night_logo_source: 'D',
    });
  });

  it('name uploaded images by version, in state and events alike', () => {
    const changed = { ...realm, icon_source: 'U', icon_version: 4, night_logo_source: 'U', night_logo_version: 2 };
    assert.deepEqual(realmImageEventData(changed, 'icon'), { icon_url: 'https://chat.example.com/user_avatars/7/realm/icon.png?version=4', icon_source: 'U' });
    assert.deepEqual(realmImageEventData(changed, 'night_logo'), {
      night_logo_url: 'https://chat.example.com/user_avatars/7/realm/night_logo.png?version=2',
      night_logo_source: 'U',
    });
    assert.deepEqual(realmImageEventData(changed, 'logo'), { logo_url: '', logo_source: 'D' });
  });

  it('give emoji the reference dict, with a still URL only for animated ones', () => {
    const row = { id: 3, realm_id: 7, author_id: null, name: 'spin', file_name: '0123456789abcdef.gif', still_file_name: '0123456789abcdef.png', deactivated: 1, date_created: 0 };
    assert.deepEqual(realmEmojiDict(row), {
      id: '3',
      name: 'spin',
      source_url: '/user_avatars/7/emoji/images/0123456789abcdef.gif',
      still_url: '/user_avatars/7/emoji/images/still/0123456789abcdef.png',
      deactivated: true,
      author_id: null,
    });
  });

  it('draw a default icon that is symmetric and differs between organizations', () => {
    const a = defaultIconPattern('realm-1');
    for (const row of a.filled) assert.deepEqual(row, [...row].reverse());
    assert.notDeepEqual(a, defaultIconPattern('realm-2'));
    assert.deepEqual(a, defaultIconPattern('realm-1'));
  });
});
