// The confab command: serve, migrate, create-realm, create-user, api-key, set-password, change-email.
import { parseArgs } from 'node:util';
import { changeEmailCommand, setPasswordCommand } from './account-commands.js';
import { runSystemAction } from './actions/context.js';
import { checkPasswordAcceptable } from './actions/password-reset.js';
import { doCreateRealm } from './actions/realm-create.js';
import { doCreateUser } from './actions/user-create.js';
import { type Config, loadConfig } from './config.js';
import { outOfSpaceMessage } from './db/out-of-space.js';
import { generateApiKey } from './lib/credentials.js';
import { ROLE_VALUES, Role } from './lib/roles.js';
import { listRealms } from './queries/realms.js';
import { getUserByEmail } from './queries/users.js';
import { runWorkers, isWorker } from './cluster/workers.js';
import { ensureRealm, openServices, startServer } from './server.js';

const USAGE = `Usage: confab <command> [options]

Commands:
  serve          Start the server (default)
  migrate        Bring the store's schema up to date
  create-realm   --name NAME --url URL --owner-email EMAIL --owner-name NAME [--owner-password PW]
  create-user    --email EMAIL --name NAME [--role owner|admin|moderator|member|guest] [--password PW] [--realm URL]
  api-key        --email EMAIL [--rotate] [--realm URL]
  set-password   --email EMAIL [--realm URL]   new password from standard input (asked for on a terminal);
                 ends the user's sessions
  change-email   --email EMAIL --new-email NEW [--realm URL]

Server options (also CONFAB_<NAME> environment variables, e.g. CONFAB_PORT):
  --host HOST            (default 127.0.0.1)
  --port PORT            (default 9991)
  --data-dir DIR         embedded store folder (default ./data)
  --database-url URL     postgres://... to use PostgreSQL instead
  --external-url URL     public URL of the server
  --dev                  development mode: dev endpoints and a seeded demo organization
  --log-level LEVEL      (default info)
  --web-public-streams-enabled  allow web-public streams (WEB_PUBLIC_STREAMS_ENABLED)
  --push-bouncer-url URL push notification bouncer (default: push notifications go to the log)
  --smtp-url URL         smtp(s)://user:password@host:port for outgoing mail
  --mail-from ADDRESS    sender of outgoing mail (default noreply@ the server's host)
  --mail-outbox-dir DIR  where mail goes when no SMTP server is set (default <data-dir>/outbox)
  --rate-limits on|off   every rate limit below (default on)
  --rate-limit-user R    API requests per user, R = REQUESTS/SECONDS or off (default 200/60)
  --rate-limit-ip R      unauthenticated requests per client address (default 100/60)
  --rate-limit-login R   password logins per username (default 5/1800)
  --rate-limit-auth-ip R failed authentications per client address (default 30/60)
  --trusted-proxies LIST reverse proxies (addresses, CIDR ranges) whose X-Forwarded-For is believed
  --storage-url URL      uploaded files: s3://BUCKET?endpoint=URL&region=R&prefix=P (default <data-dir>/uploads);
                         S3 credentials from AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY (AWS_SESSION_TOKEN)
  --max-file-upload-size-mib N  largest upload (default 25)
  --upload-quota-mib N   each organization's total of uploads, 0 for none (default 0)
  --unclaimed-upload-days N  uploads no message links are removed after N days (default 30)
  --redis-url URL        join a cluster of processes sharing this Redis (and --database-url PostgreSQL)
  --redis-prefix P       prefix of Confab's Redis keys and channels (default confab:)
  --advertise-url URL    where the cluster's other processes reach this one (default: its listening address)
  --workers N            run N processes on this port (needs --redis-url and --database-url; default 1)
  --metrics              Prometheus metrics at /metrics (default off)
  --metrics-token T      /metrics only with Authorization: Bearer T (turns metrics on)
  --enable-gravatar      users without an uploaded avatar get a Gravatar (default: Confab's own default avatar)
`;

/** How long a graceful stop (SIGINT, SIGTERM) may take before the process exits regardless. */
const STOP_LIMIT_MS = 10_000;

const ROLE_NAMES: Record<string, number> = {
  owner: Role.OWNER,
  admin: Role.ADMINISTRATOR,
  administrator: Role.ADMINISTRATOR,
  moderator: Role.MODERATOR,
  member: Role.MEMBER,
  guest: Role.GUEST,
};

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

/** Opening the store: lack of disk space is the operator's to fix, and said in one line; anything else keeps its stack. */
async function opening<T>(config: Config, open: () => Promise<T>): Promise<T> {
  try {
    return await open();
  } catch (error) {
    const line = outOfSpaceMessage(error, config);
    if (!line) throw error;
    console.error(line);
    process.exit(1);
  }
}

async function main() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      host: { type: 'string' }, port: { type: 'string' }, 'data-dir': { type: 'string' },
      'database-url': { type: 'string' }, 'external-url': { type: 'string' }, dev: { type: 'boolean' },
      'log-level': { type: 'string' }, 'redis-url': { type: 'string' },
      'web-public-streams-enabled': { type: 'boolean' }, 'push-bouncer-url': { type: 'string' },
      'smtp-url': { type: 'string' }, 'mail-from': { type: 'string' }, 'mail-outbox-dir': { type: 'string' },
      'rate-limits': { type: 'string' }, 'rate-limit-user': { type: 'string' }, 'rate-limit-ip': { type: 'string' },
      'rate-limit-login': { type: 'string' }, 'rate-limit-auth-ip': { type: 'string' }, 'trusted-proxies': { type: 'string' },
      'storage-url': { type: 'string' }, 'max-file-upload-size-mib': { type: 'string' }, 'upload-quota-mib': { type: 'string' },
      'unclaimed-upload-days': { type: 'string' }, metrics: { type: 'boolean' }, 'metrics-token': { type: 'string' },
      'enable-gravatar': { type: 'boolean' },
      'redis-prefix': { type: 'string' }, 'advertise-url': { type: 'string' }, workers: { type: 'string' },
      name: { type: 'string' }, url: { type: 'string' }, email: { type: 'string' }, role: { type: 'string' },
      password: { type: 'string' }, realm: { type: 'string' }, rotate: { type: 'boolean' }, 'new-email': { type: 'string' },
      'owner-email': { type: 'string' }, 'owner-name': { type: 'string' }, 'owner-password': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const command = positionals[0] ?? 'serve';
  if (values.help || command === 'help') {
    console.log(USAGE);
    return;
  }
  const config = loadConfig(values as Record<string, string | boolean>);

  if (command === 'serve') {
    if (config.workers > 1 && !isWorker()) {
      // The store is made ready once, before the workers start.
      return runWorkers(config, async () => {
        const services = await opening(config, () => openServices({ ...config, redisUrl: null }));
        await opening(config, () => ensureRealm(services, (line) => console.log(line)));
        await services.store.close();
      });
    }
    const server = await opening(config, () => startServer(config, { internalListener: isWorker() }));
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      process.once(signal, () => {
        // Whatever clients or the database do, the process ends within the bound; the queues
        // are saved early in the stop, so only a stop that cannot reach the store loses them.
        setTimeout(() => {
          console.error(`Stopping took longer than ${STOP_LIMIT_MS / 1000} s; exiting now.`);
          process.exit(1);
        }, STOP_LIMIT_MS).unref();
        server.stop().then(
          () => process.exit(0),
          (error: unknown) => {
            console.error('Stopping failed:', error);
            process.exit(1);
          },
        );
      });
    }
    return;
  }

  // Commands other than serve work on the store alone, outside any cluster.
  const services = await opening(config, () => openServices({ ...config, redisUrl: null }));
  try {
    if (command === 'migrate') {
      console.log('The store is up to date.');
    } else if (command === 'create-realm') {
      const { name, url } = values;
      const email = values['owner-email'];
      const ownerName = values['owner-name'];
      if (!name || !url || !email || !ownerName) fail(USAGE);
      if (values['owner-password'] !== undefined) await checkPasswordAcceptable(values['owner-password']);
      const { owner, realm } = await runSystemAction(services, async (ctx) =>
        doCreateRealm(ctx, {
          name,
          url,
          stringId: (await listRealms(ctx.tx)).length === 0 ? '' : new URL(url).hostname.split('.')[0],
          owner: { email, fullName: ownerName, password: values['owner-password'] ?? null },
        }),
      );
      console.log(`Created organization "${realm.name}" (${realm.url}).`);
      console.log(`Owner ${owner.delivery_email}, API key: ${owner.api_key}`);
    } else if (command === 'create-user') {
      const { email, name } = values;
      if (!email || !name) fail(USAGE);
      const role = ROLE_NAMES[values.role ?? 'member'] ?? Number(values.role);
      if (!ROLE_VALUES.includes(role)) fail(`Unknown role '${values.role}'`);
      if (values.password !== undefined) await checkPasswordAcceptable(values.password);
      const realm = await pickRealm(services.db, values.realm);
      const user = await runSystemAction(services, (ctx) =>
        doCreateUser(ctx, realm, { email, fullName: name, role, password: values.password ?? null }),
      );
      console.log(`Created ${user.delivery_email} (id ${user.id}), API key: ${user.api_key}`);
    } else if (command === 'api-key') {
      if (!values.email) fail(USAGE);
      const realm = await pickRealm(services.db, values.realm);
      const user = await getUserByEmail(services.db, realm.id, values.email);
      if (!user) fail(`No user ${values.email} in ${realm.url}`);
      let key = user.api_key;
      if (values.rotate) {
        key = generateApiKey();
        await services.db.updateTable('user_profile').set({ api_key: key }).where('id', '=', user.id).execute();
      }
      console.log(key);
    } else if (command === 'set-password') {
      if (!values.email) fail(USAGE);
      console.log(await setPasswordCommand(services, await pickRealm(services.db, values.realm), values.email));
    } else if (command === 'change-email') {
      if (!values.email || !values['new-email']) fail(USAGE);
      console.log(await changeEmailCommand(services, await pickRealm(services.db, values.realm), values.email, values['new-email']));
    } else {
      fail(`Unknown command '${command}'.\n\n${USAGE}`);
    }
  } catch (error) {
    fail(outOfSpaceMessage(error, config) ?? (error instanceof Error ? error.message : String(error)));
  } finally {
    await services.store.close();
  }
}

async function pickRealm(db: Parameters<typeof listRealms>[0], url: string | undefined) {
  const realms = await listRealms(db);
  const realm = url ? realms.find((r) => r.url === url.replace(/\/$/, '')) : realms[0];
  if (!realm) fail(url ? `No organization at ${url}` : 'No organization yet: run confab serve or create-realm first.');
  return realm;
}

await main();
