// The home page and the way into a room: the lobby in pages of 50 ("More tables"), a connection
// closed for idling (4005) that comes back quietly at the next tap, and one seat per person — a
// second tab of the same browser joining a table it already sits at gets that seat back; a table
// created without a name is named after its host in each person’s language, its invite code
// written without look-alikes; the rules in brief one tap away from the game chosen.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { BASE, DESKTOP, PHONE, assertNoConsoleErrors, createRoom, joinByLink, launch, openClient, screenshot } from './lib.mjs';

let chrome;
before(async () => {
  chrome = await launch();
});
after(async () => {
  await chrome?.close();
});

/** The client's state, as the page holds it. */
function state(page, expr) {
  return page.evaluate((e) => new Function('S', `return (${e});`)(/** @type {any} */ (window).fipsenDebug.S), expr);
}

test('the lobby shows 50 tables, and more on asking', async () => {
  const me = await openClient(chrome, 'lobby', DESKTOP, 'en');
  // 55 public tables, made over the protocol from the page: a connection creates a room, leaves
  // it and creates the next (the server allows 5 at once per connection).
  const made = await me.page.evaluate(async (base) => {
    const url = base.replace(/^http/, 'ws') + 'ws';
    const sockets = [];
    let count = 0;
    const next = (ws, type) =>
      new Promise((resolve, reject) => {
        ws.onmessage = (e) => {
          const msg = JSON.parse(e.data);
          if (msg.type === type) resolve(msg);
          else if (msg.type === 'error') reject(new Error(msg.code));
        };
      });
    while (count < 55) {
      const ws = new WebSocket(url);
      sockets.push(ws);
      await new Promise((r) => (ws.onopen = r));
      const welcome = next(ws, 'welcome');
      ws.send(JSON.stringify({ type: 'hello', protocol: 3 }));
      await welcome;
      for (let k = 0; k < 5 && count < 55; k++, count++) {
        const joined = next(ws, 'joined');
        ws.send(JSON.stringify({ type: 'create_room', name: `Host ${count}`, options: { public: true, title: `Paging table ${count}` } }));
        await joined;
        const left = next(ws, 'left');
        ws.send(JSON.stringify({ type: 'leave_room' }));
        await left;
      }
    }
    /** @type {any} */ (window).pagingSockets = sockets;
    return count;
  }, BASE);
  assert.equal(made, 55);
  await me.page.locator('[data-key="lobby-refresh"]').click();
  await me.page.locator('.lobby-row', { hasText: 'Paging table 54' }).waitFor();
  assert.equal(await me.page.locator('.lobby-row').count(), 50, 'the first page holds 50 tables');
  const total = await state(me.page, 'S.lobbyTotal');
  assert.ok(total >= 55, `the lobby says how many there are: ${total}`);
  await me.page.locator('.lobby-more .hint', { hasText: `50 of ${total} tables` }).waitFor();
  await me.page.locator('[data-key="lobby-more"]').scrollIntoViewIfNeeded();
  await screenshot(me, 'desktop-lobby-more');
  await me.page.locator('[data-key="lobby-more"]').click();
  await me.page.locator('.lobby-row', { hasText: 'Paging table 0' }).waitFor();
  assert.equal(await me.page.locator('.lobby-row').count(), Math.min(total, 100), 'the next page is added below');
  if (total <= 100) assert.equal(await me.page.locator('[data-key="lobby-more"]').count(), 0, 'nothing more to ask for');
  await me.page.evaluate(() => /** @type {any} */ (window).pagingSockets.forEach((ws) => ws.close()));
  assertNoConsoleErrors([me]);
});

test('a connection closed for idling comes back quietly at the next tap', async () => {
  const me = await openClient(chrome, 'idle', PHONE, 'en');
  let sockets = 0;
  me.page.on('websocket', () => (sockets += 1));
  // The server closes a connection in no room that said nothing for long with 4005.
  await me.page.evaluate(() => /** @type {any} */ (window).fipsenDebug.conn.ws.close(4005, 'idle'));
  await me.page.locator('[data-conn="idle"]').waitFor();
  await me.page.waitForTimeout(1500);
  assert.equal(sockets, 0, 'no reconnection by itself');
  assert.equal(await me.page.locator('[data-conn="offline"], .toast-error').count(), 0, 'no alarm');
  assert.doesNotMatch((await me.page.locator('.conn-text').textContent()) ?? '', /lost/i);
  assert.equal(await me.page.locator('[data-key="practice"][disabled]').count(), 0, 'nothing is switched off meanwhile');
  await screenshot(me, 'phone-idle');
  // The next tap (here: refreshing the open tables) brings it back, and its request goes through.
  const lobbies = me.frames.filter((f) => f.includes('"type":"lobby"')).length;
  await me.page.locator('[data-key="lobby-refresh"]').click();
  await me.page.locator('[data-conn="open"]').waitFor();
  assert.equal(sockets, 1, 'one new connection');
  await me.page.waitForFunction(() => true);
  for (let i = 0; i < 50 && me.frames.filter((f) => f.includes('"type":"lobby"')).length <= lobbies; i++) await me.page.waitForTimeout(100);
  assert.ok(me.frames.filter((f) => f.includes('"type":"lobby"')).length > lobbies, 'the lobby came');
  assertNoConsoleErrors([me]);
});

test('one person, one seat: a second tab of the same browser joining by code gets the seat back', async () => {
  const host = await openClient(chrome, 'seat-host', DESKTOP, 'en');
  const { code, link } = await createRoom(host, 'Antje', { players: 3, title: 'One seat each' });
  const pia = await openClient(chrome, 'seat-pia', PHONE, 'en');
  await joinByLink(pia, link, 'Pia');
  const seat = await state(pia.page, 'S.you.seat');
  assert.equal(seat, 1);
  // The same browser (same storage), another tab: Pia types the code on the home page.
  const second = await pia.context.newPage();
  const errors = [];
  second.on('pageerror', (e) => errors.push(e.message));
  await second.goto(BASE);
  await second.locator('[data-conn="open"]').waitFor();
  await second.locator('#join-code').fill(code);
  await second.locator('[data-key="join-sit"]').click();
  await second.locator('.room').waitFor();
  assert.equal(await state(second, 'S.you.seat'), seat, 'the seat she already has');
  assert.equal(await state(second, 'S.room.seats.filter(Boolean).length'), 2, 'no second seat');
  await host.page.locator('.seat-row.free[data-seat="2"]').waitFor();
  assert.equal(await host.page.locator('.seat-row:not(.free)').count(), 2);
  // The first tab hands over: it is told so instead of fighting for the seat.
  await pia.page.locator('[data-conn="failed"]').waitFor();
  await pia.page.locator('.toast-error', { hasText: 'another window or tab' }).waitFor();
  await screenshot(pia, 'phone-seat-taken-over-by-tab');
  assert.deepEqual(errors, []);
  assertNoConsoleErrors([host, pia]);
});

test('a table created without a name is named after its host in each person’s language', async () => {
  const host = await openClient(chrome, 'title-de', DESKTOP, 'de');
  const { link, code } = await createRoom(host, 'Antje');
  // The invite code is read and typed by people: no O beside 0, no I or l beside 1.
  assert.match(code, /^[0-9A-HJKMNP-TV-Z]{20}$/, `an invite code without look-alikes: ${code}`);
  assert.equal(await host.page.locator('.room h1').textContent(), 'Der Tisch von Antje');
  assert.match(await host.page.title(), /^Der Tisch von Antje — /);
  const guest = await openClient(chrome, 'title-ja', PHONE, 'ja');
  await guest.page.goto(link);
  await guest.page.locator('[data-testid="invite-info"]').waitFor();
  assert.equal(await guest.page.locator('[data-testid="invite-title"]').textContent(), 'Antje のテーブル');
  await guest.page.locator('#name').fill('Chiyo');
  await guest.page.locator('[data-key="invite-sit"]').click();
  await guest.page.locator('.room h1').waitFor();
  assert.equal(await guest.page.locator('.room h1').textContent(), 'Antje のテーブル');
  // Back home, the table is among her own, by the same name.
  await guest.page.goto(new URL('#/', link).href);
  await guest.page.locator('.panel.mine strong', { hasText: 'Antje のテーブル' }).waitFor();
  assertNoConsoleErrors([host, guest]);
  await host.context.close();
  await guest.context.close();
});

test('the rules in brief are one tap away from the game chosen, on a phone', async () => {
  const me = await openClient(chrome, 'rules-jump', PHONE, 'en');
  for (const [where, game] of [
    ['practice', 'tippen'],
    ['create', 'grossenaspe'],
  ]) {
    await me.page.evaluate(() => window.scrollTo(0, 0));
    await me.page.locator(`[data-key="opt-${where === 'practice' ? 'practice_game' : 'game'}-${game}"]`).check();
    const jump = me.page.locator(`[data-key="howto-jump-${where}"]`);
    assert.match((await jump.textContent()) ?? '', game === 'tippen' ? /Tippen/ : /Großenaspe/);
    await jump.click();
    await me.page.waitForTimeout(300);
    const at = await me.page.locator(`.howto-game[data-game="${game}"] h3`).boundingBox();
    assert.ok(await me.page.locator('details.howto[open]').count(), 'the rules are open');
    assert.ok(at && at.y >= -1 && at.y + at.height <= 844, `${game}'s rules in view: ${JSON.stringify(at)}`);
    if (where === 'practice') await screenshot(me, 'phone-rules-jump');
  }
  assertNoConsoleErrors([me]);
  await me.context.close();
});

test('a second invitation opened in the same tab asks before seating the player at a second table', async () => {
  const host = await openClient(chrome, 'second-host', DESKTOP, 'en');
  const { link } = await createRoom(host, 'Hinnerk', { title: 'Second table' });
  const me = await openClient(chrome, 'second-me', PHONE, 'en');
  await me.page.locator('#name').fill('Meike');
  await me.page.locator('[data-key="practice"]').click();
  await me.page.locator('.table-screen').waitFor();
  const first = await me.page.evaluate(() => /** @type {any} */ (window).fipsenDebug.S.room.code);

  // The second invitation, in the same tab: it says where he sits, and the first tap only asks.
  await me.page.goto(link);
  await me.page.locator('[data-testid="invite-title"]', { hasText: 'Second table' }).waitFor();
  const note = me.page.locator('[data-testid="invite-elsewhere"]');
  await note.waitFor();
  assert.match((await note.textContent()) ?? '', /seated at .*second seat/);
  assert.equal(await me.page.locator('[data-key="invite-back"]').getAttribute('href'), `#/room/${first}`);
  await me.page.locator('[data-key="invite-sit"]').click();
  await me.page.locator('[data-key="invite-sit"]', { hasText: 'Yes, sit here as well' }).waitFor();
  assert.equal(await me.page.evaluate(() => /** @type {any} */ (window).fipsenDebug.S.you), null, 'not seated on the first tap');
  // Confirmed: seated at the second table too.
  await me.page.locator('[data-key="invite-sit"]').click();
  await me.page.waitForFunction(() => /** @type {any} */ (window).fipsenDebug.S.you?.seat !== undefined && /** @type {any} */ (window).fipsenDebug.S.you?.seat !== null);
  assertNoConsoleErrors([host, me]);
  await host.context.close();
  await me.context.close();
});
