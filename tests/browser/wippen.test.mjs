// Wippen in the web client: a practice game of two against a bot clicked through on a phone —
// the table's piles in the middle (buildings with their value and owner), a hand card chosen,
// the prompt's suggestions, table piles chosen, the moves the server finds for exactly that
// choice shown with their arithmetic ("10 = (♠3 × ♦2) + ♣4") and confirmed; an arithmetic
// capture and a build among them, discards in one tap; the result and the scoresheet. No card of
// another hand or of the stock on the page or in a frame. Screenshots go to artifacts/.
// It runs on the fixed-seed server, so that the game's deals and the bots' answers are the same
// on every run and the moves it needs come up.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { PHONE, assertNoConsoleErrors, launch, openClient, screenshot, settle } from './lib.mjs';

const SEEDED = process.env.FIPSEN_SEEDED_URL;

let chrome;
before(async () => {
  chrome = await launch();
});
after(async () => {
  await chrome?.close();
});

/** What the page shows and the client holds at this moment. */
async function facts(page) {
  return page.evaluate(() => {
    const S = /** @type {any} */ (window).fipsenDebug.S;
    const deal = S.game?.deal;
    return {
      over: Boolean(document.querySelector('[data-testid="result"]')),
      myTurn: Boolean(document.querySelector('.table-screen.my-turn')),
      waiting: S.waiting,
      prompt: deal?.prompt ?? {},
      table: deal?.table ?? [],
      hand: deal?.hand ?? [],
      piles: [...document.querySelectorAll('.wp-pile')].map((e) => e.getAttribute('data-pile')),
      buildings: [...document.querySelectorAll('.wp-building')].map((e) => ({
        pile: e.getAttribute('data-pile'),
        value: e.querySelector('[data-testid="building-value"]')?.textContent,
        owner: e.querySelector('.wp-owner')?.textContent,
      })),
      names: S.room.seats.map((s) => s?.name ?? null),
      me: S.you.seat,
      moved: deal?.moves ?? [],
      suggestions: [...document.querySelectorAll('[data-testid="wp-suggestion"]')].map((e) => ({ text: e.textContent, piles: e.getAttribute('data-piles') })),
      moves: [...document.querySelectorAll('[data-testid="wp-move"]')].map((e) => ({ text: e.textContent, move: JSON.parse(e.getAttribute('data-action') ?? '{}') })),
      width: document.documentElement.scrollWidth - document.documentElement.clientWidth,
    };
  });
}

/** Whether an expression tree holds an operator. */
function arithmetic(e) {
  return Boolean(e?.op);
}

test('a game of Wippen clicked through on a phone: an arithmetic capture, a build, discards in one tap', { skip: !SEEDED && 'no fixed-seed server' }, async () => {
  const me = await openClient(chrome, 'wippen-phone', PHONE, 'en', SEEDED);
  await me.page.locator('#name').fill('Fiete');
  await me.page.locator('[data-key="opt-practice_game-wippen"]').check();
  await me.page.locator('[data-key="practice-more"]').click();
  await me.page.locator('[data-key="opt-practice_delay-0"]').check();
  await me.page.locator('[data-key="practice"]').click();
  await me.page.locator('.table-screen.game-wippen').waitFor();
  await me.page.locator('[data-testid="wippen-table"]').waitFor();

  let f = await facts(me.page);
  assert.equal(f.table.length, 4, 'four cards face up on the table');
  assert.equal(f.hand.length, 4, 'four in the hand');
  assert.equal(f.width, 0, 'nothing scrolls sideways');
  await screenshot(me, 'phone-wippen-dealt');

  const done = { arithmetic: 0, build: 0, discard: 0, capture: 0 };
  let shots = 0;
  for (let step = 0; step < 400; step++) {
    f = await facts(me.page);
    if (f.over) break;
    if (f.waiting) {
      await settle(me.page);
      continue;
    }
    if (!f.myTurn || !(f.prompt.moves ?? []).length) {
      await me.page.waitForTimeout(80);
      continue;
    }
    // The piles on the page are the table's, in its order; each building with its value and owner.
    assert.deepEqual(
      f.piles,
      f.table.map((p) => (p.building !== undefined ? `#${p.building}` : p.card)),
      'every pile of the table is shown',
    );
    for (const b of f.table.filter((p) => p.building !== undefined)) {
      const shownAs = f.buildings.find((x) => x.pile === `#${b.building}`);
      assert.deepEqual(shownAs, { pile: `#${b.building}`, value: String(b.value), owner: f.names[b.owner] }, 'a building with its value and owner');
    }
    // A card to move with: one that can build (until a build was made), else one that can
    // capture with two piles or more (until such a capture), else any that can capture, else
    // the first that may be laid down.
    const entries = f.prompt.moves;
    const builds = entries.find((e) => (e.builds ?? []).some((b) => (b.cores ?? []).some((c) => c.length > 0)));
    const wide = entries.find((e) => (e.capture ?? []).some((set) => set.length >= 2));
    const any = entries.find((e) => (e.capture ?? []).length > 0);
    const entry = (done.build === 0 && builds) || (done.arithmetic === 0 && wide) || any || entries.find((e) => e.discard) || entries[0];
    await me.page.locator(`.hand .hand-card[data-card="${entry.card}"]`).click();
    await me.page.locator('[data-testid="wp-choice"]').waitFor();
    f = await facts(me.page);
    const pickBuild = done.build === 0 && entry === builds;
    const suggestion = f.suggestions.find((s) => (pickBuild ? /build/.test(s.text) : /capture/.test(s.text) && (done.arithmetic > 0 || s.piles.split(' ').length >= 2))) ?? f.suggestions.find((s) => /capture/.test(s.text));
    if (!suggestion) {
      // Laid down in one tap.
      assert.ok(entry.discard, `${entry.card} can neither capture nor build, so it may be laid down`);
      if (done.discard === 0) await screenshot(me, 'phone-wippen-discard');
      await me.page.locator('[data-testid="wp-discard"]').click();
      await settle(me.page);
      done.discard += 1;
      continue;
    }
    await me.page.locator('[data-testid="wp-suggestion"]', { hasText: suggestion.text }).first().click();
    await me.page.locator('[data-testid="wp-move"]').first().waitFor();
    f = await facts(me.page);
    // The server's moves use exactly the chosen piles, each written out with its arithmetic.
    const wanted = f.moves.find((m) => (pickBuild ? m.move.kind === 'build' : m.move.kind === 'capture')) ?? f.moves[0];
    assert.ok(wanted.text.includes('='), `the move is written with its arithmetic: ${wanted.text}`);
    const isArithmetic = wanted.move.kind === 'capture' && (wanted.move.groups ?? []).some(arithmetic);
    if ((isArithmetic && done.arithmetic === 0) || (wanted.move.kind === 'build' && done.build === 0)) {
      await screenshot(me, `phone-wippen-${wanted.move.kind}-offered`);
      shots += 1;
    }
    await me.page.locator('[data-testid="wp-move"]', { hasText: wanted.text }).first().click();
    assert.match((await me.page.locator('[data-testid="wp-confirm-text"]').textContent()) ?? '', /=/);
    await me.page.locator('[data-key="confirm"]').click();
    await settle(me.page);
    if (wanted.move.kind === 'build') {
      done.build += 1;
      // The game's record: a building of that value, owned by this player (the bots may have
      // taken it over or captured it since).
      f = await facts(me.page);
      const made = f.moved.filter((m) => m.seat === f.me && m.move.kind === 'build').at(-1);
      assert.equal(made?.building?.value, wanted.move.value, JSON.stringify(made));
      assert.equal(made?.building?.owner, f.me);
      if (done.build === 1) await screenshot(me, 'phone-wippen-built');
    } else {
      done.capture += 1;
      if (isArithmetic) done.arithmetic += 1;
    }
  }
  await me.page.locator('[data-testid="result"]').waitFor();
  assert.ok(done.arithmetic >= 1, `an arithmetic capture was made: ${JSON.stringify(done)}`);
  assert.ok(done.build >= 1, `a build was made: ${JSON.stringify(done)}`);
  assert.ok(done.discard >= 1, `a card was laid down: ${JSON.stringify(done)}`);
  assert.ok(shots >= 2);
  await screenshot(me, 'phone-wippen-result');
  await me.page.locator('[data-key="result-sheet"]').click();
  await me.page.locator('[data-testid="scoresheet"]').waitFor();
  await screenshot(me, 'phone-wippen-sheet');
  assertNoConsoleErrors([me]);
  await me.context.close();
});
