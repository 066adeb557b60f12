// The rarer situations of a deal, clicked through end to end on the fixed-seed server, whose
// first deals are known in advance (see seeded.mjs): a Kieker won (the dealt hand shown to the
// left opponent only, five cards laid away, trumps), stopping and going on for Durch, Kontra and
// Rekontra, a Kieker given up at three, and a Siebener Fips announced out of turn. Each test
// checks what every player and a watcher see, and the score against docs/rules/prisdorf.md §7.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import {
  DESKTOP,
  PHONE,
  assertNoConsoleErrors,
  callAndConfirm,
  checkFrames,
  createRoom,
  handCards,
  hiddenCardsOnPage,
  joinByLink,
  launch,
  openClient,
  playTricks,
  resultShown,
  screenshot,
  settle,
} from './lib.mjs';
import { FOUR, THREE } from './seeded.mjs';

const SEEDED = process.env.FIPSEN_SEEDED_URL;
const skip = SEEDED ? false : 'needs the fixed-seed server that harness.mjs starts (FIPSEN_SEEDED_URL)';

const sorted = (cards) => [...cards].sort();

/** The game's words as a page in `lang` writes them (German and English share them). */
const JA_WORDS = { Kieker: 'キーカー', Durch: 'ドゥルヒ', Kontra: 'コントラ', Rekontra: 'レコントラ' };
const gameLabel = (lang, words) => words.map((w) => (lang === 'ja' ? (JA_WORDS[w] ?? w) : w)).join(' ');

/** Whether the page's info bar names this game. */
async function showsGame(c, words) {
  const text = await c.page.locator('[data-testid="contract"]').textContent();
  return text?.includes(gameLabel(c.lang, words));
}
const dev = (c) => (c.device === PHONE ? 'phone' : 'desktop');

let chrome;
before(async () => {
  if (!skip) chrome = await launch();
});
after(async () => {
  await chrome?.close();
});

/**
 * Opens a room on the fixed-seed server: the first person creates it, the others sit down in
 * order (so the n-th person has seat n), a watcher joins, and the host starts. Checks that each
 * player holds the hand the seed promises.
 * @param {{players: 3|4, kontra?: boolean, grace?: number, deal: typeof FOUR | typeof THREE,
 *   people: Array<{label: string, name: string, device: object, lang: 'de'|'en'|'ja'}>,
 *   watcher: {label: string, name: string, device: object, lang: 'de'|'en'|'ja'}}} table
 */
async function seatTable(table) {
  const [host, ...rest] = table.people;
  const first = await openClient(chrome, host.label, host.device, host.lang, SEEDED);
  Object.assign(first, { device: host.device, lang: host.lang });
  const { link } = await createRoom(first, host.name, {
    players: table.players,
    nextDeal: 'ask',
    kontra: table.kontra,
    grace: table.grace,
    screenshot: table.grace === undefined ? undefined : `${host.device === PHONE ? 'phone' : 'desktop'}-create-options`,
  });
  const seated = [first];
  for (const p of rest) {
    const c = await openClient(chrome, p.label, p.device, p.lang, SEEDED);
    Object.assign(c, { device: p.device, lang: p.lang });
    await joinByLink(c, link, p.name);
    seated.push(c);
  }
  const w = table.watcher;
  const watcher = await openClient(chrome, w.label, w.device, w.lang, SEEDED);
  Object.assign(watcher, { device: w.device, lang: w.lang });
  await joinByLink(watcher, link, w.name, 'spectator');
  await first.page.locator('.seat-row:not(.free)').nth(table.players - 1).waitFor();
  await first.page.locator('[data-key="start"]:not([disabled])').click();
  const everyone = [...seated, watcher];
  for (const c of everyone) await c.page.locator('.table-screen').waitFor();
  for (const [seat, c] of seated.entries()) {
    assert.equal(await c.page.evaluate(() => /** @type {any} */ (window).fipsenDebug.S.you.seat), seat, `${c.label} sits in seat ${seat}`);
    assert.deepEqual(
      sorted(await handCards(c.page)),
      sorted(table.deal.dealt[seat]),
      `the fixed seed deals ${c.label} the hand of seeded.mjs (if the dealing changed, find a new seed as it says)`,
    );
  }
  return { seated, watcher, everyone };
}

/** Waits until the page is asked something, then makes that call. */
async function call(c, selector) {
  await c.page.locator(`main .actions ${selector}:not([disabled])`).first().waitFor();
  await callAndConfirm(c.page, selector);
}

/** Passes in the auction for each of these players, in turn. */
async function passAll(clients) {
  for (const c of clients) await call(c, '[data-key="pass"]');
}

/** The bids the page's panel offers. */
async function offeredBids(page) {
  return page.locator('main .actions .bid-button').evaluateAll((els) => els.map((e) => JSON.parse(e.getAttribute('data-action') ?? '{}').bid));
}

/** Whether a page is asked to act right now. */
async function asked(page) {
  return (await page.locator('main .actions [data-action]').count()) > 0;
}

/** Lays away `cards`: tap each, then the confirmed button. */
async function layAway(c, cards) {
  await c.page.locator('.hand.discarding').waitFor();
  for (const card of cards) {
    await c.page.locator(`.hand .hand-card[data-card="${card}"]`).click();
    await c.page.locator(`.hand .hand-card[data-card="${card}"].selected`).waitFor();
  }
  await callAndConfirm(c.page, '[data-key="discard"]');
}

/**
 * The end of the deal as every page shows it: the result with the declarer's points (the others
 * score nothing, docs/rules/prisdorf.md §7), and the scoresheet row with the same value and the totals.
 * @param {any[]} everyone players by seat, then the watcher
 * @param {number} scorer the seat that scores
 * @param {number} value the points docs/rules/prisdorf.md §7 gives
 * @param {string} resultWord the result column of the scoresheet, in English
 */
async function checkResult(everyone, scorer, value, resultWord) {
  const n = everyone.length - 1;
  const sign = value > 0 ? `+${value}` : `−${Math.abs(value)}`;
  for (const c of everyone) {
    const shown = await resultShown(c.page);
    assert.ok(shown.sentence?.includes(sign), `${c.label} reads the result "${shown.sentence}" with ${sign}`);
    assert.equal(shown.scores.length, n);
    for (const [seat, s] of shown.scores.entries()) {
      if (seat === scorer) assert.deepEqual(s, { total: sign, points: ` (${sign})` }, `${c.label} sees seat ${seat} score ${sign}`);
      else assert.deepEqual(s, { total: '0', points: '' }, `${c.label} sees seat ${seat} score nothing`);
    }
    const totals = await c.page.evaluate(() => /** @type {any} */ (window).fipsenDebug.S.game.totals);
    assert.deepEqual(totals, Array.from({ length: n }, (_, i) => (i === scorer ? value : 0)));
    assert.equal(await c.page.locator('.reveal-seat').count(), n, `${c.label} sees every hand revealed`);
  }
  // The scoresheet of an English page: the row's result and points.
  const english = everyone.find((c) => c.lang === 'en') ?? everyone[0];
  await english.page.locator('[data-key="result-sheet"]').click();
  const row = english.page.locator('[data-testid="scoresheet"] tbody tr');
  await row.first().waitFor();
  assert.equal(await row.count(), 1);
  const cells = await row.first().locator('td').allTextContents();
  assert.ok(cells.includes(resultWord), `the scoresheet says ${resultWord}: ${cells.join(' | ')}`);
  assert.ok(cells.includes(sign), `the scoresheet row is worth ${sign}: ${cells.join(' | ')}`);
  return english;
}

/** A desktop page's screenshot, and the same page narrowed to a phone's width. */
async function screenshotBoth(c, name) {
  await screenshot(c, `desktop-${name}`);
  await c.page.setViewportSize(PHONE.viewport);
  await screenshot(c, `phone-${name}`);
  await c.page.setViewportSize(DESKTOP.viewport);
}

/**
 * Replays every frame each player and the watcher received: none may hold a card before the
 * end that the viewer may not know.
 * @param {any[]} seated players by seat
 * @param {any} watcher
 * @param {string[][]} known what each seat may know: his own cards, and what he was shown
 * @returns the watcher's replay (cards played, and the reveal at the end)
 */
function checkEveryonesFrames(seated, watcher, known) {
  for (const [seat, c] of seated.entries()) checkFrames(c.frames, known[seat]);
  return checkFrames(watcher.frames);
}

test('a Kieker: shown to the left opponent only, five laid away, trumps named, won with every trick (+10)', { skip }, async () => {
  const people = [
    { label: 'kieker-antje', name: 'Antje', device: DESKTOP, lang: 'en' },
    { label: 'kieker-hinnerk', name: 'Hinnerk', device: PHONE, lang: 'de' },
    { label: 'kieker-fiete', name: 'Fiete', device: DESKTOP, lang: 'ja' },
    { label: 'kieker-meike', name: 'Meike', device: PHONE, lang: 'en' },
  ];
  const watcherPerson = { label: 'kieker-oma', name: 'Oma Grete', device: PHONE, lang: 'en' };
  const { seated, watcher, everyone } = await seatTable({ players: 4, deal: FOUR, people, watcher: watcherPerson });
  const [antje, hinnerk, fiete, meike] = seated;
  const shownHand = FOUR.dealt[0];

  // Antje holds no picture: the Kieker is offered to her, between the fours and the fives.
  await antje.page.locator('[data-key="bid-kieker"]').waitFor();
  await screenshot(antje, 'desktop-kieker-bid');
  await call(antje, '[data-key="bid-kieker"]');
  // Against a Kieker, Hinnerk may only bid five or more, or pass.
  await hinnerk.page.locator('main .actions [data-key="pass"]').waitFor();
  const bids = await offeredBids(hinnerk.page);
  assert.ok(bids.length > 0 && bids.every((b) => b.kind === 'tricks' && b.tricks === 5), `only fives against a Kieker: ${JSON.stringify(bids)}`);
  await passAll([hinnerk, fiete, meike]);

  // The dealt hand is shown to Hinnerk, the opponent on Antje's left, and to nobody else.
  await hinnerk.page.locator('.kieker-shown').waitFor();
  assert.deepEqual(sorted(await hinnerk.page.locator('.kieker-shown .small-card').evaluateAll((els) => els.map((e) => e.getAttribute('data-card')))), sorted(shownHand));
  await screenshot(hinnerk, 'phone-kieker-shown-de');
  for (const c of [fiete, meike, watcher]) {
    await c.page.locator('.table-screen[data-phase="discard"]').waitFor();
    assert.equal(await c.page.locator('.kieker-shown').count(), 0, `${c.label} is not shown the Kieker's hand`);
    assert.deepEqual(await hiddenCardsOnPage(c.page), [], `${c.label}'s page shows no hidden card`);
  }
  assert.deepEqual(await hiddenCardsOnPage(hinnerk.page, shownHand), [], 'Hinnerk sees no other hidden card');
  await screenshot(watcher, 'phone-kieker-spectator');

  // Antje took skat and stock: ten cards, the five picked up marked; she lays five away.
  await antje.page.locator('.hand.discarding').waitFor();
  const ten = await handCards(antje.page);
  assert.deepEqual(sorted(ten), sorted([...shownHand, ...FOUR.skat, ...FOUR.stock]));
  const marked = await antje.page.locator('.hand .hand-card.picked-up').evaluateAll((els) => els.map((e) => e.getAttribute('data-card')));
  assert.deepEqual(sorted(marked), sorted([...FOUR.skat, ...FOUR.stock]), 'the cards from skat and stock are marked');
  assert.equal(await antje.page.locator('.kieker-shown').count(), 0, 'the declarer has his own cards in hand');
  assert.equal(await antje.page.locator('main .actions [data-key="give-up"]').count(), 1, 'a Kieker may be given up before the first card');
  await screenshotBoth(antje, 'kieker-discard');
  await layAway(antje, FOUR.kieker.layAway);
  assert.deepEqual(sorted(await handCards(antje.page)), sorted(FOUR.kieker.leads));

  // Trumps: every suit, Ruten included, and still the give-up.
  await antje.page.locator('main .actions .suit-button').first().waitFor();
  const suits = await antje.page.locator('main .actions .suit-button').evaluateAll((els) => els.map((e) => JSON.parse(e.getAttribute('data-action') ?? '{}').suit));
  assert.deepEqual(suits, ['clubs', 'spades', 'hearts', 'diamonds']);
  await screenshotBoth(antje, 'kieker-trumps');
  await call(antje, `[data-key="trumps-${FOUR.kieker.trumps}"]`);
  for (const c of everyone) {
    await c.page.locator('.table-screen[data-phase="play"]').waitFor();
    assert.ok(await showsGame(c, ['Kieker']), `${c.label} sees the Kieker declared`);
  }

  // Antje leads her clubs from the ace: every trick is hers.
  let shot = false;
  await playTricks(seated, 0, FOUR.kieker.leads, async () => {
    if (!shot && (await meike.page.locator('.centre .played').count()) === 2) {
      await screenshot(meike, 'phone-kieker-play');
      shot = true;
    }
    return (await antje.page.locator('[data-testid="result"]').count()) > 0;
  });
  await screenshot(hinnerk, 'phone-kieker-result-de');
  await screenshot(fiete, 'desktop-kieker-result-ja');
  const english = await checkResult(everyone, 0, 10, 'won (5)');
  await screenshot(english, `${dev(english)}-kieker-scoresheet`);

  // Nobody but Antje and Hinnerk ever received the shown hand before the end; Antje saw skat
  // and stock, and nobody's cards.
  const { reveal } = checkEveryonesFrames(seated, watcher, [
    [...shownHand, ...FOUR.skat, ...FOUR.stock],
    [...FOUR.dealt[1], ...shownHand],
    FOUR.dealt[2],
    FOUR.dealt[3],
  ]);
  assert.deepEqual(sorted(reveal.dealt[0]), sorted(shownHand), 'the reveal at the end holds the Kieker hand');
  assertNoConsoleErrors(everyone);
});

/**
 * Seat 0 bids 3, takes the skat, lays two away and names trumps; Kontra and Rekontra if the
 * table plays them; then leads until the Durch choice.
 */
async function durchUpToChoice(seated, watcher, kontra) {
  const [declarer, left, across, right] = seated;
  await call(declarer, '[data-key="bid-3-"]');
  await passAll([left, across, right]);
  await call(declarer, '[data-key="take-skat"]');
  await declarer.page.locator('.hand.discarding').waitFor();
  if (!kontra) await screenshot(declarer, `${dev(declarer)}-skat-discard`);
  await layAway(declarer, FOUR.durch.layAway);
  await call(declarer, `[data-key="trumps-${FOUR.durch.trumps}"]`);
  if (kontra) {
    // The opponents are asked in seat order: Hinnerk says no, Fiete says Kontra, Antje answers.
    await left.page.locator('main .actions [data-key="kontra"]').waitFor();
    assert.equal(await asked(across.page), false, 'one opponent at a time is asked');
    await screenshot(left, `${dev(left)}-kontra-asked`);
    await call(left, '[data-key="no-kontra"]');
    await call(across, '[data-key="kontra"]');
    await declarer.page.locator('main .actions [data-key="rekontra"]').waitFor();
    assert.equal(await asked(right.page), false, 'after a Kontra the last opponent is not asked');
    await screenshot(declarer, `${dev(declarer)}-rekontra-asked`);
    await call(declarer, '[data-key="rekontra"]');
    for (const c of [...seated, watcher]) {
      await c.page.locator('.table-screen[data-phase="play"]').waitFor();
      assert.ok(await showsGame(c, ['3', 'Kontra', 'Rekontra']), `${c.label} sees Kontra and Rekontra`);
    }
  }
  await playTricks(seated, 0, FOUR.durch.leads, async () => (await declarer.page.locator('main .actions [data-key="go-on"]').count()) > 0);
  // Three tricks, none lost: only Antje chooses; the others are told she does.
  for (const c of [...seated.slice(1), watcher]) {
    await c.page.locator('.table-screen[data-phase="durch_choice"]').waitFor();
    assert.equal(await asked(c.page), false, `${c.label} is not asked`);
    assert.ok((await c.page.locator('[data-testid="status"]').textContent())?.includes('Antje'), `${c.label} is told Antje chooses`);
    assert.equal((await c.page.locator('[data-testid="tricks-taken"]').textContent())?.replace(/\s+/g, ' ').match(/\d+/g)?.join(':'), '3:0');
  }
  return FOUR.durch.leads.slice(3);
}

/** What each seat may know in the Durch games: the declarer his cards and the skat, never the stock. */
const DURCH_KNOWN = [[...FOUR.dealt[0], ...FOUR.skat], ...FOUR.dealt.slice(1)];

const durchPeople = [
  { label: 'durch-antje', name: 'Antje', device: PHONE, lang: 'en' },
  { label: 'durch-hinnerk', name: 'Hinnerk', device: DESKTOP, lang: 'en' },
  { label: 'durch-fiete', name: 'Fiete', device: PHONE, lang: 'de' },
  { label: 'durch-meike', name: 'Meike', device: DESKTOP, lang: 'ja' },
];
const durchWatcher = { label: 'durch-oma', name: 'Oma Grete', device: DESKTOP, lang: 'en' };

test('three tricks without a loss: the declarer stops and wins 3 (+3)', { skip }, async () => {
  const { seated, watcher, everyone } = await seatTable({ players: 4, deal: FOUR, people: durchPeople, watcher: durchWatcher });
  await durchUpToChoice(seated, watcher, false);
  const antje = seated[0];
  await screenshot(antje, 'phone-durch-choice');
  await screenshot(seated[1], 'desktop-durch-waiting');
  await screenshot(watcher, 'desktop-durch-spectator');
  await call(antje, '[data-key="stop"]');
  await checkResult(everyone, 0, 3, 'won (3)');
  // The deal ended after three tricks: the result, and the log's last line, say so; the log has a
  // line for every card played, in order.
  for (const c of everyone.filter((c) => c.lang === 'en')) {
    assert.match((await resultShown(c.page)).sentence ?? '', /taking 3 of 3 tricks/, `${c.label}'s result`);
    const log = await c.page.evaluate(() => /** @type {any} */ (window).fipsenDebug.S.log.map((l) => l.text));
    assert.ok(log.some((line) => /taking 3 of 3 tricks/.test(line)), `${c.label}'s log: ${log.slice(-3).join(' / ')}`);
    const plays = await c.page.evaluate(() => {
      const S = /** @type {any} */ (window).fipsenDebug.S;
      const name = (seat) => S.room.seats[seat].name;
      const face = { C: '♣', S: '♠', H: '♥', D: '♦' };
      return S.game.deal.tricks.flatMap((t) => t.cards.map((p) => `${name(p.seat)} plays ${face[p.card[0]]}${p.card.slice(1)}.`));
    });
    assert.equal(plays.length, 12);
    assert.deepEqual(
      log.filter((line) => / plays [♣♠♥♦]/.test(line)),
      plays,
      `${c.label}'s log has a line per card played`,
    );
  }
  checkEveryonesFrames(seated, watcher, DURCH_KNOWN);
  assertNoConsoleErrors(everyone);
});

test('Kontra and Rekontra, then the declarer goes on for Durch and takes all five (3 × 2³ = +24)', { skip }, async () => {
  const { seated, watcher, everyone } = await seatTable({ players: 4, deal: FOUR, kontra: true, grace: 300, people: durchPeople, watcher: durchWatcher });
  // The table's options as the players see them before the game: Kontra on, seats kept 300 s.
  const options = await seated[1].page.evaluate(() => /** @type {any} */ (window).fipsenDebug.S.room);
  assert.equal(options.rules.kontra, true);
  assert.equal(options.options.grace_seconds, 300);
  const rest = await durchUpToChoice(seated, watcher, true);
  const antje = seated[0];
  await call(antje, '[data-key="go-on"]');
  for (const c of everyone) {
    await c.page.locator('.table-screen[data-phase="play"]').waitFor();
    assert.ok(await showsGame(c, ['3', 'Durch', 'Kontra', 'Rekontra']), `${c.label} sees Durch`);
  }
  await screenshot(seated[3], 'desktop-durch-going-on-ja');
  await playTricks(seated, 0, rest, async () => (await antje.page.locator('[data-testid="result"]').count()) > 0);
  await screenshot(antje, 'phone-durch-result');
  await checkResult(everyone, 0, 24, 'won (5)');
  checkEveryonesFrames(seated, watcher, DURCH_KNOWN);
  assertNoConsoleErrors(everyone);
});

const threePeople = [
  { label: 'three-anna', name: 'Anna', device: PHONE, lang: 'en' },
  { label: 'three-bernd', name: 'Bernd', device: DESKTOP, lang: 'de' },
  { label: 'three-chiyo', name: 'Chiyo', device: PHONE, lang: 'ja' },
];
const threeWatcher = { label: 'three-dora', name: 'Dora', device: DESKTOP, lang: 'en' };

test('a Kieker at three: the dealt hand thrown away, ten from skat and stock, five laid away, then given up (−5)', { skip }, async () => {
  const { seated, watcher, everyone } = await seatTable({ players: 3, deal: THREE, people: threePeople, watcher: threeWatcher });
  const [anna, bernd, chiyo] = seated;
  const shownHand = THREE.dealt[0];
  await call(anna, '[data-key="bid-kieker"]');
  await passAll([bernd, chiyo]);
  // Shown to Bernd on Anna's left; not to Chiyo, not to the watcher.
  await bernd.page.locator('.kieker-shown').waitFor();
  assert.deepEqual(sorted(await bernd.page.locator('.kieker-shown .small-card').evaluateAll((els) => els.map((e) => e.getAttribute('data-card')))), sorted(shownHand));
  await screenshot(bernd, 'desktop-three-kieker-shown-de');
  for (const c of [chiyo, watcher]) {
    await c.page.locator('.table-screen[data-phase="discard"]').waitFor();
    assert.equal(await c.page.locator('.kieker-shown').count(), 0, `${c.label} is not shown the Kieker's hand`);
    assert.deepEqual(await hiddenCardsOnPage(c.page), [], `${c.label}'s page shows no hidden card`);
  }
  // Anna's dealt hand is thrown away: she holds the skat and the stock (all picked up, so none
  // is marked as such), in two rows of whole cards on her phone.
  await anna.page.locator('.hand.discarding').waitFor();
  const ten = [...THREE.skat, ...THREE.stock];
  assert.deepEqual(sorted(await handCards(anna.page)), sorted(ten));
  assert.equal(await anna.page.locator('.hand .hand-card.picked-up').count(), 0);
  // (offsetTop: a card lifted under the pointer is still in its row)
  const rows = await anna.page.locator('.hand .hand-card').evaluateAll((els) => new Set(els.map((e) => /** @type {HTMLElement} */ (e).offsetTop)).size);
  assert.equal(rows, 2, 'ten cards in two rows on a phone');
  await screenshot(anna, 'phone-three-kieker-discard');
  await layAway(anna, THREE.stock.slice(0, 5));
  // Before naming trumps she gives up.
  await anna.page.locator('main .actions [data-key="give-up"]').waitFor();
  await screenshot(anna, 'phone-three-kieker-give-up');
  await call(anna, '[data-key="give-up"]');
  await screenshot(chiyo, 'phone-three-kieker-given-up-ja');
  await checkResult(everyone, 0, -5, 'given up');
  checkEveryonesFrames(seated, watcher, [[...shownHand, ...THREE.skat, ...THREE.stock], [...THREE.dealt[1], ...shownHand], THREE.dealt[2]]);
  assertNoConsoleErrors(everyone);
});

test('a Siebener Fips announced out of turn ends the deal at once (+30)', { skip }, async () => {
  const { seated, watcher, everyone } = await seatTable({ players: 3, deal: THREE, people: threePeople, watcher: threeWatcher });
  const [anna, bernd, chiyo] = seated;
  // Anna holds the four sevens and the ace of clubs: she may announce it at any moment.
  await anna.page.locator('main .actions [data-key="siebener-fips"]').waitFor();
  await call(anna, '[data-key="bid-2-"]');
  // Now it is Bernd's turn, and Anna is still offered the Siebener Fips (and nothing else).
  await bernd.page.locator('main .actions [data-key="pass"]').waitFor();
  const offered = await anna.page.locator('main .actions [data-action]').evaluateAll((els) => els.map((e) => e.getAttribute('data-action')));
  assert.deepEqual(offered, ['{"action":"siebener_fips"}']);
  assert.equal(await chiyo.page.locator('main .actions [data-key="siebener-fips"]').count(), 0, 'only the holder is offered it');
  await screenshot(anna, 'phone-fips-out-of-turn');
  await callAndConfirm(anna.page, '[data-key="siebener-fips"]');
  // Everybody sees the four sevens and the ace laid down in the middle of the table.
  for (const c of everyone) {
    await c.page.locator('.centre .fips-shown').waitFor();
    const laid = await c.page.locator('.centre .fips-shown .small-card').evaluateAll((els) => els.map((e) => e.getAttribute('data-card')));
    assert.deepEqual(sorted(laid), sorted(THREE.dealt[0]), `${c.label} sees the Siebener Fips laid down`);
  }
  await screenshot(bernd, 'desktop-fips-result-de');
  const english = await checkResult(everyone, 0, 30, 'Siebener Fips');
  await screenshot(english, `${dev(english)}-fips-scoresheet`);
  // Every frame before the end held only cards the viewer may see, the laid-down ones included.
  const { shown } = checkEveryonesFrames(seated, watcher, THREE.dealt);
  for (const card of ['C7', 'S7', 'H7', 'D7', 'CA']) assert.ok(shown.has(card), `the Siebener Fips shows ${card}`);
  await settle(anna.page);
  assertNoConsoleErrors(everyone);
});
