// Four people create and join a room through the web client and play a whole deal to the
// scoresheet by clicking; a fifth watches. The watcher's page and every frame it received
// never hold a card before the server may show it; a player who reloads mid-deal gets his
// seat and hand back; no page logs a console error. Screenshots go to artifacts/.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import {
  DESKTOP,
  PACK,
  PHONE,
  assertNoConsoleErrors,
  checkFrames,
  createRoom,
  handCards,
  hiddenCardsOnPage,
  joinByLink,
  launch,
  openClient,
  playDeal,
  promptActions,
  screenshot,
  screenshotFull,
  settle,
} from './lib.mjs';

/** A total as the scoresheet shows it (+12, −24, 0), as a number. @param {string} text */
function signed(text) {
  return Number(text.replace('−', '-'));
}

/** The actions a prompt lists, as the client should offer them (cards and discards aside). */
function expectedActions(prompt) {
  return promptActions(prompt, null, { except: ['cards', 'discard'] }).map((a) => JSON.stringify(a)).sort();
}

/** The actions the page's panel offers now. */
async function offeredActions(page) {
  const actions = await page.locator('main .actions [data-action]').evaluateAll((els) => els.map((e) => e.getAttribute('data-action')));
  return actions.map((a) => JSON.stringify(JSON.parse(a))).sort();
}

/** Shows `prompt` on the page as if the server had sent it, and returns what the panel offers. */
async function offeredFor(page, prompt) {
  await page.evaluate((p) => {
    const debug = /** @type {any} */ (window).fipsenDebug;
    debug.S.game.deal.prompt = p;
    debug.render();
  }, prompt);
  await page.waitForTimeout(50);
  return offeredActions(page);
}

let chrome;
before(async () => {
  chrome = await launch();
});
after(async () => {
  await chrome?.close();
});

test('four players create, join and play a deal to the scoresheet; a spectator sees no hidden card; a reload keeps the seat', async () => {
  const antje = await openClient(chrome, 'antje', DESKTOP, 'en');
  await screenshot(antje, 'desktop-home');
  const { code, link } = await createRoom(antje, 'Antje', { title: 'Friday table', nextDeal: 'ask' });
  // Options left alone are sent with their defaults: the seat is kept 120 s for a lost player.
  assert.equal(await antje.page.evaluate(() => /** @type {any} */ (window).fipsenDebug.S.room.options.grace_seconds), 120);
  await antje.page.locator('.rules-summary .rule', { hasText: '120 seconds' }).waitFor();
  const hinnerk = await openClient(chrome, 'hinnerk', PHONE, 'de');
  await screenshot(hinnerk, 'phone-home-de');
  // The invitation names the table and its host, the game and who sits there (not the code).
  await hinnerk.page.goto(link);
  const title = hinnerk.page.locator('[data-testid="invite-title"]');
  await title.filter({ hasText: 'Friday table — Gastgeber: Antje' }).waitFor();
  assert.ok(!(await title.textContent())?.includes(code), 'the invitation is titled with the table, not its code');
  assert.match(await hinnerk.page.title(), /^Friday table — Gastgeber: Antje/);
  const info = hinnerk.page.locator('[data-testid="invite-info"]');
  assert.match((await info.textContent()) ?? '', /4 Spieler/);
  assert.match((await info.locator('[data-testid="invite-status"]').textContent()) ?? '', /Wartet auf Mitspieler/);
  assert.deepEqual(await info.locator('.invite-seats li:not(.free)').allTextContents(), ['1 Antje']);
  await screenshot(hinnerk, 'phone-invitation-de');
  await joinByLink(hinnerk, link, 'Hinnerk');
  const fiete = await openClient(chrome, 'fiete', DESKTOP, 'ja');
  // Fiete types the code instead of opening the link.
  await fiete.page.locator('#name').fill('Fiete');
  await fiete.page.locator('#join-code').fill(code);
  await fiete.page.locator('[data-key="join-sit"]').click();
  await fiete.page.locator('.room').waitFor();
  await screenshot(antje, 'desktop-room-waiting');
  const meike = await openClient(chrome, 'meike', PHONE, 'en');
  await joinByLink(meike, link, 'Meike');
  const oma = await openClient(chrome, 'oma', PHONE, 'en');
  await joinByLink(oma, link, 'Oma Grete', 'spectator');
  const players = [antje, hinnerk, fiete, meike];
  const everyone = [...players, oma];

  // Every page shows the four names and the spectator; only the host may start.
  for (const c of everyone) {
    await c.page.locator('.seat-row:not(.free)').nth(3).waitFor();
    assert.equal(await c.page.locator('.seat-row.free').count(), 0, `${c.label} sees every seat taken`);
  }
  await oma.page.locator('.watching-banner').waitFor();
  assert.equal(await hinnerk.page.locator('[data-key="start"]').count(), 0, 'only the host has a start button');
  await screenshot(meike, 'phone-room-full');
  await screenshot(oma, 'phone-room-spectator');
  await antje.page.locator('[data-key="start"]').click();
  for (const c of everyone) await c.page.locator('.table-screen').waitFor();

  // Each player sees his own five cards and the others' backs.
  const hands = {};
  for (const c of players) {
    const cards = await handCards(c.page);
    assert.equal(cards.length, 5, `${c.label} holds five cards`);
    hands[c.label] = cards;
    assert.equal(await c.page.locator('.felt .seat').count(), 3, `${c.label} sees three other players`);
  }
  assert.equal(new Set(Object.values(hands).flat()).size, 20, 'twenty different cards in four hands');
  assert.equal(await oma.page.locator('.hand').count(), 0, 'the spectator has no hand');
  assert.equal(await oma.page.locator('.felt .seat').count(), 4, 'the spectator sees four players');
  // Vorhand (seat 0, Antje) is asked first, with exactly the calls the server lists.
  await antje.page.locator('main .actions .bid-button').first().waitFor();
  assert.equal(await hinnerk.page.locator('main .actions').count(), 0, 'nobody else is offered a call');
  const prompt = await antje.page.evaluate(() => /** @type {any} */ (window).fipsenDebug.S.game.deal.prompt);
  assert.ok(prompt.bids.length > 10 && prompt.pass, 'an opening prompt');
  assert.deepEqual(await offeredActions(antje.page), expectedActions(prompt), 'the bidding panel offers exactly the legal calls');
  // Every other kind of prompt, shown on a page that is not asked anything right now.
  const synthetic = [
    { hold: true, pass: true, bids: [{ kind: 'tricks', tricks: 3, hand: false, ruten: false }, { kind: 'kieker' }] },
    { take_skat: true, play_hand: true },
    { play_hand: true },
    { trumps: ['clubs', 'spades', 'hearts', 'diamonds'] },
    { trumps: ['diamonds'] },
    { kontra: true, pass: true },
    { rekontra: true, pass: true },
    { stop: true, go_on: true },
    { give_up: true, trumps: ['hearts', 'diamonds'] },
    // A Kieker declarer may give up out of turn too, before the first card.
    { give_up: true },
    { siebener_fips: true },
  ];
  const saved = await hinnerk.page.evaluate(() => /** @type {any} */ (window).fipsenDebug.S.game.deal.prompt);
  for (const p of synthetic) {
    assert.deepEqual(await offeredFor(hinnerk.page, p), expectedActions(p), `the panel for ${JSON.stringify(p)}`);
    if (p.kontra) await screenshot(hinnerk, 'phone-kontra');
    if (p.siebener_fips) await screenshot(hinnerk, 'phone-siebener-fips');
  }
  assert.deepEqual(await offeredFor(hinnerk.page, saved), [], 'nothing offered once the real prompt is back');
  await screenshot(antje, 'desktop-auction-bidding');
  await screenshot(hinnerk, 'phone-auction-waiting');
  // The game's terms are explained where they appear: Vorhand on Antje's seat.
  await hinnerk.page.locator('.felt .chip.vorhand .info').click();
  await hinnerk.page.locator('.explain:popover-open').waitFor();
  await screenshot(hinnerk, 'phone-term-vorhand-de');
  await hinnerk.page.keyboard.press('Escape');
  await hinnerk.page.locator('.explain:popover-open').waitFor({ state: 'detached' });
  // The misclick guard: a bid asks for confirmation and can be taken back.
  await antje.page.locator('main .actions .bid-button').first().click();
  await antje.page.locator('[data-key="confirm-no"]').waitFor();
  await screenshot(antje, 'desktop-auction-confirm');
  await antje.page.locator('[data-key="confirm-no"]').click();
  await antje.page.locator('main .actions .bid-button').first().waitFor();

  let reloaded = false;
  let discardShot = false;
  let spectatorChecks = 0;
  let fullTricks = 0;
  let aheadChecks = 0;
  await playDeal(players, async (step) => {
    // A whole trick on the desktop table: no card covers another.
    if (fullTricks < 2 && (await antje.page.locator('.centre .played').count()) === 4) {
      const boxes = await antje.page.locator('.centre .played').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().toJSON()));
      if (boxes.length === 4) {
        for (const [i, a] of boxes.entries()) {
          for (const b of boxes.slice(i + 1)) {
            const overlap = Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1 && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1;
            assert.ok(!overlap, `trick cards overlap on the desktop: ${JSON.stringify([a, b])}`);
          }
        }
        if (fullTricks === 0) await screenshot(antje, 'desktop-trick-taken');
        fullTricks += 1;
      }
    }
    for (const c of players) {
      if (!discardShot && (await c.page.locator('.hand.discarding').count())) {
        await screenshot(c, `${c.label === 'hinnerk' || c.label === 'meike' ? 'phone' : 'desktop'}-discard`);
        discardShot = true;
      }
    }
    // A trick being played marks the card that takes it so far, as the server's view says.
    const ahead = await antje.page.evaluate(() => {
      const deal = /** @type {any} */ (window).fipsenDebug.S.game?.deal;
      if (!deal || deal.trick.length === 0 || document.querySelector('.centre.held')) return null;
      const marked = [...document.querySelectorAll('.centre .played.ahead')].map((e) => Number(e.getAttribute('data-seat')));
      return { marked, winning: deal.winning };
    });
    if (ahead) {
      assert.deepEqual(ahead.marked, [ahead.winning], 'one card marked as taking the trick so far');
      aheadChecks += 1;
    }
    // The spectator's page shows only cards that were played face up.
    checkFrames(oma.frames);
    assert.deepEqual(await hiddenCardsOnPage(oma.page), [], 'the spectator page shows no hidden card');
    spectatorChecks += 1;
    const phase = await antje.page.evaluate(() => /** @type {any} */ (window).fipsenDebug.S.game?.deal?.phase);
    if (step === 2) {
      await screenshot(hinnerk, 'phone-auction');
    }
    if (phase === 'play' && !reloaded) {
      const trick = await antje.page.locator('.centre .played').count();
      if (trick >= 1) {
        await screenshot(antje, 'desktop-play');
        await screenshot(meike, 'phone-play');
        await screenshot(oma, 'phone-spectator-play');
        // Reload Hinnerk's page: same seat, same hand, by itself; the table log is kept.
        const before = {
          seat: await hinnerk.page.evaluate(() => /** @type {any} */ (window).fipsenDebug.S.you.seat),
          hand: await handCards(hinnerk.page),
          name: await hinnerk.page.locator('.me-bar .seat-name').textContent(),
        };
        const logBefore = await hinnerk.page.evaluate(() => /** @type {any} */ (window).fipsenDebug.S.log.map((l) => l.text));
        assert.ok(logBefore.some((l) => l.includes('Trumpf')), 'the log tells the auction');
        await hinnerk.page.reload();
        await hinnerk.page.locator('.table-screen .hand').waitFor();
        await settle(hinnerk.page);
        const after = {
          seat: await hinnerk.page.evaluate(() => /** @type {any} */ (window).fipsenDebug.S.you.seat),
          hand: await handCards(hinnerk.page),
          name: await hinnerk.page.locator('.me-bar .seat-name').textContent(),
        };
        assert.deepEqual(after, before, 'the reloaded page is back in the same seat with the same hand');
        const logAfter = await hinnerk.page.evaluate(() => /** @type {any} */ (window).fipsenDebug.S.log.map((l) => l.text));
        assert.deepEqual(logAfter.slice(0, logBefore.length), logBefore, 'the table log survives the reload');
        assert.equal(await hinnerk.page.locator('[data-testid="away"]').count(), 0, 'a reload is no absence: nothing was done for him');
        reloaded = true;
        // A watcher who reloads is watching again by himself.
        await oma.page.reload();
        await oma.page.locator('.table-screen.spectating').waitFor();
        // A dropped connection (a sleeping phone, a new network) shows, and comes back by itself.
        await meike.page.evaluate(() => /** @type {any} */ (window).fipsenDebug.conn.ws.close());
        await meike.page.locator('[data-conn="offline"], [data-conn="connecting"]').first().waitFor();
        await meike.page.locator('[data-conn="open"]').waitFor();
        await settle(meike.page);
        assert.equal((await handCards(meike.page)).length, await meike.page.evaluate(() => /** @type {any} */ (window).fipsenDebug.S.game.deal.hand.length));
        // The four-colour pack, switched on in the settings.
        await fiete.page.locator('[data-key="settings"]').click();
        await fiete.page.locator('[data-key="set-fourColour"]').check();
        await fiete.page.locator('[data-key="close-settings"]').click();
        await screenshot(fiete, 'desktop-play-four-colour-ja');
      }
    }
  });
  assert.ok(reloaded, 'the reload happened during the play');
  assert.ok(fullTricks > 0, 'a whole trick was seen on the desktop table');
  assert.ok(aheadChecks > 0, 'a trick in progress was seen with its card marked');
  assert.ok(spectatorChecks > 5, 'the spectator page was checked along the deal');

  // The deal is over on every page, with every hand revealed.
  for (const c of everyone) {
    await c.page.locator('[data-testid="result"]').waitFor();
    assert.equal(await c.page.locator('.reveal-seat').count(), 4, `${c.label} sees all four hands`);
  }
  await screenshotFull(antje, 'desktop-result');
  await screenshot(meike, 'phone-result');

  // The spectator's frames, checked once more in full against the server's reveal.
  const { reveal } = checkFrames(oma.frames);
  assert.ok(reveal, 'the spectator got the reveal at the end');
  const everyCard = new Set([...reveal.dealt.flat(), ...reveal.skat, ...reveal.stock]);
  assert.deepEqual([...everyCard].sort(), [...PACK].sort(), 'the reveal accounts for the whole pack');
  for (const c of players) {
    const seat = await c.page.evaluate(() => /** @type {any} */ (window).fipsenDebug.S.you.seat);
    assert.deepEqual([...reveal.dealt[seat]].sort(), [...hands[c.label]].sort(), `${c.label}'s dealt hand as revealed`);
  }

  // The last trick: its winner's card marked (not with the trump's star) and named.
  const lastWinner = await antje.page.evaluate(() => /** @type {any} */ (window).fipsenDebug.S.game.deal.tricks.at(-1).winner);
  await antje.page.locator('[data-key="last-trick"]').click();
  const winnerCard = antje.page.locator('dialog[open] .last-trick .played.winner');
  await winnerCard.locator('.win-badge').waitFor();
  assert.equal(await antje.page.locator('dialog[open] .last-trick .played.winner').count(), 1);
  assert.equal(Number(await winnerCard.getAttribute('data-seat')), lastWinner, 'the card of the trick’s winner is marked');
  assert.notEqual(await winnerCard.evaluate((e) => getComputedStyle(e).outlineStyle), 'none', 'the winning card is outlined');
  await screenshot(antje, 'desktop-last-trick');
  await antje.page.keyboard.press('Escape');
  await antje.page.locator('dialog[open]').waitFor({ state: 'detached' });
  // Between deals: nobody is ready yet; the next deal comes when all are.
  await antje.page.locator('[data-testid="ready-count"]', { hasText: '0/4 ready' }).waitFor();
  await antje.page.locator('[data-testid="next-when"]', { hasText: 'when everybody is ready' }).waitFor();

  // The scoresheet: one row, its totals those the result shows.
  await antje.page.locator('[data-key="result-sheet"]').click();
  await antje.page.locator('[data-testid="scoresheet"] tbody tr').first().waitFor();
  assert.equal(await antje.page.locator('[data-testid="scoresheet"] tbody tr').count(), 1);
  const totals = await antje.page.evaluate(() => /** @type {any} */ (window).fipsenDebug.S.game.totals);
  const shownTotals = await antje.page.locator('[data-testid="scoresheet"] tbody tr td.total').allTextContents();
  assert.deepEqual(shownTotals.map(signed), totals);
  assert.equal(await antje.page.locator('.chart-svg polyline').count(), 4, 'one line per player in the chart');
  await screenshot(antje, 'desktop-scoresheet');
  await meike.page.locator('[data-key="result-sheet"]').click();
  await meike.page.locator('[data-testid="scoresheet"]').waitFor();
  await screenshot(meike, 'phone-scoresheet');
  await meike.page.keyboard.press('Escape');
  await meike.page.locator('dialog[open]').waitFor({ state: 'detached' });

  // Chat reaches everyone; a watcher's line is marked as a watcher's.
  await antje.page.locator('[data-key="close-sheet"]').click();
  await antje.page.locator('[data-key="chat-input"]').fill('Moin!');
  await antje.page.locator('[data-key="chat-send"]').click();
  await oma.page.locator('[data-key="open-chat"]').click();
  await oma.page.locator('.chat-line', { hasText: 'Moin!' }).waitFor();
  assert.equal(await oma.page.locator('.chat-line', { hasText: 'Moin!' }).locator('[data-testid="watcher-mark"]').count(), 0, 'a player’s line has no watcher mark');
  await oma.page.locator('[data-key="chat-input"]').fill('Schön gespielt');
  await oma.page.locator('[data-key="chat-send"]').click();
  const fromOma = antje.page.locator('.chat-line', { hasText: 'Schön gespielt' });
  await fromOma.waitFor();
  assert.match((await fromOma.locator('[data-testid="watcher-mark"]').textContent()) ?? '', /watching/);
  assert.equal(await fromOma.locator('[data-testid="watcher-mark"] svg.eye').count(), 1, 'with the watchers’ eye');
  await screenshot(oma, 'phone-chat');
  await screenshot(antje, 'desktop-chat-watcher');

  // Everybody asks for the next deal: it is dealt.
  for (const [i, c] of players.entries()) {
    await c.page.locator('[data-key="next-deal"]').click();
    await settle(c.page);
    if (i === 0) await antje.page.locator('[data-testid="ready-count"]', { hasText: '1/4 ready' }).waitFor();
  }
  for (const c of players) {
    await c.page.locator('.table-screen[data-phase="auction"]').waitFor();
    assert.equal((await handCards(c.page)).length, 5);
  }
  assertNoConsoleErrors(everyone);
});

test('three players play a deal to the scoresheet', async () => {
  const a = await openClient(chrome, 'three-a', PHONE, 'en');
  // A seat can be kept for a day at most: more is refused on the page, before the server.
  await a.page.locator('#name').fill('Anna');
  await a.page.locator('.more-rules > summary').click();
  await a.page.locator('[data-key="opt-grace"]').fill('90000');
  await a.page.locator('[data-key="create"]').click();
  await a.page.locator('.toast-error', { hasText: '86400' }).waitFor();
  await a.page.locator('#opt-grace:focus').waitFor();
  await a.page.locator('[data-key="opt-grace"]').fill('');
  await a.page.locator('.more-rules > summary').click();
  const { link, code } = await createRoom(a, 'Anna', { players: 3, nextDeal: 'ask', title: 'Dreier', public: true });
  // The form was filled in far down the page: the new room opens at its top, the link in view.
  await a.page.waitForFunction(() => window.scrollY === 0);
  const invite = await a.page.locator('.invite input').boundingBox();
  assert.ok(invite && invite.y >= 0 && invite.y + invite.height <= 844, `the invitation link is in view: ${JSON.stringify(invite)}`);
  await screenshot(a, 'phone-room-created');
  // Bernd finds the table in the list of open tables and sits down from there.
  const b = await openClient(chrome, 'three-b', DESKTOP, 'de');
  await b.page.locator('#name').fill('Bernd');
  // A mistyped code: the server's error, in Bernd's language.
  await b.page.locator('#join-code').fill('kein-solcher-tisch');
  await b.page.locator('[data-key="join-sit"]').click();
  await b.page.locator('.toast-error', { hasText: 'Einen Tisch mit diesem Code gibt es nicht' }).waitFor();
  // A link with a wrong code: the invitation page says so, in his language, and offers no seat.
  await b.page.goto(link.replace(code, 'keinSolcherTisch'));
  await b.page.locator('[data-testid="invite-error"]', { hasText: 'Einen Tisch mit diesem Code gibt es nicht' }).waitFor();
  assert.equal(await b.page.locator('[data-key="invite-sit"]').count(), 0);
  await screenshot(b, 'desktop-invitation-wrong-code-de');
  await b.page.goto(link.split('#')[0]);
  await b.page.locator('[data-conn="open"]').waitFor();
  const row = b.page.locator('.lobby-row', { hasText: 'Dreier' });
  for (let i = 0; i < 20 && (await row.count()) === 0; i++) {
    await b.page.locator('[data-key="lobby-refresh"]').click();
    await b.page.waitForTimeout(200);
  }
  await screenshot(b, 'desktop-home-lobby-de');
  await row.locator('button.primary').click();
  await b.page.locator('.room').waitFor();
  const c = await openClient(chrome, 'three-c', PHONE, 'ja');
  await joinByLink(c, link, 'Chiyo');
  await screenshot(c, 'phone-room-ja');
  await a.page.locator('[data-key="start"]').click();
  const players = [a, b, c];
  for (const p of players) {
    await p.page.locator('.table-screen.players-3').waitFor();
    assert.equal((await handCards(p.page)).length, 5);
    assert.equal(await p.page.locator('.felt .seat').count(), 2, `${p.label} sees two other players`);
  }
  await screenshot(a, 'phone-three-auction');
  // Everything works from the keyboard: Anna (Vorhand) makes her first call with Tab and Enter.
  const firstBid = a.page.locator('main .actions .bid-button').first();
  await firstBid.focus();
  await a.page.keyboard.press('Enter');
  await a.page.locator('[data-key="confirm-yes"]:focus').waitFor();
  await a.page.keyboard.press('Enter');
  await b.page.locator('.felt .seat .bubble').first().waitFor();
  assert.equal(await b.page.locator('.felt .seat .bubble').first().textContent(), '2', 'Bernd sees Anna bid 2');
  // Bernd bids 3 against Anna: the middle of the table names him as the bidder (Anna still
  // holds the duel and must answer), and shows the duel with its calls.
  await b.page.locator('main .actions [data-key="bid-3-"]').click();
  await b.page.locator('[data-key="confirm-yes"]').click();
  for (const p of [a, b, c]) {
    await p.page.locator('[data-testid="standing"][data-bidder="1"]').waitFor();
    assert.match((await p.page.locator('[data-testid="standing"]').textContent()) ?? '', /3.*Bernd/);
    const duel = p.page.locator('[data-testid="duel"]');
    assert.equal(await duel.getAttribute('data-holder'), '0');
    assert.equal(await duel.getAttribute('data-challenger'), '1');
    assert.match((await duel.textContent()) ?? '', /Anna.*Bernd.*Anna: 2 · Bernd: 3/);
  }
  assert.match((await b.page.locator('[data-testid="standing"]').textContent()) ?? '', /Höchstes Gebot: 3 — von Bernd/);
  await screenshot(b, 'desktop-three-auction-de');
  await screenshot(c, 'phone-three-duel-ja');
  let shot = false;
  let tapped = false;
  await playDeal(players, async () => {
    // One tap on a card the server allows plays it: no second tap, no "are you sure".
    for (const p of tapped ? [] : players) {
      const card = p.page.locator('.my-turn .hand .hand-card.playable:not([disabled])').first();
      if ((await card.count()) === 0) continue;
      const code = await card.getAttribute('data-card');
      await card.click();
      await p.page.locator(`.hand .hand-card[data-card="${code}"]`).waitFor({ state: 'detached', timeout: 5000 });
      assert.equal(await p.page.locator('[data-key="confirm-yes"]').count(), 0);
      tapped = true;
      await settle(p.page);
      break;
    }
    if (!shot && (await b.page.locator('.centre .played').count()) >= 2) {
      await screenshot(b, 'desktop-three-play-de');
      await screenshot(c, 'phone-three-play-ja');
      shot = true;
    }
  });
  assert.ok(tapped, 'a card was played with one tap');
  for (const p of players) {
    await p.page.locator('[data-testid="result"]').waitFor();
    assert.equal(await p.page.locator('.reveal-seat').count(), 3);
  }
  await screenshot(c, 'phone-three-result-ja');
  await b.page.locator('[data-key="result-sheet"]').click();
  await b.page.locator('[data-testid="scoresheet"] tbody tr').first().waitFor();
  const totals = await b.page.evaluate(() => /** @type {any} */ (window).fipsenDebug.S.game.totals);
  assert.equal(totals.length, 3);
  const shown = await b.page.locator('[data-testid="scoresheet"] tbody tr td.total').allTextContents();
  assert.deepEqual(shown.map(signed), totals);
  await screenshot(b, 'desktop-three-scoresheet-de');
  assertNoConsoleErrors(players);
});

test('a nudge is offered for a connected player who keeps the table waiting, never for one who is away', async () => {
  const me = await openClient(chrome, 'nudge-away', DESKTOP, 'en');
  await me.page.locator('#name').fill('Antje');
  await me.page.locator('[data-key="practice"]').click();
  await me.page.locator('.table-screen .felt').waitFor();
  // The table as the server would send it with a person at seat 1 whose turn has lasted a minute:
  // connected, then away.
  const nudges = async (connected) => {
    await me.page.evaluate(async (on) => {
      const debug = /** @type {any} */ (window).fipsenDebug;
      const S = debug.S;
      S.room = { ...S.room, seats: S.room.seats.map((s, i) => (i === 1 ? { ...s, bot: null, stand_in: null, connected: on, name: 'Bea' } : s)), turn: { seat: 1, waited_ms: 60_000, left_ms: null } };
      S.roomAt = Date.now();
      S.game = { ...S.game, deal: { ...S.game.deal, turn: 1 } };
      debug.render();
      await new Promise((r) => setTimeout(r, 0));
    }, connected);
    return { buttons: await me.page.locator('[data-key="nudge"]').count(), away: await me.page.locator('.felt .seat[data-seat="1"] .presence.away').count() };
  };
  assert.deepEqual(await nudges(true), { buttons: 1, away: 0 }, 'Bea is here: she may be nudged');
  assert.deepEqual(await nudges(false), { buttons: 0, away: 1 }, 'Bea is away: no nudge, and her seat says so');
  await me.context.close();
});

test('the call table’s row labels break between words, never inside one (Japanese on a phone)', async () => {
  const me = await openClient(chrome, 'ja-rows', PHONE, 'ja');
  await me.page.locator('#name').fill('Meike');
  await me.page.locator('[data-key="practice"]').click();
  // The call table comes at the player's first call (after the bots' before him).
  await me.page.locator('.bid-row-label').first().waitFor({ timeout: 60_000 });
  // Each word of a label on one line: the lines its letters lie on, word by word.
  const split = await me.page.locator('.bid-row-label').evaluateAll((els) =>
    els.flatMap((e) => {
      const text = e.firstChild;
      if (!(text instanceof Text)) return [];
      const out = [];
      for (const m of text.data.matchAll(/\S+/g)) {
        const range = document.createRange();
        range.setStart(text, m.index);
        range.setEnd(text, m.index + m[0].length);
        const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
        if (tops.size > 1) out.push(`${text.data}: ${m[0]} on ${tops.size} lines`);
      }
      return out;
    }),
  );
  assert.ok((await me.page.locator('.bid-row-label').count()) >= 4, 'a row for each number of tricks');
  assert.deepEqual(split, []);
  await screenshot(me, 'phone-ja-call-rows');
  await me.context.close();
});
