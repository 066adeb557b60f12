// Starts the real server binary on a free port with a temporary database, and stops it again.
// Used by harness.mjs for the servers the tests run against.

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

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

/**
 * Starts `binary` and waits until it answers `/healthz`.
 * @param {string} binary the fipsen-server executable
 * @param {{seed?: string}} [opts] `seed`: every new room is dealt from this master seed
 *   (`--insecure-fixed-seed`, for tests of chosen situations)
 * @returns {Promise<{url: string, stop: () => Promise<void>}>}
 */
export async function startServer(binary, opts = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'fipsen-browser-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/`;
  // Every test's rooms are created from 127.0.0.1: no quota of rooms per address here (the
  // server's own tests check it).
  const args = ['--addr', `127.0.0.1:${port}`, '--db', join(dir, 'fipsen.sqlite3'), '--rooms-per-address', '0'];
  if (opts.seed) args.push('--insecure-fixed-seed', opts.seed);
  // The fixed seed makes the server warn once at start: expected here, so only errors show.
  const log = process.env.FIPSEN_LOG ?? (opts.seed ? 'error' : 'warn');
  const server = spawn(binary, args, { env: { ...process.env, FIPSEN_LOG: log }, stdio: ['ignore', 'inherit', 'inherit'] });
  const exited = new Promise((r) => (server.exitCode !== null ? r(null) : server.on('exit', r)));
  const stop = async () => {
    if (server.exitCode === null) server.kill('SIGTERM');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitHealthy(url, server);
  } catch (e) {
    await stop();
    throw e;
  }
  return { url, stop };
}
