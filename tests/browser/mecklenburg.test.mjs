// Anseggerfips and Duttfips (docs/rules/mecklenburg.md §B) in the web client, on the fixed-seed server so that
// every room's first deal is the same: two players (a phone and a desktop), two bots and a
// watcher play one deal of each game to its scoresheet. The game is named in the lobby, on the
// invitation and on the sheet; each prompt's panel offers exactly what the prompt lists; Duttfips'
// forehand is offered no pass; the declarer takes the Dutt (shown to him, marked in his hand) and
// lays five away; Ruten is offered as trumps; the table's German faces are used; no frame or page
// shows a card before its viewer may know it. Screenshots go to artifacts/.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import {
  DESKTOP,
  PACK25A,
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
  playIfAsked,
  promptActions,
  screenshot,
  screenshotFull,
  settle,
} from './lib.mjs';

const SEEDED = process.env.FIPSEN_SEEDED_URL;

/** The actions a prompt lists, as the client should offer them (cards and discards aside). */
function expectedActions(prompt) {
  return promptActions(prompt, null, { except: ['cards', 'discard'] }).map((a) => JSON.stringify(a)).sort();
}

/** Checks that the page's panel offers exactly what its prompt lists; returns the prompt and the deal. */
async function offersThePrompt(client) {
  const { deal, offered } = await client.page.evaluate(() => ({
    deal: /** @type {any} */ (window).fipsenDebug.S.game.deal,
    offered: [...document.querySelectorAll('main .actions [data-action]')].map((e) => e.getAttribute('data-action')),
  }));
  const canon = (a) => {
    const { action, ...rest } = a;
    return JSON.stringify({ action, ...rest });
  };
  assert.deepEqual(
    offered.map((a) => canon(JSON.parse(a ?? ''))).sort(),
    expectedActions(deal.prompt).map((a) => canon(JSON.parse(a))).sort(),
    `${client.label}: the panel offers the prompt`,
  );
  return deal;
}

async function state(page, path) {
  return page.evaluate((p) => p.split('.').reduce((o, k) => o?.[k], /** @type {any} */ (window).fipsenDebug), path);
}

/** Seats a bot of normal strength at a free seat, as the host does on the room page. */
async function addBot(host, seat) {
  await host.page.locator(`[data-key="add-bot-${seat}"]`).click();
  await host.page.locator(`[data-key="add-bot-${seat}-normal"]`).click();
  await host.page.locator(`.seat-row.bot[data-seat="${seat}"]`).waitFor();
}

let chrome;
before(async () => {
  chrome = await launch();
});
after(async () => {
  await chrome?.close();
});

/**
 * One deal of a Mecklenburg game, through the UI: the host and a guest play with two bots, a
 * watcher looks on. `choose` picks each human's call from his prompt; cards are played by the
 * first playable card. Returns what was seen for the game's own checks.
 * @param {{game: 'anseggerfips'|'duttfips', name: string, title: string, host: [any, string], guest: [any, string], watcher: [any, string],
 *   options?: string[], cents?: boolean, guestSeat?: number, choose: (deal: any, seat: number) => string}} o
 */
async function oneDeal(o) {
  const host = await openClient(chrome, `${o.game}-host`, o.host[0], o.host[1], SEEDED);
  const hostPhone = o.host[0] === PHONE;
  const { link } = await createRoom(host, 'Antje', {
    game: o.game,
    cents: o.cents,
    public: true,
    nextDeal: 'ask',
    botDelay: 0,
    title: o.title,
    options: o.options,
    screenshot: `${hostPhone ? 'phone' : 'desktop'}-create-${o.game}`,
  });
  const rules = await state(host.page, 'S.room.rules');
  assert.equal(rules.game, o.game);
  await host.page.locator('.rules-summary .rule', { hasText: o.name }).waitFor();
  assert.match(await host.page.title(), new RegExp(`^${o.title} — ${o.name}`));
  assert.equal(await host.page.locator('.seat-list .seat-row').count(), 4, 'four seats');

  // The lobby names the game; so do the invitation page, its window title and the rules in brief.
  const guest = await openClient(chrome, `${o.game}-guest`, o.guest[0], o.guest[1], SEEDED);
  const row = guest.page.locator('.lobby-row', { hasText: o.title });
  await row.waitFor();
  assert.equal(await row.locator('[data-testid="lobby-game"]').textContent(), o.name);
  await guest.page.goto(link);
  await guest.page.locator('[data-testid="invite-game"]', { hasText: o.name }).waitFor();
  assert.match(await guest.page.title(), new RegExp(o.name));
  await guest.page.locator('.howto > summary').click();
  assert.equal(await guest.page.locator('.howto-game').first().getAttribute('data-game'), o.game);
  await screenshotFull(guest, `${hostPhone ? 'desktop' : 'phone'}-invitation-${o.game}`);
  // The bots sit first, so that the guest takes the seat left free.
  const guestSeat = o.guestSeat ?? 1;
  for (const seat of [1, 2, 3].filter((s) => s !== guestSeat)) await addBot(host, seat);
  await joinByLink(guest, link, 'Hinnerk');
  const watcher = await openClient(chrome, `${o.game}-watcher`, o.watcher[0], o.watcher[1], SEEDED);
  await joinByLink(watcher, link, 'Oma Grete', 'spectator');
  const humans = /** @type {[number, any][]} */ ([
    [0, host],
    [guestSeat, guest],
  ]);
  const everyone = [host, guest, watcher];
  await host.page.locator('[data-key="start"]:not([disabled])').click();
  for (const c of everyone) await c.page.locator('.table-screen').waitFor();
  for (const [seat, c] of humans) assert.equal(await state(c.page, 'S.you.seat'), seat);
  assert.equal(await watcher.page.locator('.felt .seat').count(), 4, 'the watcher sees four players');

  // The table's faces are German, as nobody chose faces of his own.
  for (const c of everyone) assert.ok(await c.page.evaluate(() => document.body.classList.contains('german-faces')), `${c.label}: German faces`);

  /** Every prompt each human met, in order. */
  const seen = /** @type {Record<number, any[]>} */ ({ 0: [], [guestSeat]: [] });
  const shots = new Set();
  const shot = async (c, what) => {
    if (shots.has(`${c.label}-${what}`)) return;
    shots.add(`${c.label}-${what}`);
    await screenshot(c, `${c.page.viewportSize()?.width === 390 ? 'phone' : 'desktop'}-${o.game}-${what}`);
  };
  let dutt = null;
  let declarer = null;
  for (let step = 0; step < 200 && !(await host.page.locator('[data-testid="result"]').count()); step++) {
    let acted = false;
    for (const [seat, c] of humans) {
      if (!(await c.page.locator('.table-screen.my-turn').count())) continue;
      await settle(c.page);
      const p = await c.page.evaluate(() => /** @type {any} */ (window).fipsenDebug.S.game?.deal?.prompt ?? {});
      if (!(p.bids?.length || p.pass || p.hold || p.discard || p.trumps?.length || p.stop || p.go_on)) {
        if (await playIfAsked(c.page)) acted = true;
        continue;
      }
      const deal = await offersThePrompt(c);
      seen[seat].push({ prompt: deal.prompt, phase: deal.phase, calls: deal.calls.length, forehand: deal.forehand });
      if (deal.prompt.discard) {
        // The Dutt is in his hand, marked, and his log names its cards.
        dutt = deal.dutt;
        declarer = c;
        assert.equal(dutt?.length, 5, 'the declarer sees the Dutt');
        assert.equal((await handCards(c.page)).length, 10);
        assert.equal(await c.page.locator('.hand .hand-card.picked-up').count(), 5, 'the Dutt marked in the hand');
        const k = deal.prompt.discard;
        const keep = new Set(['DA']);
        const away = (await handCards(c.page)).filter((card) => !keep.has(card)).slice(-k);
        for (const card of away) await c.page.locator(`.hand .hand-card[data-card="${card}"]`).click();
        await shot(c, 'discard');
        await callAndConfirm(c.page, '[data-key="discard"]');
      } else if (deal.prompt.trumps?.length) {
        await shot(c, 'trumps');
        const suit = deal.prompt.trumps.includes('diamonds') ? 'diamonds' : deal.prompt.trumps[0];
        await callAndConfirm(c.page, `[data-key="trumps-${suit}"]`);
      } else if (deal.prompt.go_on) {
        await shot(c, 'durch');
        await callAndConfirm(c.page, '[data-key="go-on"]');
      } else {
        await shot(c, 'auction');
        await callAndConfirm(c.page, o.choose(deal, seat));
      }
      acted = true;
    }
    for (const c of everyone) assert.deepEqual(await hiddenCardsOnPage(c.page, dutt && c === declarer ? dutt : []), [], `${c.label} shows no hidden card`);
    if (!acted) await host.page.waitForTimeout(60);
  }
  for (const c of everyone) await c.page.locator('[data-testid="result"]').waitFor();
  const outcome = await state(host.page, 'S.game.deal.outcome');
  const sentence = (await host.page.locator('.result-sentence').textContent()) ?? '';
  await screenshotFull(host, `${hostPhone ? 'phone' : 'desktop'}-${o.game}-result`);

  // The scoresheet names the game.
  await guest.page.locator('[data-key="result-sheet"]').click();
  await guest.page.locator('[data-testid="sheet-game"]', { hasText: o.name }).waitFor();
  await screenshot(guest, `${hostPhone ? 'desktop' : 'phone'}-${o.game}-scoresheet`);

  // Every frame held only what its viewer may know until the end.
  const { reveal } = checkFrames(watcher.frames);
  assert.ok(reveal, 'the watcher got the reveal');
  assert.deepEqual([...new Set([...reveal.dealt.flat(), ...reveal.dutt])].sort(), [...PACK25A].sort(), 'the reveal accounts for the pack');
  for (const [seat, c] of humans) checkFramesOfSeat(c.frames, seat);
  return { host, guest, watcher, everyone, seen, outcome, sentence, dutt };
}

test('Anseggerfips: a deal on a desktop and a phone with two bots and a watcher: the bids with Ruten, the Dutt exchanged, trumps, to the scoresheet in cents', { skip: !SEEDED && 'no fixed-seed server' }, async () => {
  const r = await oneDeal({
    game: 'anseggerfips',
    name: 'Anseggerfips',
    title: 'Ansegger table',
    host: [DESKTOP, 'en'],
    guest: [PHONE, 'de'],
    watcher: [PHONE, 'ja'],
    cents: true,
    options: ['opt-dutt-exchange'],
    // The guest sits at seat 3, which holds the Rutenas and speaks last.
    guestSeat: 3,
    // Forehand bids 2; the last to speak the lowest bid left in a suit, so that he names trumps.
    choose: (deal, seat) => {
      if (seat === 0) return '[data-key="bid-2"]';
      const plain = deal.prompt.bids.find((b) => (b.kind === 'tricks' && !b.ruten) || b.kind === 'fips');
      return plain ? `[data-key="bid-${plain.kind === 'fips' ? 'fips' : plain.tricks}"]` : '.bid-button';
    },
  });
  const { host, guest, watcher, seen, outcome } = r;
  // Forehand was offered the bids from 2 and a pass, but no Ruten bid (he lacks the Rutenas);
  // the guest, who holds it, Ruten bids too.
  const [opening] = seen[0];
  assert.equal(opening.forehand, 0);
  assert.equal(opening.calls, 0);
  assert.ok(opening.prompt.pass, 'Anseggerfips forehand may pass');
  assert.ok(opening.prompt.bids.some((b) => b.kind === 'tricks' && b.tricks === 2), 'bids from 2');
  assert.ok(!opening.prompt.bids.some((b) => b.ruten || b.kind === 'rutenfips'), 'no Ruten bid without the Rutenas');
  assert.ok(seen[3][0].prompt.bids.some((b) => b.ruten || b.kind === 'rutenfips'), 'Ruten bids for the holder of the Rutenas');
  // The declarer took the Dutt (the table's option), laid five away and named trumps, Ruten among them.
  assert.equal(outcome.declarer, 3, `${JSON.stringify(seen)}`);
  assert.ok(seen[3].some((s) => s.prompt.discard === 5), 'five cards laid away');
  const trumps = seen[3].find((s) => s.prompt.trumps?.length)?.prompt.trumps;
  assert.deepEqual(trumps, ['clubs', 'spades', 'hearts', 'diamonds'], 'the suits and Ruten');
  assert.equal(outcome.game.trumps, 'diamonds');
  await guest.page.locator('.log-line', { hasText: /nimmt den Dutt: / }).first().waitFor({ state: 'attached' });
  assert.equal(await watcher.page.locator('.log-line', { hasText: /ドゥットを取りました（5枚）/ }).count(), 1, 'the watcher is told the count only');
  assert.equal(await host.page.locator('.log-line', { hasText: 'takes the Dutt (5 cards)' }).count(), 1, 'so is the other player');
  // Cents: the totals in cents and the settlement seat by seat.
  const totals = await state(guest.page, 'S.game.totals');
  const shown = await guest.page.locator('[data-testid="scoresheet"] tbody tr td.total').allTextContents();
  assert.deepEqual(
    shown,
    totals.map((n) => `${n > 0 ? '+' : n < 0 ? '−' : ''}${Math.abs(n)} ct`),
  );
  assert.equal(await guest.page.locator('[data-testid="settlement"] li').count(), 4);
  assertNoConsoleErrors(r.everyone);
});

test('Duttfips: a deal on a phone and a desktop with two bots and a watcher; forehand may not pass; the Dutt taken and five laid away', { skip: !SEEDED && 'no fixed-seed server' }, async () => {
  const r = await oneDeal({
    game: 'duttfips',
    name: 'Duttfips',
    title: 'Dutt table',
    host: [PHONE, 'de'],
    guest: [DESKTOP, 'en'],
    watcher: [DESKTOP, 'en'],
    // Forehand names the highest contract; nobody can go higher.
    choose: (deal) => (deal.calls.length === 0 ? '[data-key="bid-rutenfips"]' : '[data-key="pass"]'),
  });
  const { host, watcher, seen, outcome, sentence, dutt } = r;
  // Forehand is offered the four contracts and no pass (the panel offers exactly the prompt).
  const [opening] = seen[0];
  assert.equal(opening.forehand, 0);
  assert.equal(opening.calls, 0);
  assert.equal(opening.prompt.pass, undefined, 'no pass for forehand');
  assert.deepEqual(
    opening.prompt.bids.map((b) => b.kind),
    ['dutt', 'ruten_oewer', 'fips', 'rutenfips'],
  );
  // The declarer took the Dutt, shown to him alone, and laid five away.
  assert.equal(outcome.declarer, 0);
  assert.equal(dutt?.length, 5);
  assert.ok(seen[0].some((s) => s.prompt.discard === 5), 'five cards laid away');
  await host.page.locator('.log-line', { hasText: `nimmt den Dutt: ` }).first().waitFor({ state: 'attached' });
  assert.equal(await watcher.page.locator('.log-line', { hasText: 'takes the Dutt (5 cards)' }).count(), 1, 'the watcher is told the count only');
  assert.match(sentence, /Antje hat Rutenfips (gewonnen|verloren)/);
  await host.page.locator('[data-testid="contract"]', { hasText: 'Rutenfips' }).waitFor();
  assertNoConsoleErrors(r.everyone);
});

test('Duttfips practice in one click: four seats, three bots, on a phone; the faces chosen in the settings win over the table’s', async () => {
  const me = await openClient(chrome, 'mb-practice', PHONE, 'en');
  await me.page.locator('#name').fill('Hinnerk');
  await me.page.locator('[data-key="opt-practice_game-duttfips"]').check();
  // Four players only: the one choice offered.
  assert.equal(await me.page.locator('[data-key^="opt-practice_players-"]').count(), 1);
  await me.page.locator('[data-key="practice-more"]').click();
  await me.page.locator('[data-key="opt-practice_delay-0"]').check();
  await me.page.locator('[data-key="practice"]').click();
  await me.page.locator('.table-screen.players-4').waitFor();
  assert.equal(await state(me.page, 'S.room.rules.game'), 'duttfips');
  assert.equal(await state(me.page, 'S.game.game'), 'duttfips');
  assert.equal(await me.page.locator('.felt .seat .bot-tag').count(), 3);
  assert.ok(await me.page.evaluate(() => document.body.classList.contains('german-faces')), 'the table’s German faces');
  // The settings offer the table's faces, chosen until the player picks his own.
  await me.page.locator('[data-key="settings"]').click();
  assert.ok(await me.page.locator('[data-key="set-deck-table"]').isChecked());
  await me.page.locator('[data-key="set-deck-french"]').check();
  await me.page.locator('[data-key="close-settings"]').click();
  assert.ok(!(await me.page.evaluate(() => document.body.classList.contains('german-faces'))), 'his own French faces');
  await screenshot(me, 'phone-duttfips-practice');
  checkFramesOfSeat(me.frames, await state(me.page, 'S.you.seat'));
  assertNoConsoleErrors([me]);
});
