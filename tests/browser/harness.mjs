#!/usr/bin/env node
// Starts the real server binary twice on free ports with temporary databases — once as in
// production, once with `--insecure-fixed-seed` so the tests of chosen situations know the deals
// in advance — runs the browser tests against them with node's test runner, then stops both.
//
//   node harness.mjs <path-to-fipsen-server> [test files...]

import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from './server.mjs';
import { SEED } from './seeded.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const [binary, ...files] = process.argv.slice(2);
if (!binary) {
  console.error('usage: node harness.mjs <fipsen-server binary> [test files...]');
  process.exit(2);
}

const servers = [];
let code = 1;
try {
  const main = await startServer(binary);
  servers.push(main);
  const seeded = await startServer(binary, { seed: SEED });
  servers.push(seeded);
  const tests = files.length ? files : readdirSync(here).filter((f) => f.endsWith('.test.mjs')).sort().map((f) => join(here, f));
  const runner = spawn(process.execPath, ['--test', '--test-concurrency=1', ...tests], {
    env: { ...process.env, FIPSEN_URL: main.url, FIPSEN_SEEDED_URL: seeded.url },
    stdio: 'inherit',
    cwd: here,
  });
  code = await new Promise((resolve) => runner.on('exit', (c) => resolve(c ?? 1)));
} catch (e) {
  console.error(String(e));
} finally {
  for (const s of servers) await s.stop();
}
process.exit(code);
