// Shared helpers of the browser tests: Chromium, pages that record console errors and
// WebSocket frames, and steps that drive the client through its user interface only.

import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
export const ARTIFACTS = join(here, 'artifacts');
mkdirSync(ARTIFACTS, { recursive: true });

/** The server under test (started by harness.mjs). */
export const BASE = process.env.FIPSEN_URL ?? 'http://127.0.0.1:8080/';

export const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };
export const DESKTOP = { viewport: { width: 1366, height: 768 }, deviceScaleFactor: 1 };

const STEP_TIMEOUT = 15_000;

/** Launches Debian's Chromium with a fresh profile. */
export async function launch() {
  const profile = mkdtempSync(join(tmpdir(), 'fipsen-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  const browser = context.browser();
  // A persistent context gives one profile directory; each player gets his own context of the
  // same browser so that localStorage is separate, as on separate devices.
  return {
    browser,
    async newContext(options) {
      return browser ? browser.newContext(options) : context;
    },
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
    persistent: context,
  };
}

/**
 * Opens the client for one person: records console errors and every WebSocket frame received.
 * @param {any} chrome what `launch` returned
 * @param {string} label for messages and screenshots
 * @param {object} device PHONE or DESKTOP
 */
export async function openClient(chrome, label, device = DESKTOP, lang = 'en') {
  const context = await chrome.newContext({ ...device, locale: lang === 'de' ? 'de-DE' : lang === 'ja' ? 'ja-JP' : 'en-GB' });
  await context.addInitScript((l) => {
    if (!localStorage.getItem('fipsen.lang')) localStorage.setItem('fipsen.lang', l);
  }, lang);
  const page = await context.newPage();
  const client = { label, context, page, errors: /** @type {string[]} */ ([]), frames: /** @type {string[]} */ ([]) };
  page.on('console', (msg) => {
    if (msg.type() === 'error') client.errors.push(`${label}: console: ${msg.text()}`);
  });
  page.on('pageerror', (err) => client.errors.push(`${label}: page error: ${err.message}`));
  page.on('websocket', (ws) => {
    ws.on('framereceived', (frame) => client.frames.push(String(frame.payload)));
  });
  page.setDefaultTimeout(STEP_TIMEOUT);
  await page.goto(BASE);
  await page.locator('[data-conn="open"]').waitFor();
  return client;
}

export async function screenshot(client, name) {
  await client.page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: false });
}

export async function screenshotFull(client, name) {
  await client.page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
}

/** No console error on any page. */
export function assertNoConsoleErrors(clients) {
  const errors = clients.flatMap((c) => c.errors);
  assert.deepEqual(errors, [], 'console errors');
}

export async function setName(page, name) {
  await page.locator('#name').fill(name);
}

/**
 * Creates a room through the home screen and returns its invite code.
 * @param {any} client
 * @param {{players?: 3|4, nextDeal?: 'auto'|'slow'|'ask', title?: string, public?: boolean}} opts
 */
export async function createRoom(client, name, opts = {}) {
  const { page } = client;
  await setName(page, name);
  if (opts.title) await page.locator('#opt-title').fill(opts.title);
  if (opts.players === 3) await page.locator('[data-key="opt-players-3"]').check();
  if (opts.nextDeal || opts.public) await page.locator('.more-rules > summary').click();
  if (opts.nextDeal) await page.locator(`[data-key="opt-next_deal-${opts.nextDeal}"]`).check();
  if (opts.public) await page.locator('[data-key="opt-public"]').check();
  await page.locator('[data-key="create"]').click();
  await page.locator('.invite input').waitFor();
  const link = await page.locator('.invite input').inputValue();
  const code = link.split('#/room/')[1];
  assert.ok(code, `an invite link with a code: ${link}`);
  return { code, link };
}

/** Opens the invitation link and sits down (or watches). */
export async function joinByLink(client, link, name, role = 'player') {
  const { page } = client;
  await page.goto(link);
  await page.locator('#name').waitFor();
  await setName(page, name);
  await page.locator(role === 'player' ? '[data-key="invite-sit"]' : '[data-key="invite-watch"]').click();
  await page.locator('.room, .table-screen').first().waitFor();
}

/** The cards in the player's hand, as shown. */
export async function handCards(page) {
  return page.locator('.hand .hand-card').evaluateAll((els) => els.map((e) => e.getAttribute('data-card')));
}

/** Clicks a call button and confirms it (the misclick guard). */
async function call(page, selector) {
  await page.locator(selector).first().click();
  await page.locator('[data-key="confirm-yes"]').click();
}

/** Calls made by the test strategy, in order of preference, when offered. */
const PREFERRED_CALLS = [
  ['[data-key="pass"]', 'pass'],
  ['[data-key="hold"]', 'hold'],
  ['.bid-button', 'bid'],
  ['[data-key="take-skat"]', 'take_skat'],
  ['[data-key="play-hand"]', 'play_hand'],
  ['.suit-button', 'trumps'],
  ['[data-key="no-kontra"]', 'no_kontra'],
  ['[data-key="stop"]', 'stop'],
];

/**
 * One step for a page if the server asks it to act: a simple strategy played through the UI
 * (the first player bids the lowest bid, everyone else passes; the declarer takes the skat,
 * lays the first two cards away, names the first suit offered, stops at once). Cards are played
 * by `playIfAsked`. Returns what it did, or null if it had nothing to do.
 */
export async function stepIfAsked(page) {
  if ((await page.locator('main .actions').count()) === 0) return null;
  const offered = async (sel) => (await page.locator(`main .actions ${sel}:not([disabled])`).count()) > 0;
  if (await offered('[data-key="confirm-yes"]')) {
    await page.locator('[data-key="confirm-yes"]').click();
    return 'confirm';
  }
  const deal = await page.evaluate(() => {
    const d = /** @type {any} */ (window).fipsenDebug.S.game.deal;
    return { calls: d.calls.length, discard: d.prompt.discard ?? 0 };
  });
  if (deal.calls === 0 && (await offered('.bid-button'))) {
    await call(page, 'main .actions .bid-button');
    return 'bid';
  }
  if (deal.discard) {
    while ((await page.locator('.hand .hand-card.selected').count()) < deal.discard) {
      await page.locator('.hand .hand-card:not(.selected):not([disabled])').first().click();
    }
    await call(page, '[data-key="discard"]');
    return 'discard';
  }
  for (const [selector, name] of PREFERRED_CALLS) {
    if (await offered(selector)) {
      await call(page, `main .actions ${selector}`);
      return name;
    }
  }
  return null;
}

/** Plays a card if it is this page's turn to play: tap once to pick, tap again to play. */
export async function playIfAsked(page) {
  const playable = page.locator('.my-turn .hand .hand-card.playable:not([disabled])');
  let failure = null;
  // A message arriving between the look and the tap re-renders the hand: look again then.
  for (let attempt = 0; attempt < 4; attempt++) {
    if ((await playable.count()) === 0) return null;
    const card = await playable.first().getAttribute('data-card', { timeout: 2000 }).catch(() => null);
    if (!card) continue;
    const button = page.locator(`.hand .hand-card[data-card="${card}"]`);
    try {
      await button.click({ timeout: 3000 });
      await page.locator(`.hand .hand-card[data-card="${card}"].selected`).waitFor({ timeout: 3000 });
      await button.click({ timeout: 3000 });
      return `play ${card}`;
    } catch (e) {
      failure = e;
    }
  }
  throw failure ?? new Error('no card could be played');
}

/** Whether the page shows a finished deal. */
export async function dealOver(page) {
  return (await page.locator('[data-testid="result"]').count()) > 0;
}

/**
 * Drives all seated pages through the UI until the deal is over.
 * @param {any[]} clients seated players' clients
 * @param {(step: number) => Promise<void>} [onStep] called after each action
 */
export async function playDeal(clients, onStep) {
  for (let step = 0; step < 400; step++) {
    if (await dealOver(clients[0].page)) return step;
    let acted = null;
    for (const c of clients) {
      acted = (await stepIfAsked(c.page)) ?? (await playIfAsked(c.page));
      if (acted) {
        await settle(c.page);
        break;
      }
    }
    if (acted) await onStep?.(step);
    else await clients[0].page.waitForTimeout(100);
  }
  const states = [];
  for (const c of clients) {
    await c.page.screenshot({ path: join(ARTIFACTS, `stuck-${c.label}.png`) });
    states.push(
      `${c.label}: ${await c.page.evaluate(() => JSON.stringify({ phase: /** @type {any} */ (window).fipsenDebug.S.game?.deal?.phase, prompt: /** @type {any} */ (window).fipsenDebug.S.game?.deal?.prompt }))}`,
    );
  }
  throw new Error(`the deal did not end within 400 steps:\n${states.join('\n')}`);
}

/** Waits until the page has no request in flight. */
export async function settle(page) {
  await page.waitForFunction(() => !(/** @type {any} */ (window).fipsenDebug?.S?.waiting));
}

/** The card codes of the 25-card pack. */
export const PACK = [
  ...['C', 'S', 'H'].flatMap((s) => ['A', 'K', 'Q', 'J', '10', '9', '8', '7'].map((r) => s + r)),
  'D7',
];
