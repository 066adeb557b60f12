// The table's layout where it went wrong before, on a phone (390×844) and a desktop (1366×768):
// the Japanese bid buttons break between words only; the whole hand is in view during the auction
// on a 1366×768 laptop; Duttfips' ten cards to lay away lie side by side, their tags apart; the phone's
// scoresheet has its totals under their columns; the rules in brief are one tap away from the
// game chosen; at every table size the trick, the whole hand and the first choice are in view
// together at the player's turn, on a phone and a laptop; Wippen's scoresheet at four fits a
// phone's width; on a phone the page at a turn is no longer than a screen and a half, the chat
// and the log behind their button. Screenshots go to artifacts/.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { DESKTOP, PHONE, assertNoConsoleErrors, launch, openClient, playDeal, screenshot, screenshotFull } from './lib.mjs';

let chrome;
before(async () => {
  chrome = await launch();
});
after(async () => {
  await chrome?.close();
});

/** Opens a practice table of `game` at `players` seats. */
async function practice(me, game, players, delay = 1600) {
  await me.page.locator('#name').fill('Hinnerk');
  await me.page.locator(`[data-key="opt-practice_game-${game}"]`).check();
  await me.page.locator(`[data-key="opt-practice_players-${players}"]`).check();
  await me.page.locator('[data-key="practice-more"]').click();
  await me.page.locator(`[data-key="opt-practice_delay-${delay}"]`).check();
  await me.page.locator('[data-key="practice"]').click();
  await me.page.locator(`.table-screen.players-${players}`).waitFor();
  await me.page.waitForFunction(() => /** @type {any} */ (window).fipsenDebug.S.game?.deal);
}

/**
 * Stops the page listening to the server and changes the deal it shows, so that a situation
 * stays as laid out. `change` runs in the page with the deal and the viewer's seat.
 */
async function freezeWith(page, change) {
  await page.evaluate((body) => {
    const debug = /** @type {any} */ (window).fipsenDebug;
    debug.conn.handlers.message = () => {};
    const S = debug.S;
    new Function('deal', 'me', 'S', body)(S.game.deal, S.you.seat, S);
    debug.render();
  }, `(${change})(deal, me, S)`);
}

/** Waits for the viewer's turn in the auction, and keeps the page there. */
async function auctionTurn(page) {
  await page.locator('main .actions .bid-button').first().waitFor({ timeout: 30_000 });
  await freezeWith(page, () => {});
  await page.locator('main .actions .bid-button').first().waitFor();
}

test('Japanese bid buttons on a phone break between words only', async () => {
  for (const game of ['prisdorf', 'grossenaspe']) {
    const me = await openClient(chrome, `ja-bids-${game}`, PHONE, 'ja');
    await practice(me, game, 4, 0);
    await auctionTurn(me.page);
    const broken = await me.page.locator('main .actions .bid-button').evaluateAll((buttons) =>
      buttons.flatMap((b) => {
        // Each word (the text between spaces) on one line.
        const out = [];
        const walker = document.createTreeWalker(b, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          const text = node.textContent ?? '';
          let at = 0;
          for (const word of text.split(' ')) {
            if (word.length > 1) {
              const range = document.createRange();
              range.setStart(node, at);
              range.setEnd(node, at + word.length);
              const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
              if (lines.size > 1) out.push(`"${word}" in "${b.textContent}"`);
            }
            at += word.length + 1;
          }
        }
        return out;
      }),
    );
    await screenshot(me, `phone-${game}-bids-ja`);
    assert.deepEqual(broken, [], `${game}: words broken across lines`);
    assertNoConsoleErrors([me]);
    await me.context.close();
  }
});

test('Duttfips on a desktop: ten cards to lay away side by side, each tag over its own card', async () => {
  for (const device of [DESKTOP, PHONE]) {
    const kind = device === PHONE ? 'phone' : 'desktop';
    const me = await openClient(chrome, `dutt-discard-${kind}`, device, 'en');
    await practice(me, 'duttfips', 4);
    await freezeWith(me.page, (deal, me) => {
      const dutt = ['CA', 'CK', 'SQ', 'HJ', 'DA'].filter((c) => !deal.hand.includes(c));
      deal.dutt = [...dutt, ...['C7', 'S7', 'H7', 'C8', 'S8'].filter((c) => !deal.hand.includes(c))].slice(0, 5);
      deal.hand = [...deal.hand, ...deal.dutt];
      deal.hand_sizes[me] = deal.hand.length;
      deal.phase = 'discard';
      deal.declarer = me;
      deal.dutt_taken = true;
      deal.turn = me;
      deal.prompt = { discard: 5 };
    });
    await me.page.locator('.hand.discarding').waitFor();
    const problems = await me.page.evaluate(() => {
      const box = (e) => e.getBoundingClientRect();
      const overlap = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5 && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5;
      const cards = [...document.querySelectorAll('.hand .hand-card')];
      const tags = [...document.querySelectorAll('.hand .card-tag')];
      const out = [];
      if (cards.length !== 10) out.push(`${cards.length} cards`);
      if (tags.length !== 5) out.push(`${tags.length} tags`);
      cards.forEach((a, i) => cards.slice(i + 1).forEach((b) => overlap(box(a), box(b)) && out.push(`${a.getAttribute('data-card')} overlaps ${b.getAttribute('data-card')}`)));
      tags.forEach((a, i) => tags.slice(i + 1).forEach((b) => overlap(box(a), box(b)) && out.push(`the tags of ${a.parentElement?.getAttribute('data-card')} and ${b.parentElement?.getAttribute('data-card')} overlap`)));
      for (const tag of tags) {
        const t = box(tag);
        const c = box(/** @type {Element} */ (tag.parentElement));
        if (t.left < c.left - 0.5 || t.right > c.right + 0.5) out.push(`the tag of ${tag.parentElement?.getAttribute('data-card')} reaches past its card`);
      }
      const width = document.documentElement.clientWidth;
      for (const c of cards) if (box(c).right > width || box(c).left < 0) out.push(`${c.getAttribute('data-card')} is off the screen`);
      return out;
    });
    await me.page.locator('.hand').scrollIntoViewIfNeeded();
    await screenshot(me, `${kind}-duttfips-discard-ten`);
    assert.deepEqual(problems, [], kind);
    assertNoConsoleErrors([me]);
    await me.context.close();
  }
});

/** A 1366×768 screen less the browser's own bars: the page's viewport on such a laptop. */
const LAPTOP = { ...DESKTOP, viewport: { width: 1366, height: 657 } };

test('on a 1366×768 laptop the whole hand is in view during the auction, with the bids', async () => {
  for (const [game, players] of /** @type {const} */ ([
    ['prisdorf', 4],
    ['prisdorf', 3],
    ['grossenaspe', 4],
    ['grossenaspe', 5],
    ['anseggerfips', 4],
    ['duttfips', 4],
  ])) {
    const me = await openClient(chrome, `fold-${game}-${players}`, LAPTOP, 'en');
    await practice(me, game, players, 0);
    await auctionTurn(me.page);
    await me.page.evaluate(() => window.scrollTo(0, 0));
    const seen = await me.page.evaluate(() => {
      const r = /** @type {Element} */ (document.querySelector('.hand .hand-cards')).getBoundingClientRect();
      const bid = /** @type {Element} */ (document.querySelector('main .actions .bid-button')).getBoundingClientRect();
      return { bottom: r.bottom, bid: bid.bottom, height: window.innerHeight };
    });
    await screenshot(me, `desktop-${game}-${players}-auction`);
    assert.ok(seen.bottom <= seen.height, `${game}: the hand ends at ${Math.round(seen.bottom)} px, below the fold at ${seen.height}`);
    assert.ok(seen.bid <= seen.height, `${game}: the first bid ends at ${Math.round(seen.bid)} px`);
    assertNoConsoleErrors([me]);
    await me.context.close();
  }
});

test('the phone scoresheet: every total under its player', async () => {
  const me = await openClient(chrome, 'sheet-phone', PHONE, 'en');
  await practice(me, 'prisdorf', 4, 0);
  await playDeal([me]);
  await me.page.locator('[data-key="result-sheet"]').click();
  await me.page.locator('[data-testid="scoresheet"] tbody tr').first().waitFor();
  const seen = await me.page.evaluate(() => {
    const S = /** @type {any} */ (window).fipsenDebug.S;
    const names = S.room.seats.map((s) => s.name);
    const view = /** @type {Element} */ (document.querySelector('.sheet-scroll')).getBoundingClientRect();
    const head = [...document.querySelectorAll('.sheet-table thead th')];
    const foot = [...document.querySelectorAll('.sheet-table tfoot tr > *')];
    // The table's columns, as the head row has them (a cell spanning several counts for each).
    const columns = (cells) => cells.flatMap((c) => Array.from({ length: Number(c.getAttribute('colspan') ?? 1) }, () => c));
    const heads = columns(head);
    const foots = columns(foot);
    return names.map((name) => {
      const i = heads.findIndex((c) => c.textContent === name && getComputedStyle(c).display !== 'none');
      const visible = heads.filter((c) => getComputedStyle(c).display !== 'none');
      const at = visible.indexOf(heads[i]);
      const total = foots.filter((c) => getComputedStyle(c).display !== 'none')[at];
      const r = total?.getBoundingClientRect();
      return { name, total: total?.textContent ?? null, inView: Boolean(r && r.left >= view.left - 0.5 && r.right <= view.right + 0.5), expected: String(S.game.totals[names.indexOf(name)]) };
    });
  });
  await screenshot(me, 'phone-scoresheet-totals');
  for (const s of seen) {
    assert.ok(s.inView, `${s.name}'s total in view without scrolling sideways`);
    assert.equal(s.total?.replace('+', ''), s.expected.replace('-', '−'), `${s.name}'s total under his name`);
  }
  assertNoConsoleErrors([me]);
  await me.context.close();
});

/** Where the hand and the first choice lie on the screen now, and the screen's height. */
function turnBoxes(page) {
  return page.evaluate(() => {
    const box = (sel) => {
      const e = document.querySelector(sel);
      if (!e) return null;
      const r = e.getBoundingClientRect();
      return { top: Math.round(r.top), bottom: Math.round(r.bottom) };
    };
    return {
      middle: box('.felt .centre'),
      trick: box('.felt .centre .trick-area'),
      hand: box('.hand .hand-cards'),
      choice: box('main .actions button'),
      height: window.innerHeight,
      sideways: document.documentElement.scrollWidth - document.documentElement.clientWidth,
    };
  });
}

/**
 * Waits for the viewer's turn, as the page brings it into view (returned: where the hand and the
 * choices lie then), then keeps the page there; in a trick game with the trick's other cards all
 * played (the fullest the middle gets), as the page's own turn step shows it.
 */
async function fullestTurn(page) {
  await page.waitForFunction(() => {
    const S = /** @type {any} */ (window).fipsenDebug.S;
    const deal = S.game?.deal;
    return Boolean(deal && deal.turn === S.you.seat && Object.keys(deal.prompt ?? {}).length > 0 && document.querySelector('.table-screen.my-turn'));
  }, null, { timeout: 30_000 });
  // The turn's own scroll (smooth) comes to rest first.
  await page.waitForFunction(
    () =>
      new Promise((resolve) => {
        const y = window.scrollY;
        setTimeout(() => resolve(window.scrollY === y), 300);
      }),
    null,
    { polling: 100 },
  );
  const arrived = await turnBoxes(page);
  await freezeWith(page, (deal, me) => {
    if (!Array.isArray(deal.trick)) return;
    const ranks = ['A', 'K', 'Q', 'J', '10', '9', '8', '7'];
    const free = ['C', 'S', 'H', 'D'].flatMap((s) => ranks.map((r) => s + r)).filter((c) => !deal.hand.includes(c) && c !== deal.table_card);
    const n = deal.hand_sizes.length;
    deal.trick = Array.from({ length: n - 1 }, (_, i) => ({ seat: (me + 1 + i) % n, card: free[i] }));
    deal.phase = 'play';
    deal.turn = me;
    deal.prompt = { cards: [...deal.hand] };
  });
  // The page's step at a turn (what it does when a turn arrives), without the animation.
  await page.evaluate(() => /** @type {any} */ (window).fipsenDebug.showTurn?.());
  return arrived;
}

test('at every table size the trick and the whole hand are in view at the player’s turn, on a phone and a laptop', async () => {
  const tables = /** @type {const} */ ([
    ...[2, 3, 4, 5, 6, 7, 8, 9, 10].map((n) => ['tippen', n]),
    ['thedinghausen', 5],
    ['wippen', 2],
    ['wippen', 3],
    ['wippen', 4],
    ['prisdorf', 3],
    ['grossenaspe', 5],
    ['duttfips', 4],
  ]);
  const problems = [];
  for (const [kind, device] of /** @type {const} */ ([
    ['phone', PHONE],
    ['laptop', LAPTOP],
  ])) {
    for (const [game, players] of tables) {
      const me = await openClient(chrome, `turn-${kind}-${game}-${players}`, device, 'en');
      await practice(me, game, players, 0);
      const arrived = await fullestTurn(me.page);
      const seen = await turnBoxes(me.page);
      await screenshot(me, `${kind}-${game}-${players}-turn`);
      const where = `${kind}, ${game} at ${players}`;
      const inView = (name, b) => {
        if (!b) problems.push(`${where}: no ${name}`);
        else if (b.top < 0 || b.bottom > seen.height) problems.push(`${where}: the ${name} at ${b.top}–${b.bottom} px, the screen ${seen.height} px high`);
      };
      // As the turn came (whatever it asks), and then with the fullest trick.
      inView('hand as the turn came', arrived.hand);
      if (arrived.choice) inView('first choice as the turn came', arrived.choice);
      inView('middle of the table', seen.trick ?? seen.middle);
      inView('hand', seen.hand);
      if (seen.choice) inView('first choice', seen.choice);
      if (seen.sideways > 0) problems.push(`${where}: ${seen.sideways} px of sideways scroll`);
      assertNoConsoleErrors([me]);
      await me.context.close();
    }
  }
  assert.deepEqual(problems, []);
});

test('Wippen at four on a phone: every player’s column of the scoresheet, his total too, without scrolling sideways', async () => {
  const me = await openClient(chrome, 'wippen-sheet-phone', PHONE, 'en');
  await practice(me, 'wippen', 4, 0);
  // A match some games on: rows as a long game writes them, every line of points filled in.
  await freezeWith(me.page, (_deal, _me, S) => {
    const game = S.game;
    let totals = [0, 0, 0, 0];
    game.scoresheet = [1, 2, 3].map((number) => {
      const points = [5, 3, 2, 1].map((p, i) => p + ((number + i) % 3));
      totals = totals.map((t, i) => t + points[i]);
      return {
        number,
        set: 1,
        dealer: (number - 1) % 4,
        cards: [14, 13, 13, 12],
        spades: [4, 3, 3, 3],
        aces: [2, 1, 1, 0],
        good_ten: number % 4,
        good_two: (number + 1) % 4,
        sweeps: [3, 2, 1, 1],
        leftover_to: 0,
        points,
        totals: [...totals],
      };
    });
    game.totals = [...totals];
    S.ui.dialog = 'sheet';
  });
  await me.page.locator('[data-testid="scoresheet"] tbody tr').first().waitFor();
  const seen = await me.page.evaluate(() => {
    const S = /** @type {any} */ (window).fipsenDebug.S;
    const scroll = /** @type {Element} */ (document.querySelector('.sheet-scroll'));
    const view = scroll.getBoundingClientRect();
    const width = document.documentElement.clientWidth;
    const inView = (e) => {
      const r = e.getBoundingClientRect();
      return r.left >= Math.max(view.left, 0) - 0.5 && r.right <= Math.min(view.right, width) + 0.5;
    };
    const heads = [...document.querySelectorAll('.sheet-table thead th.total-col')];
    const totals = [...document.querySelectorAll('.sheet-table tfoot td.total')];
    return {
      sideways: scroll.scrollWidth - scroll.clientWidth,
      columns: heads.map((th, i) => ({ head: inView(th), total: totals[i] ? inView(totals[i]) : false, text: totals[i]?.textContent ?? null, expected: String(S.game.totals[i]) })),
      cells: [...document.querySelectorAll('.sheet-table tbody td.wp-cell')].filter((c) => !inView(c)).length,
      lines: [...document.querySelectorAll('.sheet-table .wp-line')].map((e) => e.textContent),
    };
  });
  await screenshot(me, 'phone-wippen-4-scoresheet');
  assert.equal(seen.columns.length, 4, 'a column for each of the four');
  assert.equal(seen.sideways, 0, 'the sheet does not scroll sideways');
  seen.columns.forEach((c, i) => {
    assert.ok(c.head && c.total, `column ${i}: its heading and total in view`);
    assert.equal(c.text, c.expected, `column ${i}: its total`);
  });
  assert.equal(seen.cells, 0, 'every cell of the games in view');
  // Each line whole on its own (not "1 aces").
  assert.ok(seen.lines.includes('1 ace') && seen.lines.includes('2 aces'), `the aces counted in words: ${seen.lines.join(', ')}`);
  assertNoConsoleErrors([me]);
  await me.context.close();
});

const SEEDED = process.env.FIPSEN_SEEDED_URL;

test('on a phone the page at a player’s turn is the table, his hand and his choices: no longer than a screen and a half, the chat and the log behind their button', { skip: !SEEDED && 'no fixed-seed server' }, async () => {
  const long = [];
  const figures = [];
  for (const [game, players] of /** @type {const} */ ([
    ['prisdorf', 4],
    ['grossenaspe', 5],
    ['anseggerfips', 4],
    ['duttfips', 4],
    ['thedinghausen', 5],
    ['tippen', 6],
    ['tippen', 10],
    ['wippen', 4],
  ])) {
    // The fixed-seed server deals the same first deal every time: the same choices to list.
    const me = await openClient(chrome, `length-${game}-${players}`, PHONE, 'en', SEEDED);
    await practice(me, game, players, 0);
    await me.page.waitForFunction(() => {
      const S = /** @type {any} */ (window).fipsenDebug.S;
      const deal = S.game?.deal;
      return Boolean(deal && deal.turn === S.you.seat && Object.keys(deal.prompt ?? {}).length > 0 && document.querySelector('main .actions, .table-screen.my-turn .hand-card.playable'));
    }, null, { timeout: 30_000 });
    await freezeWith(me.page, () => {});
    const length = () => me.page.evaluate(() => /** @type {Element} */ (document.scrollingElement).scrollHeight);
    const heights = [await length()];
    // Wippen lists the moves of the hand card chosen: each card's list in turn.
    const picks = await me.page.locator('.game-wippen .hand .hand-card:not([disabled])').count();
    for (let i = 0; i < picks; i++) {
      await me.page.locator('.hand .hand-card').nth(i).click();
      await me.page.locator('main .actions [data-testid="wp-choice"]').waitFor();
      heights.push(await length());
      if (heights.at(-1) === Math.max(...heights)) await screenshotFull(me, `phone-${game}-${players}-longest-turn`);
    }
    const height = await me.page.evaluate(() => window.innerHeight);
    const most = Math.max(...heights);
    figures.push(`${game} at ${players}: ${most} px`);
    if (most > 1.5 * height) long.push(`${game} at ${players}: ${most} px, the screen ${height} px`);
    // The chat and the table log are off the page until asked for, one tap away.
    assert.equal(await me.page.locator('aside.side').isVisible(), false, `${game}: the chat is behind its button`);
    await me.page.locator('[data-key="open-chat"]').click();
    await me.page.locator('aside.side.open .chat-log .log-line').first().waitFor();
    await me.page.locator('[data-key="close-chat"]').click();
    assertNoConsoleErrors([me]);
    await me.context.close();
  }
  console.log(`The phone page at a turn: ${figures.join(', ')}`);
  assert.deepEqual(long, []);
});
