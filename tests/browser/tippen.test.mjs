// Tippen / Dreiblatt in the web client: one deal at six (against five bots) clicked through on a
// phone and on a desktop — the pot, what is played for, the reserve, the trump card and every
// seat's balance shown, the play-money notice in view, play or pass and keep or exchange as the
// prompt offers them, only the prompt's cards playable, the result and the scoresheet, no hidden
// card on the page or in a frame; the seats of six and ten neither overlap nor make the page
// scroll sideways; the stakes below the trick stay clear of the player's own seat row and of the
// seats at every table size, on desktops and a phone; the create form offers each rule set's
// players and options only, and the room and the invitation name them; a deal with the dealer's
// options (deal or shove, knock, lay a card away) and an exchange of chosen cards. Screenshots go
// to artifacts/.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { DESKTOP, PHONE, assertNoConsoleErrors, checkFramesOfSeat, hiddenCardsOnPage, launch, openClient, screenshot, screenshotFull, settle } from './lib.mjs';

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

/**
 * What overlaps on the page: each pair of seat plates, a plate and the trick (with the stakes
 * below it), and whether the page is wider than the screen.
 * @param {import('playwright-core').Page} page
 */
async function layoutProblems(page) {
  return page.evaluate(() => {
    const box = (e) => e.getBoundingClientRect();
    const hit = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1 && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1;
    const seats = [...document.querySelectorAll('.felt .seat')].map((e) => ({ seat: e.getAttribute('data-seat'), r: box(e) }));
    const centre = document.querySelector('.felt .centre');
    const problems = [];
    for (const [i, a] of seats.entries()) {
      for (const b of seats.slice(i + 1)) if (hit(a.r, b.r)) problems.push(`seats ${a.seat} and ${b.seat} overlap`);
      if (centre && hit(a.r, box(centre))) problems.push(`seat ${a.seat} overlaps the trick`);
      const felt = box(/** @type {Element} */ (document.querySelector('.felt')));
      if (a.r.left < felt.left - 1 || a.r.right > felt.right + 1) problems.push(`seat ${a.seat} sticks out of the table`);
    }
    const width = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth > width + 1) problems.push(`the page scrolls sideways: ${document.documentElement.scrollWidth} > ${width}`);
    for (const e of document.querySelectorAll('.felt, .hand, .info-bar, .seat, .tp-stakes')) {
      if (box(e).right > width + 1) problems.push(`${e.className} reaches past the screen's right edge`);
    }
    return { problems, seats: seats.length };
  });
}

/** The cards and calls the page offers, against the prompt the server sent. */
async function offered(page) {
  return page.evaluate(() => {
    const S = /** @type {any} */ (window).fipsenDebug.S;
    return {
      prompt: S.game.deal.prompt,
      phase: S.game.deal.phase,
      turn: S.game.deal.turn,
      me: S.you.seat,
      myTurn: Boolean(document.querySelector('.table-screen.my-turn')),
      cards: [...document.querySelectorAll('.hand .hand-card:not([disabled])')].map((e) => e.getAttribute('data-card')),
      calls: [...document.querySelectorAll('main .actions [data-action]')].map((e) => JSON.parse(e.getAttribute('data-action') ?? '{}').action),
      confirm: Boolean(document.querySelector('[data-key="confirm-yes"]')),
      over: Boolean(document.querySelector('[data-testid="result"]')),
      waiting: S.waiting,
    };
  });
}

/** The calls a prompt offers, by their action names. */
function promptCalls(p) {
  const flags = ['shove', 'deal', 'knock', 'no_knock', 'sniff', 'no_sniff', 'join', 'rob', 'pass', 'drop_out', 'keep'].filter((k) => p[k]);
  if (p.discard) flags.push('discard');
  if (p.exchange) flags.push('exchange');
  return flags.sort();
}

/** The cards a Tippen table shows to all (and the viewer's own discards). */
async function publicCards(page) {
  return page.evaluate(() => {
    const deal = /** @type {any} */ (window).fipsenDebug.S.game?.deal;
    if (!deal) return [];
    return [deal.table_card, deal.trump_card, deal.exposed, ...(deal.hops ?? []).map((h) => h.card), ...(deal.discards ?? [])].filter(Boolean);
  });
}

/** Clicks a call of the action panel, and confirms it if asked. */
async function call(page, key) {
  await page.locator(`main .actions [data-key="${key}"]`).click();
  const confirm = page.locator('[data-key="confirm-yes"]');
  if (await confirm.count()) await confirm.click();
  await settle(page);
}

/**
 * Plays the deal in progress from the page until its result shows: each prompt's calls checked
 * against the panel, `choose` picking what to do, and only the prompt's cards playable; checks the
 * page for hidden cards at every step. Returns what was done.
 * @param {any} me
 * @param {(o: any) => Promise<string|null>} choose returns a call's data-key, or null to play a card
 * @param {(o: any) => Promise<void>} [onStep]
 */
async function playOut(me, choose, onStep) {
  const done = [];
  for (let step = 0; step < 800; step++) {
    const o = await offered(me.page);
    if (o.over) break;
    if (o.waiting) {
      await settle(me.page);
      continue;
    }
    if (o.confirm) {
      await me.page.locator('[data-key="confirm-yes"]').click();
      await settle(me.page);
      continue;
    }
    assert.deepEqual(await hiddenCardsOnPage(me.page, await publicCards(me.page)), [], 'no hidden card on the page');
    if (onStep) await onStep(o);
    if (!o.myTurn) {
      await me.page.waitForTimeout(80);
      continue;
    }
    const calls = promptCalls(o.prompt);
    if (calls.length) {
      assert.deepEqual([...o.calls].sort(), calls, `the panel offers the prompt's calls in phase ${o.phase}`);
      if (!o.prompt.discard && !o.prompt.exchange) assert.deepEqual(o.cards, [], 'no card to play or choose now');
      const key = await choose(o);
      assert.ok(key, `a choice for ${calls.join(', ')}`);
      done.push(key);
      if (key !== 'chosen') await call(me.page, key);
      continue;
    }
    if (o.prompt.cards?.length) {
      assert.deepEqual([...o.cards].sort(), [...o.prompt.cards].sort(), 'the playable cards are the prompt’s');
      const card = o.prompt.cards[0];
      const button = me.page.locator(`.hand .hand-card[data-card="${card}"]`);
      await button.click();
      await button.waitFor({ state: 'detached' }).catch(() => {});
      await settle(me.page);
      done.push('card');
      continue;
    }
    await me.page.waitForTimeout(80);
  }
  await me.page.locator('[data-testid="result"]').waitFor();
  return done;
}

/** Chooses `n` cards of the hand and clicks the button that sends them (discard or exchange). */
async function chooseAndSend(page, n, key) {
  const cards = await page.locator('.hand .hand-card:not([disabled])').evaluateAll((els, k) => els.slice(0, k).map((e) => e.getAttribute('data-card')), n);
  for (const card of cards) await page.locator(`.hand .hand-card[data-card="${card}"]`).click();
  assert.equal(await page.locator('.hand .hand-card.selected').count(), n, 'the chosen cards are marked');
  await call(page, key);
  return cards;
}

/** The table's stakes as shown, against the state. */
async function stakes(page) {
  return page.evaluate(() => {
    const S = /** @type {any} */ (window).fipsenDebug.S;
    const deal = S.game.deal;
    const value = (id) => document.querySelector(`[data-testid="${id}"]`)?.getAttribute('data-value') ?? null;
    const visible = (sel) => {
      const e = document.querySelector(sel);
      if (!e) return false;
      const r = e.getBoundingClientRect();
      return r.width > 0 && r.height > 0;
    };
    return {
      deal,
      totals: S.game.totals,
      pot: value('pot'),
      reserve: value('reserve'),
      playedFor: value('played-for'),
      share: document.querySelector('[data-testid="share"]')?.textContent ?? null,
      trumpCard: document.querySelector('[data-testid="trump-card"]')?.getAttribute('data-card') ?? null,
      trumps: document.querySelector('[data-testid="trumps"]')?.textContent ?? null,
      moneyBar: visible('[data-testid="bar-money"]'),
      moneyBarTitle: document.querySelector('[data-testid="bar-money"]')?.getAttribute('title') ?? '',
      moneyLine: visible('.tp-money-line'),
      balances: [...document.querySelectorAll('.felt .seat [data-testid="balance"]')].map((e) => [Number(e.closest('.seat')?.getAttribute('data-seat')), e.textContent, e.getAttribute('title')]),
      myBalance: document.querySelector('.hand .me-bar [data-testid="balance"]')?.textContent ?? null,
    };
  });
}

const points = (n) => (n > 0 ? `+${n}` : n < 0 ? `−${Math.abs(n)}` : '0');

/**
 * How the table shows play money: whether a coin character (which a machine without a symbol font
 * draws as an empty box) is anywhere in the page's text, and how many coins are drawn in SVG.
 * @param {import('playwright-core').Page} page
 * @param {string} sel the part of the page looked at
 */
function coins(page, sel) {
  return page.evaluate((s) => {
    const root = document.querySelector(s);
    return { glyph: (root?.textContent ?? '').includes('\u{1FA99}'), drawn: root?.querySelectorAll('svg.coin-icon').length ?? 0 };
  }, sel);
}

/**
 * Each other seat's chips that carry a number (the tricks of the deal, the cards exchanged, the
 * balance), beside the numbers the client holds for the seat.
 * @param {import('playwright-core').Page} page
 */
function numberChips(page) {
  return page.evaluate(() => {
    const S = /** @type {any} */ (window).fipsenDebug.S;
    return [...document.querySelectorAll('.felt .seat')].map((e) => {
      const seat = Number(e.getAttribute('data-seat'));
      const text = (id) => e.querySelector(`[data-testid="${id}"]`)?.textContent ?? null;
      return {
        shown: { tricks: text('deal-tricks'), exchange: text('exchange'), balance: text('balance') },
        held: { tricks: S.game.deal.tricks_taken[seat], exchange: S.game.deal.exchanges.find((x) => x.seat === seat).count, balance: S.game.totals[seat] },
        seat,
      };
    });
  });
}

/** What each number chip says before its number, by language. */
const CHIP_WORDS = {
  en: { tricks: 'Tricks', exchange: 'Exch.', balance: 'Bal.' },
  de: { tricks: 'Stiche', exchange: 'Tausch', balance: 'Konto' },
  ja: { tricks: 'トリック', exchange: '交換', balance: '残高' },
};

/**
 * A practice table of Tippen at six against five bots, one deal played through the page. Returns
 * the client.
 * @param {'phone'|'desktop'} kind
 */
async function practiceDeal(kind) {
  const me = await openClient(chrome, `tp-${kind}`, kind === 'phone' ? PHONE : DESKTOP, 'en');
  await me.page.locator('#name').fill(kind === 'phone' ? 'Hinnerk' : 'Antje');
  await me.page.locator('[data-key="opt-practice_game-tippen"]').check();
  assert.deepEqual(
    await me.page.locator('[data-key^="opt-practice_players-"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-key'))),
    [2, 3, 4, 5, 6, 7, 8, 9, 10].map((n) => `opt-practice_players-${n}`),
    'a practice table of two to ten',
  );
  await me.page.locator('[data-key="opt-practice_players-6"]').check();
  await me.page.locator('[data-key="practice-more"]').click();
  await me.page.locator('[data-key="opt-practice_delay-400"]').check();
  await me.page.locator('[data-key="practice"]').click();
  await me.page.locator('.table-screen.game-tippen.players-6').waitFor();
  await me.page.locator('.felt.ring').waitFor();
  const rules = await state(me.page, 'S.room.rules');
  assert.deepEqual({ game: rules.game, preset: rules.preset, players: rules.players }, { game: 'tippen', preset: 'modern_grupp', players: 6 });
  assert.equal(await me.page.locator('.felt .seat .bot-tag').count(), 5, 'five bots at the table');

  // At a glance: the pot in play-money counters, the reserve, every balance, the notice.
  const first = await stakes(me.page);
  assert.equal(first.pot, String(first.deal.pot), 'the pot is shown');
  assert.ok(first.deal.pot > 0, 'the dealer’s stake lies in the pot');
  assert.equal(first.reserve, String(first.deal.reserve), 'the reserve is shown');
  assert.ok(first.moneyBar, 'the info bar says the counters are play money');
  assert.match(first.moneyBarTitle, /play money/);
  assert.ok(first.moneyLine, 'the stakes say the counters are play money');
  assert.equal(first.balances.length, 5, 'a balance on every other seat');
  // Each balance chip says what its number is.
  for (const [seat, text, title] of first.balances) {
    assert.equal(text, `Bal. ${points(first.totals[seat])}`, `seat ${seat}'s balance`);
    assert.match(title ?? '', /play money/);
  }
  assert.equal(first.myBalance, `Bal. ${points(first.totals[first.deal.viewer])}`);
  // Play money is marked with a coin drawn in SVG, never with a character a font may lack.
  const money = await coins(me.page, '.table-screen');
  assert.equal(money.glyph, false, 'no coin character on the table');
  assert.ok(money.drawn >= 1, 'a coin drawn beside “play money”');
  assert.equal(await me.page.locator('[data-testid="bar-money"] svg.coin-icon').count(), 1, 'the info bar’s coin is drawn');
  // The dealer's chip sits at the seat that antes.
  await me.page.locator(`.felt .seat[data-seat="${first.deal.dealer}"] .chip.dealer`).waitFor();
  const layout = await layoutProblems(me.page);
  assert.deepEqual(layout.problems, [], `${kind}: the table of six`);
  await screenshot(me, `${kind}-tippen-dealt`);

  let shotTrick = false;
  let shotDecide = false;
  let checkedTrump = false;
  const done = await playOut(
    me,
    async (o) => {
      if (o.prompt.join) {
        if (!shotDecide) await screenshot(me, `${kind}-tippen-decide`);
        shotDecide = true;
        return 'join';
      }
      if (o.prompt.keep || o.prompt.exchange) {
        await screenshot(me, `${kind}-tippen-exchange`);
        // On the desktop two cards are exchanged; on the phone the cards are kept.
        if (kind === 'desktop' && o.prompt.exchange >= 2) {
          assert.equal(await me.page.locator('main .actions [data-key="exchange"]').isDisabled(), true, 'nothing chosen: no exchange yet');
          await chooseAndSend(me.page, 2, 'exchange');
          return 'chosen';
        }
        return 'keep';
      }
      return promptCalls(o.prompt).find((k) => k !== 'shove' && k !== 'knock' && k !== 'sniff') ?? null;
    },
    async (o) => {
      const s = await stakes(me.page);
      if (!checkedTrump && s.deal.table_card) {
        // The turned trump card lies face up, and the bar names the trumps.
        assert.equal(s.trumpCard, s.deal.table_card, 'the trump card is shown');
        assert.match(s.trumps ?? '', /Trumps:/);
        assert.equal(s.playedFor, String(s.deal.played_for), 'the pot played for is shown');
        assert.match(s.share ?? '', /a trick/);
        checkedTrump = true;
      }
      if (!shotTrick && o.phase === 'play' && (await me.page.locator('.centre .played').count()) >= 3) {
        const trick = await layoutProblems(me.page);
        assert.deepEqual(trick.problems, [], `${kind}: the table during a trick`);
        await screenshot(me, `${kind}-tippen-trick`);
        shotTrick = true;
      }
    },
  );
  assert.ok(checkedTrump, 'the trump card was turned and shown');
  assert.ok(done.includes('join'), 'played the deal');
  if (kind === 'desktop') assert.ok(done.includes('chosen'), 'exchanged two cards');

  // The result: a sentence of shares, bêtes and the pot, each balance, the hands dealt.
  const result = await me.page.evaluate(() => {
    const S = /** @type {any} */ (window).fipsenDebug.S;
    return {
      sentence: document.querySelector('.result-sentence')?.textContent ?? '',
      outcome: S.game.deal.outcome,
      zones: [...document.querySelectorAll('.reveal h3')].map((e) => e.textContent),
      exchanges: S.game.deal.exchanges,
      me: S.you.seat,
    };
  });
  assert.match(result.sentence, /The pot now holds \d+\./, 'the result says what the pot holds');
  assert.match(result.sentence, /Shares of the pot|only one to play|Nobody played/);
  assert.ok(result.zones.some((z) => /The trump card/.test(z ?? '')), 'the trump card among the revealed cards');
  if (kind === 'desktop') assert.deepEqual(result.exchanges.find((e) => e.seat === result.me)?.count, 2);
  await screenshot(me, `${kind}-tippen-result`);
  await screenshotFull(me, `${kind}-tippen-result-full`);

  // The scoresheet: the deal's row — P, each player's tricks and balance — the pot and reserve.
  await me.page.locator('[data-key="result-sheet"]').click();
  await me.page.locator('.tp-sheet tr[data-deal="1"]').waitFor();
  const sheet = await me.page.evaluate(() => {
    const S = /** @type {any} */ (window).fipsenDebug.S;
    const row = document.querySelector('.tp-sheet tr[data-deal="1"]');
    return {
      data: S.game.scoresheet[0],
      p: row?.querySelector('[data-testid="sheet-p"]')?.textContent ?? '',
      potAfter: row?.querySelector('[data-testid="sheet-pot-after"]')?.textContent ?? '',
      runs: [...(row?.querySelectorAll('.tp-cell .tp-run') ?? [])].map((e) => e.textContent),
      head: document.querySelector('[data-testid="sheet-pot"]')?.textContent ?? '',
      key: document.querySelector('.tp-sheet-key')?.textContent ?? '',
      balances: document.querySelectorAll('.tp-sheet [data-testid="sheet-balance"]').length,
    };
  });
  assert.match(sheet.p, new RegExp(`^${sheet.data.played_for}`), 'P of the deal');
  assert.equal(sheet.potAfter, String(sheet.data.pot), 'the pot after the deal');
  assert.deepEqual(sheet.runs, sheet.data.balances.map(points), 'each balance after the deal');
  assert.match(sheet.head, /Pot: \d+ · Reserve: \d+/);
  assert.match(sheet.head, /play money/);
  assert.match(sheet.key, /play money/);
  assert.equal(sheet.balances, 6);
  // Every word of the sheet legible: a contrast of at least 4.5:1 against the cell it lies on
  // (the shares received, green, on a played cell's tint too).
  const contrast = await me.page.evaluate(() => {
    const rgb = (c) => (c.match(/[\d.]+/g) ?? []).map(Number);
    const lum = ([r, g, b]) => {
      const f = (x) => ((x /= 255) <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4);
      return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
    };
    const background = (e) => {
      for (let n = e; n; n = n.parentElement) {
        const c = rgb(getComputedStyle(n).backgroundColor);
        if (c.length === 3 || (c.length === 4 && c[3] > 0)) return c.slice(0, 3);
      }
      return [255, 255, 255];
    };
    const low = [];
    let received = 0;
    for (const e of document.querySelectorAll('.tp-sheet *')) {
      if (![...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim())) continue;
      if (e.matches('.tp-active .tp-in')) received += 1;
      const [a, b] = [lum(rgb(getComputedStyle(e).color).slice(0, 3)), lum(background(e))].sort((x, y) => y - x);
      const ratio = (a + 0.05) / (b + 0.05);
      if (ratio < 4.5) low.push(`${e.className || e.tagName} "${e.textContent.trim()}": ${ratio.toFixed(2)}:1`);
    }
    return { low, received };
  });
  assert.ok(contrast.received >= 1, 'a share received in a played cell');
  assert.deepEqual(contrast.low, [], 'every word of the scoresheet legible');
  const sheetMoney = await coins(me.page, '[data-testid="sheet-pot"]');
  assert.deepEqual(sheetMoney, { glyph: false, drawn: 1 }, 'the scoresheet’s coin is drawn');
  await screenshot(me, `${kind}-tippen-scoresheet`);
  await me.page.keyboard.press('Escape');
  checkFramesOfSeat(me.frames, await state(me.page, 'S.you.seat'));
  return me;
}

test('Tippen: one deal at six against five bots on a phone', async () => {
  const me = await practiceDeal('phone');
  assertNoConsoleErrors([me]);
  await me.context.close();
});

test('Tippen: one deal at six on a desktop, and the table drawn with six and ten seats', async () => {
  const me = await practiceDeal('desktop');
  for (const device of [DESKTOP, PHONE]) {
    await me.page.setViewportSize(device.viewport);
    for (const n of [6, 10]) {
      await me.page.evaluate((count) => {
        const debug = /** @type {any} */ (window).fipsenDebug;
        const S = debug.S;
        if (!debug.saved) debug.saved = { game: structuredClone(S.game), room: structuredClone(S.room) };
        const { game, room } = structuredClone(debug.saved);
        const grow = (list, fill) => Array.from({ length: count }, (_, i) => list?.[i] ?? fill(i));
        const names = ['Antje', 'Hinnerk', 'Meike', 'Carl', 'Wiebke', 'Fiete', 'Gesche', 'Hauke', 'Imke', 'Jasper'];
        room.seats = grow(room.seats, (i) => ({ ...room.seats[1], seat: i, name: `${names[i]} Brodersen-Hinrichsen` }));
        const deal = game.deal;
        deal.hand_sizes = grow(deal.hand_sizes, () => 3);
        deal.tricks_taken = grow(deal.tricks_taken, (i) => i % 2);
        game.totals = grow(game.totals, (i) => i * 3 - 12);
        const pack = ['C', 'S', 'H', 'D'].flatMap((s) => ['A', 'K', 'Q', 'J', '10', '9', '8', '7', '6', '5', '4', '3', '2'].map((r) => s + r));
        deal.phase = 'play';
        deal.active = Array.from({ length: count }, (_, i) => i);
        deal.decisions = Array.from({ length: count }, (_, i) => ({ seat: i, choice: i % 3 === 2 ? 'pass' : 'join' }));
        deal.exchanges = Array.from({ length: count }, (_, i) => ({ seat: i, count: i % 4 }));
        deal.trick = Array.from({ length: count }, (_, i) => ({ seat: i, card: pack[i * 5] }));
        deal.winning = 1;
        deal.turn = null;
        // At ten seats the middle is full: the table says that bêtes are cut to what fits.
        deal.pot = count === 10 ? deal.rules.max_pot - 12 : 27;
        deal.played_for = 24;
        deal.reserve = 12;
        S.game = game;
        S.room = room;
        debug.render();
      }, n);
      await me.page.locator(`.felt.ring[data-seats="${n}"]`).waitFor();
      const layout = await layoutProblems(me.page);
      assert.deepEqual(layout.problems, [], `${n} seats at ${device.viewport.width}×${device.viewport.height}`);
      assert.equal(layout.seats, n - 1);
      assert.equal(await me.page.locator('.centre .played').count(), n, 'a card from every seat in the trick');
      assert.ok((await me.page.locator('.felt .seat:has(.chip.tp-passed)').count()) >= 1, 'a seat that passed is marked');
      const limit = me.page.locator('[data-testid="max-pot"]');
      assert.equal(await limit.getAttribute('data-value'), '1200', 'the table shows its limit of the middle (the default)');
      assert.equal(await me.page.locator('[data-testid="middle-full"]').count(), n === 10 ? 1 : 0, 'a full middle is marked');
      // Every chip with a number says what the number is: tricks, cards exchanged, balance.
      const expectChips = async (lang) => {
        const w = CHIP_WORDS[lang];
        const chips = await numberChips(me.page);
        assert.equal(chips.length, n - 1);
        for (const { shown, held, seat } of chips) {
          assert.deepEqual(
            shown,
            { tricks: `${w.tricks} ${held.tricks}`, exchange: `${w.exchange} ${held.exchange}`, balance: `${w.balance} ${points(held.balance)}` },
            `${lang}: seat ${seat}'s chips at ${n} seats`,
          );
        }
      };
      await expectChips('en');
      assert.equal((await coins(me.page, '.table-screen')).glyph, false, 'no coin character on the table');
      await screenshot(me, `${device === PHONE ? 'phone' : 'desktop'}-tippen-ring-${n}-seats`);
      if (device === PHONE && n === 10) {
        // The labels in German and Japanese fit a phone at ten seats too.
        for (const lang of ['de', 'ja']) {
          await me.page.locator('select[data-key="lang"]').selectOption(lang);
          await me.page.locator(`.felt .seat [data-testid="balance"]`, { hasText: CHIP_WORDS[lang].balance }).first().waitFor();
          await expectChips(lang);
          const shown = await layoutProblems(me.page);
          assert.deepEqual(shown.problems, [], `${lang}: ${n} seats at ${device.viewport.width}×${device.viewport.height}`);
          await screenshot(me, `phone-tippen-ring-${n}-seats-${lang}`);
        }
        await me.page.locator('select[data-key="lang"]').selectOption('en');
      }
    }
  }
  assertNoConsoleErrors([me]);
  await me.context.close();
});

/**
 * What lies over what around the pot: the stakes panel (pot, reserve, the trump card, "play
 * money") against the player's own seat row below the table, the table's edge, the trick's cards and
 * every seat plate; and whether the page scrolls sideways.
 * @param {import('playwright-core').Page} page
 */
async function stakesProblems(page) {
  return page.evaluate(() => {
    const box = (e) => e.getBoundingClientRect();
    const hit = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1 && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1;
    const at = (e) => { const r = box(e); return `${Math.round(r.left)},${Math.round(r.top)}–${Math.round(r.right)},${Math.round(r.bottom)}`; };
    const stakes = document.querySelector('.felt .tp-stakes');
    const felt = document.querySelector('.felt');
    const own = document.querySelector('.hand .me-bar');
    const problems = [];
    if (!stakes || !felt || !own) return { problems: [`missing: ${[!stakes && 'stakes', !felt && 'table', !own && 'own seat row'].filter(Boolean).join(', ')}`] };
    const s = box(stakes);
    if (hit(s, box(own))) problems.push(`the stakes (${at(stakes)}) cover the own seat row (${at(own)})`);
    if (hit(box(felt), box(own))) problems.push(`the table (${at(felt)}) covers the own seat row (${at(own)})`);
    const f = box(felt);
    if (s.bottom > f.bottom + 1 || s.top < f.top - 1 || s.left < f.left - 1 || s.right > f.right + 1) problems.push(`the stakes (${at(stakes)}) reach past the table (${at(felt)})`);
    for (const seat of document.querySelectorAll('.felt .seat')) {
      if (hit(box(seat), s)) problems.push(`seat ${seat.getAttribute('data-seat')} (${at(seat)}) and the stakes (${at(stakes)}) overlap`);
      for (const trick of document.querySelectorAll('.felt .trick-area:has(.played)')) if (hit(box(seat), box(trick))) problems.push(`seat ${seat.getAttribute('data-seat')} overlaps the trick`);
    }
    for (const trick of document.querySelectorAll('.felt .trick-area:has(.played)')) if (hit(box(trick), s)) problems.push('the trick and the stakes overlap');
    const width = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth > width + 1) problems.push(`the page scrolls sideways: ${document.documentElement.scrollWidth} > ${width}`);
    return { problems };
  });
}

test('Tippen: the pot clear of the own seat row at every table size, on desktops and a phone', async () => {
  const me = await openClient(chrome, 'tp-pot', DESKTOP, 'en');
  await me.page.locator('#name').fill('Antje');
  await me.page.locator('[data-key="opt-practice_game-tippen"]').check();
  await me.page.locator('[data-key="opt-practice_players-4"]').check();
  await me.page.locator('[data-key="practice"]').click();
  await me.page.locator('.table-screen.game-tippen.players-4').waitFor();
  await me.page.locator('.felt .tp-stakes').waitFor();
  const WIDE = { viewport: { width: 1920, height: 1080 } };
  for (const device of [DESKTOP, WIDE, PHONE]) {
    const size = `${device.viewport.width}×${device.viewport.height}`;
    await me.page.setViewportSize(device.viewport);
    for (const n of [2, 3, 4, 5, 6, 8, 10]) {
      // The table as dealt (the player to decide), and in the middle of a trick of every seat.
      for (const playing of [false, true]) {
        await me.page.evaluate(
          ([count, inTrick]) => {
            const debug = /** @type {any} */ (window).fipsenDebug;
            const S = debug.S;
            if (!debug.potSaved) debug.potSaved = { game: structuredClone(S.game), room: structuredClone(S.room) };
            const { game, room } = structuredClone(debug.potSaved);
            const grow = (list, fill) => Array.from({ length: count }, (_, i) => list?.[i] ?? fill(i));
            room.seats = grow(room.seats, (i) => ({ ...room.seats[1], seat: i, name: `Bot ${i + 1}` }));
            const deal = game.deal;
            deal.hand_sizes = grow(deal.hand_sizes, () => 3);
            deal.tricks_taken = grow(deal.tricks_taken, () => 0);
            game.totals = grow(game.totals, (i) => i * 3 - 6);
            if (inTrick) {
              const pack = ['C', 'S', 'H', 'D'].flatMap((s) => ['A', 'K', 'Q', 'J', '10', '9', '8', '7', '6', '5', '4', '3', '2'].map((r) => s + r));
              deal.phase = 'play';
              deal.active = Array.from({ length: count }, (_, i) => i);
              deal.decisions = Array.from({ length: count }, (_, i) => ({ seat: i, choice: 'join' }));
              deal.exchanges = Array.from({ length: count }, (_, i) => ({ seat: i, count: i % 3 }));
              deal.trick = Array.from({ length: count }, (_, i) => ({ seat: i, card: pack[i * 5] }));
              deal.winning = 0;
              deal.turn = null;
              deal.played_for = 24;
              deal.reserve = 12;
            }
            S.game = game;
            S.room = room;
            debug.render();
          },
          [n, playing],
        );
        await me.page.locator(`.table-screen.players-${n} .felt .tp-stakes`).waitFor();
        assert.equal(await me.page.locator('.centre .played').count(), playing ? n : 0);
        const { problems } = await stakesProblems(me.page);
        assert.deepEqual(problems, [], `${n} seats ${playing ? 'in a trick' : 'as dealt'} at ${size}`);
        if (n <= 4) await screenshot(me, `${device === PHONE ? 'phone' : `desktop-${device.viewport.width}`}-tippen-pot-${n}-seats${playing ? '-trick' : ''}`);
      }
    }
  }
  // What the limit of the middle does is there to tap, on a phone too.
  await me.page.locator('[data-testid="max-pot"] button.info').click();
  await me.page.locator('[data-testid="max-pot"] .explain:popover-open').waitFor();
  assert.match(await me.page.locator('[data-testid="max-pot"] .explain').textContent(), /never hold more/);
  assertNoConsoleErrors([me]);
  await me.context.close();
});

/** Each rule set's players and options on the form (by their data-keys). */
const FORM = {
  drei_karten_1821: { players: [3, 6], options: [] },
  loup_1821: { players: [3, 5], options: [] },
  dreiblatt_1859: { players: [2, 10], options: ['opt-sniffing', 'opt-robbing', 'opt-hop_and_jump'] },
  meyers_1905: { players: [2, 10], options: [] },
  modern_grupp: { players: [3, 6], options: ['opt-tipp_zwang', 'opt-shoving', 'opt-knocking', 'opt-sniffing'] },
  modern_katira: { players: [3, 6], options: ['opt-tipp_zwang', 'opt-shoving', 'opt-knocking', 'opt-sniffing'] },
  vierblatt: { players: [3, 10], options: ['opt-exchange_max'] },
};
const ALL_OPTIONS = ['opt-tipp_zwang', 'opt-shoving', 'opt-knocking', 'opt-sniffing', 'opt-robbing', 'opt-hop_and_jump', 'opt-exchange_max', 'opt-daus_card'];

test('Tippen on the create form: each rule set with its players and options only; the room and the invitation', async () => {
  const host = await openClient(chrome, 'tp-host', DESKTOP, 'en');
  await host.page.locator('#name').fill('Antje');
  await host.page.locator('[data-key="opt-game-tippen"]').check();
  await host.page.locator('.more-rules > summary').click();
  await host.page.locator('.create [data-testid="play-money"]').waitFor();
  assert.match((await host.page.locator('.create [data-testid="play-money"]').textContent()) ?? '', /play money/);
  const presets = await host.page.locator('[data-key^="opt-preset-"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-key')?.replace('opt-preset-', '')));
  assert.deepEqual(presets, Object.keys(FORM), 'the seven rule sets in order');
  for (const [preset, want] of Object.entries(FORM)) {
    await host.page.locator(`[data-key="opt-preset-${preset}"]`).check();
    // A line saying what the rule set is.
    const line = await host.page.locator(`label.choice:has([data-key="opt-preset-${preset}"]) .hint`).textContent();
    assert.ok((line ?? '').length > 20, `${preset}: described`);
    const players = await host.page.locator('[data-key^="opt-players-"]').evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-key')?.replace('opt-players-', ''))));
    assert.deepEqual([players[0], players[players.length - 1]], want.players, `${preset}: the players`);
    assert.equal(players.length, want.players[1] - want.players[0] + 1);
    const shown = [];
    for (const key of ALL_OPTIONS) if ((await host.page.locator(`[data-key^="${key}"]`).count()) > 0) shown.push(key);
    assert.deepEqual(shown, want.options, `${preset}: only its options`);
    // From seven players the 52-card pack: the two as Daus becomes a choice where the Daus rule is.
    if (want.players[1] >= 7) {
      await host.page.locator('[data-key="opt-players-8"]').check();
      const daus = await host.page.locator('[data-key^="opt-daus_card-"]').count();
      assert.equal(daus > 0, preset === 'dreiblatt_1859' || preset === 'vierblatt', `${preset}: the Daus at eight`);
      await host.page.locator(`[data-key="opt-players-${want.players[0]}"]`).check();
    }
  }
  // From a rule set for ten back to one for six: the players follow.
  await host.page.locator('[data-key="opt-preset-meyers_1905"]').check();
  await host.page.locator('[data-key="opt-players-9"]').check();
  await host.page.locator('[data-key="opt-preset-modern_katira"]').check();
  assert.ok(await host.page.locator('[data-key="opt-players-6"]').isChecked(), 'nine players become six');

  // A Dreiblatt of 1859 for five with robbing and sniffing: the server takes it.
  await host.page.locator('[data-key="opt-preset-dreiblatt_1859"]').check();
  await host.page.locator('[data-key="opt-players-5"]').check();
  await host.page.locator('[data-key="opt-robbing"]').check();
  await host.page.locator('[data-key="opt-sniffing"]').check();
  await host.page.locator('[data-key="opt-max_bete-4"]').check();
  // The limit of the middle: the default chosen, another taken.
  assert.ok(await host.page.locator('[data-key="opt-max_pot-1200"]').isChecked(), 'the default limit of the middle');
  await host.page.locator('[data-key="opt-max_pot-12000"]').check();
  await host.page.locator('[data-key="opt-deals"]').fill('6');
  await screenshotFull(host, 'desktop-tippen-create');
  await host.page.locator('[data-key="create"]').click();
  await host.page.locator('.invite input').waitFor();
  const rules = await state(host.page, 'S.room.rules');
  assert.deepEqual(
    { preset: rules.preset, players: rules.players, robbing: rules.robbing, sniffing: rules.sniffing, max_bete: rules.max_bete, max_pot: rules.max_pot, deals: rules.deals, knocking: rules.knocking },
    { preset: 'dreiblatt_1859', players: 5, robbing: true, sniffing: 'alvensleben', max_bete: 12, max_pot: 12000, deals: 6, knocking: false },
  );
  await host.page.locator('.rules-summary .rule', { hasText: 'Limit of the middle' }).locator('dd', { hasText: '12000 counters' }).waitFor();
  await host.page.locator('.rules-summary .rule', { hasText: 'Dreiblatt (1859)' }).first().waitFor();
  await host.page.locator('.rules-summary .rule', { hasText: 'Robbing' }).locator('dd', { hasText: 'yes' }).waitFor();
  await host.page.locator('.rules-summary .rule', { hasText: 'Play money' }).waitFor();
  await screenshotFull(host, 'desktop-tippen-room');
  const link = await host.page.locator('.invite input').inputValue();

  // The invitation on a phone in German: the game, the rule set, five players, play money.
  const guest = await openClient(chrome, 'tp-guest', PHONE, 'de');
  await guest.page.goto(link);
  await guest.page.locator('[data-testid="invite-game"]', { hasText: 'Tippen' }).waitFor();
  const invite = (await guest.page.locator('[data-testid="invite-game"]').textContent()) ?? '';
  assert.match(invite, /5 Spieler/);
  assert.match(invite, /Dreiblatt \(1859\)/);
  assert.match(invite, /Spielgeld/);
  assert.match(invite, /Rauben/);
  assert.match(invite, /Mitte höchstens 12000/);
  await guest.page.locator('.howto-game[data-game="tippen"]').waitFor({ state: 'attached' });
  await screenshot(guest, 'phone-tippen-invite-de');

  // The how-to in Japanese names the play money too.
  await host.page.goto(host.page.url().split('#')[0]);
  await host.page.locator('select[data-key="lang"]').selectOption('ja');
  await host.page.locator('.howto > summary').click();
  await host.page.locator('.howto-game[data-game="tippen"] h3', { hasText: 'ティッペン' }).waitFor();
  assert.match((await host.page.locator('.howto-game[data-game="tippen"]').textContent()) ?? '', /おもちゃのお金/);
  await host.page.locator('select[data-key="lang"]').selectOption('en');
  assertNoConsoleErrors([host, guest]);
  await host.context.close();
  await guest.context.close();
});

test('Tippen: the dealer deals (or shoves), knocks and lays a card away; a player exchanges chosen cards', async () => {
  // Three at the modern table with shoving and knocking: seat 2 deals first, seat 0 (this
  // player) the second deal.
  const me = await openClient(chrome, 'tp-dealer', DESKTOP, 'en');
  await me.page.locator('#name').fill('Antje');
  await me.page.locator('[data-key="opt-practice_game-tippen"]').check();
  await me.page.locator('[data-key="opt-practice_players-3"]').check();
  // The practice table's rules, with the dealer's options on (the form's practice rules are the
  // plain modern ones).
  await me.page.evaluate(() => {
    const send = WebSocket.prototype.send;
    WebSocket.prototype.send = function (data) {
      const msg = JSON.parse(String(data));
      return send.call(this, msg.type === 'create_room' ? JSON.stringify({ ...msg, rules: { ...msg.rules, shoving: true, knocking: true } }) : data);
    };
  });
  await me.page.locator('[data-key="practice-more"]').click();
  await me.page.locator('[data-key="opt-practice_delay-0"]').check();
  await me.page.locator('[data-key="practice"]').click();
  await me.page.locator('.table-screen.game-tippen.players-3').waitFor();
  const rules = await state(me.page, 'S.room.rules');
  assert.deepEqual({ shoving: rules.shoving, knocking: rules.knocking }, { shoving: true, knocking: true });

  const seen = new Set();
  const choose = async (o) => {
    const p = o.prompt;
    if (p.deal) {
      seen.add('shove-or-deal');
      await screenshot(me, 'desktop-tippen-shove');
      return 'deal';
    }
    if (p.knock) {
      seen.add('knock');
      assert.equal(await state(me.page, 'S.game.deal.hand'), null, 'the dealer does not see his cards while he may knock');
      await screenshot(me, 'desktop-tippen-knock');
      return 'knock';
    }
    if (p.discard) {
      seen.add('discard');
      await me.page.locator('[data-testid="chosen"]').waitFor();
      await screenshot(me, 'desktop-tippen-discard');
      await chooseAndSend(me.page, 1, 'discard');
      return 'chosen';
    }
    if (p.join) return 'join';
    if (p.exchange) {
      seen.add('exchange');
      await chooseAndSend(me.page, 1, 'exchange');
      return 'chosen';
    }
    if (p.keep) return 'keep';
    return promptCalls(p).find((k) => ['join', 'keep', 'no_sniff', 'no_knock', 'deal'].includes(k)) ?? null;
  };
  await playOut(me, choose);
  await screenshot(me, 'desktop-tippen-options-deal1');
  await me.page.locator('[data-key="next-deal"]').click();
  await me.page.locator('[data-testid="result"]').waitFor({ state: 'detached' });
  await playOut(me, choose);
  assert.deepEqual([...seen].sort(), ['discard', 'exchange', 'knock', 'shove-or-deal'], 'the dealer’s choices came, and the exchange');
  // The knock shows at the dealer's seat and in the log.
  await me.page.locator('.me-bar [data-testid="knocked"]').waitFor();
  const log = await me.page.locator('.chat-log').textContent();
  assert.match(log ?? '', /Antje knocks and takes the trump card unseen/);
  assert.match(log ?? '', /Antje lays away/);
  // At three the seats have fixed places: the stakes below the trick stay on the table.
  const inside = await me.page.evaluate(() => {
    const felt = document.querySelector('.felt')?.getBoundingClientRect();
    const stakes = document.querySelector('.tp-stakes')?.getBoundingClientRect();
    return Boolean(felt && stakes && stakes.bottom <= felt.bottom + 1 && stakes.top >= felt.top);
  });
  assert.ok(inside, 'the stakes lie on the table');
  await screenshot(me, 'desktop-tippen-options-result');
  checkFramesOfSeat(me.frames, 0);
  assertNoConsoleErrors([me]);
  await me.context.close();
});
