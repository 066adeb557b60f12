// "Play again" (rematch): a series of one Prisdorf deal played by two people and two bots, a
// third person watching. On the result of its last deal the host alone has "Play again"; he
// offers and is at once in a new room with another code and invitation link — the same seats,
// the same bots, nothing dealt, waiting for his start. The others are offered the new series on
// the result screen and in the live region (a guest in German, whose words exist in Japanese too):
// the guest accepts with the keyboard and sits at his old seat with his old token stored for the
// new room; the watcher watches the next series. The host starts it: a series of its own, its
// scoresheet empty, its share link another than the old one's. At a table of three a player who
// leaves instead is on the home page; his seat in the new room is held, then opens for a bot.
// Screenshots go to artifacts/.

import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { after, before, test } from 'node:test';
import { DESKTOP, PHONE, assertNoConsoleErrors, createRoom, joinByLink, launch, openClient, playDeal, screenshot } from './lib.mjs';

const AXE = createRequire(import.meta.url).resolve('axe-core');

let chrome;
before(async () => {
  chrome = await launch();
});
after(async () => {
  await chrome?.close();
});

/** A value of the page's state, by its path in `fipsenDebug` ("S.room.code"). */
async function state(page, path) {
  return page.evaluate((p) => p.split('.').reduce((o, k) => o?.[k], /** @type {any} */ (window).fipsenDebug), path);
}

/** The seats this browser holds, by room code (the client's `fipsen.seats`). */
async function heldSeats(page) {
  return page.evaluate(() => JSON.parse(localStorage.getItem('fipsen.seats') ?? '{}'));
}

/** The room's seats as the page shows them: name and bot level of each. */
async function seatsOf(page) {
  return page.evaluate(() => /** @type {any} */ (window).fipsenDebug.S.room.seats.map((s) => (s ? `${s.name}${s.bot ? ` (${s.bot})` : ''}` : null)));
}

/** Seats a normal bot at a free seat, as the host does on the room page. */
async function addBot(host, seat) {
  await host.page.locator(`[data-key="add-bot-${seat}"]`).click();
  await host.page.locator(`[data-key="add-bot-${seat}-normal"]`).click();
  await host.page.locator(`.seat-row.bot[data-seat="${seat}"]`).waitFor();
}

/** The link "Share" copies, from the scoresheet of the table on screen (its dialog closed again). */
async function shareLink(client) {
  const { page } = client;
  await page.evaluate(() => navigator.clipboard.writeText(''));
  await page.locator('[data-key="share-series"]').click();
  // The server's `share_link` answer is copied when it comes.
  let link = '';
  for (let i = 0; i < 100 && !link.includes('#/series/'); i++) {
    await page.waitForTimeout(100);
    link = await page.evaluate(() => navigator.clipboard.readText());
  }
  await page.keyboard.press('Escape');
  await page.locator('dialog[open]').waitFor({ state: 'detached' });
  return link;
}

/**
 * The serious and critical violations axe-core finds on the page (its CSP bypassed), with the
 * one exception a11y.test.mjs documents: a card's name against the indices drawn on it.
 */
async function axeViolations(page) {
  await page.addScriptTag({ path: AXE });
  return page.evaluate(async () => {
    const axe = /** @type {any} */ (window).axe;
    const all = await axe.run(document, { resultTypes: ['violations'], rules: { 'label-content-name-mismatch': { enabled: false } } });
    const named = await axe.run({ exclude: [['.hand-card']] }, { resultTypes: ['violations'], runOnly: ['label-content-name-mismatch'] });
    return [...all.violations, ...named.violations]
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
}

/** Presses Tab until the control with this data-key has the focus (at most `limit` times). */
async function tabTo(page, key, limit = 80) {
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate((k) => document.activeElement?.getAttribute('data-key') === k, key)) return;
  }
  throw new Error(`Tab never reached ${key}`);
}

test('after a series the host offers to play again: a player follows to his seat, a watcher follows; the new series is its own', async () => {
  const host = await openClient(chrome, 'rematch-host', DESKTOP, 'en');
  await host.context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const { code: old, link } = await createRoom(host, 'Antje', { title: 'Rematch table', deals: 1, botDelay: 0 });
  const guest = await openClient(chrome, 'rematch-guest', { ...PHONE, bypassCSP: true }, 'de');
  await guest.context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await joinByLink(guest, link, 'Hinnerk');
  const watcher = await openClient(chrome, 'rematch-watcher', DESKTOP, 'ja');
  await joinByLink(watcher, link, 'Oma Grete', 'spectator');
  await addBot(host, 2);
  await addBot(host, 3);
  const players = [host, guest];
  const everyone = [...players, watcher];
  for (const c of everyone) await c.page.locator('.seat-row:not(.free)').nth(3).waitFor();
  const seatsBefore = await seatsOf(host.page);
  const mySeats = await Promise.all(players.map((c) => state(c.page, 'S.you.seat')));
  assert.deepEqual(mySeats, [0, 1], 'the two people at the first two seats');
  assert.deepEqual(seatsBefore.slice(0, 2), ['Antje', 'Hinnerk']);
  assert.ok(seatsBefore.slice(2).every((s) => s?.endsWith('(normal)')), `two normal bots: ${seatsBefore}`);

  // One deal, and the series is over.
  await host.page.locator('[data-key="start"]').click();
  for (const c of everyone) await c.page.locator('.table-screen').waitFor();
  await playDeal(players);
  for (const c of everyone) {
    await c.page.locator('.series-over').waitFor();
    await c.page.waitForFunction(() => /** @type {any} */ (window).fipsenDebug.S.room?.status === 'over');
  }
  assert.equal(await host.page.locator('.series-over').textContent(), 'The series is over. Final totals:');
  // The words lead into the totals: the list of every seat's total follows them at once.
  const next = await host.page.locator('.series-over').evaluate((e) => ({ cls: e.nextElementSibling?.className ?? '', seats: e.nextElementSibling?.querySelectorAll('.total').length ?? 0 }));
  assert.deepEqual(next, { cls: 'result-scores', seats: 4 }, 'the final totals after their words');

  // Only the host may offer; nobody is offered anything yet.
  await host.page.locator('[data-key="rematch-offer"]').waitFor();
  assert.equal(await host.page.locator('[data-key="rematch-offer"]').textContent(), 'Play again');
  for (const c of [guest, watcher]) {
    assert.equal(await c.page.locator('[data-testid="rematch"], [data-testid="rematch-offer"]').count(), 0, `${c.label} has nothing to answer before the host offers`);
  }
  await screenshot(host, 'desktop-rematch-offer-button');

  // The finished series' share link, taken before playing again (its scoresheet has the deal).
  await host.page.locator('[data-key="result-sheet"]').click();
  assert.equal(await host.page.locator('[data-testid="scoresheet"] tbody tr').count(), 1, 'the old series has its deal');
  const oldShare = await shareLink(host);
  assert.ok(oldShare.includes(`#/series/${old}/`), `the old series' link: ${oldShare}`);
  const oldSeats = await heldSeats(guest.page);

  // The host offers and is in the new room at once.
  await host.page.locator('[data-key="rematch-offer"]').click();
  await host.page.waitForFunction((o) => /** @type {any} */ (window).fipsenDebug.S.room?.code && /** @type {any} */ (window).fipsenDebug.S.room.code !== o, old);
  const fresh = await state(host.page, 'S.room.code');
  assert.notEqual(fresh, old);
  assert.equal(new URL(host.page.url()).hash, `#/room/${fresh}`, 'the new room in the address');
  await host.page.locator('.room [data-key="start"]').waitFor();
  assert.equal(await state(host.page, 'S.room.status'), 'waiting');
  assert.equal(await state(host.page, 'S.game'), null, 'nothing dealt in the new room');
  assert.equal(await state(host.page, 'S.you.seat'), 0, 'the host at his seat');
  assert.equal(await state(host.page, 'S.room.title'), 'Rematch table', 'the same title');
  assert.equal(await state(host.page, 'S.room.rules.deals'), 1, 'the same rules');
  const invite = await host.page.locator('.invite input').inputValue();
  assert.ok(invite.endsWith(`#/room/${fresh}`) && invite !== link, `a new invitation link: ${invite}`);
  const hostSeats = await heldSeats(host.page);
  assert.equal(hostSeats[fresh]?.token, hostSeats[old]?.token, 'the host holds the new seat with his old token');
  await screenshot(host, 'desktop-rematch-new-room');

  // The guest (German, on a phone) is offered the new series, and hears of it.
  const offer = guest.page.locator('[data-testid="rematch-offer"]');
  await offer.waitFor();
  assert.equal(await offer.locator('p').textContent(), 'Antje möchte mit denselben Plätzen nochmal spielen:');
  assert.equal(await guest.page.locator('[data-key="rematch-accept"]').textContent(), 'Nochmal spielen');
  assert.equal(await guest.page.locator('[data-key="rematch-leave"]').textContent(), 'Tisch verlassen');
  await guest.page.locator('[data-testid="announcer"] p', { hasText: 'Antje möchte mit denselben Plätzen nochmal spielen.' }).waitFor({ state: 'attached' });
  assert.ok((await state(guest.page, 'S.log')).some((l) => l.text === 'Antje möchte nochmal spielen: ein neuer Tisch mit denselben Plätzen.'), 'the table log says it');
  // In view on the phone, without scrolling by hand.
  await guest.page.waitForFunction(() => {
    const box = document.querySelector('[data-testid="rematch-offer"]')?.getBoundingClientRect();
    return box && box.top >= 0 && box.bottom <= window.innerHeight;
  });
  await screenshot(guest, 'phone-rematch-offer-de');
  assert.deepEqual(await axeViolations(guest.page), [], 'no serious accessibility violation on the offer');
  // The same offer in Japanese (not the English words).
  await guest.page.locator('select[data-key="lang"]').selectOption('ja');
  await guest.page.locator('[data-key="rematch-accept"]', { hasText: 'もう一度遊ぶ' }).waitFor();
  assert.equal(await offer.locator('p').textContent(), 'Antje が同じ席でもう一度遊ぼうと誘っています：');
  assert.equal(await guest.page.locator('[data-key="rematch-leave"]').textContent(), 'テーブルを離れる');
  await screenshot(guest, 'phone-rematch-offer-ja');
  await guest.page.locator('select[data-key="lang"]').selectOption('de');
  await guest.page.locator('[data-key="rematch-accept"]', { hasText: 'Nochmal spielen' }).waitFor();

  // He accepts with the keyboard: his seat in the new room, with the token he held.
  await guest.page.locator('select[data-key="lang"]').focus();
  await tabTo(guest.page, 'rematch-accept');
  await guest.page.keyboard.press('Enter');
  await guest.page.waitForFunction((f) => /** @type {any} */ (window).fipsenDebug.S.room?.code === f, fresh);
  assert.equal(new URL(guest.page.url()).hash, `#/room/${fresh}`);
  await guest.page.locator('.room').waitFor();
  assert.equal(await state(guest.page, 'S.you.seat'), 1, 'the guest at his old seat');
  assert.equal(await state(guest.page, 'S.room.status'), 'waiting');
  assert.equal(await state(guest.page, 'S.game'), null);
  const guestSeats = await heldSeats(guest.page);
  assert.ok(oldSeats[old]?.token, 'the guest held a seat token for the old room');
  assert.equal(guestSeats[fresh]?.token, oldSeats[old].token, 'his old token stored for the new room');
  assert.equal(guestSeats[old]?.token, oldSeats[old].token, 'and still for the old one');
  assert.equal(await guest.page.locator('[data-key="start"]').count(), 0, 'only the host starts');
  await screenshot(guest, 'phone-rematch-new-room-de');

  // The watcher (Japanese) watches the next series.
  await watcher.page.locator('[data-testid="rematch-offer"] p', { hasText: 'Antje が同じ席で新しいシリーズを始めます。' }).waitFor();
  assert.equal(await watcher.page.locator('[data-key="rematch-accept"]').count(), 0, 'a watcher has no seat to take up');
  assert.equal(await watcher.page.locator('[data-key="rematch-watch"]').textContent(), '次のシリーズを観戦する');
  await screenshot(watcher, 'desktop-rematch-watch-ja');
  await watcher.page.locator('[data-key="rematch-watch"]').click();
  await watcher.page.waitForFunction((f) => /** @type {any} */ (window).fipsenDebug.S.room?.code === f, fresh);
  assert.equal(await state(watcher.page, 'S.you.role'), 'spectator');
  assert.equal(await state(watcher.page, 'S.you.seat') ?? null, null);
  await watcher.page.locator('.room .watching-banner').waitFor();

  // The same seats and bots in the new room, on every page in it.
  for (const c of [host, guest, watcher]) {
    assert.deepEqual(await seatsOf(c.page), seatsBefore, `${c.label}: the same people and bots at the same seats`);
  }

  // The host starts the new series: a history of its own, and its own share link.
  await host.page.locator('[data-key="start"]').click();
  for (const c of [host, guest, watcher]) await c.page.locator('.table-screen').waitFor();
  assert.equal(await state(host.page, 'S.game.number'), 1, 'the first deal of the new series');
  await guest.page.locator('[data-key="open-sheet"]').click();
  assert.equal(await guest.page.locator('[data-testid="scoresheet"] tbody tr').count(), 0, 'no finished deal in the new series');
  const freshShare = await shareLink(guest);
  assert.ok(freshShare.includes(`#/series/${fresh}/`), `the new series' link: ${freshShare}`);
  assert.notEqual(freshShare, oldShare);

  assertNoConsoleErrors(everyone);
  for (const c of everyone) await c.context.close();
});

test('a player who does not play again leaves for the home page; his seat in the new room is held, then opens for a bot', async () => {
  const host = await openClient(chrome, 'rematch-three-host', PHONE, 'en');
  const { code: old, link } = await createRoom(host, 'Bente', { players: 3, deals: 1, botDelay: 0, grace: 3 });
  const leaver = await openClient(chrome, 'rematch-leaver', DESKTOP, 'en');
  await joinByLink(leaver, link, 'Fiete');
  await addBot(host, 2);
  await host.page.locator('[data-key="start"]').click();
  for (const c of [host, leaver]) await c.page.locator('.table-screen').waitFor();
  await playDeal([host, leaver]);
  await host.page.locator('[data-key="rematch-offer"]').click();
  await host.page.waitForFunction((o) => (/** @type {any} */ (window).fipsenDebug.S.room?.code ?? o) !== o, old);
  const fresh = await state(host.page, 'S.room.code');

  // Offered on his result screen, he leaves: the home page, out of any room.
  const offer = leaver.page.locator('[data-testid="rematch-offer"]');
  await offer.locator('p', { hasText: 'Bente offers to play again with the same seats:' }).waitFor();
  assert.equal(await leaver.page.locator('[data-key="rematch-accept"]').textContent(), 'Play again');
  await screenshot(leaver, 'desktop-rematch-offer');
  await leaver.page.locator('[data-key="rematch-leave"]').click();
  await leaver.page.locator('main .home').waitFor();
  assert.ok(['', '#/'].includes(new URL(leaver.page.url()).hash), `the home page: ${leaver.page.url()}`);
  assert.equal(await state(leaver.page, 'S.room'), null);
  assert.equal((await heldSeats(leaver.page))[fresh], undefined, 'no seat of the new room kept in his browser');

  // In the new room his seat is his for the grace period (3 s), then open: the host seats a bot
  // there and starts.
  assert.equal(await host.page.locator('.seat-row[data-seat="1"] .seat-name strong').textContent(), 'Fiete');
  await host.page.locator('[data-key="add-bot-1"]').waitFor({ timeout: 20_000 });
  await addBot(host, 1);
  await host.page.locator('[data-key="start"]').click();
  await host.page.locator('.table-screen').waitFor();
  assert.equal(await state(host.page, 'S.game.number'), 1);
  assertNoConsoleErrors([host, leaver]);
  for (const c of [host, leaver]) await c.context.close();
});
