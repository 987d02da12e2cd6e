// Run by sharp-lazy.test.ts in a fresh process: imports the app and the image routes, and reports
// whether sharp's native library (libvips) is mapped into memory before and after first use.
import { readFileSync } from 'node:fs';
import '../../src/app.js';
import '../../src/endpoints/upload-custom-emoji.js';
import '../../src/http/serve-realm-images.js';
import { loadSharp } from '../../src/lib/image-limits.js';

const vipsLoaded = () => /vips|sharp/i.test(readFileSync('/proc/self/maps', 'utf8'));
const before = vipsLoaded();
await loadSharp();
process.stdout.write(JSON.stringify({ before, after: vipsLoaded() }));
