// Permission matrix, uploaded files: each message of the matrix gets a file and an image of its
// sender's, linked by an edit; who may then fetch the file (through the temporary-URL route, which
// checks exactly what serving the file checks) and the image's thumbnail follows who may open the
// message by id. A file nobody linked is its uploader's alone; another organization's user never
// finds it; a spectator (no credentials) reads exactly what the web-public stream links.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { thumbnailsIdle } from '../../src/actions/thumbnails.js';
import { multipartBody } from '../support/multipart.js';
import { ApiClient, type ApiResponse, expectSuccess } from '../support/client.js';
import { testDialects } from '../support/dialects.js';
import { pngImage } from '../support/upload-images.js';
import { type Actor, buildMatrix, checkTable, DEV_HOST, expectRefusal, type Matrix, type MessageKey, MESSAGES, OPEN_BY_ID, refusal } from './matrix-fixture.js';
import { setRealmSettings } from '../support/context.js';

const NOT_AUTHORIZED = refusal('You are not authorized to view this file.', 'BAD_REQUEST', 403);
const NOT_FOUND = refusal('File not found', 'BAD_REQUEST', 404);

// Y: 200 with a temporary url; E: NOT_AUTHORIZED. The same as opening the linking message by id.
const FILES = OPEN_BY_ID;

// A spectator: the web-public stream's files only (200), every other file refused (403).
const SPECTATOR: Record<MessageKey, number> = { general: 403, lobby: 403, vault: 403, bunker: 403, showcase: 200, dm: 403, group: 403 };

const SENDER: Record<MessageKey, Actor> = { general: 'mark', lobby: 'gus', vault: 'mark', bunker: 'mark', showcase: 'olivia', dm: 'mark', group: 'mark' };

for (const dialect of testDialects()) {
  describe(`permission matrix: uploaded files [${dialect}]`, () => {
    let m: Matrix;
    const uri = {} as Record<MessageKey | 'unlinked', string>;
    const image = {} as Record<MessageKey, string>;
    const thumbnail = (key: MessageKey) => `${image[key]!.replace('/user_uploads/', '/user_uploads/thumbnail/')}/840x560.webp`;
    /** A file route's answer as the table reads it: errors are JSON, files are bytes. */
    const fetchAs = async (headers: Record<string, string>, url: string): Promise<ApiResponse> => {
      const res = await m.ctx.app.inject({ method: 'GET', url, headers: { host: DEV_HOST, ...headers } });
      return { status: res.statusCode, body: res.statusCode === 200 ? { size: res.rawPayload.length } : JSON.parse(res.body), headers: res.headers };
    };
    const authOf = (actor: Actor) => ({ authorization: ApiClient.basic(m.user(actor).delivery_email, m.user(actor).api_key) });
    before(async () => {
      m = await buildMatrix(dialect);
      const upload = async (actor: Actor, name: string, value: string | Buffer = `${name} contents`, type = 'text/plain') => {
        const user = m.user(actor);
        const { payload, contentType } = multipartBody([{ name: 'file', filename: name, value, contentType: type }]);
        const res = await m.ctx.app.inject({
          method: 'POST',
          url: '/api/v1/user_uploads',
          headers: { 'content-type': contentType, authorization: ApiClient.basic(user.delivery_email, user.api_key), host: DEV_HOST },
          payload,
        });
        return JSON.parse(res.body).uri as string;
      };
      const png = await pngImage(40, 30);
      for (const key of MESSAGES) {
        uri[key] = await upload(SENDER[key], `${key}.txt`);
        image[key] = await upload(SENDER[key], `${key}.png`, png, 'image/png');
        expectSuccess(await m.as(SENDER[key]).call('PATCH', `/messages/${m.message[key]}`, { content: `quokka [file](${uri[key]}) [image](${image[key]})` }));
      }
      uri.unlinked = await upload('mark', 'unlinked.txt');
    });
    after(async () => {
      await thumbnailsIdle(m.ctx.services);
      await m.ctx.close();
    });

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

    it("a linked image's thumbnail is readable exactly where its message is", async () => {
      await checkTable(m, FILES, (_client, key, actor) => fetchAs(authOf(actor), thumbnail(key)), (body) => body.size > 0, NOT_AUTHORIZED);
    });

    it('a deactivated user, and other organizations, get no thumbnail', async () => {
      const dora = { authorization: ApiClient.basic(m.dora.delivery_email, m.dora.api_key) };
      const owen = { authorization: ApiClient.basic(m.owen.delivery_email, m.owen.api_key) };
      for (const key of MESSAGES) {
        expectRefusal(await fetchAs(dora, thumbnail(key)), refusal('Account is deactivated', 'UNAUTHORIZED', 401), key);
        expectRefusal(await fetchAs({ ...owen, host: 'other.confab.test' }, thumbnail(key)), NOT_FOUND, key);
      }
    });

    it('a spectator reads the files and thumbnails the web-public stream links, and nothing else', async () => {
      for (const key of MESSAGES) {
        for (const url of [uri[key], image[key]!, thumbnail(key)]) {
          const res = await fetchAs({}, url);
          if (SPECTATOR[key] === 200) assert.equal(res.status, 200, `${key}: ${url}`);
          else expectRefusal(res, NOT_AUTHORIZED, `${key}: ${url}`);
        }
      }
      expectRefusal(await fetchAs({}, uri.unlinked), NOT_AUTHORIZED, 'unlinked');
      await setRealmSettings(m.ctx, { enable_spectator_access: false });
      try {
        const LOGIN = refusal('Not logged in: API authentication or user session required', 'UNAUTHORIZED', 401);
        for (const url of [uri.showcase, thumbnail('showcase')]) expectRefusal(await fetchAs({}, url), LOGIN, url);
      } finally {
        await setRealmSettings(m.ctx, { enable_spectator_access: true });
      }
    });
  });
}
