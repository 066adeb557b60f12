#!/usr/bin/env node
// Starts the real server binary on a free port with a temporary database, runs the browser
// tests against it with node's test runner, then stops the server.
//
//   node harness.mjs <path-to-fipsen-server> [test files...]

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, readdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const [binary, ...files] = process.argv.slice(2);
if (!binary) {
  console.error('usage: node harness.mjs <fipsen-server binary> [test files...]');
  process.exit(2);
}

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {import('node:net').AddressInfo} */ (probe.address());
      probe.close(() => resolve(port));
    });
  });
}

async function waitHealthy(url, server) {
  for (let i = 0; i < 300; i++) {
    if (server.exitCode !== null) throw new Error(`the server exited with code ${server.exitCode}`);
    try {
      const res = await fetch(new URL('healthz', url));
      if (res.ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the server did not answer /healthz within 30 s');
}

const dir = mkdtempSync(join(tmpdir(), 'fipsen-browser-'));
const port = await freePort();
const url = `http://127.0.0.1:${port}/`;
const server = spawn(binary, ['--addr', `127.0.0.1:${port}`, '--db', join(dir, 'fipsen.sqlite3')], {
  env: { ...process.env, FIPSEN_LOG: process.env.FIPSEN_LOG ?? 'warn' },
  stdio: ['ignore', 'inherit', 'inherit'],
});
let code = 1;
try {
  await waitHealthy(url, server);
  const tests = files.length ? files : readdirSync(here).filter((f) => f.endsWith('.test.mjs')).sort().map((f) => join(here, f));
  const runner = spawn(process.execPath, ['--test', '--test-concurrency=1', ...tests], {
    env: { ...process.env, FIPSEN_URL: url },
    stdio: 'inherit',
    cwd: here,
  });
  code = await new Promise((resolve) => runner.on('exit', (c) => resolve(c ?? 1)));
} catch (e) {
  console.error(String(e));
} finally {
  server.kill('SIGTERM');
  await new Promise((r) => (server.exitCode !== null ? r(null) : server.on('exit', r)));
  rmSync(dir, { recursive: true, force: true });
}
process.exit(code);
