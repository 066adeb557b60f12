// The review of a player's decisions after a deal, on a phone (Großenaspe) and on a desktop
// (Thedinghausen): a practice deal against bots played through, the result panel's button opens
// the review, which lists every decision the server reviewed with its options best first, the
// player's choice and the bot's marked, the bot's differing choice and the value lost said in
// words; under it the player's cards that cost something, from the deal's analysis. Nothing
// runs out of the phone's width, the review prints alone, and axe-core finds no serious
// violation in the dialog. Tippen's and Wippen's reviews are drawn from their types as well.
// Screenshots go to artifacts/.

import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { after, before, test } from 'node:test';
import { DESKTOP, PHONE, assertNoConsoleErrors, launch, openClient, playIfAsked, screenshot, settle } from './lib.mjs';

const AXE = createRequire(import.meta.url).resolve('axe-core');

let chrome;
before(async () => {
  chrome = await launch();
});
after(async () => {
  await chrome?.close();
});

/** The review state and what the page's store knows of the deal. @param {import('playwright-core').Page} page */
async function store(page) {
  return page.evaluate(() => {
    const S = /** @type {any} */ (window).fipsenDebug.S;
    return { review: S.review, replay: S.replay.status === 'ready' ? { deal: S.replay.deal, analysis: S.replay.replay.analysis } : { status: S.replay.status }, seat: S.you?.seat ?? null, number: S.game?.number };
  });
}

/**
 * Plays the deal on the page to its end with a simple strategy: the first to speak in an
 * auction bids the lowest bid, every other call passes, and the first card allowed is played.
 * @param {import('playwright-core').Page} page
 */
async function playOut(page) {
  const offered = async (sel) => (await page.locator(`main .actions ${sel}:not([disabled])`).count()) > 0;
  for (let step = 0; step < 400; step++) {
    if ((await page.locator('[data-testid="result"]').count()) > 0) return;
    if (await page.evaluate(() => /** @type {any} */ (window).fipsenDebug.S.waiting)) {
      await settle(page);
      continue;
    }
    if (await offered('[data-key="confirm-yes"]')) {
      await page.locator('[data-key="confirm-yes"]').click();
      continue;
    }
    const calls = await page.evaluate(() => /** @type {any} */ (window).fipsenDebug.S.game?.deal?.calls?.length ?? 0);
    const choice = calls === 0 && (await offered('.bid-button')) ? '.bid-button' : (await offered('[data-key="pass"]')) ? '[data-key="pass"]' : null;
    if (choice) {
      await page.locator(`main .actions ${choice}:not([disabled])`).first().click();
      if (await page.locator('[data-key="confirm-yes"]').count()) await page.locator('[data-key="confirm-yes"]').click();
      await settle(page);
      continue;
    }
    if (!(await playIfAsked(page))) await page.waitForTimeout(60);
  }
  throw new Error('the deal did not end within 400 steps');
}

/** axe-core's serious and critical violations on the page. @param {import('playwright-core').Page} page */
async function axeViolations(page) {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE });
  return page.evaluate(async () => {
    const axe = /** @type {any} */ (window).axe;
    const found = await axe.run(document.querySelector('dialog[open]'), { resultTypes: ['violations'] });
    return found.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`);
  });
}

// The server's Content-Security-Policy allows no inline script: these pages let playwright add
// axe-core's script all the same (`bypassCSP`), as the accessibility audit does.
for (const [kind, device, game] of /** @type {const} */ ([
  ['phone', { ...PHONE, bypassCSP: true }, 'grossenaspe'],
  ['desktop', { ...DESKTOP, bypassCSP: true }, 'thedinghausen'],
])) {
  test(`the review lists a ${game} player's decisions with his choice and the bot's on a ${kind}`, async () => {
    const me = await openClient(chrome, `reviews-${kind}`, device, 'en');
    const { page } = me;
    await page.locator('#name').fill('Meike');
    await page.locator(`[data-key="opt-practice_game-${game}"]`).check();
    await page.locator('[data-key="practice-more"]').click();
    await page.locator('[data-key="opt-practice_delay-0"]').check();
    await page.locator('[data-key="practice"]').click();
    await page.locator('.table-screen').waitFor();

    // Deals are played until one in which the player took a decision (a bot may announce
    // before his turn comes).
    let state;
    for (let deal = 1; ; deal++) {
      await playOut(page);
      await page.locator('[data-key="review-open"]').click();
      await page.locator('dialog[open] [data-testid="review"]').waitFor({ timeout: 60_000 });
      state = await store(page);
      assert.equal(state.review.status, 'ready');
      assert.equal(state.review.decisions.game, game, 'the review of the decisions of this game');
      assert.equal(state.review.decisions.review.seat, state.seat, 'his own seat');
      if (state.review.decisions.review.decisions.length) break;
      assert.ok(deal < 4, 'the player took a decision in one of three deals');
      await page.locator('[data-testid="review-no-decisions"]').waitFor();
      await page.keyboard.press('Escape');
      await page.locator('[data-key="next-deal"]:not([disabled])').click();
      await page.waitForFunction((n) => /** @type {any} */ (window).fipsenDebug.S.game?.number === n + 1, state.number);
    }
    assert.match((await page.locator('dialog[open] .dialog-head h2').textContent()) ?? '', new RegExp(`Your decisions in deal ${state.number}`));

    // Every decision listed, its options best first, his choice and the bot's marked.
    const decisions = state.review.decisions.review.decisions;
    const items = page.locator('dialog[open] [data-testid="decision"]');
    assert.equal(await items.count(), decisions.length, 'every decision listed');
    const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
    for (const [i, d] of decisions.entries()) {
      const item = items.nth(i);
      assert.equal(await item.getAttribute('data-kind'), d.decision);
      assert.match((await item.locator('.samples').textContent()) ?? '', d.samples ? new RegExp(`${d.samples} sampled deals`) : /without sampling/);
      const sorted = [...d.options].sort((a, b) => b.value - a.value);
      const rows = item.locator('tbody tr');
      assert.equal(await rows.count(), d.options.length, 'every option');
      const marked = await rows.evaluateAll((trs) => trs.map((tr) => [tr.getAttribute('data-chosen'), tr.getAttribute('data-bot')]));
      const chosenAt = sorted.findIndex((o) => same(o.action, d.chosen));
      const botAt = sorted.findIndex((o) => same(o.action, d.bot));
      assert.ok(chosenAt >= 0 && botAt >= 0, 'his choice and the bot’s are among the options');
      assert.deepEqual(
        marked.map(([c]) => c === 'yes'),
        sorted.map((_, k) => k === chosenAt),
        `decision ${i + 1}: his choice marked`,
      );
      assert.deepEqual(
        marked.map(([, b]) => b === 'yes'),
        sorted.map((_, k) => k === botAt),
        `decision ${i + 1}: the bot's choice marked`,
      );
      assert.match((await rows.nth(chosenAt).textContent()) ?? '', /your choice/);
      const verdict = (await item.locator('[data-testid="verdict"]').textContent()) ?? '';
      if (same(d.chosen, d.bot)) assert.match(verdict, /The bot would have chosen the same/);
      else assert.match(verdict, /The bot would have chosen .+; you chose /);
      const lost = Number(await item.locator('[data-testid="value-lost"]').getAttribute('data-lost'));
      assert.ok(Math.abs(lost - (sorted[0].value - sorted[chosenAt].value)) < 0.01, `decision ${i + 1}: the value lost is best − chosen`);
      if (lost > 0.05) assert.match((await item.locator('[data-testid="value-lost"]').textContent()) ?? '', /Value lost: /);
    }

    // Under it, his cards that cost something, from the analysis the deal's replay carries.
    await page.waitForFunction(() => /** @type {any} */ (window).fipsenDebug.S.replay.status === 'ready', null, { timeout: 60_000 });
    state = await store(page);
    const section = page.locator('dialog[open] [data-testid="review-analysis"]');
    assert.ok(await section.isVisible(), 'the analysis of the play in the dialog');
    const analysis = state.replay.analysis;
    const mine = (analysis?.cards ?? []).filter((c) => c.seat === state.seat && c.cost > 0);
    const listed = await section.locator('li').evaluateAll((lis) => lis.map((li) => li.getAttribute('data-card')));
    assert.deepEqual(listed, mine.map((c) => c.card), 'his costly cards, in the order played');
    if (!analysis) assert.match((await section.textContent()) ?? '', /no analysis/);
    else if (!mine.length) assert.match((await section.textContent()) ?? '', /None of your cards cost anything/);
    else assert.match((await section.locator('li').first().textContent()) ?? '', /cost .*(point|trick)/);

    // Within the phone's width (a wide table scrolls in its own box); no serious violation.
    const overflow = await page.evaluate(() => {
      const body = /** @type {HTMLElement} */ (document.querySelector('dialog[open] .dialog-body'));
      return body.scrollWidth - body.clientWidth;
    });
    assert.ok(overflow <= 1, `the dialog fits its width (${overflow}px over)`);
    assert.deepEqual(await axeViolations(page), [], 'no serious or critical violation in the review');
    await screenshot(me, `${kind}-${game}-review`);

    // Printed: the review alone.
    await page.emulateMedia({ media: 'print' });
    assert.ok(await page.locator('dialog[open] [data-testid="review"]').isVisible(), 'the review is printed');
    assert.ok(await page.locator('dialog[open] [data-testid="review-analysis"]').isVisible(), 'with the analysis');
    assert.ok(!(await page.locator('[data-testid="result"]').isVisible()), 'the table is not printed');
    await page.emulateMedia({ media: 'screen' });

    // Beside the deal's replay, the same review (the replay is here already: it opens at once).
    if (kind === 'phone') {
      await page.keyboard.press('Escape');
      await page.locator('[data-key="replay-open"]').click();
      await page.locator('[data-key="replay-review"]').click();
      const beside = page.locator('[data-testid="replay-review"]');
      assert.match((await beside.locator('h3').first().textContent()) ?? '', new RegExp(`Your decisions in deal ${state.number}`));
      assert.equal(await beside.locator('[data-testid="decision"]').count(), decisions.length, 'the decisions beside the replay');
      await page.keyboard.press('Escape');
      await page.locator('[data-key="review-open"]').click();
      await page.locator('dialog[open] [data-testid="review"]').waitFor();
    }

    // Tippen's and Wippen's reviews (their bots' reviews come to the server apart from this) are
    // drawn from their types the same way: given to the page, each option with its words.
    if (kind === 'desktop') {
      await showReview(page, TIPPEN);
      const tippen = page.locator('dialog[open] [data-testid="decision"]');
      assert.equal(await tippen.count(), 2);
      assert.equal(await tippen.nth(0).getAttribute('data-kind'), 'entry');
      assert.match((await tippen.nth(0).locator('h4').textContent()) ?? '', /Play or pass/);
      assert.deepEqual((await tippen.nth(0).locator('tbody th').allTextContents()).map((s) => s.trim()), ['Play and rob ★ the bot’s', 'Play your choice', 'Pass']);
      assert.match((await tippen.nth(0).locator('[data-testid="verdict"]').textContent()) ?? '', /The bot would have chosen Play and rob; you chose Play\./);
      assert.match((await tippen.nth(0).locator('[data-testid="value-lost"]').textContent()) ?? '', /Value lost: 0\.7/);
      assert.match((await tippen.nth(1).locator('tbody tr[data-chosen="yes"] th').textContent()) ?? '', /exchange 2: /);
      assert.match((await tippen.nth(1).locator('[data-testid="verdict"]').textContent()) ?? '', /The bot would have chosen the same/);

      await showReview(page, WIPPEN);
      const wippen = page.locator('dialog[open] [data-testid="decision"]');
      assert.equal(await wippen.count(), 1);
      assert.match((await wippen.locator('h4').textContent()) ?? '', /Move 5/);
      assert.match((await wippen.locator('.samples').textContent()) ?? '', /without sampling/);
      const head = await wippen.locator('thead th').allTextContents();
      assert.deepEqual(head, ['Option', 'Takes', 'Worth', 'Leaves on the table', 'Expected']);
      const best = await wippen.locator('tbody tr').first().locator('th, td').allTextContents();
      assert.match(best[0], /Capture with .*★ the bot’s/);
      assert.match(best[1], /sweep/, 'the sweep marked');
      assert.equal(best[2], '1');
      assert.equal(best[3], '—', 'the table left empty');
      assert.equal(await wippen.locator('tbody tr').nth(1).getAttribute('data-chosen'), 'yes');
      assert.match((await wippen.locator('[data-testid="value-lost"]').textContent()) ?? '', /Value lost: 3\.5/);
      assert.deepEqual(await axeViolations(page), [], 'no serious or critical violation in a Wippen review');
      await screenshot(me, `${kind}-wippen-review`);
    }

    assertNoConsoleErrors([me]);
    await me.context.close();
  });
}

/** Shows `decisions` in the open review dialog, as if the server had sent them. @param {import('playwright-core').Page} page @param {any} decisions */
async function showReview(page, decisions) {
  await page.evaluate((d) => {
    const w = /** @type {any} */ (window).fipsenDebug;
    w.S.review = { status: 'ready', deal: w.S.game.number, decisions: d };
    w.render();
  }, decisions);
  await page.locator(`dialog[open] [data-testid="review"][data-game="${decisions.game}"]`).waitFor();
}

/** A Tippen review as the protocol's types shape it: playing or passing, then the exchange. */
const TIPPEN = {
  game: 'tippen',
  review: {
    seat: 0,
    decisions: [
      {
        decision: 'entry',
        samples: 40,
        options: [
          { action: { action: 'join' }, value: 0.8, margin: 0.4 },
          { action: { action: 'rob' }, value: 1.5, margin: 0.5 },
          { action: { action: 'pass' }, value: 0, margin: 0 },
        ],
        bot: { action: 'rob' },
        chosen: { action: 'join' },
      },
      {
        decision: 'exchange',
        samples: 40,
        options: [
          { action: { action: 'keep' }, value: -0.2, margin: 0.3 },
          { action: { action: 'exchange', cards: ['S8', 'H7'] }, value: 0.4, margin: 0.3 },
        ],
        bot: { action: 'exchange', cards: ['S8', 'H7'] },
        chosen: { action: 'exchange', cards: ['S8', 'H7'] },
      },
    ],
  },
};

/** A Wippen review: one move, a discard where the bot would have swept the table. */
const WIPPEN = {
  game: 'wippen',
  review: {
    seat: 0,
    moves: [
      {
        at: 4,
        samples: 0,
        options: [
          { action: { kind: 'capture', card: 'H10', groups: [{ card: 'S10' }] }, value: 2.5, margin: 0.5, taken: ['H10', 'S10'], worth: 1, sweep: true, left: [] },
          { action: { kind: 'discard', card: 'H10' }, value: -1, margin: 0.4, taken: [], worth: 0, sweep: false, left: ['S10', 'H10'] },
        ],
        bot: { kind: 'capture', card: 'H10', groups: [{ card: 'S10' }] },
        chosen: { kind: 'discard', card: 'H10' },
      },
    ],
  },
};
