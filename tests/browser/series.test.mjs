// The series page in the web client: after a practice deal against bots, the player opens the
// series page from the scoresheet and from "your tables", replays the finished deal by keyboard,
// downloads the series (the file the server's tests re-play through the rules), prints the
// scoresheet (rendered for print and checked: the sheet alone, every column), and someone with the
// share link — no seat, no token — sees the finished deal and its replay, never the running one.
// Screenshots and the printed PDF go to artifacts/.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { ARTIFACTS, DESKTOP, PHONE, assertNoConsoleErrors, launch, openClient, playDeal, screenshot } from './lib.mjs';

let chrome;
before(async () => {
  chrome = await launch();
});
after(async () => {
  await chrome?.close();
});

/** The replay's step on screen. */
async function step(page) {
  return Number(await page.locator('[data-testid="replay"]').getAttribute('data-step'));
}

for (const [kind, device] of /** @type {const} */ ([
  ['phone', PHONE],
  ['desktop', DESKTOP],
])) {
  test(`the series page on a ${kind}: replay, download, print and a share link`, async () => {
    const me = await openClient(chrome, `series-${kind}`, device, 'en');
    await me.page.locator('#name').fill('Meike');
    await me.page.locator('[data-key="practice-more"]').click();
    await me.page.locator('[data-key="opt-practice_delay-0"]').check();
    await me.page.locator('[data-key="practice"]').click();
    await me.page.locator('.table-screen').waitFor();
    await playDeal([me]);
    await me.page.locator('[data-testid="result"]').waitFor();
    const room = await me.page.evaluate(() => /** @type {any} */ (window).fipsenDebug.S.room.code);

    // From the scoresheet of the table to the series page.
    await me.page.locator('[data-key="result-sheet"]').click();
    await me.page.locator('[data-key="series-page"]').click();
    await me.page.locator('[data-testid="series"]').waitFor();
    // Opened by his seat, without a key in the link; the address then becomes the share link,
    // so that what the address bar shows can be copied and opened anywhere.
    const shareKey = await me.page.evaluate(() => /** @type {any} */ (window).fipsenDebug.S.series.shareKey);
    assert.equal(new URL(me.page.url()).hash, `#/series/${room}/${shareKey}`, 'the address is the share link');
    assert.match(await me.page.locator('[data-testid="series-status"]').textContent(), /Still being played/);
    assert.equal(await me.page.locator('.series-deal-list li').count(), 1, 'the finished deal, and only it');
    assert.equal(await me.page.locator('[data-testid="scoresheet"] tbody tr').count(), 1);
    await screenshot(me, `${kind}-series-page`);

    // Its deal replayed by keyboard.
    await me.page.locator('[data-key="series-replay-1"]').click();
    await me.page.locator('[data-testid="replay"]').waitFor();
    await me.page.locator('[data-testid="replay"]').focus();
    await me.page.keyboard.press('ArrowRight');
    await me.page.waitForFunction(() => document.querySelector('[data-testid="replay"]')?.getAttribute('data-step') === '1');
    await me.page.keyboard.press('End');
    const last = await step(me.page);
    assert.ok(last > 10, `the whole deal: ${last} steps`);
    const hands = await me.page.locator('.replay-seat h3').allTextContents();
    assert.ok(hands.some((name) => name.startsWith('Meike')), `the seats are named: ${hands}`);
    await me.page.locator('[data-key="close-replay"]').click();

    // The download: the series record as the server sent it.
    await me.page.evaluate(() => {
      const w = /** @type {any} */ (window);
      w.kept = [];
      const make = URL.createObjectURL.bind(URL);
      URL.createObjectURL = (blob) => (w.kept.push(blob), make(blob));
    });
    await me.page.locator('[data-key="series-download"]').click();
    const file = JSON.parse(await me.page.evaluate(() => /** @type {any} */ (window).kept[0].text()));
    assert.equal(file.format, 1);
    assert.equal(file.room, room);
    assert.equal(file.deals.length, 1);
    assert.match(file.deals[0].seed, /^[0-9a-f]{64}$/);
    assert.ok(file.deals[0].actions.length > 10, 'every action of the deal');
    assert.equal(file.master_seed, null, 'no master seed while the series runs');
    assert.equal(file.sheet.deal, null, 'nothing of the running deal');

    // Printed: the sheet alone, with every column (deal, dealer, declarer, game, result, points and
    // a total per player), the buttons and the header left out.
    await me.page.emulateMedia({ media: 'print' });
    // A phone's screen puts the players' columns first; the page draws the sheet again for paper.
    await me.page.waitForFunction(
      () => document.querySelector('[data-testid="scoresheet"] thead th:nth-child(2)')?.textContent === 'Dealer',
      null,
      { timeout: 5_000 },
    ).catch(() => {});
    const printed = await me.page.evaluate(() => {
      const visible = (el) => !!el && getComputedStyle(el).display !== 'none' && el.getBoundingClientRect().width > 0;
      const table = document.querySelector('[data-testid="scoresheet"]');
      return {
        header: visible(document.querySelector('header.top')),
        buttons: [...document.querySelectorAll('.series-page button')].filter(visible).length,
        columns: [...(table?.querySelectorAll('thead th') ?? [])].filter(visible).map((th) => th.textContent),
        rows: table?.querySelectorAll('tbody tr').length ?? 0,
        width: table?.getBoundingClientRect().width ?? 0,
        page: document.documentElement.clientWidth,
        printedAt: visible(document.querySelector('.series-printed')),
        title: document.querySelector('.series-title')?.textContent,
      };
    });
    assert.equal(printed.header, false, 'no header on paper');
    assert.equal(printed.buttons, 0, 'no buttons on paper');
    assert.deepEqual(printed.columns.slice(0, 6), ['Deal', 'Dealer', 'Declarer', 'Game', 'Result', 'Points'], `${printed.columns}`);
    assert.equal(printed.columns.length, 10, 'six columns and a total for each of the four players');
    assert.equal(printed.rows, 1);
    assert.ok(printed.width >= printed.page * 0.9, 'the sheet takes the width of the page');
    assert.ok(printed.printedAt, 'the date it was printed');
    await screenshot(me, `${kind}-series-print`);
    if (kind === 'desktop') {
      const pdf = await me.page.pdf({ path: join(ARTIFACTS, 'series-sheet.pdf'), format: 'A4' });
      assert.ok(pdf.length > 5_000, 'a printed page');
    }
    await me.page.emulateMedia({ media: 'screen' });

    // "Your tables" on the home page leads there too, with the series' standing.
    await me.page.locator('a.brand').click();
    await me.page.locator(`[data-key="mine-series-${room}"]`).waitFor();
    assert.match(await me.page.locator('[data-testid="mine-status"]').first().textContent(), /deal \d.*Totals: Meike/);
    await me.page.locator(`[data-key="mine-series-${room}"]`).click();
    await me.page.locator('[data-testid="series"]').waitFor();

    // The share link, opened by someone with no seat: the finished deal's replay at once.
    const key = await me.page.evaluate(() => /** @type {any} */ (window).fipsenDebug.S.series.shareKey);
    assert.match(key, /^[A-Za-z0-9_-]{24}$/);
    assert.equal(key, shareKey);
    const guest = await openClient(chrome, `series-guest-${kind}`, device, 'en');
    await guest.page.goto(`${guest.page.url().split('#')[0]}#/series/${room}/${key}/1`);
    await guest.page.locator('[data-testid="replay"]').waitFor();
    assert.equal(await step(guest.page), 0);
    assert.equal(await guest.page.evaluate(() => localStorage.getItem('fipsen.seats') ?? '{}'), '{}', 'the guest holds no seat');
    await guest.page.locator('[data-key="close-replay"]').click();
    assert.equal(await guest.page.locator('.series-deal-list li').count(), 1);
    assert.equal(await guest.page.locator('[data-key="series-share"]').count(), 1, 'a share link may be passed on');
    // A link with a wrong key opens nothing.
    await guest.page.goto(`${guest.page.url().split('#')[0]}#/series/${room}/${'A'.repeat(24)}`);
    await guest.page.locator('[data-testid="series-failed"]').waitFor();
    await screenshot(guest, `${kind}-series-not-found`);

    assertNoConsoleErrors([me, guest]);
    await guest.context.close();
    await me.context.close();
  });
}

/**
 * A long series, as the server gives it page by page: the page's own answers are made by the
 * test from the one finished deal of a practice table, numbered as deal after deal of a series
 * of `finished` deals (the server's paging is the server tests' to check; here, what the page
 * does with pages).
 */
test('a long series comes in pages: the page steps through them and the file to keep holds every deal', async () => {
  const me = await openClient(chrome, 'series-pages', DESKTOP, 'en');
  const finished = 120;
  /** @type {any} */
  let real = null;
  const asked = [];
  await me.page.routeWebSocket(/\/ws$/, (ws) => {
    const server = ws.connectToServer();
    ws.onMessage((m) => {
      const message = JSON.parse(String(m));
      if (message.type !== 'series' || !real) return server.send(m);
      asked.push(message.from ?? 1);
      const from = message.from ?? 1;
      const last = Math.min(finished, from + 49);
      const numbers = Array.from({ length: Math.max(0, last - from + 1) }, (_, i) => from + i);
      const series = {
        ...real,
        finished,
        next: last < finished ? last + 1 : null,
        deals: numbers.map((number) => ({ ...real.deals[0], number })),
        sheet: { ...real.sheet, scoresheet: numbers.map((number) => ({ ...real.sheet.scoresheet[0], number })) },
      };
      ws.send(JSON.stringify({ type: 'series', series, share_key: null }));
    });
    server.onMessage((m) => {
      const message = JSON.parse(String(m));
      if (message.type === 'series' && !real) real = message.series;
      ws.send(m);
    });
  });
  await me.page.reload();
  await me.page.locator('#name').fill('Meike');
  await me.page.locator('[data-key="practice-more"]').click();
  await me.page.locator('[data-key="opt-practice_delay-0"]').check();
  await me.page.locator('[data-key="practice"]').click();
  await me.page.locator('.table-screen').waitFor();
  await playDeal([me]);
  await me.page.locator('[data-testid="result"]').waitFor();
  await me.page.locator('[data-key="result-sheet"]').click();
  await me.page.locator('[data-key="series-page"]').click();
  // The first answer is the server's own (one deal); from then on the test's long series.
  await me.page.locator('[data-testid="series"]').waitFor();
  assert.ok(real, 'the server answered the series page');
  assert.equal(await me.page.locator('[data-testid="series-pager"]').count(), 0, 'one page needs no pages');
  await me.page.evaluate(() => {
    const w = /** @type {any} */ (window);
    w.fipsenDebug.S.series = { status: 'idle' };
  });
  await me.page.evaluate(() => window.dispatchEvent(new HashChangeEvent('hashchange')));
  await me.page.locator('[data-testid="series-range"]').waitFor();
  assert.equal(await me.page.locator('[data-testid="series-range"]').textContent(), `Deals 1–50 of ${finished}`);
  assert.equal(await me.page.locator('.series-deal-list li').count(), 50);
  assert.equal(await me.page.locator('[data-testid="scoresheet"] tbody tr').count(), 50, 'the page\'s rows');
  assert.equal(await me.page.locator('[data-key="series-earlier"]').count(), 0);
  await me.page.locator('[data-key="series-later"]').click();
  await me.page.waitForFunction(() => document.querySelector('[data-testid="series-range"]')?.textContent === 'Deals 51–100 of 120');
  await me.page.locator('[data-key="series-later"]').click();
  await me.page.waitForFunction(() => document.querySelector('[data-testid="series-range"]')?.textContent === 'Deals 101–120 of 120');
  assert.equal(await me.page.locator('[data-key="series-later"]').count(), 0, 'the last page');
  await me.page.locator('[data-key="series-earlier"]').click();
  await me.page.waitForFunction(() => document.querySelector('[data-testid="series-range"]')?.textContent === 'Deals 51–100 of 120');
  await screenshot(me, 'desktop-series-pages');

  // The file to keep: every page gathered, every deal and every row once, in order.
  await me.page.evaluate(() => {
    const w = /** @type {any} */ (window);
    w.kept = [];
    const make = URL.createObjectURL.bind(URL);
    URL.createObjectURL = (blob) => (w.kept.push(blob), make(blob));
  });
  asked.length = 0;
  await me.page.locator('[data-key="series-download"]').click();
  await me.page.waitForFunction(() => /** @type {any} */ (window).kept.length > 0);
  const file = JSON.parse(await me.page.evaluate(() => /** @type {any} */ (window).kept[0].text()));
  assert.deepEqual(asked, [1, 51, 101], 'the pages asked for the file');
  assert.deepEqual(file.deals.map((d) => d.number), Array.from({ length: finished }, (_, i) => i + 1));
  assert.deepEqual(file.sheet.scoresheet.map((r) => r.number), Array.from({ length: finished }, (_, i) => i + 1));
  assert.equal(file.next, null);
  assert.equal(await me.page.locator('[data-testid="series-range"]').textContent(), 'Deals 51–100 of 120', 'the page on screen stays');
  assertNoConsoleErrors([me]);
  await me.context.close();
});

test('a long series at the table: its scoresheet holds the newest rows and says where the older are', async () => {
  const me = await openClient(chrome, 'sheet-earlier', DESKTOP, 'en');
  // A snapshot of a table whose first 1,200 rows were left out, as the server sends one of a
  // series of thousands of deals: its one row is deal 1,201.
  await me.page.routeWebSocket(/\/ws$/, (ws) => {
    const server = ws.connectToServer();
    ws.onMessage((m) => server.send(m));
    server.onMessage((m) => {
      const message = JSON.parse(String(m));
      if (message.type !== 'joined' || !message.game?.scoresheet?.length) return ws.send(m);
      message.rows_before = 1200;
      message.game.scoresheet = message.game.scoresheet.map((/** @type {any} */ row) => ({ ...row, number: row.number + 1200 }));
      ws.send(JSON.stringify(message));
    });
  });
  await me.page.reload();
  await me.page.locator('#name').fill('Meike');
  await me.page.locator('[data-key="practice-more"]').click();
  await me.page.locator('[data-key="opt-practice_delay-0"]').check();
  await me.page.locator('[data-key="practice"]').click();
  await me.page.locator('.table-screen').waitFor();
  await playDeal([me]);
  await me.page.locator('[data-testid="result"]').waitFor();
  // Back after a reload: the snapshot with the newest rows only.
  await me.page.reload();
  await me.page.locator('.table-screen').waitFor();
  await me.page.locator('[data-key="open-sheet"]').click();
  const hint = me.page.locator('[data-testid="sheet-earlier"]');
  await hint.waitFor();
  assert.match(await hint.innerText(), /first 1200 rows/);
  const rows = await me.page.locator('[data-testid="scoresheet"] tbody tr').evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-deal')));
  assert.deepEqual(rows, ['1201']);
  // The chart starts at the first row shown, labelled with its deal.
  const labels = await me.page.locator('.chart-svg .axis-label').evaluateAll((ts) => ts.map((t) => t.textContent));
  assert.ok(labels.includes('1201'), `chart labels ${labels}`);
  // The series page, with every row, is one tap away.
  await me.page.locator('[data-key="series-page"]').waitFor();
  await screenshot(me, 'desktop-sheet-earlier');
  assertNoConsoleErrors([me]);
  await me.context.close();
});
