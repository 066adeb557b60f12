// Bots in the web client: a practice game against three bots started from the home page in one
// click (bot pause 0), a whole deal played by clicking, then the bidding review checked against
// the `review` frame the page received, and every frame checked for hidden cards; in a normal
// room the host seats a bot by clicking and takes it off again, and every page's seat list
// shows it (and a host gone for good hands the controls on); a player who drops mid-trick
// finds a bot finishing the trick for him when he is back. Screenshots of the practice table
// and the review go to artifacts/.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import {
  DESKTOP,
  PHONE,
  assertNoConsoleErrors,
  checkFramesOfSeat,
  createRoom,
  dealOver,
  handCards,
  joinByLink,
  launch,
  openClient,
  playDeal,
  playIfAsked,
  screenshot,
  settle,
  stepIfAsked,
} from './lib.mjs';

let chrome;
before(async () => {
  chrome = await launch();
});
after(async () => {
  await chrome?.close();
});

/** The client's state, as the page holds it. */
function state(page, expr) {
  return page.evaluate((e) => {
    const S = /** @type {any} */ (window).fipsenDebug.S;
    return new Function('S', `return (${e});`)(S);
  }, expr);
}

/** Takes the screenshot at the desktop size too, then returns to the phone's. */
async function phoneAndDesktop(client, name) {
  await screenshot(client, `phone-${name}`);
  await client.page.setViewportSize(DESKTOP.viewport);
  await client.page.waitForTimeout(100);
  await screenshot(client, `desktop-${name}`);
  await client.page.setViewportSize(PHONE.viewport);
  await client.page.waitForTimeout(100);
}

/** The key the review panel gives each game: "3hr", "kieker". */
function gameKey(bid) {
  return bid.kind === 'kieker' ? 'kieker' : `${bid.tricks}${bid.hand ? 'h' : ''}${bid.ruten ? 'r' : ''}`;
}

test('practice against bots in one click: a whole deal, then the bidding review of that deal', async () => {
  const me = await openClient(chrome, 'practice', PHONE, 'en');
  await me.page.locator('#name').fill('Hinnerk');
  // The practice panel: the bots' level (normal by default) and their pause, set to none here.
  await me.page.locator('[data-key="practice-more"]').click();
  assert.ok(await me.page.locator('[data-key="opt-practice_level-normal"]').isChecked(), 'normal bots by default');
  assert.ok(await me.page.locator('[data-key="opt-practice_delay-900"]').isChecked(), 'a natural pause by default');
  await me.page.locator('[data-key="opt-practice_delay-0"]').check();
  await me.page.locator('.practice').scrollIntoViewIfNeeded();
  await phoneAndDesktop(me, 'practice-home');
  await me.page.locator('[data-key="practice"]').click();

  // One click: the room is made, three bots sit down, the deal is dealt.
  await me.page.locator('.table-screen').waitFor();
  const room = await state(me.page, 'S.room');
  assert.equal(room.title, 'Practice');
  assert.equal(room.options.public, false);
  assert.equal(room.options.next_deal_seconds, null, 'the next deal waits until asked');
  assert.equal(room.options.bot_delay_ms, 0);
  const seat = await state(me.page, 'S.you.seat');
  assert.deepEqual(
    room.seats.map((s) => (s.seat === seat ? 'me' : s.bot)),
    room.seats.map((s) => (s.seat === seat ? 'me' : 'normal')),
    'a normal bot at every other seat',
  );
  assert.equal(await me.page.locator('.felt .seat [data-testid="bot-tag"]').count(), 3, 'the three bots are marked as bots');
  assert.match((await me.page.locator('.felt .seat [data-testid="bot-tag"]').first().textContent()) ?? '', /Bot · normal/);
  const dealt = await handCards(me.page);
  assert.equal(dealt.length, 5);

  let shot = false;
  let standIn = false;
  await playDeal([me], async () => {
    if (!shot && (await me.page.locator('.centre .played').count()) >= 2) {
      await phoneAndDesktop(me, 'practice-play');
      shot = true;
    }
    if (!standIn && (await me.page.locator('.my-turn .hand .hand-card.playable:not([disabled])').count()) > 0) {
      // The room as the server sends it while a bot finishes the trick for a returned player:
      // the banner, and nothing offered (the server would refuse it).
      await me.page.evaluate(() => {
        const debug = /** @type {any} */ (window).fipsenDebug;
        const s = debug.S.you.seat;
        debug.S.room.seats[s] = { ...debug.S.room.seats[s], stand_in: 'normal' };
        debug.render();
      });
      await me.page.locator('[data-testid="stand-in-banner"]').waitFor();
      assert.equal(await me.page.locator('.table-screen.my-turn').count(), 0, 'not his turn while the bot plays');
      assert.equal(await me.page.locator('main .actions').count(), 0, 'nothing offered');
      assert.equal(await me.page.locator('.hand .hand-card:not([disabled])').count(), 0, 'no card to play');
      await screenshot(me, 'phone-stand-in-banner');
      await me.page.evaluate(() => {
        const debug = /** @type {any} */ (window).fipsenDebug;
        const s = debug.S.you.seat;
        debug.S.room.seats[s] = { ...debug.S.room.seats[s], stand_in: null };
        debug.render();
      });
      await me.page.locator('[data-testid="stand-in-banner"]').waitFor({ state: 'detached' });
      standIn = true;
    }
  });
  assert.ok(standIn, 'the stand-in banner was shown during the play');
  await me.page.locator('[data-testid="result"]').waitFor();
  await settle(me.page);
  const reveal = await state(me.page, 'S.game.deal.reveal');
  assert.deepEqual([...reveal.dealt[seat]].sort(), [...dealt].sort(), 'the hand dealt is the one revealed');
  // The next deal waits for the player (no countdown): time to read the review.
  assert.equal(await state(me.page, 'S.room.next_deal_in_ms ?? null'), null);

  // The review: asked for from the result panel, then shown from the server's answer.
  await me.page.locator('[data-key="review-open"]').click();
  await me.page.locator('dialog[open] [data-testid="review-loading"], dialog[open] [data-testid="review"]').first().waitFor();
  await me.page.locator('dialog[open] [data-testid="review"]').waitFor();
  const answer = me.frames.map((f) => JSON.parse(f)).find((m) => m.type === 'review');
  assert.ok(answer, 'the page received a review frame');
  const number = await state(me.page, 'S.game.number');
  assert.equal(answer.deal, number, 'the review is about the deal just played');
  const review = answer.review;
  assert.equal(review.seat, seat);
  assert.deepEqual([...review.dealt].sort(), [...dealt].sort(), 'the review is of the hand dealt');

  const panel = me.page.locator('dialog[open] [data-testid="review"]');
  const shownHand = await panel.locator('[data-testid="review-hand"] .small-card').evaluateAll((els) => els.map((e) => e.getAttribute('data-card')));
  assert.deepEqual([...shownHand].sort(), [...review.dealt].sort(), 'the panel shows the dealt hand');
  // One row per estimate, best first, the chance in whole percent.
  const rows = panel.locator('[data-testid="review-estimates"] tbody tr');
  assert.equal(await rows.count(), review.estimates.length, 'a row per estimate');
  const sorted = [...review.estimates].sort((a, b) => b.score - a.score);
  const shownOrder = await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-game')));
  assert.deepEqual(
    shownOrder.map((key) => sorted.find((e) => gameKey(e.game) === key)?.score),
    sorted.map((e) => e.score),
    'sorted by expected score',
  );
  assert.equal(await rows.first().getAttribute('data-game'), gameKey(sorted[0].game));
  assert.match((await rows.first().getAttribute('class')) ?? '', /\bbest\b/, 'the best game is highlighted');
  assert.equal(await panel.locator('tr.best').count(), 1);
  const firstCells = await rows.first().locator('td').allTextContents();
  assert.equal(firstCells[0], `${Math.round(sorted[0].win * 100)}%`);
  // The game he played (as declarer) or his highest bid is marked.
  const outcome = await state(me.page, 'S.game.deal.outcome');
  if (outcome?.declarer === seat) {
    const g = outcome.game;
    const key = g.kieker ? 'kieker' : `${g.tricks}${g.hand ? 'h' : ''}${g.trumps === 'diamonds' ? 'r' : ''}`;
    assert.equal(await panel.locator('tr.yours').getAttribute('data-game'), key, 'the game he played is marked');
  }
  // One line per call, marked good exactly when it was as good as the best call.
  const calls = panel.locator('[data-testid="review-calls"] li');
  assert.equal(await calls.count(), review.calls.length, 'a line per call');
  assert.ok(review.calls.length >= 1, 'he called at least once');
  const marks = await calls.evaluateAll((els) => els.map((e) => e.className));
  assert.deepEqual(
    marks,
    review.calls.map((c) => (c.score >= c.best_score - 1e-9 ? 'good' : 'worse')),
  );
  // The declarer's play trick by trick, the worse cards marked; the stop-or-Durch choice.
  if (review.play?.length) {
    const plays = panel.locator('[data-testid="review-play"] li');
    assert.equal(await plays.count(), review.play.length, 'a line per card played');
    assert.equal(await panel.locator('[data-testid="review-play"] li.worse').count(), review.play.filter((p) => p.worse).length);
  } else {
    assert.equal(await panel.locator('[data-testid="review-play"]').count(), 0);
  }
  assert.equal(await panel.locator('[data-testid="review-durch"]').count(), review.durch ? 1 : 0);
  await phoneAndDesktop(me, 'review');
  await panel.locator('[data-testid="review-calls"]').scrollIntoViewIfNeeded();
  await screenshot(me, 'phone-review-calls');
  // An update draws the page anew: the dialog stays where he scrolled to.
  const [scrolled, kept] = await me.page.evaluate(async () => {
    const top = /** @type {HTMLElement} */ (document.querySelector('dialog[open]')).scrollTop;
    /** @type {any} */ (window).fipsenDebug.render();
    await new Promise((r) => setTimeout(r, 50));
    return [top, /** @type {HTMLElement} */ (document.querySelector('dialog[open]')).scrollTop];
  });
  assert.ok(scrolled > 0, 'the review was scrolled');
  assert.equal(kept, scrolled, 'the review keeps its scroll position');

  // Closable with Escape, opened again from the keyboard without asking the server again.
  await me.page.keyboard.press('Escape');
  await me.page.locator('dialog[open]').waitFor({ state: 'detached' });
  const reviewsAsked = me.frames.filter((f) => f.includes('"type":"review"')).length;
  await me.page.locator('[data-key="review-open"]').focus();
  await me.page.keyboard.press('Enter');
  await me.page.locator('dialog[open] [data-testid="review"]').waitFor();
  assert.equal(me.frames.filter((f) => f.includes('"type":"review"')).length, reviewsAsked, 'the review is shown again as it came');
  await me.page.locator('[data-key="close-review"]').click();
  await me.page.locator('dialog[open]').waitFor({ state: 'detached' });

  // Between deals the host takes a bot off: the seat is free and the next deal waits for it,
  // even once he asked for it; a bot seated again there lets it come.
  await me.page.locator('[data-key="seats-between"]').click();
  await me.page.locator('.seats-between [data-key="remove-bot-1"]').click();
  await me.page.locator('.seats-between .seat-row.free[data-seat="1"]').waitFor();
  await me.page.locator('.seats-between [role="status"]', { hasText: 'The next deal waits until every seat is taken again.' }).waitFor();
  await me.page.locator('.felt .seat[data-seat="1"] .seat-name.free').waitFor();
  await screenshot(me, 'phone-between-deals-free-seat');
  await me.page.locator('[data-key="next-deal"]').click();
  await me.page.waitForFunction((s) => /** @type {any} */ (window).fipsenDebug.S.room.next_deal_asked.includes(s), seat);
  assert.equal(await state(me.page, 'S.game.number'), number, 'the next deal waits for the free seat');
  await me.page.locator('.seats-between [data-key="add-bot-1"]').click();
  await me.page.locator('.seats-between [data-key="add-bot-1-strong"]').click();
  await me.page.waitForFunction((n) => /** @type {any} */ (window).fipsenDebug.S.game?.number === n + 1, number);
  assert.equal(await state(me.page, 'S.room.seats[1].bot'), 'strong');
  await me.page.locator('.table-screen[data-phase="auction"], .table-screen[data-phase="play"]').first().waitFor();
  await settle(me.page);

  // Every frame of the page held only what this seat may see (the review of the finished deal
  // aside, which may show that deal's cards).
  const { checked, reviewsSkipped, deals } = checkFramesOfSeat(me.frames, seat);
  assert.equal(reviewsSkipped, 1, 'the one review frame is about the finished deal');
  assert.deepEqual(deals.slice(0, 2), [number, number + 1]);
  assert.ok(checked > 20, `frames checked: ${checked}`);
  assertNoConsoleErrors([me]);
});

test('the host seats a bot at a free seat and takes it off again; every page shows it', async () => {
  const host = await openClient(chrome, 'bot-host', DESKTOP, 'en');
  // The two bot options of the form, with their defaults; chosen otherwise here.
  await host.page.locator('#name').fill('Antje');
  await host.page.locator('.more-rules > summary').click();
  assert.ok(await host.page.locator('[data-key="opt-bot_takeover-normal"]').isChecked(), 'a normal bot takes over by default');
  assert.ok(await host.page.locator('[data-key="opt-bot_delay-900"]').isChecked(), 'a natural pause by default');
  await host.page.locator('.more-rules > summary').click();
  const { link } = await createRoom(host, 'Antje', { title: 'Bots welcome', botTakeover: 'strong', botDelay: 400, grace: 0 });
  const options = await state(host.page, 'S.room.options');
  assert.equal(options.bot_takeover, 'strong');
  assert.equal(options.bot_delay_ms, 400);
  const guest = await openClient(chrome, 'bot-guest', PHONE, 'de');
  await joinByLink(guest, link, 'Hinnerk');
  await host.page.locator('.seat-row[data-seat="1"]:not(.free)').waitFor();

  // Only the host has the controls.
  assert.equal(await guest.page.locator('[data-key^="add-bot-"]').count(), 0, 'the guest cannot seat bots');
  assert.equal(await host.page.locator('[data-key^="add-bot-"]').count(), 2, 'an "add a bot" control on each free seat');

  // The host picks a level for seat 3 (its explanation beside it) and seats the bot.
  await host.page.locator('[data-key="add-bot-2"]').click();
  await host.page.locator('[data-key="add-bot-2-strong"]').waitFor();
  assert.equal(await host.page.locator('.bot-picker .level-choice').count(), 3, 'three levels to choose from');
  await screenshot(host, 'desktop-room-bot-picker');
  await host.page.locator('[data-key="add-bot-2-strong"]').click();
  for (const c of [host, guest]) {
    const row = c.page.locator('.seat-row[data-seat="2"]');
    await row.locator('[data-testid="bot-tag"]').waitFor();
    assert.match((await row.locator('[data-testid="bot-tag"]').textContent()) ?? '', c === host ? /Bot · strong/ : /Bot · stark/);
    assert.equal(await state(c.page, 'S.room.seats[2].bot'), 'strong');
  }
  // With the keyboard: a normal bot at seat 4.
  await host.page.locator('[data-key="add-bot-3"]').focus();
  await host.page.keyboard.press('Enter');
  await host.page.locator('[data-key="add-bot-3-normal"]').focus();
  await host.page.keyboard.press('Enter');
  await guest.page.locator('.seat-row[data-seat="3"] [data-testid="bot-tag"]').waitFor();
  await screenshot(guest, 'phone-room-bots-de');
  assert.equal(await host.page.locator('[data-key="start"]:not([disabled])').count(), 1, 'the bots fill the table: it may start');

  // Taken off again: the seat is free on every page.
  await host.page.locator('[data-key="remove-bot-2"]').click();
  for (const c of [host, guest]) {
    await c.page.locator('.seat-row.free[data-seat="2"]').waitFor();
    assert.equal(await c.page.locator('.seat-row[data-seat="2"] [data-testid="bot-tag"]').count(), 0);
  }
  assert.equal(await host.page.locator('[data-key="start"][disabled]').count(), 1, 'a free seat again: no start');
  assert.equal(await guest.page.locator('[data-key^="remove-bot-"]').count(), 0, 'the guest cannot take bots off');
  await screenshot(host, 'desktop-room-bot-removed');
  assertNoConsoleErrors([host, guest]);

  // The host goes for good (his seat is held 0 s): Hinnerk is the host now and has the controls.
  await host.context.close();
  await guest.page.locator('[data-key="add-bot-2"]').waitFor();
  assert.equal(await guest.page.locator('[data-key="remove-bot-3"]').count(), 1);
  assert.equal(await guest.page.locator('[data-key="start"]').count(), 1);
  await guest.page.locator('.seat-row[data-seat="1"] .tag', { hasText: 'Gastgeber' }).waitFor();
  assertNoConsoleErrors([guest]);
});

/**
 * Plays through the UI (every deal to the next) until `done()` holds; the pages ask for the next
 * deal whenever one is over.
 */
async function playUntil(clients, done) {
  for (let step = 0; step < 600; step++) {
    if (await done()) return;
    let acted = null;
    for (const c of clients) {
      if (await dealOver(c.page)) {
        const next = c.page.locator('[data-key="next-deal"]:not([disabled])');
        if (await next.count()) {
          await next.click();
          acted = 'next deal';
          break;
        }
        continue;
      }
      acted = (await stepIfAsked(c.page)) ?? (await playIfAsked(c.page));
      if (acted) {
        await settle(c.page);
        break;
      }
    }
    if (!acted) await clients[0].page.waitForTimeout(50);
  }
  throw new Error('the wanted moment did not come');
}

test('a player who drops mid-trick: a bot stands in; back before the trick ends, he sees a banner and may not act until it is over', async () => {
  // Seats: Antje (host) 0, two bots 1 and 2, Bea 3 — so Bea plays just before Antje in most
  // tricks. The seat is held for 0 s: the bot stands in as soon as her connection drops.
  const antje = await openClient(chrome, 'standin-host', DESKTOP, 'en');
  const { link } = await createRoom(antje, 'Antje', { grace: 0, botDelay: 0, nextDeal: 'ask' });
  for (const s of [1, 2]) {
    await antje.page.locator(`[data-key="add-bot-${s}"]`).click();
    await antje.page.locator(`[data-key="add-bot-${s}-normal"]`).click();
    await antje.page.locator(`.seat-row[data-seat="${s}"] [data-testid="bot-tag"]`).waitFor();
  }
  const bea = await openClient(chrome, 'standin-bea', PHONE, 'ja');
  await joinByLink(bea, link, 'Bea');
  assert.equal(await state(bea.page, 'S.you.seat'), 3);
  await antje.page.locator('[data-key="start"]:not([disabled])').click();
  for (const c of [antje, bea]) await c.page.locator('.table-screen').waitFor();

  // The moment: Antje to play, Bea's card already in the trick (the trick waits for Antje).
  await playUntil([antje, bea], () =>
    state(antje.page, "S.game.deal.phase === 'play' && S.game.deal.turn === 0 && S.game.deal.trick.some((p) => p.seat === 3) && !S.waiting"),
  );
  // Bea's connection drops and stays down until the bot has taken her seat.
  await bea.page.evaluate(() => {
    const conn = /** @type {any} */ (window).fipsenDebug.conn;
    conn.reconnect = conn.connect;
    conn.connect = () => {};
    conn.ws.close();
  });
  await antje.page.locator('.felt .seat[data-seat="3"] [data-testid="stand-in"]').waitFor();
  assert.equal(await state(antje.page, 'S.room.seats[3].stand_in'), 'normal');
  assert.match((await antje.page.locator('.felt .seat[data-seat="3"] [data-testid="stand-in"]').textContent()) ?? '', /Bot plays for Bea/);
  await screenshot(antje, 'desktop-stand-in-seat');
  // Bea is back while the trick is in progress: the bot finishes it; she sees why she waits.
  await bea.page.evaluate(() => {
    const conn = /** @type {any} */ (window).fipsenDebug.conn;
    conn.connect = conn.reconnect;
    conn.connect();
  });
  await bea.page.locator('[data-conn="open"]').waitFor();
  await bea.page.locator('[data-testid="stand-in-banner"]').waitFor();
  await settle(bea.page);
  assert.equal(await bea.page.locator('main .actions').count(), 0, 'nothing offered while the bot stands in');
  assert.equal(await bea.page.locator('.hand .hand-card:not([disabled])').count(), 0, 'no card to play');
  await screenshot(bea, 'phone-stand-in-banner-ja');
  // Antje plays; the trick ends; Bea has her seat back.
  await playIfAsked(antje.page);
  await bea.page.locator('[data-testid="stand-in-banner"]').waitFor({ state: 'detached' });
  await antje.page.locator('.felt .seat[data-seat="3"] [data-testid="stand-in"]').waitFor({ state: 'detached' });
  assert.equal(await state(bea.page, 'S.room.seats[3].stand_in ?? null'), null);
  // Neither page received a card it may not see, Bea's new connection included.
  await settle(bea.page);
  for (const [seat, c] of [[0, antje], [3, bea]]) checkFramesOfSeat(c.frames, /** @type {number} */ (seat));
  assertNoConsoleErrors([antje, bea]);
});
