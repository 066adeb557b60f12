// Thedinghausen Fipsen in the web client: the create form's options (fipsen, heading the trick,
// the series in rounds) on the room and the invitation; one deal against four bots clicked through
// on a phone and on a desktop — the turned-up card, the pot and every seat's round count shown,
// only the cards the prompt offers playable, fipsen or pass as the prompt offers them, the result
// and the scoresheet; the seats of five (and, drawn from the same state with more seats, of six to
// ten) neither overlap nor make the page scroll sideways; the game's words in German and Japanese.
// Screenshots go to artifacts/.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { DESKTOP, PHONE, assertNoConsoleErrors, checkFramesOfSeat, launch, openClient, screenshot, screenshotFull, settle } from './lib.mjs';

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
 * What overlaps on the page: each pair of seat plates on the table, a plate and the trick (or
 * what lies below it), and whether the page is wider than the screen.
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
    for (const e of document.querySelectorAll('.felt, .hand, .info-bar, .seat')) {
      if (box(e).right > width + 1) problems.push(`${e.className} reaches past the screen's right edge`);
    }
    return { problems, seats: seats.length };
  });
}

/** The table as the page shows it and as its state holds it. */
async function tableFacts(page) {
  return page.evaluate(() => {
    const S = /** @type {any} */ (window).fipsenDebug.S;
    const deal = S.game.deal;
    const text = (sel) => document.querySelector(sel)?.textContent ?? null;
    return {
      deal,
      trumpCard: document.querySelector('[data-testid="trump-card"]')?.getAttribute('data-card'),
      trumpVisible: Boolean(document.querySelector('[data-testid="trump-card"] .card-svg')),
      pot: text('[data-testid="pot"] .th-pot-value'),
      trumps: text('[data-testid="trumps"]'),
      round: text('[data-testid="th-round"]'),
      counts: [...document.querySelectorAll('.felt .seat, .hand .me-bar')].map((e) => {
        const seat = e.closest('.seat')?.getAttribute('data-seat') ?? String(S.you.seat);
        return [Number(seat), e.querySelector('[data-testid="round-count"]')?.textContent ?? null];
      }),
      balances: [...document.querySelectorAll('.felt .seat [data-testid="balance"]')].length,
      balanceTexts: [...document.querySelectorAll('.felt .seat [data-testid="balance"]')].map((e) => e.textContent),
    };
  });
}

/** The cards and calls the page offers, against the prompt the server sent. */
async function offered(page) {
  return page.evaluate(() => {
    const S = /** @type {any} */ (window).fipsenDebug.S;
    return {
      prompt: S.game.deal.prompt,
      turn: S.game.deal.turn,
      me: S.you.seat,
      myTurn: Boolean(document.querySelector('.table-screen.my-turn')),
      cards: [...document.querySelectorAll('.hand .hand-card:not([disabled])')].map((e) => e.getAttribute('data-card')),
      calls: [...document.querySelectorAll('main .actions [data-action]')].map((e) => JSON.parse(e.getAttribute('data-action') ?? '{}')),
      confirm: Boolean(document.querySelector('[data-key="confirm-yes"]')),
      over: Boolean(document.querySelector('[data-testid="result"]')),
      waiting: S.waiting,
    };
  });
}

/**
 * A practice table of Thedinghausen against four bots, one deal played through the page: fipsen
 * or pass and the cards exactly as the prompt offers. Returns the client.
 * @param {'phone'|'desktop'} kind
 */
async function practiceDeal(kind) {
  const me = await openClient(chrome, `th-${kind}`, kind === 'phone' ? PHONE : DESKTOP, 'en');
  await me.page.locator('#name').fill(kind === 'phone' ? 'Hinnerk' : 'Antje');
  await me.page.locator('[data-key="opt-practice_game-thedinghausen"]').check();
  // Five at the table, always: the only choice offered.
  assert.deepEqual(
    await me.page.locator('[data-key^="opt-practice_players-"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-key'))),
    ['opt-practice_players-5'],
  );
  await me.page.locator('[data-key="practice-more"]').click();
  await me.page.locator('[data-key="opt-practice_delay-400"]').check();
  await me.page.locator('[data-key="practice"]').click();
  await me.page.locator('.table-screen.game-thedinghausen.players-5').waitFor();
  await me.page.locator('.felt.ring').waitFor();
  const rules = await state(me.page, 'S.room.rules');
  assert.equal(rules.game, 'thedinghausen');
  assert.equal(await me.page.locator('.felt .seat .bot-tag').count(), 4, 'four bots at the table');

  // At a glance: the turned-up card and the trumps, the pot, the round, every seat's count.
  const facts = await tableFacts(me.page);
  assert.equal(facts.trumpCard, facts.deal.trump_card, 'the turned-up card is shown');
  assert.ok(facts.trumpVisible, 'as a card face');
  assert.equal(facts.pot, String(facts.deal.pot), 'the pot is shown');
  assert.equal(facts.deal.pot, 5, 'everyone paid 1 into the first round’s pot');
  assert.match(facts.trumps ?? '', /Trumps:/);
  assert.match(facts.round ?? '', /Round 1/);
  assert.equal(facts.counts.length, 5, 'a round count at every seat, the viewer’s own included');
  // Each chip says what its number is: the tricks of the round, the balance.
  for (const [seat, text] of facts.counts) assert.equal(text, `Tricks ${facts.deal.counts[seat]}/10`, `seat ${seat}'s count`);
  for (const text of facts.balanceTexts) assert.match(text ?? '', /^Bal\. (0|[+−]\d+)$/, 'the balance named');
  assert.equal(facts.balances, 4, 'a balance on every other seat');
  const layout = await layoutProblems(me.page);
  assert.deepEqual(layout.problems, [], `${kind}: the table of five`);
  assert.equal(layout.seats, 4);
  await screenshot(me, `${kind}-thedinghausen-dealt`);

  let announcements = 0;
  let cards = 0;
  let shot = false;
  for (let step = 0; step < 600; step++) {
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
    if (!o.myTurn) {
      if (!shot && (await me.page.locator('.centre .played').count()) >= 3) {
        const trick = await layoutProblems(me.page);
        assert.deepEqual(trick.problems, [], `${kind}: the table during a trick`);
        await screenshot(me, `${kind}-thedinghausen-trick`);
        shot = true;
      }
      await me.page.waitForTimeout(100);
      continue;
    }
    if (o.prompt.fipsen || o.prompt.pass) {
      // Fipsen and pass exactly as the prompt offers; no card may be played now.
      const expected = [o.prompt.fipsen ? 'fipsen' : null, o.prompt.pass ? 'pass' : null].filter(Boolean).sort();
      assert.deepEqual(o.calls.map((a) => a.action).sort(), expected, 'the panel offers the prompt');
      assert.deepEqual(o.cards, [], 'no card to play while announcing');
      if (announcements === 0) await screenshot(me, `${kind}-thedinghausen-announce`);
      await me.page.locator('main .actions [data-key="pass"]').click();
      await me.page.locator('[data-key="confirm-yes"]').click();
      await settle(me.page);
      announcements += 1;
      continue;
    }
    if (o.prompt.cards?.length) {
      // Exactly the cards the prompt lists can be tapped.
      assert.deepEqual([...o.cards].sort(), [...o.prompt.cards].sort(), 'the playable cards are the prompt’s');
      const card = o.prompt.cards[0];
      const button = me.page.locator(`.hand .hand-card[data-card="${card}"]`);
      await button.click();
      await button.waitFor({ state: 'detached' }).catch(() => {});
      await settle(me.page);
      cards += 1;
      continue;
    }
    await me.page.waitForTimeout(100);
  }
  await me.page.locator('[data-testid="result"]').waitFor();
  assert.ok(cards >= 1, 'cards were played from the page');

  // The result: a sentence, each balance, the hands and the six unused cards.
  const result = await me.page.evaluate(() => {
    const S = /** @type {any} */ (window).fipsenDebug.S;
    return {
      sentence: document.querySelector('.result-sentence')?.textContent ?? '',
      outcome: S.game.deal.outcome,
      names: S.room.seats.map((s) => s.name),
      zones: [...document.querySelectorAll('.reveal h3')].map((e) => e.textContent),
    };
  });
  assert.ok(result.sentence.length > 10, 'the deal’s result in a sentence');
  if (result.outcome.winner !== null && result.outcome.winner !== undefined) {
    assert.match(result.sentence, /wins the round/);
  } else {
    assert.match(result.sentence, /Nobody has ten tricks yet/);
  }
  assert.ok(
    result.names.some((n) => result.sentence.includes(n)),
    'the result names a player',
  );
  assert.ok(result.zones.some((z) => /Set aside/.test(z ?? '')), 'the six unused cards are shown after the deal');
  await screenshot(me, `${kind}-thedinghausen-result`);
  // The last trick, each card toward its player as on the table.
  await me.page.locator('[data-key="last-trick"]').click();
  await me.page.locator('.last-trick .played').first().waitFor();
  assert.ok((await me.page.locator('.last-trick .played.place-ring').count()) >= 1);
  await screenshot(me, `${kind}-thedinghausen-last-trick`);
  await me.page.keyboard.press('Escape');
  await me.page.locator('.last-trick').waitFor({ state: 'detached' });
  await screenshotFull(me, `${kind}-thedinghausen-result-full`);

  // The scoresheet: the deal's row with every player's tricks and count, the balances.
  await me.page.locator('[data-key="result-sheet"]').click();
  await me.page.locator('.th-sheet tr[data-deal="1"]').waitFor();
  const row = await me.page
    .locator('.th-sheet tr[data-deal="1"] td.th-race')
    .evaluateAll((els) => els.map((e) => `${e.firstChild?.textContent}${e.querySelector('.hint')?.textContent}`));
  const outcome = result.outcome;
  assert.deepEqual(
    row.map((cell) => cell.replace(/\s/g, '')),
    outcome.tricks.map((n, i) => `${n}/${outcome.counts[i]}`),
    'tricks in the deal / the round count, per player',
  );
  assert.equal(await me.page.locator('.th-sheet [data-testid="sheet-balance"]').count(), 5);
  if (outcome.winner !== null && outcome.winner !== undefined) await me.page.locator('.th-sheet tr.th-round-row').waitFor();
  await screenshot(me, `${kind}-thedinghausen-scoresheet`);
  await me.page.keyboard.press('Escape');
  checkFramesOfSeat(me.frames, await state(me.page, 'S.you.seat'));
  return me;
}

test('Thedinghausen: one deal against four bots on a phone', async () => {
  const me = await practiceDeal('phone');
  assertNoConsoleErrors([me]);
  await me.context.close();
});

test('Thedinghausen: one deal against four bots on a desktop, and the table drawn with six to ten seats', async () => {
  const me = await practiceDeal('desktop');
  // The same table drawn with more seats (the state the page holds, widened): the seats sit in
  // a ring by their number alone, on a desktop and on a phone, every card of a full trick shown.
  for (const device of [DESKTOP, PHONE]) {
    await me.page.setViewportSize(device.viewport);
    for (const n of [6, 7, 8, 9, 10]) {
      await me.page.evaluate((count) => {
        const debug = /** @type {any} */ (window).fipsenDebug;
        const S = debug.S;
        if (!debug.saved) debug.saved = { game: structuredClone(S.game), room: structuredClone(S.room) };
        const { game, room } = structuredClone(debug.saved);
        const grow = (list, fill) => Array.from({ length: count }, (_, i) => list?.[i] ?? fill(i));
        const names = ['Antje', 'Hinnerk', 'Meike', 'Carl', 'Wiebke', 'Fiete', 'Gesche', 'Hauke', 'Imke', 'Jasper'];
        room.seats = grow(room.seats, (i) => ({ ...room.seats[1], seat: i, name: `${names[i]} Brodersen-Hinrichsen` }));
        const deal = game.deal;
        deal.hand_sizes = grow(deal.hand_sizes, () => 5);
        deal.counts = grow(deal.counts, (i) => i % 10);
        deal.tricks_taken = grow(deal.tricks_taken, (i) => i % 3);
        game.totals = grow(game.totals, (i) => i - 4);
        game.slips = grow(game.slips, (i) => i % 2);
        const pack = ['C', 'S', 'H', 'D'].flatMap((s) => ['A', 'K', 'Q', 'J', '10', '9', '8', '7'].map((r) => s + r));
        deal.phase = 'play';
        deal.trick = Array.from({ length: count }, (_, i) => ({ seat: i, card: pack[i * 3] }));
        deal.winning = 1;
        deal.turn = null;
        S.game = game;
        S.room = room;
        debug.render();
      }, n);
      await me.page.locator(`.felt.ring[data-seats="${n}"]`).waitFor();
      const layout = await layoutProblems(me.page);
      assert.deepEqual(layout.problems, [], `${n} seats at ${device.viewport.width}×${device.viewport.height}`);
      assert.equal(layout.seats, n - 1);
      assert.equal(await me.page.locator('.centre .played').count(), n, 'a card from every seat in the trick');
      if (n === 7 || n === 10) await screenshot(me, `${device === PHONE ? 'phone' : 'desktop'}-ring-${n}-seats`);
    }
  }
  assertNoConsoleErrors([me]);
  await me.context.close();
});

test('Thedinghausen on the create form, the room, the invitation and in German and Japanese', async () => {
  const host = await openClient(chrome, 'th-host', DESKTOP, 'en');
  await host.page.locator('#name').fill('Antje');
  await host.page.locator('[data-key="opt-game-thedinghausen"]').check();
  // Fipsen on by default, in view; heading the trick and the rounds under the table's rules.
  assert.ok(await host.page.locator('[data-key="opt-fipsen"]').isChecked());
  await host.page.locator('.more-rules > summary').click();
  assert.ok(!(await host.page.locator('[data-key="opt-head_the_trick"]').isChecked()));
  await host.page.locator('[data-key="opt-head_the_trick"]').check();
  await host.page.locator('label[for="opt-deals"]', { hasText: 'Number of rounds' }).waitFor();
  await host.page.locator('[data-key="opt-deals"]').fill('3');
  await screenshotFull(host, 'desktop-thedinghausen-create');
  await host.page.locator('[data-key="create"]').click();
  await host.page.locator('.invite input').waitFor();
  const rules = await state(host.page, 'S.room.rules');
  assert.deepEqual({ game: rules.game, fipsen: rules.fipsen, head: rules.head_the_trick, rounds: rules.rounds }, { game: 'thedinghausen', fipsen: true, head: true, rounds: 3 });
  await host.page.locator('.rules-summary .rule', { hasText: 'Thedinghausen Fipsen' }).waitFor();
  await host.page.locator('.rules-summary .rule', { hasText: 'Number of rounds' }).locator('dd', { hasText: '3' }).waitFor();
  await host.page.locator('.rules-summary .rule', { hasText: 'Head the trick' }).locator('dd', { hasText: 'yes' }).waitFor();
  const link = await host.page.locator('.invite input').inputValue();

  // The invitation, on a phone in German: the game, five players, three rounds.
  const guest = await openClient(chrome, 'th-guest', PHONE, 'de');
  await guest.page.goto(link);
  await guest.page.locator('[data-testid="invite-game"]', { hasText: 'Thedinghausener Fipsen' }).waitFor();
  const invite = (await guest.page.locator('[data-testid="invite-game"]').textContent()) ?? '';
  assert.match(invite, /5 Spieler/);
  assert.match(invite, /3 Runden/);
  assert.match(invite, /Stich überbieten/);
  await guest.page.locator('.howto-game[data-game="thedinghausen"]').waitFor({ state: 'attached' });
  await screenshot(guest, 'phone-thedinghausen-invite-de');
  // Seated, the room lists five seats without making the phone's page scroll sideways.
  await guest.page.locator('#name').fill('Hinnerk');
  await guest.page.locator('[data-key="invite-sit"]').click();
  await guest.page.locator('.room').waitFor();
  assert.equal(await guest.page.locator('.seat-list .seat-row').count(), 5);
  assert.ok(
    await guest.page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth + 1),
    'the room does not scroll sideways',
  );
  await screenshotFull(guest, 'phone-thedinghausen-room-de');

  // The language switch: the home page's rules in brief, the create form in Japanese.
  await host.page.goto(host.page.url().split('#')[0]);
  await host.page.locator('select[data-key="lang"]').selectOption('ja');
  await host.page.locator('[data-key="opt-game-thedinghausen"]').check();
  await host.page.locator('.option', { hasText: 'フィプセン' }).first().waitFor();
  await host.page.locator('.howto > summary').click();
  await host.page.locator('.howto-game[data-game="thedinghausen"] h3', { hasText: 'テディングハウゼン・フィプセン' }).waitFor();
  await host.page.locator('select[data-key="lang"]').selectOption('de');
  await host.page.locator('.howto-game[data-game="thedinghausen"] h3', { hasText: 'Thedinghausener Fipsen' }).waitFor();
  await host.page.locator('label[for="opt-deals"]', { hasText: 'Anzahl der Runden' }).waitFor({ state: 'attached' });
  await screenshotFull(host, 'desktop-thedinghausen-home-de');
  assertNoConsoleErrors([host, guest]);
});
