// The baseline of the upload benchmark: bare node:http that stores a POSTed body in a file
// (streamed) and serves files back, with no credentials, no multipart and no records.
// Usage: node bench/static-file-baseline.mjs PORT DIR
import { createReadStream, createWriteStream, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';

const port = Number(process.argv[2]);
const dir = process.argv[3];
if (!Number.isInteger(port) || port <= 0 || !dir) {
  console.error('usage: node bench/static-file-baseline.mjs PORT DIR');
  process.exit(2);
}
let next = 0;
const server = createServer(async (req, res) => {
  if (req.url === '/ready') return res.end('ok');
  if (req.method === 'POST') {
    const name = `f${next++}`;
    await pipeline(req, createWriteStream(join(dir, name)));
    return res.end(JSON.stringify({ uri: `/files/${name}` }));
  }
  const path = join(dir, (req.url ?? '').replace(/^\/files\//, ''));
  res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': statSync(path).size });
  createReadStream(path).pipe(res);
});
server.listen(port, '127.0.0.1');
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => server.close(() => process.exit(0)));
