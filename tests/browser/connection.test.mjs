// The connection as a person meets it: the network gone is said at once (not "Connected" over a
// dead line, nor an offer to nudge), and the table comes back with the network; a second
// invitation opened in the same tab leads to the second table (the first seat is kept).

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { DESKTOP, PHONE, assertNoConsoleErrors, createRoom, launch, openClient, screenshot } from './lib.mjs';

let chrome;
before(async () => {
  chrome = await launch();
});
after(async () => {
  await chrome?.close();
});

test('the network gone: the page says so at once, offers no nudge, and comes back with the network', async () => {
  const me = await openClient(chrome, 'offline', PHONE, 'en');
  await me.page.locator('#name').fill('Meike');
  await me.page.locator('[data-key="practice-more"]').click();
  await me.page.locator('[data-key="opt-practice_delay-1600"]').check();
  await me.page.locator('[data-key="practice"]').click();
  await me.page.locator('.table-screen').waitFor();
  await me.page.locator('[data-conn="open"]').waitFor();

  await me.context.setOffline(true);
  const lost = Date.now();
  // Within a few seconds, not the ~17 s the socket itself may take to notice.
  await me.page.locator('[data-conn="offline"]').waitFor({ timeout: 3000 });
  assert.ok(Date.now() - lost < 3000);
  assert.match((await me.page.locator('.conn-text').textContent()) ?? '', /Connection lost/);
  // In view wherever the page is scrolled (the header is out of sight at the hand).
  await me.page.locator('.hand').scrollIntoViewIfNeeded();
  await me.page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  const at = await me.page.locator('[data-conn="offline"]').boundingBox();
  assert.ok(at && at.y >= 0 && at.y + at.height <= 844, `the connection lost is in view: ${JSON.stringify(at)}`);
  assert.equal(await me.page.locator('[data-key="nudge"]').count(), 0, 'no nudge offered on what may be old news');
  await screenshot(me, 'phone-offline');

  await me.context.setOffline(false);
  await me.page.locator('[data-conn="open"]').waitFor({ timeout: 20_000 });
  await me.page.locator('.table-screen').waitFor();
  assert.equal(await me.page.evaluate(() => /** @type {any} */ (window).fipsenDebug.S.you?.role), 'player', 'back at the seat');
  // The connection lost on the way is no error of the page's.
  me.errors.splice(0, me.errors.length, ...me.errors.filter((e) => !/ERR_INTERNET_DISCONNECTED|WebSocket/.test(e)));
  assertNoConsoleErrors([me]);
  await me.context.close();
});

test('a second invitation in the same tab: the invitation page, a seat at the second table, the first seat kept', async () => {
  const host = await openClient(chrome, 'second-host', DESKTOP, 'en');
  const { link: second } = await createRoom(host, 'Hauke', { title: 'Second table' });
  const me = await openClient(chrome, 'second-guest', DESKTOP, 'en');
  const { code: first } = await createRoom(me, 'Imke', { title: 'First table' });
  await me.page.locator('.room').waitFor();

  // The link to the second table, opened in the tab that sits at the first: the first tap asks
  // whether to sit at a second table too, the second sits down.
  await me.page.goto(second);
  await me.page.locator('[data-testid="invite-info"]').waitFor();
  await me.page.locator('[data-key="invite-sit"]').click();
  await me.page.locator('[data-key="invite-sit"]', { hasText: 'Yes, sit here as well' }).waitFor();
  await me.page.locator('[data-key="invite-sit"]').click();
  await me.page.locator('.room').waitFor();
  await me.page.waitForFunction(() => /** @type {any} */ (window).fipsenDebug.S.room?.title === 'Second table');
  assert.equal(await me.page.locator('.toast-error').count(), 0, `no error: ${await me.page.locator('.toast-error').allTextContents()}`);
  // The host sees her sit down at the second table.
  await host.page.waitForFunction(() => /** @type {any} */ (window).fipsenDebug.S.room.seats.some((s) => s?.name === 'Imke'));
  await screenshot(me, 'desktop-second-invitation');

  // Back to the first table: the seat there is still hers.
  await me.page.goto(`${new URL(second).origin}/#/room/${first}`);
  await me.page.waitForFunction(() => /** @type {any} */ (window).fipsenDebug.S.room?.title === 'First table');
  assert.equal(await me.page.evaluate(() => /** @type {any} */ (window).fipsenDebug.S.you?.name), 'Imke');
  assertNoConsoleErrors([host, me]);
  await host.context.close();
  await me.context.close();
});
