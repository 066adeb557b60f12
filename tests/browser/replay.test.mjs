// Replays in the web client: a practice deal against three bots played through, then replayed
// from the result panel by keyboard — forward, back, to the ends and to a trick — on a phone and
// on a desktop; every hand open at every step as the server's replay holds it, the counter and
// the words of each step; the scoresheet's list of finished deals opens the same replay, with
// the player's bidding review of that deal beside it. With the server's answers held back (the
// replay with its analysis, the review beside it), the keyboard stays where the player put it
// when they come. Screenshots go to artifacts/.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { DESKTOP, PHONE, assertNoConsoleErrors, launch, openClient, playDeal, screenshot } from './lib.mjs';

let chrome;
before(async () => {
  chrome = await launch();
});
after(async () => {
  await chrome?.close();
});

/** What the replay dialog shows, and the step the client holds. */
async function shown(page) {
  return page.evaluate(() => {
    const S = /** @type {any} */ (window).fipsenDebug.S;
    const stage = document.querySelector('[data-testid="replay"]');
    const r = S.replay;
    return {
      step: Number(stage?.getAttribute('data-step') ?? -1),
      steps: r.status === 'ready' ? r.replay.steps.length : 0,
      counter: document.querySelector('[data-testid="replay-counter"]')?.textContent ?? '',
      what: document.querySelector('[data-testid="replay-what"]')?.textContent ?? '',
      hands: [...document.querySelectorAll('.replay-seat')].map((e) => [...e.querySelectorAll('.small-card[data-card]')].map((c) => c.getAttribute('data-card')).sort()),
      expected: r.status === 'ready' ? r.replay.steps[r.step].hands.map((h) => [...h].sort()) : [],
      focused: document.activeElement === stage,
      tricks: document.querySelectorAll('[data-key^="replay-trick-"]').length,
    };
  });
}

for (const [kind, device] of /** @type {const} */ ([
  ['phone', PHONE],
  ['desktop', DESKTOP],
])) {
  test(`a finished deal replayed by keyboard on a ${kind}`, async () => {
    const me = await openClient(chrome, `replay-${kind}`, device, 'en');
    await me.page.locator('#name').fill('Meike');
    await me.page.locator('[data-key="practice-more"]').click();
    await me.page.locator('[data-key="opt-practice_delay-0"]').check();
    await me.page.locator('[data-key="practice"]').click();
    await me.page.locator('.table-screen').waitFor();
    await playDeal([me]);
    await me.page.locator('[data-testid="result"]').waitFor();

    // From the result panel: the replay of the deal just ended, at the deal as dealt.
    await me.page.locator('[data-key="replay-open"]').click();
    await me.page.locator('[data-testid="replay"]').waitFor();
    let s = await shown(me.page);
    assert.equal(s.step, 0);
    assert.ok(s.steps > 10, `a whole deal: ${s.steps} steps`);
    assert.equal(s.counter, `Step 0 of ${s.steps - 1}`);
    assert.equal(s.hands.length, 4, 'every seat');
    assert.deepEqual(s.hands, s.expected, 'every hand open, as the server replays it');
    assert.ok(s.hands.every((h) => h.length === 5), 'five cards each as dealt');
    assert.match(s.what, /deal|dealt/i);
    // The step buttons are drawn, not letters of a symbol font a machine may lack (⏮ ⏭).
    const steps = await me.page.locator('.replay-controls button').evaluateAll((els) => els.map((e) => ({ text: e.textContent?.trim(), drawn: Boolean(e.querySelector('svg path')), label: e.getAttribute('aria-label') })));
    assert.equal(steps.length, 4);
    for (const b of steps) assert.deepEqual([b.text, b.drawn, Boolean(b.label)], ['', true, true], `the ${b.label} button`);
    await screenshot(me, `${kind}-replay-dealt`);

    // Forward with the arrow key, one step at a time, the hands following the server's steps: the
    // replay takes the keys as soon as it opens, with no click on it first.
    for (let i = 1; i <= 6; i++) {
      await me.page.keyboard.press('ArrowRight');
      await me.page.waitForFunction((n) => document.querySelector('[data-testid="replay"]')?.getAttribute('data-step') === String(n), i);
      s = await shown(me.page);
      assert.equal(s.step, i);
      assert.deepEqual(s.hands, s.expected, `step ${i}`);
      assert.ok(s.focused, 'the keyboard stays on the replay');
      assert.ok(s.what.length > 3, `step ${i} says what happened`);
      assert.doesNotMatch(s.what, /^([^:]+): \1\b/, `step ${i} names who acted once`);
    }
    await me.page.keyboard.press('ArrowLeft');
    await me.page.waitForFunction(() => document.querySelector('[data-testid="replay"]')?.getAttribute('data-step') === '5');
    // To the end: every card has been played.
    await me.page.keyboard.press('End');
    await me.page.waitForFunction((n) => document.querySelector('[data-testid="replay"]')?.getAttribute('data-step') === String(n), s.steps - 1);
    s = await shown(me.page);
    assert.deepEqual(s.hands, s.expected);
    assert.ok(s.tricks >= 2, 'a jump to each trick');
    // The last trick's cards lie in the middle, each named as a picture is (a name on an element
    // without a role is read by no screen reader).
    const middle = await me.page.locator('[data-testid="replay-trick"] [aria-label]').evaluateAll((els) => els.map((e) => [e.getAttribute('aria-label'), e.getAttribute('role')]));
    assert.ok(middle.length >= 3, `the last trick's cards: ${middle.length}`);
    for (const [name, role] of middle) assert.equal(role, 'img', `${name} has a role`);
    await screenshot(me, `${kind}-replay-end`);
    // To a trick, and back to the start.
    await me.page.locator('[data-key="replay-trick-1"]').click();
    s = await shown(me.page);
    assert.ok(s.step > 0 && s.step < s.steps - 1, 'the first trick lies within the deal');
    await me.page.keyboard.press('Home');
    await me.page.waitForFunction(() => document.querySelector('[data-testid="replay"]')?.getAttribute('data-step') === '0');

    // The scoresheet lists the finished deal and opens the same replay.
    await me.page.locator('[data-key="close-replay"]').click();
    await me.page.locator('[data-key="result-sheet"]').click();
    await me.page.locator('[data-key="replay-1"]').click();
    await me.page.locator('[data-testid="replay"]').waitFor();
    assert.equal((await shown(me.page)).step, 0);

    // Beside the replay, the bidding review of the same deal for the player's own seat.
    await me.page.locator('[data-key="replay-review"]').click();
    await me.page.locator('[data-testid="replay-review"] [data-testid="review"]').waitFor({ timeout: 30_000 });
    const review = await me.page.evaluate(() => {
      const S = /** @type {any} */ (window).fipsenDebug.S;
      return { deal: S.review.deal, seat: S.review.review?.seat, mine: S.you?.seat, dealt: S.review.review?.dealt ?? [], first: S.replay.replay.steps[0].hands[S.you?.seat] };
    });
    assert.equal(review.deal, 1);
    assert.equal(review.seat, review.mine, 'his own seat');
    assert.deepEqual([...review.dealt].sort(), [...review.first].sort(), 'the hand the replay deals him');
    assert.ok(await me.page.locator('[data-testid="replay"]').isVisible(), 'the replay stays on screen beside it');
    await screenshot(me, `${kind}-replay-with-review`);
    assertNoConsoleErrors([me]);
    await me.context.close();
  });
}

/**
 * Routes the page's WebSocket through the test, which holds back the server's messages of the
 * types in `held.types` until `release` is called: an answer that comes late, as on a busy server.
 * The page is loaded again so that its connection goes through the route.
 * @param {import('playwright-core').Page} page
 */
async function holdingAnswers(page) {
  /** @type {{types: Set<string>, queue: (() => void)[], arrived: (() => void)[]}} */
  const held = { types: new Set(), queue: [], arrived: [] };
  await page.routeWebSocket(/\/ws$/, (ws) => {
    const server = ws.connectToServer();
    ws.onMessage((m) => server.send(m));
    server.onMessage((m) => {
      let type = null;
      try {
        type = JSON.parse(String(m)).type;
      } catch {
        /* not JSON: passed on */
      }
      if (!held.types.has(type)) return ws.send(m);
      held.queue.push(() => ws.send(m));
      for (const wake of held.arrived.splice(0)) wake();
    });
  });
  await page.reload();
  return {
    /** Holds back the server's messages of `type` from now on. @param {string} type */
    hold: (type) => held.types.add(type),
    /** Until a message held back has come from the server. */
    async waitHeld() {
      if (!held.queue.length) await new Promise((r) => held.arrived.push(() => r(null)));
    },
    /** Passes every message held back to the page, and holds no more. */
    release() {
      held.types.clear();
      for (const send of held.queue.splice(0)) send();
    },
  };
}

test('the replay keeps the keyboard when its analysis and the review beside it come late', async () => {
  const me = await openClient(chrome, 'replay-late', DESKTOP, 'en');
  const answers = await holdingAnswers(me.page);
  await me.page.locator('#name').fill('Meike');
  await me.page.locator('[data-key="practice-more"]').click();
  await me.page.locator('[data-key="opt-practice_delay-0"]').check();
  await me.page.locator('[data-key="practice"]').click();
  await me.page.locator('.table-screen').waitFor();
  await playDeal([me]);
  await me.page.locator('[data-testid="result"]').waitFor();
  const focus = () =>
    me.page.evaluate(() => {
      const a = document.activeElement;
      if (!a || a === document.body) return 'the page';
      return a.getAttribute('data-testid') === 'replay' ? 'the replay' : (a.getAttribute('data-key') ?? `${a.tagName} ${a.className}`);
    });
  const stepTo = async (n) => {
    await me.page.keyboard.press('ArrowRight');
    await me.page.waitForFunction((i) => document.querySelector('[data-testid="replay"]')?.getAttribute('data-step') === String(i), n);
  };

  // The replay, with the analysis of the deal's play, is asked for and held back: the dialog
  // says so; when it comes, the replay takes the keyboard.
  answers.hold('replay');
  await me.page.locator('[data-key="replay-open"]').click();
  await answers.waitHeld();
  await me.page.locator('.dialog-replay [role="status"]').waitFor();
  assert.equal(await me.page.locator('[data-testid="replay"]').count(), 0, 'nothing to step through yet');
  answers.release();
  await me.page.waitForFunction(() => document.activeElement === document.querySelector('[data-testid="replay"]'));
  assert.ok(await me.page.locator('[data-testid="replay-analysis"]').isVisible(), 'the analysis came with it');
  await stepTo(1);
  assert.equal(await focus(), 'the replay');

  // The review beside it is asked for and comes late, while the player steps on in the replay.
  answers.hold('review');
  await me.page.locator('[data-key="replay-review"]').click();
  await answers.waitHeld();
  await me.page.locator('[data-testid="replay-what"]').click();
  assert.equal(await focus(), 'the replay', 'a click on the replay puts the keyboard there');
  await stepTo(2);
  answers.release();
  await me.page.locator('[data-testid="replay-review"] [data-testid="review"]').waitFor({ timeout: 30_000 });
  assert.equal(await focus(), 'the replay', 'the review that came late left the keyboard on the replay');
  await stepTo(3);
  assert.equal(await focus(), 'the replay');

  // Any other redraw of the page (an update of the room) likewise.
  await me.page.evaluate(async () => {
    /** @type {any} */ (window).fipsenDebug.render();
    // The page draws in a microtask: after this task it has drawn.
    await new Promise((r) => setTimeout(r, 0));
  });
  assert.equal(await me.page.locator('[data-testid="replay"]').getAttribute('data-step'), '3');
  assert.equal(await focus(), 'the replay', 'a redraw left the keyboard on the replay');
  assertNoConsoleErrors([me]);
  await me.context.close();
});
