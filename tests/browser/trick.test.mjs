// The trick on the table, readable at every table size: practice tables of three to ten seats on
// a phone (390×844) and a desktop (1366×768), each with a full trick in the middle — every card's
// corner (its rank and suit) in view, the card that takes the trick (as it stands, or taken) wholly
// in view with its badge, nothing of the trick under Tippen's pot panel or a seat. Screenshots go
// to artifacts/.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { DESKTOP, PHONE, assertNoConsoleErrors, launch, openClient, screenshot } from './lib.mjs';

let chrome;
before(async () => {
  chrome = await launch();
});
after(async () => {
  await chrome?.close();
});

/**
 * Opens a practice table of `game` at `players` seats and stops the page listening to the
 * server, so that the trick the test lays down stays as laid.
 */
async function practiceTable(me, game, players) {
  await me.page.locator('#name').fill('Hinnerk');
  await me.page.locator(`[data-key="opt-practice_game-${game}"]`).check();
  await me.page.locator(`[data-key="opt-practice_players-${players}"]`).check();
  await me.page.locator('[data-key="practice-more"]').click();
  await me.page.locator('[data-key="opt-practice_delay-1600"]').check();
  await me.page.locator('[data-key="practice"]').click();
  await me.page.locator(`.table-screen.players-${players} .felt`).waitFor();
  await me.page.waitForFunction(() => /** @type {any} */ (window).fipsenDebug.S.game?.deal);
  await me.page.evaluate(() => {
    const debug = /** @type {any} */ (window).fipsenDebug;
    debug.conn.handlers.message = () => {};
    debug.saved = { game: structuredClone(debug.S.game), room: structuredClone(debug.S.room) };
  });
}

/**
 * Lays a full trick on the table, one card from every seat: as it stands (`winner` ahead) or
 * just taken by `winner` (held before it goes to him).
 */
async function layTrick(page, winner, taken) {
  await page.evaluate(
    ([winner, taken]) => {
      const debug = /** @type {any} */ (window).fipsenDebug;
      const S = debug.S;
      const { game, room } = structuredClone(debug.saved);
      const deal = game.deal;
      const n = deal.hand_sizes.length;
      const pack = ['C', 'S', 'H', 'D'].flatMap((s) => ['A', 'K', 'Q', 'J', '10', '9', '8', '7'].map((r) => s + r));
      const cards = Array.from({ length: n }, (_, i) => ({ seat: i, card: pack[(i * 5) % pack.length] }));
      deal.phase = 'play';
      deal.turn = null;
      if (Array.isArray(deal.tricks_taken)) deal.tricks_taken = deal.tricks_taken.map(() => 0);
      deal.tricks = [];
      if (taken) {
        deal.trick = [];
        deal.winning = null;
        S.ui.held = { deal: game.number, trick: { cards, winner }, index: 0, phase: 'hold' };
      } else {
        deal.trick = cards;
        deal.winning = winner;
        S.ui.held = null;
      }
      S.game = game;
      S.room = room;
      debug.render();
    },
    [winner, taken],
  );
}

/**
 * What of the trick can be seen: for each card the share of its face and of its top-left corner
 * (rank and suit) not covered by anything, of the winner's badge likewise, and what overlaps.
 */
async function trickSeen(page, where = '.centre') {
  await page.locator(`${where} .played`).first().scrollIntoViewIfNeeded();
  await page.evaluate((where) => document.querySelector(`${where} .trick-area`)?.scrollIntoView({ block: 'center' }), where);
  return page.evaluate((where) => {
    const box = (e) => e.getBoundingClientRect();
    const overlap = (a, b) => Math.max(0, Math.min(a.right, b.right) - Math.max(a.left, b.left)) * Math.max(0, Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top));
    /** Whether `owner` (or what it holds but `except`) is the topmost element at a point. */
    const on = (x, y, owner, except) => {
      const top = document.elementFromPoint(x, y);
      return Boolean(top && (top === owner || owner.contains(top)) && !(except && except.contains(top)));
    };
    /** The share of an 8 × 8 grid of points of `r` where `owner` is on top. */
    const shown = (r, owner, except = null) => {
      let seen = 0;
      for (let i = 0; i < 8; i++) {
        for (let j = 0; j < 8; j++) seen += on(r.left + 1 + ((r.width - 2) * (i + 0.5)) / 8, r.top + 1 + ((r.height - 2) * (j + 0.5)) / 8, owner, except) ? 1 : 0;
      }
      return seen / 64;
    };
    /**
     * The same for a part of a card's face, in the face's own units (100 × 150), however the card
     * is turned on the table.
     */
    const shownOfFace = (svg, [x0, y0, x1, y1], owner, except = null) => {
      const m = svg.getScreenCTM();
      let seen = 0;
      for (let i = 0; i < 8; i++) {
        for (let j = 0; j < 8; j++) {
          const p = new DOMPoint(x0 + ((x1 - x0) * (i + 0.5)) / 8, y0 + ((y1 - y0) * (j + 0.5)) / 8).matrixTransform(m);
          seen += on(p.x, p.y, owner, except) ? 1 : 0;
        }
      }
      return seen / 64;
    };
    const inset = (r, dx, dy) => ({ left: r.left + r.width * dx, top: r.top + r.height * dy, width: r.width * (1 - 2 * dx), height: r.height * (1 - 2 * dy) });
    const width = document.documentElement.clientWidth;
    const height = document.documentElement.clientHeight;
    const cards = [...document.querySelectorAll(`${where} .played`)];
    const problems = [];
    const seen = cards.map((card) => {
      const r = box(card);
      const seat = card.getAttribute('data-seat');
      if (r.left < 0 || r.right > width || r.top < 0 || r.bottom > height) problems.push(`seat ${seat}'s card is off the screen`);
      const face = /** @type {SVGSVGElement} */ (card.querySelector('svg.card-svg'));
      const f = box(face);
      const badge = card.querySelector('.win-badge, .ahead-badge');
      return {
        seat,
        marked: Boolean(badge),
        card: shownOfFace(face, [3, 3, 97, 147], card),
        // The rank and suit in the top corner, under nothing, not even the card's own badge.
        corner: shownOfFace(face, [3, 3, 38, 45], card, badge),
        // The badge's text, within its rounded ends (and the tilt of a card at the side).
        badge: badge ? shown(inset(box(badge), 0.15, 0.25), badge) : null,
        width: Math.round(f.width),
      };
    });
    // Nothing of the trick under (or over) the pot panel, a seat or the hand.
    for (const other of document.querySelectorAll('.tp-stakes, .felt .seat, .hand')) {
      for (const card of cards) {
        if (overlap(box(card), box(other)) > 1) problems.push(`seat ${card.getAttribute('data-seat')}'s card overlaps ${other.className}`);
      }
    }
    return { seen, problems };
  }, where);
}

/** Checks what can be seen of the trick, for every seat taking it, as it stands and taken. */
async function checkTricks(me, label, n) {
  const failures = [];
  for (const taken of [false, true]) {
    for (let winner = 0; winner < n; winner++) {
      await layTrick(me.page, winner, taken);
      await me.page.locator(`.centre .played.${taken ? 'winner' : 'ahead'}`).waitFor();
      const { seen, problems } = await trickSeen(me.page);
      assert.equal(seen.length, n, `${label}: a card from every seat`);
      const at = `${label}, ${taken ? 'taken' : 'ahead'}: seat ${winner}`;
      for (const p of problems) failures.push(`${at}: ${p}`);
      for (const s of seen) {
        if (s.corner < 0.95) failures.push(`${at}: seat ${s.seat}'s corner is ${Math.round((1 - s.corner) * 100)} % covered`);
        if (s.width < 36) failures.push(`${at}: seat ${s.seat}'s card is only ${s.width} px wide`);
        if (s.marked) {
          if (s.card < 0.97) failures.push(`${at}: the winning card is ${Math.round((1 - s.card) * 100)} % covered`);
          if ((s.badge ?? 0) < 0.95) failures.push(`${at}: the winner's badge is ${Math.round((1 - (s.badge ?? 0)) * 100)} % covered`);
        }
      }
      assert.equal(seen.filter((s) => s.marked).length, 1, `${at}: one card marked`);
      if (winner === 1) await screenshot(me, `${label}-trick-${taken ? 'taken' : 'ahead'}`);
    }
  }
  // The last trick's dialog lays the cards out the same way.
  await me.page.evaluate(() => {
    const debug = /** @type {any} */ (window).fipsenDebug;
    const S = debug.S;
    const held = S.ui.held;
    S.ui.held = null;
    S.game.deal.tricks = [held.trick];
    S.ui.dialog = 'last_trick';
    debug.render();
  });
  await me.page.locator('.last-trick .played.winner').waitFor();
  const last = await trickSeen(me.page, '.last-trick');
  assert.equal(last.seen.length, n, `${label}: the last trick has a card from every seat`);
  for (const s of last.seen) if (s.corner < 0.95) failures.push(`${label}, the last trick: seat ${s.seat}'s corner is ${Math.round((1 - s.corner) * 100)} % covered`);
  await screenshot(me, `${label}-last-trick`);
  assert.deepEqual(failures, [], `${label}: the trick is readable`);
}

for (const [kind, device] of /** @type {const} */ ([
  ['phone', PHONE],
  ['desktop', DESKTOP],
])) {
  for (const [game, players] of /** @type {const} */ ([
    ['prisdorf', 3],
    ['prisdorf', 4],
    ['grossenaspe', 5],
    ['thedinghausen', 5],
    ['tippen', 5],
    ['tippen', 6],
    ['tippen', 7],
    ['tippen', 8],
    ['tippen', 9],
    ['tippen', 10],
  ])) {
    test(`a full trick at ${players} seats of ${game} on a ${kind}: every card's corner and the winner with its badge in view`, async () => {
      const me = await openClient(chrome, `trick-${kind}-${game}-${players}`, device, 'en');
      await practiceTable(me, game, players);
      await checkTricks(me, `${kind}-${game}-${players}`, players);
      assertNoConsoleErrors([me]);
      await me.context.close();
    });
  }
}
