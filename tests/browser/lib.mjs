// Shared helpers of the browser tests: Chromium, pages that record console errors and
// WebSocket frames, and steps that drive the client through its user interface only.

import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { applyPatches } from '../../client-web/js/patch.js';

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
 * @param {string} [lang] the language the page starts in
 * @param {string} [base] the server (the fixed-seed one for chosen situations)
 */
export async function openClient(chrome, label, device = DESKTOP, lang = 'en', base = BASE) {
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
  await page.goto(base);
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
 * @param {{game?: 'prisdorf'|'grossenaspe'|'anseggerfips'|'duttfips', players?: 3|4|5, cents?: boolean, nextDeal?: 'auto'|'slow'|'ask', title?: string, public?: boolean, kontra?: boolean, grace?: number,
 *   botTakeover?: 'off'|'easy'|'normal'|'strong', botDelay?: 0|400|900|1600, move?: 20|30|60|120, deals?: number, screenshot?: string, options?: string[]}} opts
 *   (`screenshot`: a full-page screenshot of the filled-in form under this name; `options`: the
 *   data-keys of further options of the game's own to check, e.g. "opt-dutt-exchange"; `deals`:
 *   the length of the series)
 */
export async function createRoom(client, name, opts = {}) {
  const { page } = client;
  await setName(page, name);
  if (opts.title) await page.locator('#opt-title').fill(opts.title);
  if (opts.game) await page.locator(`[data-key="opt-game-${opts.game}"]`).check();
  if (opts.players === 3 || opts.players === 5) await page.locator(`[data-key="opt-players-${opts.players}"]`).check();
  const more = opts.nextDeal || opts.public || opts.kontra || opts.grace !== undefined || opts.botTakeover || opts.botDelay !== undefined || opts.move || opts.cents || opts.options?.length || opts.deals;
  if (more) await page.locator('.more-rules > summary').click();
  for (const key of opts.options ?? []) await page.locator(`[data-key="${key}"]`).check();
  if (opts.cents) await page.locator('[data-key="opt-cents"]').check();
  if (opts.deals) await page.locator('[data-key="opt-deals"]').fill(String(opts.deals));
  if (opts.move) await page.locator(`[data-key="opt-move-${opts.move}"]`).check();
  if (opts.botTakeover) await page.locator(`[data-key="opt-bot_takeover-${opts.botTakeover}"]`).check();
  if (opts.botDelay !== undefined) await page.locator(`[data-key="opt-bot_delay-${opts.botDelay}"]`).check();
  if (opts.nextDeal) await page.locator(`[data-key="opt-next_deal-${opts.nextDeal}"]`).check();
  if (opts.public) await page.locator('[data-key="opt-public"]').check();
  if (opts.kontra) await page.locator('[data-key="opt-kontra"]').check();
  if (opts.grace !== undefined) await page.locator('[data-key="opt-grace"]').fill(String(opts.grace));
  if (opts.screenshot) await screenshotFull(client, opts.screenshot);
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
  // The invitation page names the table as the server describes it (`peek`).
  await page.locator('[data-testid="invite-info"]').waitFor();
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

/** Plays a card if it is this page's turn to play: one tap on a card the server allows. */
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
      await button.click({ timeout: 10_000 });
      await button.waitFor({ state: 'detached', timeout: 10_000 });
      return `play ${card}`;
    } catch (e) {
      // Gone meanwhile (played by this tap after all): done.
      if ((await button.count()) === 0) return `play ${card}`;
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

/** The card codes of the 32-card pack (Großenaspe). */
export const PACK32 = ['C', 'S', 'H', 'D'].flatMap((s) => ['A', 'K', 'Q', 'J', '10', '9', '8', '7'].map((r) => s + r));

/** The card codes of the Mecklenburg games' 25-card pack: the ♦A, the Rutenas, is its only diamond. */
export const PACK25A = [...['C', 'S', 'H'].flatMap((s) => ['A', 'K', 'Q', 'J', '10', '9', '8', '7'].map((r) => s + r)), 'DA'];

/** The card codes of the 25-card pack. */
export const PACK = [
  ...['C', 'S', 'H'].flatMap((s) => ['A', 'K', 'Q', 'J', '10', '9', '8', '7'].map((r) => s + r)),
  'D7',
];

// ---- hidden cards ----

// Every card of the 52-card pack (Tippen's from seven players; the 32 and Prisdorf's 25 are among them).
const CARD = /^[CSHD](?:A|K|Q|J|10|[2-9])$/;

/** Every card code anywhere in a JSON value. */
export function cardsIn(value, out = new Set()) {
  if (typeof value === 'string') {
    if (CARD.test(value)) out.add(value);
  } else if (Array.isArray(value)) {
    for (const v of value) cardsIn(v, out);
  } else if (value && typeof value === 'object') {
    for (const v of Object.values(value)) cardsIn(v, out);
  }
  return out;
}

/**
 * The cards a frame shows of the deal in play: everything but the scoresheet, whose rows are
 * about finished deals (all their cards revealed; a Siebener Fips row names its five cards).
 * @param {any} msg
 */
function cardsOfPlay(msg) {
  const game = msg.game ? { ...msg.game, scoresheet: [] } : msg.game;
  // What the patches of an update carry is judged too, but for scoresheet rows.
  const patches = msg.patches?.filter((p) => !(p.path[0] === 'game' && p.path[1] === 'scoresheet')).map((p) => {
    if (p.op !== 'set') return p;
    if (p.path.length === 1 && p.path[0] === 'game' && p.value) return { ...p, value: { ...p.value, scoresheet: [] } };
    if (p.path.length === 0 && p.value?.game) return { ...p, value: { ...p.value, game: { ...p.value.game, scoresheet: [] } } };
    return p;
  });
  // Großenaspe's scribe is drawn before the first deal with cards of a pack of its own, turned
  // face up for all: they are no card of the deal.
  const drawn = (seqEvent) => seqEvent?.kind === 'game' && seqEvent.event?.event === 'scribe_drawn';
  const events = msg.events?.filter((e) => !drawn(e));
  const missed = msg.missed?.filter((e) => !drawn(e));
  return cardsIn({ ...msg, game, events, missed, patches });
}

/**
 * The frames one connection received, read: each `update` with the state its patches make
 * (`room` and `game`, as a `joined` has them) beside its own fields, so that every frame can be
 * judged by the deal it leaves the viewer in.
 * @param {string[]} frames
 * @returns {{text: string, msg: any}[]}
 */
export function readFrames(frames) {
  /** @type {import('../../client-web/js/patch.js').ServerState} */
  let state = { room: null, game: null };
  return frames.map((text) => {
    const msg = JSON.parse(text);
    if (msg.type === 'joined') state = { room: msg.room, game: msg.game ?? null };
    if (msg.type === 'update') {
      state = applyPatches(state, msg.patches);
      return { text, msg: { ...msg, room: state.room, game: state.game } };
    }
    return { text, msg };
  });
}

/** The game events of a server frame (update or joined). */
function gameEvents(msg) {
  const events = msg.type === 'update' ? msg.events : msg.type === 'joined' ? msg.missed : [];
  return (events ?? []).filter((e) => e.kind === 'game').map((e) => e.event);
}

/**
 * Replays the frames one viewer received: until the deal is over, each frame may hold only the
 * cards this viewer may know (`known`: his own cards, and what was shown to him) and the cards
 * played face up so far (or laid down in a Siebener Fips). Returns the cards played and the
 * reveal at the end.
 * @param {string[]} frames
 * @param {Iterable<string>} [known]
 */
export function checkFrames(frames, known = []) {
  const shown = new Set(known);
  let reveal = null;
  for (const { text, msg } of readFrames(frames)) {
    const events = gameEvents(msg);
    for (const e of events) {
      if (e.event === 'card_played') shown.add(e.card);
      if (e.event === 'siebener_fips') for (const c of e.cards) shown.add(c);
    }
    const over = events.find((e) => e.event === 'deal_over');
    if (over || msg.game?.deal?.phase === 'over') {
      reveal = over?.reveal ?? msg.game.deal.reveal;
      break;
    }
    const leaked = [...cardsOfPlay(msg)].filter((c) => !shown.has(c));
    assert.deepEqual(leaked, [], `a frame holds hidden cards: ${text.slice(0, 300)}`);
  }
  return { shown, reveal };
}

/**
 * Replays every frame a seated player received, over as many deals as there were: within a
 * deal, each frame may hold only the cards this seat may know — its own dealt hand (the `dealt`
 * event must hide every other hand), the skat, stock, thrown hand or Dutt it picked up itself, a
 * Kieker's hand shown to it — and the cards played face up so far (or laid down in a Siebener
 * Fips). Once a deal is over everything of it may show, until the next deal is dealt. A
 * `review` frame may show the cards of the finished deal it is about (and is skipped); any other
 * review frame is checked like the rest. Frames before the first deal may hold no card at all.
 * @param {string[]} frames
 * @param {number} seat the viewer's seat
 * @returns {{checked: number, reviewsSkipped: number, deals: number[]}}
 */
export function checkFramesOfSeat(frames, seat) {
  /** @type {{number: number, shown: Set<string>, over: boolean}|null} */
  let deal = null;
  // Tippen: cards shown to all before a deal is dealt (the first dealer's search for an ace, the
  // bottom card of a hop), which the deal's frames may hold.
  let before = new Set();
  let checked = 0;
  let reviewsSkipped = 0;
  const deals = [];
  for (const { text, msg } of readFrames(frames)) {
    if (msg.type === 'review' && deal && (msg.deal < deal.number || (msg.deal === deal.number && deal.over))) {
      reviewsSkipped += 1;
      continue;
    }
    let ended = false;
    for (const e of gameEvents(msg)) {
      if (e.event === 'dealt') {
        const others = e.hands.filter((hand, i) => i !== seat && hand !== null);
        assert.deepEqual(others, [], `deal ${e.number}: the dealt event shows seat ${seat} only its own hand`);
        // Thedinghausen's turned-up card is public from the deal on, and so is the 1821 Tippen
        // dealer's last card, dealt face up.
        const open = [e.trump_card, e.exposed].filter(Boolean);
        deal = { number: e.number, shown: new Set([...(e.hands[seat] ?? []), ...open, ...before]), over: false };
        before = new Set();
        deals.push(e.number);
        continue;
      }
      if (e.event === 'first_dealer') for (const c of e.cards ?? []) before.add(c);
      if (e.event === 'bottom_card') {
        before.add(e.card);
        deal?.shown.add(e.card);
      }
      if (!deal) continue;
      if (e.event === 'card_played') deal.shown.add(e.card);
      // Tippen: the trump card turned (or sniffed open), a robbery's trump card and seven are
      // shown to all; the dealer's hand once he decided whether to knock, his own discard and a
      // player's own exchange to him alone (the server empties them for everyone else).
      if (e.event === 'trump_turned') deal.shown.add(e.card);
      if (e.event === 'sniffed' && e.trump_card) deal.shown.add(e.trump_card);
      if (e.event === 'robbed') for (const c of [e.trump_card, e.seven]) deal.shown.add(c);
      if ((e.event === 'knocked' || e.event === 'not_knocked') && e.seat === seat) for (const c of e.hand ?? []) deal.shown.add(c);
      if (e.event === 'exchanged' && e.seat === seat) for (const c of [...(e.discarded ?? []), ...(e.received ?? [])]) deal.shown.add(c);
      if (e.event === 'siebener_fips') for (const c of e.cards) deal.shown.add(c);
      if ((e.event === 'skat_taken' || e.event === 'kieker_picked_up') && e.seat === seat) {
        for (const c of [...(e.skat ?? []), ...(e.stock ?? []), ...(e.thrown ?? []), ...(e.talon ?? [])]) deal.shown.add(c);
      }
      if (e.event === 'kieker_shown' && e.to === seat) for (const c of e.hand ?? []) deal.shown.add(c);
      // The Mecklenburg declarer sees the Dutt he takes (nobody else does).
      if (e.event === 'dutt_taken' && e.seat === seat) for (const c of e.dutt ?? []) deal.shown.add(c);
      if (e.event === 'deal_over') {
        deal.over = true;
        ended = true;
      }
    }
    // A Tippen deal waits for its dealer to deal or shove before any card is dealt.
    if (!deal && msg.game && msg.game.deal?.phase !== 'shove') throw new Error('checkFramesOfSeat needs the frames from before the first deal (no resumed deal)');
    if (ended || deal?.over) continue;
    const shown = deal?.shown ?? before;
    const leaked = [...cardsOfPlay(msg)].filter((c) => !shown.has(c));
    assert.deepEqual(leaked, [], `a frame holds hidden cards: ${text.slice(0, 300)}`);
    checked += 1;
  }
  return { checked, reviewsSkipped, deals };
}

/**
 * The cards a page shows that it may not: anything but its own hand, the cards in `known`, and
 * those played face up (all may show once the deal is over).
 * @param {import('playwright-core').Page} page
 * @param {string[]} [known]
 */
export async function hiddenCardsOnPage(page, known = []) {
  return page.evaluate((known) => {
    const deal = /** @type {any} */ (window).fipsenDebug.S.game?.deal;
    if (deal?.phase === 'over') return []; // everything is revealed now
    const seen = new Set([...known, ...(deal?.hand ?? [])]);
    for (const p of [...(deal?.tricks ?? []).flatMap((t) => t.cards), ...(deal?.trick ?? [])]) seen.add(p.card);
    return [...document.querySelectorAll('[data-card]')].map((e) => e.getAttribute('data-card')).filter((c) => !seen.has(c));
  }, known);
}

// ---- scripted play ----

/** Clicks an offered call (a selector inside the action panel) and confirms it. */
export async function callAndConfirm(page, selector) {
  await page.locator(`main .actions ${selector}:not([disabled])`).first().click();
  await page.locator('[data-key="confirm-yes"]').click();
  await settle(page);
}

/** Plays `card` when it is this page's turn: one tap. */
export async function playCard(page, card) {
  const button = page.locator(`.my-turn .hand .hand-card.playable[data-card="${card}"]:not([disabled])`);
  let failure = null;
  const inHand = page.locator(`.hand .hand-card[data-card="${card}"]`);
  // A message arriving just before the tap re-renders the hand: try again then. On a loaded
  // machine a step may outlast its wait although the card went out: then it is done.
  for (let attempt = 0; attempt < 4; attempt++) {
    if (attempt > 0 && (await inHand.count()) === 0) {
      await settle(page);
      return;
    }
    try {
      await button.click({ timeout: attempt === 0 ? STEP_TIMEOUT : 10_000 });
      await inHand.waitFor({ state: 'detached' });
      await settle(page);
      return;
    } catch (e) {
      failure = e;
    }
  }
  throw failure ?? new Error(`${card} could not be played`);
}

/**
 * Plays cards until `done()`: the declarer leads the cards of `leads` in order (he takes every
 * trick, so he leads each), the others play their first playable card.
 * @param {any[]} clients seated clients by seat
 * @param {number} declarer
 * @param {string[]} leads
 * @param {() => Promise<boolean>} done
 */
export async function playTricks(clients, declarer, leads, done) {
  const queue = [...leads];
  for (let step = 0; step < 200; step++) {
    if (await done()) return;
    let acted = false;
    for (const [seat, c] of clients.entries()) {
      if ((await c.page.locator('.table-screen.my-turn[data-phase="play"]').count()) === 0) continue;
      if (seat === declarer) {
        const card = queue.shift();
        assert.ok(card, 'the declarer has a card left to lead');
        await playCard(c.page, card);
      } else {
        await playIfAsked(c.page);
        await settle(c.page);
      }
      acted = true;
      break;
    }
    if (!acted) await clients[0].page.waitForTimeout(50);
  }
  throw new Error('the tricks were not played out');
}

/** What a page's result panel says: the sentence and each seat's total and points of the deal. */
export async function resultShown(page) {
  await page.locator('[data-testid="result"]').waitFor();
  return {
    sentence: (await page.locator('.result-sentence').textContent())?.trim(),
    scores: await page.locator('.result-scores li').evaluateAll((els) =>
      els.map((li) => ({ total: li.querySelector('.total')?.textContent, points: li.querySelector('.points')?.textContent ?? '' })),
    ),
  };
}

/**
 * The prompt vocabulary of the rules crate (`fipsen_rules::prompt::KEYS`): for every key of
 * every game's prompt, what it offers. Written by the rules crate's test
 * (`UPDATE_PROMPT_KEYS=1 cargo test -p fipsen-rules --test all prompt_vocabulary::`).
 * @type {Array<{key: string, offers: string, action?: string, field?: string}>}
 */
export const PROMPT_KEYS = JSON.parse(readFileSync(join(here, 'prompt-keys.json'), 'utf8'));

/**
 * JSON with every object's keys sorted: equal for equal values whatever their keys' order.
 * @param {any} value
 * @returns {string}
 */
export function canonicalJson(value) {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

/** Every set of `min` to `max` cards of `hand`, each in the hand's order. */
function cardSets(hand, min, max) {
  const out = [];
  const go = (start, chosen) => {
    if (chosen.length >= min) out.push([...chosen]);
    if (chosen.length === max) return;
    for (let i = start; i < hand.length; i++) go(i + 1, [...chosen, hand[i]]);
  };
  if (hand && max >= min && max <= hand.length) go(0, []);
  return out;
}

/**
 * Every action a prompt (`game.deal.prompt` of a frame) offers, grouped by key in the order of
 * the vocabulary, read as the rules crate reads it (`fipsen_rules::prompt::offered`): a flag
 * offers the action of its name, each item of a list an action, a number of cards every such
 * set of `hand` (`game.deal.hand`; none without it), Wippen's hand cards their discard, the
 * capture of the buildings they must take and their ready moves. Throws on a key the
 * vocabulary does not know.
 * @param {any} prompt
 * @param {string[] | null} [hand]
 * @returns {Array<{key: string, actions: any[]}>}
 */
export function promptGroups(prompt, hand = null) {
  for (const key of Object.keys(prompt ?? {})) {
    if (!PROMPT_KEYS.some((k) => k.key === key)) throw new Error(`the prompt key ${key} is not in the vocabulary`);
  }
  const out = [];
  for (const entry of PROMPT_KEYS) {
    const value = prompt?.[entry.key];
    if (value === undefined || value === null) continue;
    /** @type {any[]} */
    let actions = [];
    switch (entry.offers) {
      case 'flag':
        if (value === true) actions = [{ action: entry.action }];
        break;
      case 'each':
        actions = value.map((/** @type {any} */ item) => ({ action: entry.action, [String(entry.field)]: item }));
        break;
      case 'cards':
        actions = cardSets(hand, value, value).map((cards) => ({ action: entry.action, cards }));
        break;
      case 'up_to_cards':
        actions = cardSets(hand, 1, Math.min(value, hand?.length ?? 0)).map((cards) => ({ action: entry.action, cards }));
        break;
      case 'hand_cards': {
        const push = (/** @type {any} */ mv) => {
          if (!actions.some((a) => canonicalJson(a) === canonicalJson(mv))) actions.push(mv);
        };
        for (const c of value) {
          if (c.discard) push({ kind: 'discard', card: c.card });
          if (c.must_include.length) push({ kind: 'capture', card: c.card, groups: c.must_include.map((/** @type {number} */ id) => ({ building: id })) });
          for (const mv of c.ready ?? []) push(mv);
        }
        break;
      }
      default:
        throw new Error(`the vocabulary's kind ${entry.offers} is unknown here`);
    }
    if (actions.length) out.push({ key: entry.key, actions });
  }
  return out;
}

/**
 * The actions of {@link promptGroups} in one list, without the keys in `except` (a panel's
 * buttons leave out `cards` and `discard`, which are chosen on the hand).
 * @param {any} prompt
 * @param {string[] | null} [hand]
 * @param {{except?: string[]}} [options]
 */
export function promptActions(prompt, hand = null, { except = [] } = {}) {
  return promptGroups(prompt, hand)
    .filter((g) => !except.includes(g.key))
    .flatMap((g) => g.actions);
}
