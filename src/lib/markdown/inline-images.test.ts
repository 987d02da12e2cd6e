import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { INLINE_PREVIEW_LIMIT } from './inline-images.js';
import { renderMarkdown, type RenderContext } from './index.js';

// Uploads ending in .png have previews here; anything else is an upload without one.
const context: RenderContext = {
  uploadedImage: (path) => (path.endsWith('.png') ? { src: `/thumb/${path}` } : undefined),
};
const A = '/user_uploads/2/ab/x/a.png';
const B = '/user_uploads/2/cd/y/b.png';
const preview = (href: string, title: string | null, src = `/thumb/${href.replace(/^\/?user_uploads\//, '')}`) =>
  `<div class="message_inline_image"><a href="${href}"${title === null ? '' : ` title="${title}"`}><img src="${src}"></a></div>`;

describe('inline previews of uploaded images', () => {
  it('follows the paragraph that links the image, titled with the link text', () => {
    assert.equal(renderMarkdown(`[a.png](${A})`, context).html, `<p><a href="${A}">a.png</a></p>\n${preview(A, 'a.png')}`);
  });

  it('keeps the order of several images, before the next paragraph', () => {
    assert.equal(
      renderMarkdown(`see [a.png](${A}) and [b.png](${B})\n\nnext`, context).html,
      `<p>see <a href="${A}">a.png</a> and <a href="${B}">b.png</a></p>\n${preview(A, 'a.png')}${preview(B, 'b.png')}<p>next</p>`,
    );
  });

  it('replaces a paragraph holding only a bare link, without a title', () => {
    assert.equal(renderMarkdown(`[${A}](${A})`, context).html, preview(A, null));
  });

  it("closes a tight list's item, after its nested list", () => {
    assert.equal(
      renderMarkdown(`- [a.png](${A})\n  - sub\n- two`, context).html,
      `<ul>\n<li><a href="${A}">a.png</a>\n<ul>\n<li>sub</li>\n</ul>\n${preview(A, 'a.png')}</li>\n<li>two</li>\n</ul>`,
    );
  });

  it('goes to the end of the message for links inside emphasis', () => {
    assert.equal(
      renderMarkdown(`**[a.png](${A})** after\n\npara`, context).html,
      `<p><strong><a href="${A}">a.png</a></strong> after</p>\n<p>para</p>\n${preview(A, 'a.png')}`,
    );
  });

  it('previews each image once, and nothing in quotes', () => {
    assert.equal(
      renderMarkdown(`[one](${A}) [two](${A})`, context).html,
      `<p><a href="${A}">one</a> <a href="${A}">two</a></p>\n${preview(A, 'one')}`,
    );
    assert.equal(renderMarkdown(`> [a.png](${A})`, context).html, `<blockquote>\n<p><a href="${A}">a.png</a></p>\n</blockquote>`);
  });

  it('leaves uploads without a preview, other links and renders without previews as links', () => {
    const txt = '/user_uploads/2/ab/x/a.txt';
    assert.equal(renderMarkdown(`[a.txt](${txt})`, context).html, `<p><a href="${txt}">a.txt</a></p>`);
    assert.equal(renderMarkdown('[a.png](https://example.com/a.png)', context).html, '<p><a href="https://example.com/a.png">a.png</a></p>');
    assert.equal(renderMarkdown(`[a.png](${A})`).html, `<p><a href="${A}">a.png</a></p>`);
  });

  it('looks uploads up by their decoded path and escapes what it writes', () => {
    const seen: string[] = [];
    const html = renderMarkdown(`[it's "<b>"](/user_uploads/2/ab/x/%C3%A4%20b.png)`, {
      uploadedImage: (path) => {
        seen.push(path);
        return { src: '/thumb/x"y.webp' };
      },
    }).html;
    assert.deepEqual(seen, ['2/ab/x/ä b.png']);
    assert.equal(
      html,
      '<p><a href="/user_uploads/2/ab/x/%C3%A4%20b.png">it\'s "&lt;b&gt;"</a></p>\n' +
        '<div class="message_inline_image"><a href="/user_uploads/2/ab/x/%C3%A4%20b.png" title="it\'s &quot;&lt;b&gt;&quot;"><img src="/thumb/x&quot;y.webp"></a></div>',
    );
  });

  it(`previews nothing in a message with more than ${INLINE_PREVIEW_LIMIT} distinct links`, () => {
    const links = (n: number) => Array.from({ length: n }, (_, i) => `[i${i}](/user_uploads/2/ab/${i}/i.png)`).join(' ');
    assert.equal((renderMarkdown(links(INLINE_PREVIEW_LIMIT), context).html.match(/message_inline_image/g) ?? []).length, INLINE_PREVIEW_LIMIT);
    assert.doesNotMatch(renderMarkdown(links(INLINE_PREVIEW_LIMIT + 1), context).html, /message_inline_image/);
  });

  it('marks the message as having an image', () => {
    assert.equal(renderMarkdown(`[a](${A.replace('.png', '.jpg')})`, context).hasImage, true); // by its extension
    assert.equal(renderMarkdown(`[a](/user_uploads/2/ab/x/noext)`, { uploadedImage: () => ({ src: '/t' }) }).hasImage, true);
  });
});
