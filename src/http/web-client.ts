// Serves the web client built into dist/web (scripts/build-web.mjs): the HTML entry at / for a
// browser with a session (never cached, so a new build reaches it at once), the login page for
// anyone else, and the content-hashed assets under /static/web/assets/, cached for good.
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import type { RealmRow } from '../db/schema.js';
import type { Services } from '../services.js';
import { authenticateSession, SessionRequiredError } from './session-auth.js';

/** dist/web beside this package's root: src/http/ under tsx, dist/src/http/ once compiled. */
export function defaultWebDir(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const root = here.includes(`${join('dist', 'src')}`) ? join(here, '..', '..', '..') : join(here, '..', '..');
  return join(root, 'dist', 'web');
}

const CONTENT_TYPES: Record<string, string> = {
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  map: 'application/json; charset=utf-8',
  svg: 'image/svg+xml',
  png: 'image/png',
  woff2: 'font/woff2',
  woff: 'font/woff',
  ttf: 'font/ttf',
  json: 'application/json; charset=utf-8',
};

/** Vite's output names: letters, digits, dashes, underscores and dots; never a path. */
const ASSET_NAME = /^[\w-]+(\.[\w-]+)*\.([a-z0-9]+)$/;

const ENTRY_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
};

/**
 * What the client may load: its own scripts, styles, fonts and requests, and images from this server
 * (uploads, avatars, custom emoji, and the organization's icon, which is named by the organization's
 * URL), plus gravatars when the server uses them. Message HTML (rendered Markdown, KaTeX) carries
 * style attributes, so inline styles are allowed; inline scripts never are.
 */
function clientPolicy(services: Services, realm: RealmRow): string {
  const images = ["'self'", new URL(realm.url).origin];
  if (services.config.enableGravatar) images.push('https://secure.gravatar.com');
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    `img-src ${images.join(' ')}`,
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    "form-action 'self'",
  ].join('; ');
}

const NOT_BUILT = '<!doctype html><title>Confab</title><p>The web client has not been built: run <code>npm run build</code>.</p>';

export function registerWebClient(app: FastifyInstance, services: Services, webDir = defaultWebDir()): void {
  const assets = new Map<string, Buffer>();

  app.get('/', async (req, reply) => {
    let realm: RealmRow;
    try {
      ({ realm } = await authenticateSession(services, req));
    } catch (error) {
      if (!(error instanceof SessionRequiredError)) throw error;
      return reply.code(302).header('cache-control', 'no-store').header('location', '/login/').send();
    }
    reply.headers({ ...ENTRY_HEADERS, 'content-security-policy': clientPolicy(services, realm) });
    let html: string;
    try {
      html = await readFile(join(webDir, 'index.html'), 'utf8');
    } catch {
      return reply.code(503).send(NOT_BUILT);
    }
    return reply.send(html);
  });

  app.get<{ Params: { name: string } }>('/static/web/assets/:name', async (req, reply) => {
    const { name } = req.params;
    const match = ASSET_NAME.exec(name);
    const type = match && CONTENT_TYPES[match[2]!];
    let body = assets.get(name);
    if (type && !body) {
      body = await readFile(join(webDir, 'assets', name)).catch(() => undefined);
      // A hashed name's content never changes, so it is read once.
      if (body) assets.set(name, body);
    }
    if (!type || !body) return reply.code(404).header('content-type', 'text/plain; charset=utf-8').send('Not found');
    return reply
      .headers({ 'content-type': type, 'cache-control': 'public, max-age=31536000, immutable', 'x-content-type-options': 'nosniff' })
      .send(body);
  });
}
