// Großenaspe Fipsen (docs/rules/grossenaspe.md §A) in the web client, on the fixed-seed server so that every
// room's first deal is known (the hands below): the game chosen on the create form, named in the
// lobby, on the invitation, in the window title and on the scoresheet; each prompt's panel offers
// exactly what the prompt lists and works when clicked; the watcher's and every player's frames
// and pages hold no card before the server may show it; five at a table on a phone; the German
// faces. Screenshots go to artifacts/.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import {
  DESKTOP,
  PACK32,
  PHONE,
  assertNoConsoleErrors,
  callAndConfirm,
  checkFrames,
  checkFramesOfSeat,
  createRoom,
  handCards,
  hiddenCardsOnPage,
  joinByLink,
  launch,
  openClient,
  playCard,
  playIfAsked,
  promptActions,
  screenshot,
  screenshotFull,
  settle,
} from './lib.mjs';

const SEEDED = process.env.FIPSEN_SEEDED_URL;

/** The first deal at three (dealer seat 2, forehand seat 0, scribe seat 1). */
const THREE = {
  dealt: [
    ['CK', 'SQ', 'H7', 'HA', 'DQ'],
    ['C10', 'S10', 'H9', 'HQ', 'DA'],
    ['C7', 'S7', 'H10', 'HJ', 'DK'],
  ],
  skat: ['D9', 'DJ'],
};

/** The first deal at five (dealer seat 1, forehand seat 2): seat 1 holds no court card. */
const FIVE = {
  dealt: [
    ['CK', 'SA', 'D8', 'D9', 'DJ'],
    ['C9', 'C10', 'S10', 'H8', 'HA'],
    ['CQ', 'S9', 'SQ', 'H7', 'DQ'],
    ['CA', 'SJ', 'H9', 'HQ', 'DA'],
    ['C7', 'CJ', 'S7', 'H10', 'HK'],
  ],
};

/** The actions a prompt lists, as the client should offer them (cards and discards aside). */
function expectedActions(prompt) {
  return promptActions(prompt, null, { except: ['cards', 'discard'] }).map((a) => JSON.stringify(a)).sort();
}

/** Checks that the page's panel offers exactly what its prompt lists. */
async function offersThePrompt(client) {
  const { prompt, offered } = await client.page.evaluate(() => ({
    prompt: /** @type {any} */ (window).fipsenDebug.S.game.deal.prompt,
    offered: [...document.querySelectorAll('main .actions [data-action]')].map((e) => e.getAttribute('data-action')),
  }));
  assert.deepEqual(offered.map((a) => JSON.stringify(JSON.parse(a ?? ''))).sort(), expectedActions(prompt), `${client.label}: the panel offers the prompt`);
  return prompt;
}

/** Waits until it is this page's turn with a panel (or a card to play). */
async function myTurn(client) {
  await client.page.locator('.table-screen.my-turn').waitFor();
  await settle(client.page);
}

async function state(page, path) {
  return page.evaluate((p) => p.split('.').reduce((o, k) => o?.[k], /** @type {any} */ (window).fipsenDebug), path);
}

let chrome;
before(async () => {
  chrome = await launch();
});
after(async () => {
  await chrome?.close();
});

test('Großenaspe: three players (desktop and phones) and a watcher bid, lay away, name trumps, go on for Durch and see the scoresheet with the scribe and cents', { skip: !SEEDED && 'no fixed-seed server' }, async () => {
  const antje = await openClient(chrome, 'ga-antje', DESKTOP, 'en', SEEDED);
  // The create form: the game chosen first, then that game's options (players 3 to 5, cents).
  await antje.page.locator('[data-key="opt-game-grossenaspe"]').waitFor();
  assert.ok(await antje.page.locator('[data-key="opt-game-prisdorf"]').isChecked(), 'Prisdorf by default');
  const { code, link } = await createRoom(antje, 'Antje', {
    game: 'grossenaspe',
    players: 3,
    cents: true,
    public: true,
    nextDeal: 'ask',
    title: 'Aspe table',
    screenshot: 'desktop-create-grossenaspe',
  });
  const rules = await state(antje.page, 'S.room.rules');
  assert.equal(rules.game, 'grossenaspe');
  assert.equal(rules.players, 3);
  assert.equal(rules.cents, true);
  await antje.page.locator('.rules-summary .rule', { hasText: 'Großenaspe Fipsen' }).waitFor();
  assert.match(await antje.page.title(), /^Aspe table — Großenaspe Fipsen/);

  // The lobby names the game; so do the invitation page and its window title.
  const hinnerk = await openClient(chrome, 'ga-hinnerk', PHONE, 'de', SEEDED);
  const row = hinnerk.page.locator('.lobby-row', { hasText: 'Aspe table' });
  await row.waitFor();
  assert.equal(await row.locator('[data-testid="lobby-game"]').textContent(), 'Großenaspe Fipsen');
  await hinnerk.page.goto(link);
  await hinnerk.page.locator('[data-testid="invite-game"]', { hasText: 'Großenaspe Fipsen' }).waitFor();
  assert.match((await hinnerk.page.locator('[data-testid="invite-game"]').textContent()) ?? '', /3 Spieler/);
  assert.match(await hinnerk.page.title(), /Großenaspe Fipsen/);
  // The rules in brief: the invited game first.
  await hinnerk.page.locator('.howto > summary').click();
  assert.equal(await hinnerk.page.locator('.howto-game').first().getAttribute('data-game'), 'grossenaspe');
  await screenshotFull(hinnerk, 'phone-invitation-grossenaspe-de');
  await joinByLink(hinnerk, link, 'Hinnerk');
  const meike = await openClient(chrome, 'ga-meike', PHONE, 'ja', SEEDED);
  await joinByLink(meike, link, 'Meike');
  const oma = await openClient(chrome, 'ga-oma', DESKTOP, 'en', SEEDED);
  await joinByLink(oma, link, 'Oma Grete', 'spectator');
  const players = [antje, hinnerk, meike];
  const everyone = [...players, oma];
  await antje.page.locator('[data-key="start"]:not([disabled])').click();
  for (const c of everyone) await c.page.locator('.table-screen').waitFor();

  // The deal as known; the scribe (seat 1) marked at his seat and named in the log.
  for (const [seat, c] of players.entries()) {
    assert.equal(await state(c.page, 'S.you.seat'), seat);
    assert.deepEqual((await handCards(c.page)).sort(), [...THREE.dealt[seat]].sort(), `${c.label}'s hand`);
  }
  assert.equal(await state(antje.page, 'S.game.scribe'), 1);
  await antje.page.locator('.seat[data-seat="1"] [data-testid="scribe"]').waitFor();
  await oma.page.locator('.seat[data-seat="1"] [data-testid="scribe"]').waitFor();
  assert.equal(await oma.page.locator('.felt .seat').count(), 3, 'the watcher sees three players');

  // The auction: Antje (forehand) is asked first; the grid holds exactly the bids offered.
  await myTurn(antje);
  const opening = await offersThePrompt(antje);
  assert.ok(opening.bids.some((b) => b.kind === 'fips'), 'Fips is offered');
  assert.equal(await antje.page.locator('[data-key="bid-1"]').textContent(), '1');
  assert.equal(await antje.page.locator('[data-key="bid-3-g"]').textContent(), '3 Gute');
  await screenshot(antje, 'desktop-grossenaspe-auction');
  await callAndConfirm(antje.page, '[data-key="bid-1"]');
  await hinnerk.page.locator('[data-testid="standing"]', { hasText: '1' }).waitFor();
  await myTurn(hinnerk);
  await offersThePrompt(hinnerk);
  await hinnerk.page.locator('[data-key="bid-1-g"]').waitFor();
  await screenshot(hinnerk, 'phone-grossenaspe-auction-de');
  await callAndConfirm(hinnerk.page, '[data-key="pass"]');
  await myTurn(meike);
  await offersThePrompt(meike);
  await screenshot(meike, 'phone-grossenaspe-auction-ja');
  await callAndConfirm(meike.page, '[data-key="pass"]');

  // Antje picks up the skat (the two cards marked), lays two away and names trumps.
  await myTurn(antje);
  assert.equal(await state(antje.page, 'S.game.deal.prompt.discard'), 2);
  assert.deepEqual((await handCards(antje.page)).sort(), [...THREE.dealt[0], ...THREE.skat].sort());
  assert.equal(await antje.page.locator('.hand .hand-card.picked-up').count(), 2, 'the skat marked in the hand');
  await antje.page.locator('.hand .hand-card[data-card="H7"]').click();
  await antje.page.locator('.hand .hand-card[data-card="SQ"]').click();
  await screenshot(antje, 'desktop-grossenaspe-discard');
  await callAndConfirm(antje.page, '[data-key="discard"]');
  await myTurn(antje);
  const trumps = await offersThePrompt(antje);
  assert.deepEqual(trumps.trumps, ['clubs', 'spades', 'hearts', 'diamonds']);
  assert.equal(trumps.fold, undefined, 'no fold outside a Kieker');
  await screenshot(antje, 'desktop-grossenaspe-trumps');
  await callAndConfirm(antje.page, '[data-key="trumps-diamonds"]');
  for (const c of everyone) await c.page.locator('[data-testid="contract"]', { hasText: /Antje/ }).waitFor();
  // Nobody else saw a card of hers, the skat or her discards.
  assert.deepEqual(await hiddenCardsOnPage(oma.page), []);
  assert.deepEqual(await hiddenCardsOnPage(hinnerk.page), []);

  // She leads the ace of hearts and takes the trick: stop or go on for Durch is hers to choose.
  await playCard(antje.page, 'HA');
  await playIfAsked(hinnerk.page);
  await playIfAsked(meike.page);
  await myTurn(antje);
  const choice = await offersThePrompt(antje);
  assert.ok(choice.stop && choice.go_on, 'stop and go on are offered');
  await hinnerk.page.locator('[data-testid="status"]', { hasText: 'Antje' }).waitFor();
  await screenshot(antje, 'desktop-grossenaspe-durch');
  await callAndConfirm(antje.page, '[data-key="go-on"]');
  await antje.page.locator('[data-testid="contract"]', { hasText: 'Durch' }).waitFor();

  // The rest is played out, the watcher checked as it goes.
  for (let step = 0; step < 60 && !(await antje.page.locator('[data-testid="result"]').count()); step++) {
    let acted = false;
    for (const c of players) if (await playIfAsked(c.page)) acted = true;
    if (!acted) await antje.page.waitForTimeout(100);
    assert.deepEqual(await hiddenCardsOnPage(oma.page), [], 'the watcher sees no hidden card');
  }
  for (const c of everyone) await c.page.locator('[data-testid="result"]').waitFor();
  const outcome = await state(antje.page, 'S.game.deal.outcome');
  assert.equal(outcome.declarer, 0);
  assert.ok(outcome.game.durch, 'played on for Durch');
  const sentence = (await antje.page.locator('.result-sentence').textContent()) ?? '';
  assert.match(sentence, outcome.result === 'won' ? /Antje won 1 Durch/ : /Antje lost 1 Durch/);
  assert.equal(await antje.page.locator('.reveal-seat').count(), 3);
  // The review of the decisions before the play is offered (issue 28; its content: reviews.test.mjs).
  assert.equal(await antje.page.locator('[data-key="review-open"]').textContent(), 'Review my decisions', 'the review of the decisions offered');
  await screenshotFull(antje, 'desktop-grossenaspe-result');
  await screenshot(hinnerk, 'phone-grossenaspe-result-de');

  // The scoresheet names the game and the scribe, and keeps the score in cents with a settlement.
  await hinnerk.page.locator('[data-key="result-sheet"]').click();
  await hinnerk.page.locator('[data-testid="sheet-game"]', { hasText: 'Großenaspe Fipsen' }).waitFor();
  await hinnerk.page.locator('[data-testid="sheet-scribe"]', { hasText: 'Schreiber: Hinnerk' }).waitFor();
  const totals = await state(hinnerk.page, 'S.game.totals');
  const shown = await hinnerk.page.locator('[data-testid="scoresheet"] tbody tr td.total').allTextContents();
  assert.deepEqual(
    shown,
    totals.map((n) => `${n > 0 ? '+' : n < 0 ? '−' : ''}${Math.abs(n)} ct`),
  );
  const settlement = await state(hinnerk.page, 'S.game.settlement');
  assert.equal(settlement.length, 3);
  assert.equal(await hinnerk.page.locator('[data-testid="settlement"] li').count(), 3);
  await screenshot(hinnerk, 'phone-grossenaspe-scoresheet-de');
  await hinnerk.page.keyboard.press('Escape');

  // Every frame held only what its viewer may know until the end.
  const { reveal } = checkFrames(oma.frames);
  assert.ok(reveal, 'the watcher got the reveal');
  assert.deepEqual([...new Set([...reveal.dealt.flat(), ...reveal.skat, ...reveal.talon])].sort(), [...PACK32].sort(), 'the reveal accounts for the pack');
  assert.deepEqual(reveal.dealt, THREE.dealt);
  for (const [seat, c] of players.entries()) checkFramesOfSeat(c.frames, seat);

  // The German faces, from the settings: the suits' shapes and names follow.
  await hinnerk.page.locator('[data-key="settings"]').click();
  await hinnerk.page.locator('[data-key="set-deck-german"]').check();
  await hinnerk.page.locator('[data-key="close-settings"]').click();
  assert.ok(await hinnerk.page.evaluate(() => document.body.classList.contains('german-faces')));
  assert.ok((await hinnerk.page.locator('#card-sprite symbol#suit-C path').count()) > 1, 'the acorn is drawn');
  const names = await hinnerk.page.locator('.reveal .small-card').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
  assert.ok(names.includes('Eichel König'), `the German names: ${names.join(', ')}`);
  assert.ok(names.includes('Grün Ober'));
  assert.ok(names.includes('Schellen Daus'));
  await hinnerk.page.locator('.reveal').scrollIntoViewIfNeeded();
  await screenshot(hinnerk, 'phone-grossenaspe-german-faces-de');
  // Kept for the next visit, and back to the French faces.
  await hinnerk.page.reload();
  await hinnerk.page.locator('.table-screen').waitFor();
  assert.ok(await hinnerk.page.evaluate(() => document.body.classList.contains('german-faces')));
  await hinnerk.page.locator('[data-key="settings"]').click();
  await hinnerk.page.locator('[data-key="set-deck-french"]').check();
  await hinnerk.page.locator('[data-key="close-settings"]').click();
  assert.equal(await hinnerk.page.locator('#card-sprite symbol#suit-C path').count(), 1);

  // "Your tables" on the home page names the game.
  await antje.page.goto(antje.page.url().split('#')[0]);
  await antje.page.locator('.mine [data-testid="lobby-game"]', { hasText: 'Großenaspe Fipsen' }).waitFor();
  assert.ok(code);
  assertNoConsoleErrors(everyone);
});

test('Großenaspe: five at a table on a phone; a Kieker shown to his left, laid away and folded', { skip: !SEEDED && 'no fixed-seed server' }, async () => {
  const host = await openClient(chrome, 'ga5-host', DESKTOP, 'en', SEEDED);
  const { link } = await createRoom(host, 'Anna', { game: 'grossenaspe', players: 5, nextDeal: 'ask' });
  const kieker = await openClient(chrome, 'ga5-kieker', PHONE, 'en', SEEDED);
  await joinByLink(kieker, link, 'Bea');
  const others = [];
  for (const name of ['Carl', 'Dora', 'Emil']) {
    const c = await openClient(chrome, `ga5-${name.toLowerCase()}`, DESKTOP, 'en', SEEDED);
    await joinByLink(c, link, name);
    others.push(c);
  }
  const players = [host, kieker, ...others];
  await host.page.locator('[data-key="start"]:not([disabled])').click();
  for (const c of players) await c.page.locator('.table-screen').waitFor();
  for (const [seat, c] of players.entries()) assert.deepEqual((await handCards(c.page)).sort(), [...FIVE.dealt[seat]].sort(), `${c.label}'s hand`);

  // Five at the table on a phone: every seat in view, none over another.
  assert.equal(await kieker.page.locator('.felt .seat').count(), 4);
  const boxes = await kieker.page.locator('.felt .seat').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().toJSON()));
  for (const b of boxes) assert.ok(b.left >= 0 && b.right <= 390, 'each seat within the screen');
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const [a, b] = [boxes[i], boxes[j]];
      const apart = a.right <= b.left || b.right <= a.left || a.bottom <= b.top || b.bottom <= a.top;
      assert.ok(apart, 'no seat over another');
    }
  }
  await screenshot(kieker, 'phone-grossenaspe-five');
  await screenshot(host, 'desktop-grossenaspe-five');

  // Everybody passes but Bea (the dealer, last to speak), whose hand holds no court card.
  for (let step = 0; step < 8; step++) {
    if ((await state(kieker.page, 'S.game.deal.turn')) === 1) break;
    for (const c of [host, ...others]) {
      if ((await c.page.locator('.table-screen.my-turn').count()) === 0) continue;
      await settle(c.page);
      const p = await offersThePrompt(c);
      assert.ok(!p.bids?.some((b) => b.kind === 'kieker'), `${c.label} holds a court card: no Kieker`);
      await callAndConfirm(c.page, '[data-key="pass"]');
    }
    await host.page.waitForTimeout(100);
  }
  await myTurn(kieker);
  await offersThePrompt(kieker);
  await kieker.page.locator('[data-key="bid-kieker"]').scrollIntoViewIfNeeded();
  await screenshot(kieker, 'phone-grossenaspe-kieker-bid');
  await callAndConfirm(kieker.page, '[data-key="bid-kieker"]');

  // Her dealt hand is shown to her left opponent, seat 2 (Carl), alone.
  const carl = others[0];
  await carl.page.locator('.kieker-shown').waitFor();
  assert.deepEqual(
    (await carl.page.locator('.kieker-shown .small-card').evaluateAll((els) => els.map((e) => e.getAttribute('data-card')))).sort(),
    [...FIVE.dealt[1]].sort(),
  );
  for (const c of [host, ...others.slice(1)]) assert.deepEqual(await hiddenCardsOnPage(c.page), [], `${c.label} sees no card of hers`);
  assert.deepEqual(await hiddenCardsOnPage(carl.page, FIVE.dealt[1]), []);

  // She takes skat and talon (seven cards, all new), keeps five and folds.
  await myTurn(kieker);
  const hand = await handCards(kieker.page);
  assert.equal(hand.length, 7);
  assert.ok(!hand.some((c) => FIVE.dealt[1].includes(c)), 'her dealt hand is laid aside');
  assert.equal(await state(kieker.page, 'S.game.deal.prompt.discard'), 2);
  for (const card of hand.slice(0, 2)) await kieker.page.locator(`.hand .hand-card[data-card="${card}"]`).click();
  await screenshot(kieker, 'phone-grossenaspe-kieker-discard');
  await callAndConfirm(kieker.page, '[data-key="discard"]');
  await myTurn(kieker);
  const p = await offersThePrompt(kieker);
  assert.ok(p.fold, 'the fold is offered');
  await kieker.page.locator('[data-key="fold"]').scrollIntoViewIfNeeded();
  await screenshot(kieker, 'phone-grossenaspe-kieker-fold');
  await callAndConfirm(kieker.page, '[data-key="fold"]');
  for (const c of players) await c.page.locator('.result-sentence', { hasText: 'Bea folded the Kieker: −5.' }).waitFor();
  await host.page.locator('[data-key="result-sheet"]').click();
  await host.page.locator('[data-testid="scoresheet"] tbody tr td', { hasText: 'folded' }).waitFor();
  await screenshot(host, 'desktop-grossenaspe-five-scoresheet');
  await host.page.keyboard.press('Escape');
  await screenshot(kieker, 'phone-grossenaspe-five-result');

  for (const [seat, c] of players.entries()) checkFramesOfSeat(c.frames, seat);
  assertNoConsoleErrors(players);
});

test('Großenaspe practice in one click: five seats with bots on a phone', async () => {
  const me = await openClient(chrome, 'ga-practice', PHONE, 'en');
  await me.page.locator('#name').fill('Hinnerk');
  await me.page.locator('[data-key="opt-practice_game-grossenaspe"]').check();
  // The players offered follow the game: three to five here.
  await me.page.locator('[data-key="opt-practice_players-5"]').check();
  await me.page.locator('[data-key="practice-more"]').click();
  await me.page.locator('[data-key="opt-practice_delay-0"]').check();
  await me.page.locator('[data-key="practice"]').click();
  await me.page.locator('.table-screen.players-5').waitFor();
  const rules = await state(me.page, 'S.room.rules');
  assert.equal(rules.game, 'grossenaspe');
  assert.equal(rules.players, 5);
  assert.equal(await state(me.page, 'S.game.game'), 'grossenaspe');
  assert.equal(await me.page.locator('.felt .seat .bot-tag').count(), 4);
  await screenshot(me, 'phone-grossenaspe-practice');
  checkFramesOfSeat(me.frames, await state(me.page, 'S.you.seat'));
  assertNoConsoleErrors([me]);
});
