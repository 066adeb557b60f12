// A tournament through the web client: an organiser who only runs it creates it from the form
// (Prisdorf, tables of three and four, two rounds, few deals, listed, seats held 5 s, bots
// without a pause); five players register by the link in browsers of their own (phones and
// desktops, three languages), one of them from the list on the home page; a name taken is
// refused in words, a name removed by the organiser may register again; at the organiser's cap of
// five a newcomer is told the tournament is full; five cannot be seated and the organiser starts
// with one bot, marked as a bot, the page saying beforehand which tables and deals that makes. The
// form's short tables follow the deals chosen for the full ones until set. Two players go to their tables from the
// seating and play their deals there; the standings on the organiser's and a spectator's pages
// change as each deal ends and equal the table's scoresheet; the organiser starts the second
// round (seated by the standings); once the tournament is over the results page is ranked as the
// server's results, prints with the ranked table and without the controls, and its CSV files are
// the server's. "Your tournaments" on the home page leads back. No page logs a console error.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { ARTIFACTS, BASE, DESKTOP, PHONE, assertNoConsoleErrors, launch, openClient, playDeal, screenshot, screenshotFull } from './lib.mjs';

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

/** The standings as a page shows them: name, rank, total, tables and deals, in order. */
async function standings(page) {
  return page.locator('[data-testid="tn-standings"] tbody tr').evaluateAll((rows) =>
    rows.map((r) => {
      const cells = [...r.children].map((c) => c.textContent?.trim() ?? '');
      return { name: r.getAttribute('data-name'), rank: Number(cells[0]), total: Number(cells[2]), tables: Number(cells[3]), deals: Number(cells[4]) };
    }),
  );
}

/** The totals on the table's scoresheet, by the names at its seats. */
async function sheetTotals(page) {
  await page.locator('[data-key="open-sheet"]').click();
  const sheet = page.locator('dialog.dialog-sheet [data-testid="scoresheet"]');
  await sheet.waitFor();
  const names = await sheet.locator('thead th.total-col').allTextContents();
  const totals = await sheet.locator('tfoot td.total').allTextContents();
  // The series belongs to the tournament: its players are not offered to delete it.
  assert.equal(await page.locator('dialog.dialog-sheet [data-key="delete-series"]').count(), 0);
  await page.locator('[data-key="close-sheet"]').click();
  return Object.fromEntries(names.map((n, i) => [n.trim(), Number(totals[i].replace('−', '-'))]));
}

/** The last frame of a type a page received. */
function lastFrame(client, type) {
  const frames = client.frames.map((f) => JSON.parse(f)).filter((m) => m.type === type);
  assert.ok(frames.length, `${client.label} received a ${type} frame`);
  return frames[frames.length - 1];
}

/** The last `tournament_results` of the standings, and the last of each round, a page received. */
function resultsFrames(client) {
  const frames = client.frames.map((f) => JSON.parse(f)).filter((m) => m.type === 'tournament_results');
  const standings = frames.filter((m) => m.round === undefined).at(-1);
  assert.ok(standings, `${client.label} received the standings`);
  /** @type {Record<number, any>} */
  const rounds = {};
  for (const m of frames) if (m.round !== undefined) rounds[m.round] = m;
  return { standings, rounds };
}

/** Opens the registration link and registers under a name. */
async function register(client, link, name) {
  const { page } = client;
  if (link) await page.goto(link);
  await page.locator('[data-key="tn-register"]').waitFor().catch(async (e) => {
    await screenshotFull(client, `stuck-register-${client.label}`);
    throw new Error(`${e.message}\n${await page.locator('main').textContent()}\n${client.frames.slice(-5).join('\n')}`);
  });
  await page.locator('#name').fill(name);
  await page.locator('[data-key="tn-register"]').click();
}

/** The names registered, as the organiser's page lists them. */
async function entrants(page) {
  return page.locator('[data-testid="tn-entrants"] li .tn-entrant-name').evaluateAll((els) => els.map((e) => e.firstChild?.textContent?.trim() ?? ''));
}

/** The seating of the round on screen: per table, the names at its seats. */
async function seating(page) {
  return page.locator('.tn-seating > .tn-tables [data-testid="tn-table"]').evaluateAll((tables) =>
    tables.map((t) => [...t.querySelectorAll('.tn-seats li')].map((li) => li.getAttribute('data-name'))),
  );
}

/** A player goes from the tournament page to his table; returns its room code. */
async function toMyTable(client) {
  const { page } = client;
  await page.locator('[data-key="tn-my-table"]').click();
  await page.locator('.table-screen [data-testid="tn-bar"]').waitFor();
  return state(page, 'S.room.code');
}

/**
 * A spectator watches the table of the round at which neither player of the test sits (its
 * entrants never come: bots stand in for them).
 */
async function watchIdleTable(client, players) {
  const { page } = client;
  const tables = await seating(page);
  const idle = tables.findIndex((names) => !names.some((n) => players.includes(n)));
  if (idle < 0) return;
  await page.locator(`[data-key="tn-watch-${idle + 1}"]`).click();
  await page.locator('.table-screen.spectating [data-testid="tn-bar"]').waitFor();
}

/** The deals that count at the page's tournament table so far. */
function played(page) {
  return state(page, 'S.room?.tournament?.played ?? 0');
}

/**
 * Plays deals at a table through its players' pages until `target` deals count there (a deal
 * thrown in does not), then checks that the standings of `watchers` equal the scoresheet:
 * `before` holds each player's total before this round.
 */
async function playUntil(group, target, watchers, before) {
  const page = group[0].page;
  while ((await played(page)) < target) {
    // A deal over (its result on screen, or the table done) is not played again.
    if ((await page.locator('[data-testid="result"]').count()) === 0) await playDeal(group);
    await page
      .waitForFunction((n) => {
        const S = /** @type {any} */ (window).fipsenDebug.S;
        return (S.room?.tournament?.played ?? 0) >= n || S.game?.deal?.phase === 'over';
      }, target)
      .catch(async (e) => {
        await screenshot(group[0], `stuck-tournament-${group[0].label}`);
        throw new Error(`${e.message}\n${JSON.stringify(await state(page, '{room: S.room, phase: S.game?.deal?.phase, number: S.game?.number, route: S.route}'))}`);
      });
    if ((await played(page)) >= target) break;
    // A deal thrown in: on to the next.
    for (const c of group) {
      const next = c.page.locator('[data-key="next-deal"]:not([disabled])');
      if (await next.count()) await next.click();
    }
    await page.waitForFunction(() => /** @type {any} */ (window).fipsenDebug.S.game?.deal?.phase !== 'over');
  }
  const bar = await page.locator('[data-testid="tn-bar-deals"]').textContent();
  assert.match(bar ?? '', new RegExp(`^${target}\\D`), `the table's bar counts ${target} deals: ${bar}`);
  const sheet = await sheetTotals(page);
  const names = Object.keys(sheet);
  for (const w of watchers) {
    // The standings follow as soon as the server stored the deal.
    await w.page.waitForFunction(
      ([want, n]) => {
        const rows = [...document.querySelectorAll('[data-testid="tn-standings"] tbody tr')];
        return want.every((name) => rows.some((r) => r.getAttribute('data-name') === name && Number(r.children[4].textContent) >= n));
      },
      [names, target],
    );
    const rows = await standings(w.page);
    for (const name of names) {
      const row = rows.find((r) => r.name === name);
      assert.ok(row, `${name} in the standings of ${w.label}`);
      assert.equal(row.total, (before[name] ?? 0) + sheet[name], `${w.label}: ${name}'s total is what the scoresheet gives him (${JSON.stringify(sheet)})`);
    }
    // The table's card on the tournament page shows the same points and deals.
    const card = w.page.locator('.tn-seating > .tn-tables [data-testid="tn-table"]', { has: w.page.locator(`li[data-name="${names[0]}"]`) });
    assert.match((await card.locator('[data-testid="tn-played"]').textContent()) ?? '', new RegExp(`^${target}\\D`));
    const points = await card.locator('.tn-seats li').evaluateAll((lis) => Object.fromEntries(lis.map((li) => [li.getAttribute('data-name'), Number(li.querySelector('.tn-seat-points')?.textContent)])));
    assert.deepEqual(points, sheet, `${w.label}: the table's points are its scoresheet's`);
  }
  return sheet;
}

test('a tournament: created, registered by link, started with a bot, standings as deals end, results printed and downloaded', async () => {
  const olli = await openClient(chrome, 'olli', DESKTOP, 'en');
  const anna = await openClient(chrome, 'anna', PHONE, 'de');
  const bea = await openClient(chrome, 'bea', DESKTOP, 'ja');
  const carl = await openClient(chrome, 'carl', PHONE, 'en');
  const dora = await openClient(chrome, 'dora', DESKTOP, 'en');
  const emil = await openClient(chrome, 'emil', DESKTOP, 'de');
  const clients = [olli, anna, bea, carl, dora, emil];
  const o = olli.page;

  // ---- the create form ----
  await o.locator('[data-key="tn-new"]').click();
  await o.locator('#tn-name').waitFor();
  // The Prisdorf preset is what the form starts from: 100 deals at four, 120 at three.
  assert.equal(await o.locator('[data-key="tn-preset-prisdorf"]').getAttribute('aria-pressed'), 'true');
  assert.equal(await o.locator('#tn-deals').inputValue(), '100');
  assert.equal(await o.locator('#tn-short-deals').inputValue(), '120');
  assert.equal(await o.locator('[data-key="tn-kontra"]').isChecked(), false);
  // The length chosen applies to every table size: the short tables' deals follow the full
  // tables' (a fifth more, as in the preset) until set, and a line says what each size plays.
  const summary = o.locator('[data-testid="tn-deals-summary"]');
  assert.equal(await summary.textContent(), 'Each round: tables of 4 play 100 deals, tables of 3 play 120 deals.');
  await o.locator('#tn-deals').fill('12');
  assert.equal(await o.locator('#tn-short-deals').inputValue(), '14');
  assert.equal(await summary.textContent(), 'Each round: tables of 4 play 12 deals, tables of 3 play 14 deals.');
  await o.locator('#tn-short-deals').fill('10');
  await o.locator('#tn-deals').fill('20');
  assert.equal(await o.locator('#tn-short-deals').inputValue(), '10', 'set by the organiser, it stays');
  assert.equal(await summary.textContent(), 'Each round: tables of 4 play 20 deals, tables of 3 play 10 deals.');
  await o.locator('[data-key="tn-preset-prisdorf"]').click();
  assert.equal(await o.locator('#tn-short-deals').inputValue(), '120');
  // At most ten rounds; the most players is a choice of the organiser.
  assert.equal(await o.locator('#tn-rounds').getAttribute('max'), '10');
  assert.equal(await o.locator('#tn-max-entrants').getAttribute('max'), '128');
  // Duplicate deals turn the tables' spectators off, and say why.
  assert.equal(await o.locator('[data-key="tn-spectators"]').isChecked(), true);
  await o.locator('[data-key="tn-duplicate"]').check();
  assert.equal(await o.locator('[data-key="tn-spectators"]').isChecked(), false);
  assert.match(await o.locator('.tourney-new').textContent(), /watching a table that is ahead could see deals before playing them/);
  await o.locator('[data-key="tn-duplicate"]').uncheck();
  assert.equal(await o.locator('[data-key="tn-spectators"]').isChecked(), true);
  // A game of another size offers its own tables (Wippen: two to four, no short tables at two).
  await o.locator('[data-key="tn-game-wippen"]').check();
  assert.deepEqual(await o.locator('input[name="tn-size"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-key'))), ['tn-size-4', 'tn-size-3', 'tn-size-2']);
  await o.locator('[data-key="tn-preset-prisdorf"]').click();
  assert.equal(await o.locator('[data-key="tn-game-prisdorf"]').isChecked(), true);

  await o.locator('#name').fill('Olli');
  await o.locator('#tn-name').fill('Prisdorf Friday');
  await o.locator('#tn-deals').fill('1');
  assert.equal(await o.locator('#tn-short-deals').inputValue(), '1');
  await o.locator('#tn-short-deals').fill('2');
  assert.equal(await summary.textContent(), 'Each round: tables of 4 play 1 deal, tables of 3 play 2 deals.');
  await o.locator('#tn-rounds').fill('2');
  await o.locator('#tn-max-entrants').fill('5');
  await o.locator('[data-key="tn-listed"]').check();
  await o.locator('[data-key="tn-organiser-runs"]').check();
  await o.locator('[data-key="tn-tables-more"]').click();
  await o.locator('#tn-grace').fill('5');
  await o.locator('[data-key="tn-bot_delay-0"]').check();
  assert.equal(await o.locator('[data-key="tn-preset-prisdorf"]').getAttribute('aria-pressed'), 'false');
  await screenshotFull(olli, 'desktop-tournament-form');
  await o.locator('[data-key="tn-create"]').click();

  // ---- the registration link ----
  await o.locator('[data-key="tn-link"]').waitFor();
  const link = await o.locator('[data-key="tn-link"]').inputValue();
  const code = link.split('#/t/')[1];
  assert.match(code ?? '', /^[A-Za-z0-9_-]{20}$/, `an unguessable link: ${link}`);
  assert.ok(await o.locator('[data-key="tn-copy-link"]').isVisible());
  assert.equal(await o.locator('[data-testid="tn-title"]').textContent(), 'Prisdorf Friday');
  assert.equal(await o.locator('[data-testid="tn-you"]').textContent(), 'You organise this tournament.');
  assert.equal(await o.locator('[data-key="tn-register"]').count(), 0, 'the organiser who does not play has no registration form');
  assert.equal(await o.title(), 'Prisdorf Friday — Prisdorf Fipsen');

  // Carl finds it on the home page, in the list of tournaments.
  await carl.page.reload();
  await carl.page.locator('[data-key="tn-new"]').waitFor();
  await carl.page.locator(`[data-key="tn-listed-${code}"]`).click();
  await register(carl, null, 'Carl');
  // The others come by the link, on phones and desktops, in their languages.
  await register(anna, link, 'Anna');
  await anna.page.locator('[data-testid="tn-you"]').waitFor();
  assert.equal(await anna.page.locator('[data-testid="tn-you"]').textContent(), 'Sie spielen als Anna.');
  await register(bea, link, 'Bea');
  await register(dora, link, 'Dora');
  // A name taken (whatever its case) is refused in words.
  await register(emil, link, 'anna');
  await emil.page.locator('.toast-error').waitFor();
  assert.equal(await emil.page.locator('.toast-error').textContent(), 'Dieser Name ist schon angemeldet. Bitte wählen Sie einen anderen.');
  await register(emil, null, 'Fritz');
  await o.waitForFunction(() => document.querySelectorAll('[data-testid="tn-entrants"] li').length === 5);
  assert.deepEqual(await entrants(o), ['Carl', 'Anna', 'Bea', 'Dora', 'Fritz']);
  // The organiser removes a name; its owner may register again under another.
  await o.locator('[data-testid="tn-entrants"] li', { hasText: 'Fritz' }).locator('button').click();
  await o.waitForFunction(() => document.querySelectorAll('[data-testid="tn-entrants"] li').length === 4);
  await anna.page.waitForFunction(() => document.querySelectorAll('[data-testid="tn-entrants"] li').length === 4);
  // Four sit at a table of four.
  assert.equal(await o.locator('[data-testid="tn-seating-preview"]').textContent(), 'Seated now: a table of 4 with 1 deal.');
  await register(emil, null, 'Emil');
  await o.waitForFunction(() => document.querySelectorAll('[data-testid="tn-entrants"] li').length === 5);
  assert.deepEqual(await entrants(o), ['Carl', 'Anna', 'Bea', 'Dora', 'Emil']);

  // ---- five cannot be seated: the organiser starts with a bot ----
  await o.locator('[data-testid="tn-problem"]').waitFor();
  assert.equal(await o.locator('[data-testid="tn-problem"] p').first().textContent(), '5 players cannot be seated at these tables. With one bot they can.');
  // What the bot makes, with the deals of those tables: the length chosen for tables of three.
  assert.equal(await o.locator('[data-testid="tn-bot-seating"]').textContent(), 'With one bot: 2 tables of 3 with 2 deals.');
  assert.equal(await o.locator('#tn-entrants-title').textContent(), '5 of 5 registered');
  // The tournament is full: whoever comes by the link now is told so instead of a form, and the
  // page goes on for him.
  const hanna = await openClient(chrome, 'hanna', PHONE, 'en');
  await hanna.page.goto(link);
  await hanna.page.locator('[data-testid="tn-full"]').waitFor();
  assert.equal(await hanna.page.locator('[data-testid="tn-full"]').textContent(), 'The tournament is full: 5 players have registered.');
  assert.equal(await hanna.page.locator('[data-key="tn-register"]').count(), 0);
  assert.equal(await hanna.page.locator('[data-testid="tn-entrants"] li').count(), 5);
  clients.push(hanna);
  assert.equal(await o.locator('[data-key="tn-start"]').isDisabled(), true);
  await screenshot(olli, 'desktop-tournament-organiser');
  await screenshot(anna, 'phone-tournament-registered');
  await o.locator('[data-key="tn-start-bots"]').click();
  await o.locator('[data-testid="tn-phase"][data-phase="playing"]').waitFor();
  assert.equal(await o.locator('[data-testid="tn-phase"]').textContent(), 'Round 1 of 2');

  // Everyone sees the seating: two tables of three, the bot marked as one.
  for (const c of clients) await c.page.locator('.tn-seating [data-testid="tn-table"]').nth(1).waitFor();
  const round1 = await seating(o);
  assert.equal(round1.length, 2);
  assert.deepEqual(round1.map((t) => t.length), [3, 3]);
  assert.deepEqual(
    lastFrame(olli, 'tournament').tournament.view.rounds[0].tables.map((t) => t.deals),
    [2, 2],
    'both tables of three play the deals chosen for them',
  );
  assert.deepEqual(await o.locator('.tn-seating [data-testid="tn-played"]').allTextContents(), ['0 of 2 deals', '0 of 2 deals']);
  assert.deepEqual(round1.flat().sort(), ['Anna', 'Bea', 'Bot 1', 'Carl', 'Dora', 'Emil']);
  assert.equal(await o.locator('.tn-seating li[data-name="Bot 1"] [data-testid="bot-tag"]').count(), 1);
  for (const c of [anna, bea, carl, dora, emil]) {
    assert.deepEqual(await seating(c.page), round1, `${c.label} sees the same seating`);
    assert.equal(await c.page.locator('[data-key="tn-my-table"]').count(), 1, `${c.label} has the way to his table`);
  }
  assert.equal(await o.locator('[data-key="tn-my-table"]').count(), 0);
  // A spectator who opens the link now: no registration, the seating and the standings.
  const gus = await openClient(chrome, 'gus', PHONE, 'ja');
  clients.push(gus);
  await gus.page.goto(link);
  await gus.page.locator('[data-testid="tn-standings"]').waitFor();
  assert.equal(await gus.page.locator('[data-key="tn-register"]').count(), 0);
  const zero = await standings(gus.page);
  assert.equal(zero.length, 6);
  assert.ok(zero.every((r) => r.total === 0 && r.deals === 0 && r.rank === 1), 'nobody has points before a deal ends');
  assert.equal(await gus.page.locator('[data-testid="tn-tie-break"]').textContent(), '合計点の高い順。同点ならプレイしたディールの少ない人が上位、それでも同じなら同順位です。');
  assert.equal(await o.locator('[data-testid="tn-tie-break"]').textContent(), 'Ranked by total points, highest first. Between equal totals, whoever played fewer deals ranks higher; players still equal share the rank.');
  // The spectator watches the table nobody of the test sits at (if there is one), from its start.
  await watchIdleTable(gus, ['Anna', 'Bea']);

  // ---- round 1: Anna (a phone) and Bea play at their tables ----
  const roomOf = {};
  roomOf.anna = await toMyTable(anna);
  roomOf.bea = await toMyTable(bea);
  assert.equal(await anna.page.locator('[data-testid="tn-bar-round"]').textContent(), 'Runde 1 von 2');
  assert.match((await anna.page.locator('[data-testid="tn-bar"]').textContent()) ?? '', /Prisdorf Friday/);
  await screenshot(anna, 'phone-tournament-table');
  // Someone who opens the table's own link learns whose table it is, and may only watch.
  const visitor = await openClient(chrome, 'visitor', PHONE, 'en');
  await visitor.page.goto(`${BASE}#/room/${roomOf.anna}`);
  await visitor.page.locator('[data-testid="invite-info"]').waitFor();
  assert.match((await visitor.page.locator('.invited [data-testid="tn-bar"]').textContent()) ?? '', /Prisdorf Friday.*Round 1 of 2/);
  assert.match((await visitor.page.locator('[data-testid="invite-tournament"]').textContent()) ?? '', /table of a tournament/);
  assert.equal(await visitor.page.locator('[data-key="invite-sit"]').count(), 0, 'no seat to take at a tournament table');
  assert.equal(await visitor.page.locator('[data-key="invite-watch"]').count(), 1);
  assertNoConsoleErrors([visitor]);
  await visitor.context.close();
  const groups = roomOf.anna === roomOf.bea ? [[anna, bea]] : [[anna], [bea]];
  const watchers = [olli, carl];
  for (const group of groups) await playUntil(group, 1, watchers, {});
  // Between deals a tournament table offers no seats to change and no bots to add.
  assert.equal(await anna.page.locator('[data-key="seats-between"], [data-key^="add-bot-"], [data-key^="remove-bot-"]').count(), 0);
  for (const group of groups) {
    for (const c of group) {
      const next = c.page.locator('[data-key="next-deal"]:not([disabled])');
      if (await next.count()) await next.click();
    }
    await playUntil(group, 2, watchers, {});
  }
  await screenshot(olli, 'desktop-tournament-standings');
  await screenshot(carl, 'phone-tournament-standings');

  // ---- the round ends (the other table plays by itself); the organiser starts round 2 ----
  await o
    .locator('[data-testid="tn-phase"][data-phase="round_over"]')
    .waitFor({ timeout: 90_000 })
    .catch(async (e) => {
      throw new Error(`${e.message}\n${await o.locator('.tn-seating').textContent()}\n${JSON.stringify(await state(anna.page, 'S.room'))}`);
    });
  const after1 = await standings(o);
  assert.ok(after1.every((r) => r.tables === 1 && r.deals === 2), `every player played his table's two deals: ${JSON.stringify(after1)}`);
  const before2 = Object.fromEntries(after1.map((r) => [r.name, r.total]));
  await o.locator('[data-key="tn-next-round"]').click();
  await o.locator('[data-testid="tn-phase"][data-phase="playing"]').waitFor();
  assert.equal(await o.locator('[data-testid="tn-phase"]').textContent(), 'Round 2 of 2');
  await o.waitForFunction(() => document.querySelector('.tn-seating h2')?.textContent === 'Seating of round 2');
  const round2 = await seating(o);
  // Seated by the standings: the best three at table 1 (when no tie crosses the tables).
  if (after1[2].rank !== after1[3].rank) assert.deepEqual(round2[0].slice().sort(), after1.slice(0, 3).map((r) => r.name).sort());
  // The players go back to the tournament from their table's bar, and on to their new tables.
  for (const c of [anna, bea]) {
    await c.page.locator('[data-key="tn-bar-link"]').click();
    await c.page.locator('[data-key="tn-my-table"]').waitFor();
    await c.page.waitForFunction(() => /** @type {any} */ (window).fipsenDebug.S.route.name === 'tourney');
  }
  roomOf.anna = await toMyTable(anna);
  roomOf.bea = await toMyTable(bea);
  if (await gus.page.locator('[data-key="tn-bar-link"]').count()) await gus.page.locator('[data-key="tn-bar-link"]').click();
  await gus.page.waitForFunction(() => document.querySelector('.tn-seating h2')?.textContent === 'ラウンド2の席');
  // Nobody watches the other table of round 2: it plays by itself all the same.
  assert.equal(await bea.page.locator('[data-testid="tn-bar-round"]').textContent(), 'ラウンド 2 / 2');
  const groups2 = roomOf.anna === roomOf.bea ? [[anna, bea]] : [[anna], [bea]];
  for (const group of groups2) {
    await playUntil(group, 1, [olli], before2);
    for (const c of group) {
      const next = c.page.locator('[data-key="next-deal"]:not([disabled])');
      if (await next.count()) await next.click();
    }
    await playUntil(group, 2, [olli], before2);
  }
  await o.locator('[data-testid="tn-phase"][data-phase="finished"]').waitFor({ timeout: 90_000 });
  const final = await standings(o);
  assert.ok(final.every((r) => r.tables === 2 && r.deals === 4), `two tables of two deals each: ${JSON.stringify(final)}`);
  assert.equal(await o.locator('[data-key="tn-next-round"]').count(), 0);

  // ---- the results page ----
  await o.locator('[data-key="tn-results"]').click();
  await o.locator('[data-testid="tn-results"]').waitFor();
  await o.waitForFunction(() => document.querySelector('[data-testid="tn-results-status"]')?.textContent === 'Final results.');
  // The results come in parts: the standings, then each round's tables.
  await o.waitForFunction(() => document.querySelectorAll('.tn-results-round .tn-table').length === 4);
  const { results, csv } = resultsFrames(olli).standings;
  const roundParts = resultsFrames(olli).rounds;
  assert.deepEqual(Object.keys(roundParts), ['1', '2']);
  const tablesCsv = roundParts[1].tables_csv + roundParts[2].tables_csv.split('\r\n').slice(1).join('\r\n');
  const shown = await o.locator('[data-testid="tn-results"] tbody tr').evaluateAll((rows) =>
    rows.map((r) => {
      const cells = [...r.children].map((c) => c.textContent?.trim() ?? '');
      return { name: r.getAttribute('data-name'), rank: Number(cells[0]), total: Number(cells[2]), r1: cells[5], r2: cells[6] };
    }),
  );
  assert.deepEqual(
    shown.map((r) => [r.rank, r.name, r.total]),
    results.standings.map((s) => [s.rank, s.name, s.total]),
    'the results page is ranked as the server ranks',
  );
  assert.deepEqual(
    shown.map((r) => [r.name, r.total]),
    final.map((r) => [r.name, r.total]),
    'and agrees with the live standings',
  );
  for (const [i, s] of results.standings.entries()) {
    for (const [k, part] of s.rounds.entries()) assert.equal(Number((k === 0 ? shown[i].r1 : shown[i].r2).split(' ')[0]), part.points, `${s.name}'s points in round ${k + 1}`);
  }
  // Per round, per table.
  assert.equal(await o.locator('.tn-results-round').count(), 2);
  assert.equal(await o.locator('.tn-results-round[data-round="1"] .tn-table').count(), 2);
  await screenshotFull(olli, 'desktop-tournament-results');

  // Printed: the ranked table and the tables, without the header, the buttons and the links.
  await o.emulateMedia({ media: 'print' });
  assert.ok(await o.locator('[data-testid="tn-results"]').isVisible(), 'the ranked table prints');
  assert.ok(await o.locator('.tn-results-round').first().isVisible(), 'the tables print');
  assert.ok(await o.locator('.tn-results-page .print-only').isVisible(), 'the printing date prints');
  for (const hidden of ['header.top', '[data-key="tn-print"]', '[data-key="tn-csv"]', '[data-key="tn-back"]']) {
    assert.equal(await o.locator(hidden).isVisible(), false, `${hidden} is not printed`);
  }
  await o.pdf({ path: join(ARTIFACTS, 'tournament-results.pdf'), format: 'A4' });
  await o.emulateMedia({ media: null });

  // The CSV files are the server's, as they are.
  const [download] = await Promise.all([o.waitForEvent('download'), o.locator('[data-key="tn-csv"]').click()]);
  assert.equal(download.suggestedFilename(), 'Prisdorf-Friday.csv');
  const file = readFileSync(await download.path(), 'utf8');
  assert.equal(file, csv);
  const lines = file.split('\r\n').filter(Boolean);
  assert.equal(lines[0], 'rank,name,bot,total,duplicate,tables,deals,round 1,round 2');
  assert.equal(lines.length, 7);
  for (const [i, row] of shown.entries()) {
    const cells = lines[i + 1].split(',');
    assert.deepEqual([Number(cells[0]), cells[1], Number(cells[3])], [row.rank, row.name, row.total]);
    assert.equal(cells[2], row.name === 'Bot 1' ? 'yes' : 'no');
  }
  const [download2] = await Promise.all([o.waitForEvent('download'), o.locator('[data-key="tn-tables-csv"]').click()]);
  assert.equal(readFileSync(await download2.path(), 'utf8'), tablesCsv);
  assert.equal(tablesCsv.split('\r\n').filter(Boolean).length, 1 + 12, 'a line per seat of the four tables');

  // ---- "your tournaments" leads back ----
  await anna.page.goto(BASE);
  const mine = anna.page.locator(`.tn-mine [data-tournament="${code}"]`);
  await mine.locator('[data-testid="tn-mine-status"]').waitFor();
  assert.equal(await mine.locator('[data-testid="tn-mine-status"]').textContent(), 'Das Turnier ist vorbei');
  await mine.scrollIntoViewIfNeeded();
  await screenshot(anna, 'phone-tournament-home');
  await mine.locator(`[data-key="tn-open-${code}"]`).click();
  await anna.page.locator('[data-testid="tn-you"]').waitFor();
  assert.equal(await anna.page.locator('[data-testid="tn-you"]').textContent(), 'Sie spielen als Anna.');
  await o.goto(BASE);
  await o.locator(`.tn-mine [data-tournament="${code}"]`).waitFor();
  // A finished tournament can be removed from "your tournaments"; it stays gone after a reload,
  // and its link still shows it.
  await o.locator(`[data-key="tn-forget-${code}"]`).click();
  await o.locator(`.tn-mine [data-tournament="${code}"]`).waitFor({ state: 'detached' });
  assert.equal(await o.evaluate((c) => c in JSON.parse(localStorage.getItem('fipsen.tournaments') || '{}'), code), false);
  await o.reload();
  await o.locator('[data-key="tn-new"]').waitFor();
  assert.equal(await o.locator(`.tn-mine [data-tournament="${code}"]`).count(), 0);
  await o.goto(`${BASE}#/t/${code}`);
  await o.locator('#tn-standings-title').waitFor();

  assertNoConsoleErrors(clients);
  for (const c of clients) await c.context.close();
});

test('a duplicate tournament the organiser plays in: no watchers at its tables, the duplicate scores in the standings and the results', async () => {
  const olli = await openClient(chrome, 'olli-dup', PHONE, 'en');
  const pia = await openClient(chrome, 'pia', DESKTOP, 'de');
  const quirin = await openClient(chrome, 'quirin', PHONE, 'en');
  const rosa = await openClient(chrome, 'rosa', DESKTOP, 'ja');
  const clients = [olli, pia, quirin, rosa];
  const o = olli.page;

  // Tables of three only, one deal, duplicate deals; the organiser plays.
  await o.locator('[data-key="tn-new"]').click();
  await o.locator('#name').fill('Olli');
  await o.locator('#tn-name').fill('Duplicate Sunday');
  await o.locator('[data-key="tn-size-3"]').check();
  assert.equal(await o.locator('[data-key="tn-short"]').count(), 0, 'no tables of two in Prisdorf');
  await o.locator('#tn-deals').fill('1');
  await o.locator('[data-key="tn-duplicate"]').check();
  assert.equal(await o.locator('[data-key="tn-spectators"]').isChecked(), false);
  await o.locator('[data-key="tn-tables-more"]').click();
  await o.locator('[data-key="tn-bot_delay-0"]').check();
  await o.locator('[data-key="tn-create"]').click();
  await o.locator('[data-key="tn-link"]').waitFor();
  const link = await o.locator('[data-key="tn-link"]').inputValue();
  assert.match(await o.locator('.tn-head').textContent(), /You organise this tournament\.You play as Olli\./);
  const created = lastFrame(olli, 'tournament').tournament;
  assert.equal(created.tables.spectators_allowed, false, 'the tables refuse watchers');
  assert.equal(created.view.settings.duplicate, true);
  assert.equal(created.view.settings.organiser_plays, true);
  assert.deepEqual(
    created.view.settings.tables.map((f) => [f.seats, f.deals]),
    [[3, 1]],
  );

  for (const [c, name] of [
    [pia, 'Pia'],
    [quirin, 'Quirin'],
    [rosa, 'Rosa'],
  ]) {
    await register(c, link, name);
    await c.page.locator('[data-testid="tn-you"]').waitFor();
  }
  // Four at tables of three: two bots make two tables.
  await o.locator('[data-testid="tn-problem"]').waitFor();
  assert.equal(await o.locator('[data-testid="tn-problem"] p').first().textContent(), '4 players cannot be seated at these tables. With 2 bots they can.');
  await o.locator('[data-key="tn-close"]').click();
  await o.locator('[data-testid="tn-phase"][data-phase="closed"]').waitFor();
  await pia.page.locator('[data-testid="tn-phase"][data-phase="closed"]').waitFor();
  await o.locator('[data-key="tn-start-bots"]').click();
  await o.locator('[data-testid="tn-phase"][data-phase="playing"]').waitFor();

  // No way to watch a table; every person goes to his own and plays its deal.
  const rooms = new Map();
  for (const c of clients) {
    await c.page.locator('[data-key="tn-my-table"]').waitFor();
    assert.equal(await c.page.locator('[data-key^="tn-watch-"]').count(), 0, `${c.label}: no table to watch`);
    const room = await toMyTable(c);
    assert.match((await c.page.locator('[data-testid="tn-bar"]').textContent()) ?? '', /Duplicate|Gleiche Karten|デュプリケート/);
    rooms.set(room, [...(rooms.get(room) ?? []), c]);
  }
  assert.equal(rooms.size, 2);
  // A deal thrown in is dealt again: every table plays until its one deal counts.
  for (const group of rooms.values()) await playUntil(group, 1, [], {});

  // Back on the tournament page: the round is over; the standings carry the duplicate scores.
  await olli.page.locator('[data-key="tn-bar-link"]').click();
  await o.locator('[data-testid="tn-phase"][data-phase="finished"]').waitFor();
  await o.locator('[data-testid="tn-standings"]').waitFor();
  const view = lastFrame(olli, 'tournament').tournament.view;
  const head = await o.locator('[data-testid="tn-standings"] thead th').allTextContents();
  assert.deepEqual(head, ['Rank', 'Player', 'Points', 'Duplicate', 'Tables', 'Deals']);
  const dup = await o.locator('[data-testid="tn-standings"] tbody tr').evaluateAll((rows) => rows.map((r) => [r.getAttribute('data-name'), r.children[3].textContent]));
  const format = (v) => (v === null || v === undefined ? '—' : `${v > 0 ? '+' : ''}${(v / 100).toFixed(2)}`);
  assert.deepEqual(
    dup,
    view.standings.map((s) => [s.name, format(s.duplicate)]),
  );
  assert.ok(view.standings.every((s) => typeof s.duplicate === 'number'), 'everyone has a duplicate score');
  assert.equal(await o.locator('[data-testid="tn-tie-break"]').textContent(), 'Ranked by total points, highest first. Between equal totals the higher duplicate score ranks higher, then whoever played fewer deals; players still equal share the rank.');
  await screenshot(olli, 'phone-tournament-duplicate-standings');

  // The results page shows them too.
  await o.locator('[data-key="tn-results"]').click();
  await o.locator('[data-testid="tn-results"]').waitFor();
  const { results } = resultsFrames(olli).standings;
  const shown = await o.locator('[data-testid="tn-results"] tbody tr').evaluateAll((rows) => rows.map((r) => [r.getAttribute('data-name'), r.children[3].textContent]));
  assert.deepEqual(
    shown,
    results.standings.map((s) => [s.name, format(s.duplicate)]),
  );

  assertNoConsoleErrors(clients);
  for (const c of clients) await c.context.close();
});
