// Permission matrix, uploaded files: each message of the matrix gets a file of its sender's,
// linked by an edit; who may then fetch it (through the temporary-URL route, which checks
// exactly what serving the file checks) follows who may open the message by id. A file nobody
// linked is its uploader's alone; another organization's user never finds it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { multipartBody } from '../support/multipart.js';
import { ApiClient, expectSuccess } from '../support/client.js';
import { testDialects } from '../support/dialects.js';
import { type Actor, buildMatrix, checkTable, DEV_HOST, expectRefusal, type Matrix, type MessageKey, MESSAGES, OPEN_BY_ID, refusal } from './matrix-fixture.js';

const NOT_AUTHORIZED = refusal('You are not authorized to view this file.', 'BAD_REQUEST', 403);
const NOT_FOUND = refusal('File not found', 'BAD_REQUEST', 404);

// Y: 200 with a temporary url; E: NOT_AUTHORIZED. The same as opening the linking message by id.
const FILES = OPEN_BY_ID;

const SENDER: Record<MessageKey, Actor> = { general: 'mark', lobby: 'gus', vault: 'mark', bunker: 'mark', showcase: 'olivia', dm: 'mark', group: 'mark' };

for (const dialect of testDialects()) {
  describe(`permission matrix: uploaded files [${dialect}]`, () => {
    let m: Matrix;
    const uri = {} as Record<MessageKey | 'unlinked', string>;
    before(async () => {
      m = await buildMatrix(dialect);
      const upload = async (actor: Actor, name: string) => {
        const user = m.user(actor);
        const { payload, contentType } = multipartBody([{ name: 'file', filename: name, value: `${name} contents` }]);
        const res = await m.ctx.app.inject({
          method: 'POST',
          url: '/api/v1/user_uploads',
          headers: { 'content-type': contentType, authorization: ApiClient.basic(user.delivery_email, user.api_key), host: DEV_HOST },
          payload,
        });
        return JSON.parse(res.body).uri as string;
      };
      for (const key of MESSAGES) {
        uri[key] = await upload(SENDER[key], `${key}.txt`);
        expectSuccess(await m.as(SENDER[key]).call('PATCH', `/messages/${m.message[key]}`, { content: `quokka [file](${uri[key]})` }));
      }
      uri.unlinked = await upload('mark', 'unlinked.txt');
    });
    after(() => m.ctx.close());

    it('a linked file is readable exactly where its message is', async () => {
      await checkTable(m, FILES, (client, key) => client.get(uri[key]), (body) => typeof body.url === 'string', NOT_AUTHORIZED);
    });

    it('an unlinked file is its uploader\'s alone', async () => {
      for (const actor of ['olivia', 'adam', 'maya', 'mona', 'milo', 'gus', 'bot'] as const) {
        expectRefusal(await m.as(actor).get(uri.unlinked), NOT_AUTHORIZED, actor);
      }
      assert.equal(typeof expectSuccess(await m.as('mark').get(uri.unlinked)).url, 'string');
    });

    it("another organization's user finds no file of this one", async () => {
      for (const key of MESSAGES) expectRefusal(await m.owenHome.get(uri[key]), NOT_FOUND, key);
    });
  });
}
