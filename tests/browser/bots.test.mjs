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
  // The bot had nothing to play for her, and she is told just that.
  const stoodIn = bea.page.locator('[data-testid="away"]');
  await stoodIn.filter({ hasText: 'ボット（ふつう）があなたの代わりに入りました' }).waitFor();
  await bea.page.locator('[data-key="away-close"]').click();
  await stoodIn.waitFor({ state: 'detached' });
  // Antje plays; the trick ends; Bea has her seat back.
  await playIfAsked(antje.page);
  await bea.page.locator('[data-testid="stand-in-banner"]').waitFor({ state: 'detached' });
  await antje.page.locator('.felt .seat[data-seat="3"] [data-testid="stand-in"]').waitFor({ state: 'detached' });
  assert.equal(await state(bea.page, 'S.room.seats[3].stand_in ?? null'), null);
  // Away for a whole trick of her own this time: the bot plays her card, and back she is told.
  await playUntil([antje, bea], () =>
    state(
      antje.page,
      "S.game.deal.phase === 'play' && S.game.deal.turn !== 3 && !S.game.deal.trick.some((p) => p.seat === 3) && S.game.deal.hand_sizes[3] > 1 && !S.waiting && !S.room.seats[3].stand_in",
    ),
  );
  const handBefore = await state(antje.page, 'S.game.deal.hand_sizes[3]');
  await bea.page.evaluate(() => {
    const conn = /** @type {any} */ (window).fipsenDebug.conn;
    conn.connect = () => {};
    conn.ws.close();
  });
  await antje.page.locator('.felt .seat[data-seat="3"] [data-testid="stand-in"]').waitFor();
  for (let i = 0; i < 100 && (await state(antje.page, 'S.game.deal.hand_sizes[3]')) >= handBefore; i++) {
    if (!(await playIfAsked(antje.page))) await antje.page.waitForTimeout(100);
    await settle(antje.page);
  }
  const played = await state(antje.page, 'S.game.deal.trick.find((p) => p.seat === 3)?.card ?? S.game.deal.tricks.at(-1).cards.find((p) => p.seat === 3).card');
  await bea.page.evaluate(() => {
    const conn = /** @type {any} */ (window).fipsenDebug.conn;
    conn.connect = conn.reconnect;
    conn.connect();
  });
  const away = bea.page.locator('[data-testid="away"]');
  await away.waitFor();
  const shortName = { C: '♣', S: '♠', H: '♥', D: '♦' }[played[0]] + played.slice(1);
  const said = (await away.textContent()) ?? '';
  assert.match(said, /離れている間に/);
  assert.ok(said.includes(shortName), `the summary names the card the bot played for her (${shortName}): ${said}`);
  const logged = await state(bea.page, 'S.log.map((l) => l.text)');
  assert.ok(logged.some((l) => l.startsWith('離れている間に') && l.includes(shortName)), 'the summary is in her table log');
  await screenshot(bea, 'phone-away-summary-ja');
  await bea.page.locator('[data-key="away-close"]').click();
  await away.waitFor({ state: 'detached' });

  // Neither page received a card it may not see, Bea's new connection included.
  await settle(bea.page);
  for (const [seat, c] of [[0, antje], [3, bea]]) checkFramesOfSeat(c.frames, /** @type {number} */ (seat));
  assertNoConsoleErrors([antje, bea]);
});

/** Seats a normal bot at each of these seats, from the host's seat list. */
async function addBots(host, seats) {
  for (const s of seats) {
    await host.page.locator(`[data-key="add-bot-${s}"]`).click();
    await host.page.locator(`[data-key="add-bot-${s}-normal"]`).click();
    await host.page.locator(`.seat-row[data-seat="${s}"] [data-testid="bot-tag"]`).waitFor();
  }
}

/**
 * Between deals, on a page whose deal is over: the countdown to the next deal counts down; "Wait —
 * I'm reading" stops it (the server says so), as do the scoresheet and the review while open;
 * "Ready" brings the next deal (the only person at the table asked).
 */
async function checkNextDeal(me) {
  const paused = (yes) =>
    me.page.waitForFunction((y) => {
      const S = /** @type {any} */ (window).fipsenDebug.S;
      return S.room.next_deal_paused === y && S.room.reading.includes(S.you.seat) === y;
    }, yes);
  const when = me.page.locator('[data-testid="next-when"]');
  await when.filter({ hasText: /Next deal in \d+ s/ }).waitFor();
  const seconds = () => when.textContent().then((text) => Number(text?.match(/in (\d+) s/)?.[1] ?? NaN));
  const first = await seconds();
  assert.ok(first > 0 && first <= 30, `a countdown of the room's 30 s: ${first}`);
  await me.page.locator('[data-testid="ready-count"]', { hasText: '0/1 ready' }).waitFor();
  await me.page.waitForFunction((s) => Number(document.querySelector('[data-testid="next-when"]')?.textContent?.match(/in (\d+) s/)?.[1]) < s, first);
  await screenshot(me, 'desktop-next-deal-countdown');
  const number = await state(me.page, 'S.game.number');
  await me.page.locator('[data-key="reading"]').check();
  await paused(true);
  await when.filter({ hasText: 'Paused while you read' }).waitFor();
  await me.page.waitForTimeout(1200);
  assert.equal(await state(me.page, 'S.room.next_deal_paused'), true, 'still paused');
  await me.page.setViewportSize(PHONE.viewport);
  await me.page.locator('[data-testid="next-deal"]').scrollIntoViewIfNeeded();
  await screenshot(me, 'phone-next-deal-paused');
  await me.page.setViewportSize(DESKTOP.viewport);
  await screenshot(me, 'desktop-next-deal-paused');
  await me.page.locator('[data-key="reading"]').uncheck();
  await paused(false);
  await when.filter({ hasText: /Next deal in \d+ s/ }).waitFor();
  // Reading the scoresheet or the review holds the next deal too, until it is closed.
  await me.page.locator('[data-key="result-sheet"]').click();
  await paused(true);
  await me.page.keyboard.press('Escape');
  await paused(false);
  await me.page.locator('[data-key="review-open"]').click();
  await paused(true);
  await me.page.keyboard.press('Escape');
  await paused(false);
  assert.equal(await state(me.page, 'S.game.number'), number, 'the next deal waited meanwhile');
  await me.page.locator('[data-key="next-deal"]').click();
  await me.page.waitForFunction((n) => /** @type {any} */ (window).fipsenDebug.S.game.number === n + 1, number);
}

test('a quick table against bots: one tap plays, a trick taken stays before it goes to its winner, the only card plays itself, the next deal counts down and waits for a reader', async () => {
  const me = await openClient(chrome, 'quick', DESKTOP, 'en');
  // The option to play the only card by itself: off by default, explained, kept in the browser.
  await me.page.locator('[data-key="settings"]').click();
  assert.equal(await me.page.locator('[data-key="set-autoForced"]').isChecked(), false, 'off by default');
  assert.match((await me.page.locator('#set-autoForced-help').textContent()) ?? '', /1 to 2\.5 seconds.*may still guess/);
  await me.page.locator('[data-key="set-autoForced"]').check();
  await screenshot(me, 'desktop-settings');
  await me.page.locator('[data-key="close-settings"]').click();
  assert.equal(await me.page.evaluate(() => JSON.parse(localStorage.getItem('fipsen.settings') ?? '{}').autoForced), true);
  await createRoom(me, 'Hinnerk', { players: 3, nextDeal: 'slow', botDelay: 0, title: 'Quick' });
  await addBots(me, [1, 2]);
  await me.page.locator('[data-key="start"]:not([disabled])').click();
  await me.page.locator('.table-screen').waitFor();
  const seat = await state(me.page, 'S.you.seat');
  // What the middle of the table shows, every 40 ms.
  await me.page.evaluate(() => {
    const w = /** @type {any} */ (window);
    w.samples = [];
    setInterval(() => {
      const S = w.fipsenDebug.S;
      const d = S.game?.deal;
      if (!d) return;
      const centre = document.querySelector('.centre');
      const mine = d.phase === 'play' && d.turn === S.you.seat && !S.waiting ? (d.prompt?.cards ?? []) : [];
      w.samples.push({
        t: Date.now(),
        // The prompt of one card, named as the client's pause names it.
        only: mine.length === 1 ? `${S.game.number}|${d.tricks.length}|${d.trick.length}|${mine[0]}` : null,
        deal: S.game.number,
        phase: d.phase,
        taken: d.tricks.length,
        inTrick: d.trick.length,
        last: d.tricks.at(-1) ?? null,
        held: Boolean(centre?.classList.contains('held')),
        sweep: Boolean(centre?.classList.contains('sweep')),
        shown: [...document.querySelectorAll('.centre .played')].map((e) => e.getAttribute('data-card')),
        winner: document.querySelector('.centre .played.winner')?.getAttribute('data-seat') ?? null,
      });
    }, 40);
  });

  let forced = 0;
  let tapped = 0;
  let nextChecked = false;
  let heldShot = false;
  for (let step = 0; step < 1500; step++) {
    if (forced > 0 && tapped > 1 && nextChecked) break;
    if (!heldShot && (await me.page.locator('.centre.held .win-badge').count()) > 0) {
      await screenshot(me, 'desktop-trick-held');
      heldShot = true;
    }
    if (await dealOver(me.page)) {
      if (!nextChecked) {
        await checkNextDeal(me);
        nextChecked = true;
      } else {
        const number = await state(me.page, 'S.game.number');
        await me.page.locator('[data-key="next-deal"]').click();
        await me.page.waitForFunction((n) => /** @type {any} */ (window).fipsenDebug.S.game.number === n + 1, number);
      }
      continue;
    }
    if (await stepIfAsked(me.page)) {
      await settle(me.page);
      continue;
    }
    // The cards to choose from, and where the deal stood when they were read.
    const { cards, at } = await state(
      me.page,
      "{ cards: S.game.deal.phase === 'play' && S.game.deal.turn === S.you.seat && !S.waiting ? S.game.deal.prompt.cards ?? [] : [], at: `${S.game.number}|${S.game.deal.tricks.length}|${S.game.deal.trick.length}` }",
    );
    if (cards.length === 1) {
      // The only card: it goes by itself, after a pause like a person's. The pause counts from
      // the first sample that showed the prompt (this loop may have looked later), to the
      // card's leaving the hand.
      await me.page.locator(`.hand .hand-card[data-card="${cards[0]}"]`).waitFor({ state: 'detached', timeout: 8000 });
      const waited = await me.page.evaluate((key) => {
        const w = /** @type {any} */ (window);
        const first = w.samples.find((/** @type {any} */ x) => x.only === key);
        return first ? Date.now() - first.t : null;
      }, `${at}|${cards[0]}`);
      assert.ok(waited !== null && waited >= 900 && waited <= 4000, `the forced card waited ${waited} ms`);
      forced += 1;
    } else if (cards.length > 1) {
      // As a person does: look at the trick just taken, then tap a card once.
      await me.page.locator('.centre.held').waitFor({ state: 'detached' });
      const card = me.page.locator(`.my-turn .hand .hand-card.playable[data-card="${cards[0]}"]:not([disabled])`);
      if ((await card.count()) === 0) continue;
      await card.click();
      await me.page.locator(`.hand .hand-card[data-card="${cards[0]}"]`).waitFor({ state: 'detached', timeout: 5000 });
      tapped += 1;
    } else await me.page.waitForTimeout(40);
  }
  assert.ok(forced > 0 && tapped > 1 && nextChecked, `forced ${forced}, tapped ${tapped}, next deal checked ${nextChecked}`);

  // Every trick taken before the end of its deal stayed on the table (its winner marked), also
  // while the next trick was already being played; then it went toward its winner.
  const samples = await me.page.evaluate(() => /** @type {any} */ (window).samples);
  let holds = 0;
  let queued = 0;
  let botLed = 0;
  let sweeps = 0;
  let expectedSweeps = 0;
  for (let i = 1; i < samples.length; i++) {
    const [a, b] = [samples[i - 1], samples[i]];
    if (b.deal !== a.deal || b.taken <= a.taken || b.phase === 'over') continue;
    const during = samples.filter((x) => x.deal === b.deal && x.t >= b.t && x.t <= b.t + 900 && x.taken === b.taken && x.phase !== 'over');
    const cards = b.last.cards.map((p) => p.card).sort();
    for (const x of during) {
      assert.deepEqual([...x.shown].sort(), cards, `the trick taken stays on the table (${x.t - b.t} ms after)`);
      assert.equal(Number(x.winner), b.last.winner, 'its winner marked');
    }
    holds += 1;
    if (b.last.winner !== seat) botLed += 1;
    if (during.some((x) => x.inTrick > 0)) queued += 1;
    // Unless cut short (a card played by this player, the end of the deal), it then flies.
    const end = samples.find((x) => x.t > b.t && (!x.held || x.taken !== b.taken || x.deal !== b.deal));
    if (end && end.t - b.t > 1700) {
      expectedSweeps += 1;
      if (samples.some((x) => x.t > b.t && x.t < end.t && x.sweep)) sweeps += 1;
    }
  }
  assert.ok(holds >= 2, `tricks held: ${holds}`);
  if (botLed > 0) assert.ok(queued > 0, 'a bot’s quick lead waited on the screen behind the trick just taken');
  assert.equal(sweeps, expectedSweeps, 'each trick held to the end went toward its winner');
  // With reduced motion the trick does not fly.
  await me.page.emulateMedia({ reducedMotion: 'reduce' });
  const animation = await me.page.evaluate(() => {
    const centre = document.createElement('div');
    centre.className = 'centre sweep sweep-left';
    centre.innerHTML = '<div class="played place-top"></div>';
    document.body.append(centre);
    const name = getComputedStyle(/** @type {Element} */ (centre.firstElementChild)).animationName;
    centre.remove();
    return name;
  });
  assert.equal(animation, 'none');
  assertNoConsoleErrors([me]);
});

test('the move clock counts down at the seat to act; after 15 s the others may nudge; when it runs out a bot moves for the player', async () => {
  const antje = await openClient(chrome, 'clock-antje', DESKTOP, 'en');
  await antje.page.locator('#name').fill('Antje');
  await antje.page.locator('.more-rules > summary').click();
  assert.ok(await antje.page.locator('[data-key="opt-move-off"]').isChecked(), 'no clock by default');
  await antje.page.locator('.more-rules > summary').click();
  const { link } = await createRoom(antje, 'Antje', { move: 20, botDelay: 0, nextDeal: 'ask' });
  assert.equal(await state(antje.page, 'S.room.options.move_seconds'), 20);
  await antje.page.locator('.rules-summary .rule', { hasText: 'Time per move' }).locator('dd', { hasText: '20 seconds' }).waitFor();
  const bea = await openClient(chrome, 'clock-bea', PHONE, 'de');
  await joinByLink(bea, link, 'Bea');
  await addBots(antje, [2, 3]);
  await antje.page.locator('[data-key="start"]:not([disabled])').click();
  for (const c of [antje, bea]) await c.page.locator('.table-screen').waitFor();

  // Antje (Vorhand) is to call: her clock runs, on her page and at her seat on Bea's.
  const mine = antje.page.locator('.me-bar [data-testid="move-clock"]');
  await mine.waitFor();
  const left = Number((await mine.textContent())?.match(/(\d+) s/)?.[1]);
  assert.ok(left > 0 && left <= 20, `seconds left: ${left}`);
  await bea.page.locator('.felt .seat[data-seat="0"] [data-testid="move-clock"]').waitFor();
  assert.equal(await bea.page.locator('[data-key="nudge"]').count(), 0, 'no nudge before 15 s');
  await screenshot(bea, 'phone-move-clock-de');
  // After 15 s Bea may nudge her: Antje hears and sees who waits for her.
  await bea.page.locator('[data-key="nudge"]').waitFor({ timeout: 20_000 });
  assert.ok((await state(bea.page, 'S.room.turn.waited_ms + (Date.now() - S.roomAt)')) >= 15_000);
  await screenshot(bea, 'phone-nudge-de');
  await bea.page.locator('[data-key="nudge"]').click();
  await antje.page.locator('[data-testid="nudged"]', { hasText: 'Bea is waiting for you' }).waitFor();
  await antje.page.locator('.log-line', { hasText: '⏰ Bea nudges Antje.' }).waitFor();
  await screenshot(antje, 'desktop-nudged');
  // Once more at once: refused, and said so in words.
  await bea.page.locator('[data-key="nudge"]').click();
  await bea.page.locator('.toast-error', { hasText: 'Noch nicht' }).waitFor();
  // Time runs out: a bot makes Antje's call, the log says so on every page; she plays on.
  await antje.page.locator('.log-line', { hasText: '⏰ Time ran out: a bot (normal) played for Antje.' }).waitFor({ timeout: 15_000 });
  await bea.page.locator('.log-line', { hasText: '⏰ Zeit abgelaufen' }).waitFor({ state: 'attached' });
  await antje.page.waitForFunction(() => /** @type {any} */ (window).fipsenDebug.S.game.deal.calls.some((c) => c.seat === 0));
  await antje.page.locator('[data-testid="nudged"]').waitFor({ state: 'detached' });
  assert.equal(await state(antje.page, 'S.you.seat'), 0, 'she keeps her seat');
  await screenshot(antje, 'desktop-clock-ran-out');
  assertNoConsoleErrors([antje, bea]);
});
