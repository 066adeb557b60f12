// The analysis of the play in the replay, on a phone and on a desktop: a practice deal against
// three bots played through and replayed; the replay lists every card the server's analysis
// says cost something, with what it cost and the better cards, and a tap on one goes to the
// step that played it, where the card is marked in the trick; the series page counts each
// player's costly cards in the deal, on screen and on paper. A Wippen game played carelessly
// against a bot: each costly move is told the better moves in words, as the table writes a
// move, never the move played. Screenshots go to artifacts/.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { DESKTOP, PHONE, assertNoConsoleErrors, launch, openClient, playDeal, screenshot, settle } from './lib.mjs';

let chrome;
before(async () => {
  chrome = await launch();
});
after(async () => {
  await chrome?.close();
});

for (const [kind, device] of /** @type {const} */ ([
  ['phone', PHONE],
  ['desktop', DESKTOP],
])) {
  test(`the replay marks the cards that cost something on a ${kind}`, async () => {
    const me = await openClient(chrome, `analysis-${kind}`, device, 'en');
    await me.page.locator('#name').fill('Meike');
    await me.page.locator('[data-key="practice-more"]').click();
    await me.page.locator('[data-key="opt-practice_delay-0"]').check();
    await me.page.locator('[data-key="practice"]').click();
    await me.page.locator('.table-screen').waitFor();
    await playDeal([me]);
    await me.page.locator('[data-testid="result"]').waitFor();
    await me.page.locator('[data-key="replay-open"]').click();
    await me.page.locator('[data-testid="replay-analysis"]').waitFor();

    // What the server sent: every card of the play analysed, the costly ones with their steps.
    const sent = await me.page.evaluate(() => {
      const r = /** @type {any} */ (window).fipsenDebug.S.replay.replay;
      return { analysis: r.analysis, steps: r.steps.length };
    });
    assert.ok(sent.analysis, 'a Prisdorf deal has an analysis');
    assert.equal(sent.analysis.unit, 'points');
    assert.equal(sent.analysis.method, 'exact');
    assert.ok(sent.analysis.cards.length > 0);
    const costly = sent.analysis.cards.filter((c) => c.cost > 0);
    const listed = await me.page.locator('.analysis-list li').evaluateAll((els) =>
      els.map((e) => ({ card: e.getAttribute('data-card'), seat: Number(e.getAttribute('data-seat')), step: Number(e.getAttribute('data-step')), cost: Number(e.getAttribute('data-cost')), text: e.textContent ?? '' })),
    );
    assert.deepEqual(
      listed.map((l) => [l.card, l.seat, l.cost]),
      costly.map((c) => [c.card, c.seat, c.cost]),
      'every costly card listed, in the order played',
    );
    if (!costly.length) {
      assert.match(await me.page.locator('[data-testid="analysis-none"]').textContent(), /No card cost anything/);
    }
    for (const [i, l] of listed.entries()) {
      const c = costly[i];
      assert.match(l.text, c.cost === 1 ? /cost 1 point/ : new RegExp(`cost ${c.cost} points`));
      assert.match(l.text, /better: /, 'the better cards');
      // A tap goes to the step that played the card; there the trick marks it.
      await me.page.locator(`.analysis-list li[data-card="${l.card}"] button`).click();
      await me.page.waitForFunction((n) => document.querySelector('[data-testid="replay"]')?.getAttribute('data-step') === String(n), l.step);
      const step = await me.page.evaluate((n) => /** @type {any} */ (window).fipsenDebug.S.replay.replay.steps[n], l.step);
      assert.equal(step.seat, l.seat, 'the step is the player’s');
      assert.ok(!step.hands[l.seat].includes(l.card), 'the card has left his hand');
      const mark = me.page.locator(`.replay-play.costly[data-card="${l.card}"] [data-testid="cost-mark"]`);
      assert.ok(await mark.isVisible(), `${l.card} marked in the trick`);
      assert.match((await mark.getAttribute('aria-label')) ?? '', /Cost something: this card cost/);
      // The mark lies on the card, inside the viewport.
      const box = await mark.boundingBox();
      const vw = await me.page.evaluate(() => window.innerWidth);
      assert.ok(box && box.x >= 0 && box.x + box.width <= vw, 'the mark is on screen');
    }
    // Unmarked cards: the trick at each step marks only the costly cards played so far.
    const wrong = await me.page.evaluate(() => {
      const costlyCards = new Set(/** @type {any} */ (window).fipsenDebug.S.replay.replay.analysis.cards.filter((c) => c.cost > 0).map((c) => c.card));
      return [...document.querySelectorAll('.replay-play.costly')].map((e) => e.getAttribute('data-card')).filter((c) => !costlyCards.has(c));
    });
    assert.deepEqual(wrong, [], 'no card that cost nothing is marked');
    await screenshot(me, `${kind}-replay-analysis`);

    // The series page: each player's costly cards in the deal, as the replay's analysis counts
    // them, in a table that is printed.
    const perSeat = [0, 1, 2, 3].map((seat) => costly.filter((c) => c.seat === seat).length);
    await me.page.locator('[data-key="close-replay"]').click();
    await me.page.locator('[data-key="result-sheet"]').click();
    await me.page.locator('[data-key="series-page"]').click();
    await me.page.locator('[data-testid="series-analysis"]').waitFor();
    const row = await me.page.locator('.costly-table tbody tr[data-deal="1"] td').allTextContents();
    assert.deepEqual(row.map(Number), perSeat, 'the series page counts the costly cards per player');
    await me.page.emulateMedia({ media: 'print' });
    assert.ok(await me.page.locator('[data-testid="series-analysis"]').isVisible(), 'printed with the scoresheet');
    await me.page.emulateMedia({ media: 'screen' });
    await screenshot(me, `${kind}-series-analysis`);
    assertNoConsoleErrors([me]);
    await me.context.close();
  });
}

/** A card as the English page writes it: "♠10". @param {string} code */
function short(code) {
  return `${{ C: '♣', S: '♠', H: '♥', D: '♦' }[code[0]]}${code.slice(1)}`;
}

/** How the English page begins to name a Wippen move. @param {any} m a WippenMove */
function moveWords(m) {
  if (m.kind === 'discard') return `Lay ${short(m.card)} on the table`;
  if (m.kind === 'capture') return `Capture with ${short(m.card)}: `;
  return `Build ${m.value} with ${short(m.card)}: `;
}

test('a costly Wippen move is told the better moves in words, not only their cards', async () => {
  const me = await openClient(chrome, 'analysis-wippen', DESKTOP, 'en');
  await me.page.locator('#name').fill('Fiete');
  await me.page.locator('[data-key="opt-practice_game-wippen"]').check();
  await me.page.locator('[data-key="practice-more"]').click();
  await me.page.locator('[data-key="opt-practice_delay-0"]').check();
  await me.page.locator('[data-key="practice"]').click();
  await me.page.locator('[data-testid="wippen-table"]').waitFor();
  // Fiete lays a card down wherever he may (often passing by a capture, which costs points),
  // else makes the first move offered for his first card.
  for (let step = 0; step < 400; step++) {
    const f = await me.page.evaluate(() => {
      const S = /** @type {any} */ (window).fipsenDebug.S;
      return {
        over: Boolean(document.querySelector('[data-testid="result"]')),
        myTurn: Boolean(document.querySelector('.table-screen.my-turn')),
        waiting: S.waiting,
        moves: S.game?.deal?.prompt?.moves ?? [],
      };
    });
    if (f.over) break;
    if (f.waiting || !f.myTurn || !f.moves.length) {
      await me.page.waitForTimeout(80);
      continue;
    }
    const entry = f.moves.find((e) => e.discard) ?? f.moves[0];
    await me.page.locator(`.hand .hand-card[data-card="${entry.card}"]`).click();
    await me.page.locator('[data-testid="wp-choice"]').waitFor();
    if (entry.discard) await me.page.locator('[data-testid="wp-discard"]').click();
    else await me.page.locator('[data-testid="wp-suggestion"]').first().click();
    await settle(me.page);
  }
  await me.page.locator('[data-testid="result"]').waitFor();
  await me.page.locator('[data-key="replay-open"]').click();
  await me.page.locator('[data-testid="replay-analysis"]').waitFor({ timeout: 120_000 });

  const sent = await me.page.evaluate(() => {
    const r = /** @type {any} */ (window).fipsenDebug.S.replay.replay;
    return { analysis: r.analysis, actions: r.steps.slice(1).map((s) => s.action) };
  });
  assert.equal(sent.analysis?.method, 'bounded', 'a Wippen deal has a bounded analysis');
  const costly = sent.analysis.cards.filter((c) => c.cost > 0);
  assert.ok(costly.length > 0, 'laying cards down where a capture was open costs points');
  const listed = await me.page.locator('.analysis-list li').evaluateAll((els) => els.map((e) => ({ seat: Number(e.getAttribute('data-seat')), card: e.getAttribute('data-card'), text: e.textContent ?? '' })));
  assert.deepEqual(
    listed.map((l) => [l.seat, l.card]),
    costly.map((c) => [c.seat, c.card]),
    'every costly move listed, in the order played',
  );
  let sameCard = 0;
  for (const [i, c] of costly.entries()) {
    const text = listed[i].text;
    assert.ok(c.best_moves?.length, `the server names the better moves: ${JSON.stringify(c)}`);
    assert.ok(!c.best_moves.some((m) => JSON.stringify(m) === JSON.stringify(sent.actions[c.index])), 'never the move played');
    assert.match(text, c.cost === 1 ? /this move cost 1 point/ : new RegExp(`this move cost ${c.cost} points`));
    assert.match(text, /better: “/, text);
    // Each better move in words, as the table writes a move.
    for (const m of c.best_moves) assert.ok(text.includes(`“${moveWords(m)}`), `${text} names ${JSON.stringify(m)}`);
    if (c.best_moves.some((m) => m.card === c.card)) sameCard += 1;
  }
  await me.page.locator('.analysis-list li').first().scrollIntoViewIfNeeded();
  await screenshot(me, 'desktop-replay-analysis-wippen');
  console.log(`costly Wippen moves: ${costly.length}, better move with the same card: ${sameCard}; the first: ${listed[0].text}`);
  assertNoConsoleErrors([me]);
  await me.context.close();
});
