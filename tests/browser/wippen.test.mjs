// Wippen in the web client: a practice game of two against a bot clicked through on a phone —
// the table's piles in the middle (buildings with their value and owner), a hand card chosen,
// and at once the moves it offers written out with their arithmetic ("10 = (♠3 × ♦2) + ♣4"),
// one tap each (a capture in two taps: the card, the move); or table piles chosen and the moves
// the server finds for exactly that choice, confirmed; an arithmetic capture and a build among
// them, discards in one tap; a seat's captured cards named as taken, not as cards held; the
// result and the scoresheet. Screenshots go to artifacts/.
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
      suggestions: [...document.querySelectorAll('[data-testid="wp-suggestion"]')].map((e) => ({ text: e.textContent, move: JSON.parse(e.getAttribute('data-action') ?? '{}') })),
      captured: [...document.querySelectorAll('[data-testid="captured"]')].map((e) => e.textContent),
      moves: [...document.querySelectorAll('[data-testid="wp-move"]')].map((e) => ({ text: e.textContent, move: JSON.parse(e.getAttribute('data-action') ?? '{}') })),
      width: document.documentElement.scrollWidth - document.documentElement.clientWidth,
    };
  });
}

/** Whether an expression tree holds an operator. */
function arithmetic(e) {
  return Boolean(e?.op);
}

/** The table piles of a capture, as the page names them ("S3", "#1"). */
function pilesOf(move) {
  const out = [];
  const walk = (e) => {
    if (e?.op) {
      walk(e.l);
      walk(e.r);
    } else if (e?.building !== undefined) out.push(`#${e.building}`);
    else if (e?.card) out.push(e.card);
  };
  for (const g of move.groups ?? []) walk(g);
  return out;
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

  const done = { arithmetic: 0, build: 0, discard: 0, capture: 0, twoTaps: 0, chips: false };
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
    if (done.capture > 0 && !done.chips) {
      // A seat's chip counts the cards it took, beside the card backs of its hand.
      assert.ok(f.captured.length >= 2, 'a chip per seat');
      for (const text of f.captured) assert.match(text, /^took \d+ · \d+♠$/, `the chip says the cards were taken: ${text}`);
      done.chips = true;
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
    // The card's moves are offered at once, each written out with its arithmetic.
    for (const s of f.suggestions) assert.ok(s.text.includes('='), `an offered move shows its arithmetic: ${s.text}`);
    const pickBuild = done.build === 0 && entry === builds;
    const offered =
      f.suggestions.find((s) => (pickBuild ? s.move.kind === 'build' : s.move.kind === 'capture' && (done.arithmetic > 0 || (s.move.groups ?? []).some(arithmetic)))) ??
      f.suggestions.find((s) => s.move.kind === 'capture');
    if (!offered) {
      // Laid down in one tap.
      assert.ok(entry.discard, `${entry.card} can neither capture nor build, so it may be laid down`);
      if (done.discard === 0) await screenshot(me, 'phone-wippen-discard');
      await me.page.locator('[data-testid="wp-discard"]').click();
      await settle(me.page);
      done.discard += 1;
      continue;
    }
    let wanted;
    if (offered.move.kind === 'capture' && done.capture % 2 === 1) {
      // Every other capture by choosing its table piles: the server's moves for exactly that
      // choice, confirmed.
      for (const key of pilesOf(offered.move)) await me.page.locator(`.wp-pile[data-pile="${key}"]`).click();
      await me.page.locator('[data-testid="wp-move"]').first().waitFor();
      f = await facts(me.page);
      wanted = f.moves.find((m) => m.move.kind === 'capture') ?? f.moves[0];
      assert.ok(wanted.text.includes('='), `the move is written with its arithmetic: ${wanted.text}`);
      if (done.arithmetic === 0 && (wanted.move.groups ?? []).some(arithmetic)) {
        await screenshot(me, 'phone-wippen-capture-chosen');
        shots += 1;
      }
      await me.page.locator('[data-testid="wp-move"]', { hasText: wanted.text }).first().click();
      assert.match((await me.page.locator('[data-testid="wp-confirm-text"]').textContent()) ?? '', /=/);
      await me.page.locator('[data-key="confirm"]').click();
    } else {
      // The second tap makes the move.
      wanted = offered;
      const shows = wanted.move.kind === 'capture' && (wanted.move.groups ?? []).some(arithmetic);
      if ((shows && done.arithmetic === 0) || (wanted.move.kind === 'build' && done.build === 0)) {
        await screenshot(me, `phone-wippen-${wanted.move.kind}-offered`);
        shots += 1;
      }
      await me.page.locator('[data-testid="wp-suggestion"]', { hasText: wanted.text }).first().click();
      if (wanted.move.kind === 'capture') done.twoTaps += 1;
    }
    await settle(me.page);
    const isArithmetic = wanted.move.kind === 'capture' && (wanted.move.groups ?? []).some(arithmetic);
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
  assert.ok(done.twoTaps >= 1, `a capture was made in two taps: ${JSON.stringify(done)}`);
  assert.ok(done.capture >= 2, `a capture was made by choosing table piles: ${JSON.stringify(done)}`);
  assert.ok(done.chips, 'the seats\' chips were read');
  assert.ok(shots >= 2);
  await screenshot(me, 'phone-wippen-result');
  await me.page.locator('[data-key="result-sheet"]').click();
  await me.page.locator('[data-testid="scoresheet"]').waitFor();
  await screenshot(me, 'phone-wippen-sheet');
  assertNoConsoleErrors([me]);
  await me.context.close();
});
