// :name: emoji, Unicode emoji and emoticons in Markdown, by Zulip's emoji table.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { renderMarkdown } from './index.js';

const emoji = (name: string, code: string) => {
  const label = name.replace(/_/g, ' ');
  return `<span aria-label="${label}" class="emoji emoji-${code}" role="img" title="${label}">:${name}:</span>`;
};
const html = (source: string, translateEmoticons = false) => renderMarkdown(source, { translateEmoticons }).html;

describe('emoji in Markdown', () => {
  it("renders every name of an emoji, aliases included, by Zulip's table", () => {
    assert.equal(html(':+1: :thumbs_up: :like:'), `<p>${emoji('+1', '1f44d')} ${emoji('thumbs_up', '1f44d')} ${emoji('like', '1f44d')}</p>`);
    assert.equal(html(':smile: :big_smile:'), `<p>${emoji('smile', '1f642')} ${emoji('big_smile', '1f604')}</p>`);
    assert.equal(html(':flag_åland_islands:'), `<p>${emoji('flag_åland_islands', '1f1e6-1f1fd')}</p>`);
    assert.equal(html(':jack-o-lantern:'), `<p>${emoji('jack-o-lantern', '1f383')}</p>`);
  });

  it("leaves names only emoji-datasource knows as text", () => {
    assert.equal(html(':thumbsup: :smiley_face: :flag-us:'), '<p>:thumbsup: :smiley_face: :flag-us:</p>');
  });

  it('names a Unicode emoji by its canonical name', () => {
    assert.equal(html('👍 😄 🙂'), `<p>${emoji('+1', '1f44d')} ${emoji('big_smile', '1f604')} ${emoji('smile', '1f642')}</p>`);
    assert.equal(html('🏃‍♀️'), `<p>${emoji('woman_running', '1f3c3-200d-2640')}</p>`);
  });

  it('turns emoticons into emoji only when the sender asks', () => {
    assert.equal(html('hi :) <3'), '<p>hi :) &lt;3</p>');
    assert.equal(html('hi :) <3', true), `<p>hi ${emoji('smile', '1f642')} ${emoji('heart', '2764')}</p>`);
    assert.equal(
      html(':( :| :/ ;) :D :o :O :p :P (:', true),
      `<p>${[
        emoji('frown', '1f641'),
        emoji('neutral', '1f610'),
        emoji('confused', '1f615'),
        emoji('wink', '1f609'),
        emoji('grinning', '1f600'),
        emoji('open_mouth', '1f62e'),
        emoji('open_mouth', '1f62e'),
        emoji('stuck_out_tongue', '1f61b'),
        emoji('stuck_out_tongue', '1f61b'),
        emoji('smile', '1f642'),
      ].join(' ')}</p>`,
    );
  });

  it('takes an emoticon only standing alone, never inside words, URLs, code or links', () => {
    assert.equal(html('a:) :)b http://x.org/:p', true), '<p>a:) :)b <a href="http://x.org/:p">http://x.org/:p</a></p>');
    assert.equal(html('3:)4 x<3', true), '<p>3:)4 x&lt;3</p>');
    assert.equal(html('ok, :D!', true), `<p>ok, ${emoji('grinning', '1f600')}!</p>`);
    assert.equal(html('`:)` and\n```\n:)\n```', true), '<p><code>:)</code> and</p>\n<div class="codehilite"><pre><span></span><code>:)\n</code></pre></div>');
    assert.equal(html('[see :)](https://example.com)', true), '<p><a href="https://example.com">see :)</a></p>');
  });
});

describe('custom emoji in Markdown', () => {
  const lookupRealmEmoji = (name: string) => ({ party: '/user_avatars/2/emoji/images/0123456789abcdef.png', smile: '/x/smile.gif' })[name];
  const custom = (source: string) => renderMarkdown(source, { lookupRealmEmoji }).html;

  it("renders the reference's image, titled with spaces for underscores", () => {
    assert.equal(custom(':party:'), '<p><img alt=":party:" class="emoji" src="/user_avatars/2/emoji/images/0123456789abcdef.png" title="party"></p>');
    assert.equal(custom(':smile:'), '<p><img alt=":smile:" class="emoji" src="/x/smile.gif" title="smile"></p>');
  });

  it('leaves names it does not know to the built-in table', () => {
    assert.equal(custom(':like: :no_such_thing:'), `<p>${emoji('like', '1f44d')} :no_such_thing:</p>`);
  });
});
