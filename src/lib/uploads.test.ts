import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { contentDisposition, displayName, linkedUploadPaths, parseRange, storedContentType, storedName } from './uploads.js';

const PNG_HEAD = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]);

describe('upload rules', () => {
  it('stores names safe for disks, S3 and URLs', () => {
    assert.equal(storedName('My photo (1).PNG'), 'My-photo-1.PNG');
    assert.equal(storedName('../../etc/passwd'), 'passwd');
    assert.equal(storedName('a\\b\\c.txt'), 'c.txt');
    assert.equal(storedName('..'), 'uploaded-file');
    assert.equal(storedName('***'), 'uploaded-file');
    assert.equal(storedName('\u0000\u0007.'), 'uploaded-file');
    assert.equal(storedName('Ünïcödé файл.txt'), 'Ünïcödé-файл.txt');
    const long = storedName(`${'ж'.repeat(300)}.tar`);
    assert.ok(Buffer.byteLength(long) <= 200);
    assert.ok(long.endsWith('.tar'));
  });

  it('keeps the display name readable but bounded and free of control characters', () => {
    assert.equal(displayName('dir/report\u0000\r\n.pdf'), 'report.pdf');
    const long = displayName(`${'b'.repeat(1000)}.txt`);
    assert.equal([...long].length, 255);
    assert.ok(long.endsWith('.txt'));
  });

  it('shows inline only what the content confirms', () => {
    assert.equal(storedContentType('image/png', 'a.png', PNG_HEAD), 'image/png');
    assert.equal(storedContentType('image/png', 'a.png', Buffer.from('<html>')), 'application/octet-stream');
    assert.equal(storedContentType(undefined, 'a.png', Buffer.from('<svg>')), 'application/octet-stream');
    assert.equal(storedContentType('application/pdf', 'a.pdf', Buffer.from('%PDF-1.7')), 'application/pdf');
    assert.equal(storedContentType('video/mp4', 'a.mp4', Buffer.from('  <html>')), 'application/octet-stream');
    assert.equal(storedContentType('text/plain', 'page.html', Buffer.from('<p>')), 'text/html');
    assert.equal(storedContentType('text/plain', 'notes', Buffer.from('<p>')), 'text/plain');
    assert.equal(storedContentType('application/octet-stream', 'x.zip', Buffer.from('PK')), 'application/zip');
    assert.equal(storedContentType('not a type', 'x', Buffer.from('')), 'application/octet-stream');
  });

  it('writes Content-Disposition as RFC 6266 wants', () => {
    assert.equal(contentDisposition(true, 'a "b".png'), 'inline; filename="a \\"b\\".png"');
    assert.equal(contentDisposition(false, 'файл.txt'), "attachment; filename*=utf-8''%D1%84%D0%B0%D0%B9%D0%BB.txt");
    assert.equal(contentDisposition(false, "it's.txt"), 'attachment; filename="it\'s.txt"');
  });

  it('parses one byte range, and leaves odd ones to a full answer', () => {
    assert.deepEqual(parseRange('bytes=0-0', 10), { start: 0, end: 0 });
    assert.deepEqual(parseRange('bytes=5-', 10), { start: 5, end: 9 });
    assert.deepEqual(parseRange('bytes=-4', 10), { start: 6, end: 9 });
    assert.deepEqual(parseRange('bytes=-40', 10), { start: 0, end: 9 });
    assert.deepEqual(parseRange('bytes=8-100', 10), { start: 8, end: 9 });
    assert.equal(parseRange('bytes=10-', 10), 'unsatisfiable');
    assert.equal(parseRange('bytes=-0', 10), 'unsatisfiable');
    assert.equal(parseRange('bytes=0-', 0), 'unsatisfiable');
    assert.equal(parseRange('bytes=0-1,3-4', 10), null);
    assert.equal(parseRange('items=0-1', 10), null);
    assert.equal(parseRange('bytes=5-2', 10), null);
    assert.equal(parseRange(undefined, 10), null);
  });

  it('finds the uploads a rendered message links, once each', () => {
    const html = '<p><a href="user_uploads/2/ab/xyz/a%20b.txt">x</a> <a href="/user_uploads/2/cd/q/c.png">y</a>'
      + ' <a href="user_uploads/2/ab/xyz/a%20b.txt">again</a> <a href="https://e.com/user_uploads/2/x">no</a>'
      + ' <a href="user_uploads/temporary/t/n">no</a> <a href="user_uploads/%E0%A4%A">bad</a></p>';
    assert.deepEqual(linkedUploadPaths(html), ['2/ab/xyz/a b.txt', '2/cd/q/c.png']);
  });
});
