import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseTemplate } from 'url-template';
import { compileTemplate, hasWebScheme } from './url-template.js';

const TEMPLATES = [
  'https://trac.example.com/ticket/{id}',
  'https://github.com/{org}/{repo}/issues/{id}',
  'https://example.com/a%20b/{x}?q=1&r=[2]',
  'https://example.com/{+path}/{x}{?q,lang}{#frag}',
  'https://example.com/{x:3}/{/x,y}{;x}{.y}',
  'https://example.com/nothing',
  'https://example.com/é/{x}',
  '{x}',
];
const VALUES = ['', '123', 'a b', 'ä/ö?&=#', "!'()*", '%41%zz', '😀', 'x-y_z.~', '<script>"'];

describe('compileTemplate', () => {
  it('expands as the url-template package does', () => {
    let checked = 0;
    for (const template of TEMPLATES) {
      const expand = compileTemplate(template);
      for (const x of VALUES) {
        for (const y of [null, ...VALUES.slice(0, 4)]) {
          const values = { x, y, id: x, org: y, repo: x, path: x, q: y, lang: x, frag: y };
          assert.equal(expand(values), parseTemplate(template).expand(values), `${template} with ${JSON.stringify(values)}`);
          checked++;
        }
      }
    }
    assert.equal(checked, TEMPLATES.length * VALUES.length * 5);
  });
});

describe('hasWebScheme', () => {
  it('takes only templates that begin with http:// or https:// written out', () => {
    for (const template of ['http://x.example/{id}', 'https://x.example/', 'HTTPS://{host}.example/{id}', 'hTtP://x']) {
      assert.equal(hasWebScheme(template), true, template);
    }
    const refused = [
      'javascript:alert({id})', 'data:text/html,{id}', 'java%73cript:{id}', '%68ttps://x.example/', '{scheme}://x.example/',
      '{+url}', 'http{s}://x.example/', 'https:/x.example/', 'https:{id}', '//x.example/', '/path/{id}', ' https://x.example/',
      '\u0000https://x.example/', 'mailto:{id}', 'ftp://x.example/', '',
    ];
    for (const template of refused) assert.equal(hasWebScheme(template), false, template);
  });
});
