// Accessibility of the web client, checked by a tool and by the keyboard: every screen — home,
// the room and its invitation, each game's table mid-deal, the result, the bidding review, the
// scoresheet, the replay, the series page and the tournament pages — audited with axe-core on a phone and on a
// desktop (no serious or critical violation), and walked through with Tab (every visible control
// reached); a deal played with the keyboard alone (a bid, the calls and the cards with Enter and
// Space); the turn, each card played, who took each trick and how the deal ended read out through
// the live region, in English and German.

import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { after, before, test } from 'node:test';
import { DESKTOP, PHONE, assertNoConsoleErrors, createRoom, launch, openClient, playDeal, playIfAsked, screenshot, settle, stepIfAsked } from './lib.mjs';

const AXE = createRequire(import.meta.url).resolve('axe-core');

let chrome;
before(async () => {
  chrome = await launch();
});
after(async () => {
  await chrome?.close();
});

// ---- the audit ----

/**
 * The one exception to axe-core's rules, and only for these elements: a card is a button named
 * by the card ("King of Clubs", "Ten of Hearts (10)"), while what shows of it as text are the
 * rank's index drawn in its corners (and a Wippen card's value), which axe-core reads run
 * together ("KKK", "101010") and so finds the visible label missing from the name
 * (`label-content-name-mismatch`, WCAG 2.5.3). Those indices are symbols of the picture, not a
 * label: the name says in words what they stand for, as WCAG's understanding of 2.5.3 advises
 * for symbolic text. Everywhere else the rule applies.
 */
const CARDS = ['.hand-card', '.wp-pile'];

/**
 * The serious and critical violations axe-core finds on the page as it is now, each with the
 * first nodes it names.
 * @param {import('playwright-core').Page} page
 */
async function axeViolations(page) {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE });
  return page.evaluate(async (cards) => {
    const axe = /** @type {any} */ (window).axe;
    const all = await axe.run(document, { resultTypes: ['violations'], rules: { 'label-content-name-mismatch': { enabled: false } } });
    const named = await axe.run({ exclude: cards.map((c) => [c]) }, { resultTypes: ['violations'], runOnly: ['label-content-name-mismatch'] });
    return [...all.violations, ...named.violations]
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({
        rule: v.id,
        impact: v.impact,
        help: v.help,
        nodes: v.nodes.slice(0, 4).map((n) => `${n.target.join(' ')}: ${n.failureSummary?.split('\n').slice(1).join(' ').trim()}`),
      }));
  }, CARDS);
}

/**
 * Walks the page with Tab from the top (or through the open dialog) until focus comes round
 * again, and returns the visible, enabled controls it never reached (with how many there are
 * and how many it reached). A radio group is reached
 * when one of its buttons is (the arrow keys move within it).
 * @param {import('playwright-core').Page} page
 */
async function unreachable(page) {
  const expected = await page.evaluate(() => {
    const w = /** @type {any} */ (window);
    w.a11ySig = (/** @type {HTMLElement} */ el) => {
      const input = /** @type {HTMLInputElement} */ (el);
      if (el.tagName === 'INPUT' && input.type === 'radio') return `radio:${input.name}`;
      const name = el.getAttribute('data-key') || el.id || el.getAttribute('aria-label') || (el.textContent ?? '').trim().slice(0, 40);
      return `${el.tagName.toLowerCase()}:${name}`;
    };
    const dialogs = [...document.querySelectorAll('dialog[open]')];
    const scope = dialogs.at(-1) ?? document.body;
    const controls = [...scope.querySelectorAll('a[href], button, input:not([type="hidden"]), select, textarea, summary, [tabindex]')].filter((el) => {
      const e = /** @type {HTMLElement} */ (el);
      if (e.matches(':disabled') || e.closest('[inert]') || e.tabIndex < 0) return false;
      // A summary is a control only as the first child of its details.
      if (e.tagName === 'SUMMARY' && e.parentElement?.firstElementChild !== e) return false;
      return e.checkVisibility({ visibilityProperty: true, contentVisibilityAuto: true }) && e.getClientRects().length > 0;
    });
    w.a11yVisited = new Set();
    /** @type {any} */ (document.activeElement)?.blur?.();
    return [...new Set(controls.map((el) => w.a11ySig(el)))];
  });
  const reached = new Set();
  let first = null;
  for (let i = 0; i < expected.length * 2 + 20; i++) {
    await page.keyboard.press('Tab');
    const at = await page.evaluate(() => {
      const w = /** @type {any} */ (window);
      const el = /** @type {any} */ (document.activeElement);
      if (!el || el === document.body) return { sig: null, again: false };
      const again = w.a11yVisited.has(el);
      w.a11yVisited.add(el);
      return { sig: w.a11ySig(el), again };
    });
    if (at.sig === null) continue;
    if (at.again && at.sig === first) break;
    first ??= at.sig;
    reached.add(at.sig);
  }
  return { missed: expected.filter((sig) => !reached.has(sig)), expected: expected.length, reached: reached.size };
}

/**
 * Audits the screen: axe-core's serious and critical violations, and the controls Tab does not
 * reach, recorded under the screen's name; a screenshot for review.
 * @param {any} client
 * @param {string} screen
 * @param {Record<string, any>} found
 */
async function audit(client, screen, found) {
  const { page } = client;
  await screenshot(client, `a11y-${screen}`);
  const violations = await axeViolations(page);
  if (violations.length) found[`${screen}: axe`] = violations;
  const walk = await unreachable(page);
  if (walk.missed.length) found[`${screen}: not reached by Tab`] = walk.missed;
  if (walk.reached === 0) found[`${screen}: Tab reaches nothing`] = walk;
  if (process.env.A11Y_DEBUG) console.log(screen, JSON.stringify(walk));
}

// ---- getting to the screens ----

/** What the page's deal asks of this viewer now. */
async function deal(page) {
  return page.evaluate(() => {
    const S = /** @type {any} */ (window).fipsenDebug.S;
    const d = S.game?.deal;
    const me = S.you?.seat ?? null;
    return {
      phase: d?.phase ?? null,
      myTurn: Boolean(d && me !== null && d.turn === me && Object.keys(d.prompt ?? {}).length > 0),
      trick: Array.isArray(d?.trick) ? d.trick.length + (d.tricks?.length ?? 0) : null,
      moves: Array.isArray(d?.prompt?.moves),
      calls: Array.isArray(d?.calls) ? d.calls.length : null,
      waiting: Boolean(S.waiting),
    };
  });
}

/** Clicks a call of the action panel (and confirms it where asked). */
async function clickCall(page, key) {
  await page.locator(`main .actions [data-key="${key}"]:not([disabled])`).first().click();
  const confirm = page.locator('[data-key="confirm-yes"]');
  if (await confirm.count()) await confirm.click();
  await settle(page);
}

/**
 * Opens a practice table of `game` against bots without a pause, and plays (a simple strategy:
 * the first to speak bids, everyone else passes, joins or keeps) until it is the player's turn in the middle
 * of the deal: a trick game in its play with a card on the table or a trick taken, Wippen at its
 * first move.
 */
async function practiceMidDeal(client, game, name) {
  const { page } = client;
  await page.goto(new URL('#/', page.url()).href);
  await page.locator('#name').fill(name);
  await page.locator(`[data-key="opt-practice_game-${game}"]`).check();
  await page.locator('[data-key="practice-more"]').click();
  await page.locator('[data-key="opt-practice_delay-0"]').check();
  await page.locator('[data-key="practice"]').click();
  await page.locator('.table-screen').waitFor();
  let thrownIn = 0;
  for (let step = 0; step < 400; step++) {
    const d = await deal(page);
    if (d.waiting) {
      await settle(page);
      continue;
    }
    if (d.myTurn && (d.moves || (d.phase === 'play' && d.trick > 0))) return;
    if (d.phase === 'over') {
      // Every seat passed, or a contract ended the deal before the player's card (the deal is
      // random): the next deal, at most a few times.
      thrownIn += 1;
      assert.ok(thrownIn <= 5, `${game}: ${thrownIn} deals in a row ended before the player played a card`);
      const number = await page.evaluate(() => /** @type {any} */ (window).fipsenDebug.S.game.number);
      await page.locator('[data-key="next-deal"]:not([disabled])').click();
      await page.waitForFunction((n) => /** @type {any} */ (window).fipsenDebug.S.game?.number === n + 1, number);
      await settle(page);
      continue;
    }
    if (!d.myTurn) {
      await page.waitForTimeout(60);
      continue;
    }
    const offered = async (sel) => (await page.locator(`main .actions ${sel}:not([disabled])`).count()) > 0;
    if (await offered('[data-key="confirm-yes"]')) {
      await page.locator('[data-key="confirm-yes"]').click();
      await settle(page);
      continue;
    }
    const prompt = await page.evaluate(() => /** @type {any} */ (window).fipsenDebug.S.game.deal.prompt);
    if (prompt.discard) {
      while ((await page.locator('.hand .hand-card.selected').count()) < prompt.discard) await page.locator('.hand .hand-card:not(.selected):not([disabled])').first().click();
      await clickCall(page, 'discard');
      continue;
    }
    // The first to speak bids the lowest bid (so that nobody throws the deal in); then the
    // simplest calls.
    const bids = await page.locator('main .actions .bid-button:not([disabled])').count();
    const calls = ['join', 'keep', 'pass', 'hold', 'take-skat', 'no-kontra', 'stop'];
    const call = await (async () => {
      if (bids && d.calls === 0) return '.bid-button';
      for (const key of calls) if (await offered(`[data-key="${key}"]`)) return `[data-key="${key}"]`;
      if (await offered('.suit-button')) return '.suit-button';
      return null;
    })();
    if (call) {
      await page.locator(`main .actions ${call}:not([disabled])`).first().click();
      if (await page.locator('[data-key="confirm-yes"]').count()) await page.locator('[data-key="confirm-yes"]').click();
      await settle(page);
      continue;
    }
    if (await playIfAsked(page)) {
      await settle(page);
      continue;
    }
    // Anything else the panel offers (a Duttfips contract): its first choice.
    const first = page.locator('main .actions button:not([disabled]):not(.info)').first();
    if (await first.count()) {
      await first.click();
      const confirm = page.locator('[data-key="confirm-yes"]');
      if (await confirm.count()) await confirm.click();
      await settle(page);
    } else await page.waitForTimeout(60);
  }
  throw new Error(`${game}: the middle of the deal was not reached`);
}

// The server's Content-Security-Policy allows no inline script: the audited pages let
// playwright add axe-core's script all the same (`bypassCSP`), nothing else changes.
const DEVICES = /** @type {const} */ ([
  ['phone', { ...PHONE, bypassCSP: true }],
  ['desktop', { ...DESKTOP, bypassCSP: true }],
]);

for (const [kind, device] of DEVICES) {
  test(`the audit on a ${kind}: home, a room and its invitation, the tournament pages`, async () => {
    const found = {};
    const host = await openClient(chrome, `a11y-host-${kind}`, device, 'en');
    await host.page.locator('[data-testid="lobby"], .panel.lobby').first().waitFor();
    await audit(host, `${kind}-home`, found);

    const { link } = await createRoom(host, 'Hanne', { title: 'Friday table' });
    await host.page.locator('.room').waitFor();
    await audit(host, `${kind}-room`, found);
    const guest = await openClient(chrome, `a11y-guest-${kind}`, device, 'de');
    await guest.page.goto(link);
    await guest.page.locator('[data-testid="invite-info"]').waitFor();
    await audit(guest, `${kind}-invitation`, found);

    // A tournament: its form, its page while entrants register, the seating once started with
    // bots, and its results page.
    const o = guest.page;
    await o.goto(new URL('#/', o.url()).href);
    await o.locator('[data-key="tn-new"]').click();
    await o.locator('#tn-name').waitFor();
    await audit(guest, `${kind}-tournament-form`, found);
    await o.locator('#name').fill('Olli');
    await o.locator('#tn-name').fill('Freitagsturnier');
    await o.locator('#tn-deals').fill('1');
    await o.locator('#tn-short-deals').fill('1');
    await o.locator('#tn-rounds').fill('1');
    await o.locator('[data-key="tn-tables-more"]').click();
    await o.locator('[data-key="tn-bot_delay-0"]').check();
    await o.locator('[data-key="tn-create"]').click();
    await o.locator('[data-key="tn-link"]').waitFor();
    const tlink = await o.locator('[data-key="tn-link"]').inputValue();
    await host.page.goto(tlink);
    await host.page.locator('[data-key="tn-register"]').waitFor();
    await audit(host, `${kind}-tournament-register`, found);
    await host.page.locator('#name').fill('Hanne');
    await host.page.locator('[data-key="tn-register"]').click();
    await o.locator('[data-testid="tn-entrants"] li', { hasText: 'Hanne' }).waitFor();
    await audit(guest, `${kind}-tournament-organiser`, found);
    await o.locator('[data-key="tn-start-bots"]').click();
    await host.page.locator('[data-key="tn-my-table"]').waitFor();
    await audit(host, `${kind}-tournament-seating`, found);
    await host.page.goto(`${tlink.replace(/\/$/, '')}/results`);
    await host.page.locator('[data-testid="tn-results-page"]').waitFor();
    await audit(host, `${kind}-tournament-results`, found);

    assert.deepEqual(found, {}, 'no serious or critical violation, every control reached by Tab');
    assertNoConsoleErrors([host, guest]);
    await host.context.close();
    await guest.context.close();
  });

  test(`the audit on a ${kind}: every game's table mid-deal, the result, the review, the scoresheet, the replay and the series page`, async () => {
    const found = {};
    const me = await openClient(chrome, `a11y-games-${kind}`, device, 'en');
    for (const game of ['grossenaspe', 'anseggerfips', 'duttfips', 'thedinghausen', 'tippen', 'wippen', 'prisdorf']) {
      await practiceMidDeal(me, game, 'Meike');
      await audit(me, `${kind}-${game}-table`, found);
      if (game === 'wippen') {
        // A hand card chosen: the moves it has.
        await me.page.locator('.hand .hand-card:not([disabled])').first().click();
        await me.page.locator('[data-testid="wp-choice"]').waitFor();
        await audit(me, `${kind}-wippen-choice`, found);
      }
    }
    // The Prisdorf deal played out: its result, the scoresheet, the replay, the series page.
    await playDeal([me]);
    await me.page.locator('[data-testid="result"]').waitFor();
    await audit(me, `${kind}-result`, found);
    await me.page.locator('[data-key="review-open"]').click();
    await me.page.locator('[data-testid="review-estimates"]').waitFor();
    await audit(me, `${kind}-review`, found);
    await me.page.keyboard.press('Escape');
    await me.page.locator('[data-key="result-sheet"]').click();
    await me.page.locator('[data-testid="scoresheet"]').waitFor();
    await audit(me, `${kind}-scoresheet`, found);
    await me.page.keyboard.press('Escape');
    await me.page.locator('[data-key="replay-open"]').click();
    await me.page.locator('[data-testid="replay"]').waitFor();
    await audit(me, `${kind}-replay`, found);
    await me.page.keyboard.press('Escape');
    await me.page.locator('[data-key="result-sheet"]').click();
    await me.page.locator('[data-key="series-page"]').click();
    await me.page.locator('[data-testid="series"]').waitFor();
    await audit(me, `${kind}-series`, found);

    assert.deepEqual(found, {}, 'no serious or critical violation, every control reached by Tab');
    assertNoConsoleErrors([me]);
    await me.context.close();
  });
}

// ---- the keyboard alone, and what a screen reader is told ----

const CARD_WORDS = {
  en: { sentence: (rank, suit) => `${rank} of ${suit}`, suit: { C: 'Clubs', S: 'Spades', H: 'Hearts', D: 'Diamonds' }, rank: { A: 'Ace', K: 'King', Q: 'Queen', J: 'Jack', 10: 'Ten', 9: 'Nine', 8: 'Eight', 7: 'Seven' } },
  de: { sentence: (rank, suit) => `${suit} ${rank}`, suit: { C: 'Kreuz', S: 'Pik', H: 'Herz', D: 'Karo' }, rank: { A: 'Ass', K: 'König', Q: 'Dame', J: 'Bube', 10: 'Zehn', 9: 'Neun', 8: 'Acht', 7: 'Sieben' } },
};

/** A line of the live region that tells of a card played. */
const CARD_LINE = {
  en: /^(You play|.+ plays) \S+ of (Clubs|Spades|Hearts|Diamonds)\.$/,
  de: /^(Sie spielen|.+ spielt) (Kreuz|Pik|Herz|Karo) \S+\.$/,
};

/** What the live region should say of a card played, in English or German. */
function playedLine(lang, name, card, mine) {
  const w = CARD_WORDS[lang];
  const spoken = w.sentence(w.rank[card.slice(1)], w.suit[card[0]]);
  if (lang === 'en') return mine ? `You play ${spoken}.` : `${name} plays ${spoken}.`;
  return mine ? `Sie spielen ${spoken}.` : `${name} spielt ${spoken}.`;
}

/** Records every line added to the live region, as it is added. */
async function listen(page) {
  await page.evaluate(() => {
    const w = /** @type {any} */ (window);
    const region = document.getElementById('announcer');
    if (!region) throw new Error('no live region');
    w.spoken = [];
    new MutationObserver((changes) => {
      for (const c of changes) for (const n of c.addedNodes) w.spoken.push(n.textContent);
    }).observe(region, { childList: true });
  });
}

/** The lines read out so far. @returns {Promise<string[]>} */
async function spoken(page) {
  return page.evaluate(() => [.../** @type {any} */ (window).spoken]);
}

/**
 * The cards played so far in the deal as the page holds it (the tricks taken and the trick on
 * the table, each card with its seat, in the order played), and the lines read out so far: both
 * read at the same moment.
 * @returns {Promise<{plays: {seat: number, card: string}[], lines: string[]}>}
 */
async function playsAndLines(page) {
  return page.evaluate(() => {
    const w = /** @type {any} */ (window);
    const d = w.fipsenDebug.S.game.deal;
    const plays = [...d.tricks.flatMap((t) => t.cards), ...d.trick].map((p) => ({ seat: p.seat, card: p.card }));
    return { plays, lines: [...w.spoken] };
  });
}

/** The cards played, in order, by the `card_played` events among the frames a page received. */
function cardsPlayed(frames) {
  const seen = new Set();
  const out = [];
  for (const text of frames) {
    const msg = JSON.parse(text);
    for (const ev of msg.type === 'update' ? (msg.events ?? []) : []) {
      if (ev.kind !== 'game' || ev.event?.event !== 'card_played' || seen.has(ev.seq)) continue;
      seen.add(ev.seq);
      out.push({ seat: ev.event.seat, card: ev.event.card });
    }
  }
  return out;
}

/** The live region's properties: where it is, and what it is. */
async function regionFacts(page) {
  return page.evaluate(() => {
    const r = document.getElementById('announcer');
    return { live: r?.getAttribute('aria-live'), role: r?.getAttribute('role'), outsideApp: Boolean(r && !document.getElementById('app')?.contains(r)), label: r?.getAttribute('aria-label') };
  });
}

/**
 * Moves focus with Tab until it is on an element matching `selector`, then presses `key` there.
 * Fails when Tab never gets there.
 */
async function pressOn(page, selector, key) {
  for (let i = 0; i < 150; i++) {
    if (await page.evaluate((sel) => Boolean(document.activeElement?.matches(sel)), selector)) {
      await page.keyboard.press(key);
      return;
    }
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab does not reach ${selector}`);
}

test('a deal played with the keyboard alone on a desktop; the turn and every card read out in English', async () => {
  const me = await openClient(chrome, 'a11y-keys', DESKTOP, 'en');
  const { page } = me;
  // The practice table set up from the keyboard too.
  await pressOn(page, '#name', 'End');
  await page.keyboard.type('Meike');
  await pressOn(page, '[data-key="practice-more"]', 'Enter');
  // Radio buttons: Tab comes to the chosen one, the arrow keys move within the group (and
  // choose); the first one is no pause.
  await pressOn(page, '[data-key^="opt-practice_delay-"]', 'ArrowLeft');
  // (Each press goes to the group again with Tab should the page have moved the focus.)
  for (let i = 0; i < 6 && !(await page.locator('[data-key="opt-practice_delay-0"]').isChecked()); i++) {
    await pressOn(page, '[data-key^="opt-practice_delay-"]', 'ArrowLeft');
  }
  assert.ok(await page.locator('[data-key="opt-practice_delay-0"]').isChecked(), 'no pause chosen from the keyboard');
  await listen(page);
  await pressOn(page, '[data-key="practice"]', 'Enter');
  await page.locator('.table-screen').waitFor();
  assert.deepEqual(await regionFacts(page), { live: 'polite', role: 'log', outsideApp: true, label: 'Play at the table' });

  const done = { bid: 0, cards: 0, calls: 0, chosen: 0, turns: 0 };
  for (let step = 0; step < 300; step++) {
    if ((await page.locator('[data-testid="result"]').count()) > 0) break;
    const d = await deal(page);
    if (d.waiting || !d.myTurn) {
      await page.waitForTimeout(60);
      continue;
    }
    // Each time it is the player's turn, the last thing read out says so.
    const lines = await spoken(page);
    assert.equal(lines.at(-1), 'Your turn.', `the turn is read out: ${lines.slice(-3).join(' | ')}`);
    done.turns += 1;
    const offered = async (sel) => (await page.locator(`main .actions ${sel}:not([disabled])`).count()) > 0;
    const confirm = async () => {
      await page.locator('[data-key="confirm-yes"]').waitFor();
      await pressOn(page, '[data-key="confirm-yes"]', 'Enter');
      await settle(page);
    };
    const prompt = await page.evaluate(() => /** @type {any} */ (window).fipsenDebug.S.game.deal.prompt);
    if (prompt.discard) {
      // Cards to lay away: chosen with Space, sent with Enter.
      for (let i = 0; i < prompt.discard; i++) await pressOn(page, '.hand .hand-card:not(.selected):not([disabled])', ' ');
      assert.equal(await page.locator('.hand .hand-card.selected').count(), prompt.discard);
      done.chosen += prompt.discard;
      await pressOn(page, 'main .actions [data-key="discard"]:not([disabled])', 'Enter');
      await confirm();
      continue;
    }
    if (done.bid === 0 && (await offered('.bid-button'))) {
      await pressOn(page, 'main .actions .bid-button:not([disabled])', 'Enter');
      await confirm();
      done.bid += 1;
      continue;
    }
    const call = ['[data-key="pass"]', '[data-key="hold"]', '[data-key="take-skat"]', '.suit-button', '[data-key="no-kontra"]', '[data-key="stop"]'];
    let called = false;
    for (const sel of call) {
      if (!(await offered(sel))) continue;
      await pressOn(page, `main .actions ${sel}:not([disabled])`, 'Enter');
      await confirm();
      done.calls += 1;
      called = true;
      break;
    }
    if (called) continue;
    if ((prompt.cards ?? []).length) {
      const before = (await page.locator('.hand .hand-card').count());
      await pressOn(page, '.hand .hand-card.playable:not([disabled])', ' ');
      await page.waitForFunction((n) => document.querySelectorAll('.hand .hand-card').length < n, before);
      await settle(page);
      done.cards += 1;
      continue;
    }
    throw new Error(`nothing to do with the keyboard: ${JSON.stringify(prompt)}`);
  }
  await page.locator('[data-testid="result"]').waitFor();
  if (process.env.A11Y_DEBUG) console.log(JSON.stringify(done));
  assert.equal(done.bid, 1, 'a bid made with the keyboard');
  assert.ok(done.turns >= done.cards + done.bid, 'each turn read out');
  assert.ok(done.cards >= 1, `cards played with the keyboard: ${JSON.stringify(done)}`);
  assert.ok(done.calls + done.chosen >= 1, `calls made with the keyboard: ${JSON.stringify(done)}`);

  // Every card played, read out in order as it came; the others' turns too.
  const s = await page.evaluate(() => {
    const S = /** @type {any} */ (window).fipsenDebug.S;
    return { me: S.you.seat, names: S.room.seats.map((x) => x?.name ?? '') };
  });
  await page.waitForTimeout(300);
  const plays = cardsPlayed(me.frames);
  // A deal can end after any trick once its result is certain: at least the cards played here.
  assert.ok(plays.length >= 4 && plays.filter((p) => p.seat === s.me).length >= done.cards, `the deal's cards: ${plays.length}`);
  const lines = await spoken(page);
  assert.deepEqual(
    lines.filter((l) => CARD_LINE.en.test(l)),
    plays.map((p) => playedLine('en', s.names[p.seat], p.card, p.seat === s.me)),
  );
  for (const [seat, name] of s.names.entries()) if (seat !== s.me) assert.ok(lines.includes(`${name}’s turn.`), `${name}'s turn read out`);
  // Who took each trick, in order, and how the deal ended (the result panel's sentence).
  const takers = [];
  const seen = new Set();
  for (const text of me.frames) {
    const msg = JSON.parse(text);
    for (const ev of msg.type === 'update' ? (msg.events ?? []) : []) {
      if (ev.kind === 'game' && ev.event?.event === 'trick_taken' && !seen.has(ev.seq)) {
        seen.add(ev.seq);
        takers.push(ev.event.seat);
      }
    }
  }
  assert.ok(takers.length >= 1, 'a trick was taken');
  assert.deepEqual(
    lines.filter((l) => l.endsWith(' takes the trick.')),
    takers.map((seat) => `${s.names[seat]} takes the trick.`),
  );
  const sentence = (await page.locator('[data-testid="result"] .result-sentence').textContent()) ?? '';
  assert.ok(sentence.length > 5 && lines.includes(sentence), `how the deal ended is read out: ${sentence} | ${lines.slice(-3).join(' | ')}`);
  assertNoConsoleErrors([me]);
  await me.context.close();
});

test('the keyboard stays on the hand from turn to turn: each card after the first is played with Space alone', async () => {
  const me = await openClient(chrome, 'a11y-hand', DESKTOP, 'en');
  const { page } = me;
  await page.locator('#name').fill('Meike');
  await page.locator('[data-key="practice-more"]').click();
  await page.locator('[data-key="opt-practice_delay-0"]').check();
  await page.locator('[data-key="practice"]').click();
  await page.locator('.table-screen').waitFor();
  let played = 0;
  for (let step = 0; step < 300; step++) {
    if ((await page.locator('[data-testid="result"]').count()) > 0) break;
    const d = await deal(page);
    if (d.waiting || !d.myTurn) {
      await page.waitForTimeout(60);
      continue;
    }
    const prompt = await page.evaluate(() => /** @type {any} */ (window).fipsenDebug.S.game.deal.prompt);
    if (!(prompt.cards ?? []).length) {
      // A call, made with the mouse: its button goes away, the keyboard stays at the table.
      if (!(await stepIfAsked(page))) throw new Error(`nothing to do: ${JSON.stringify(prompt)}`);
      await settle(page);
      continue;
    }
    const before = await page.locator('.hand .hand-card').count();
    if (played === 0) {
      // The first card: the keyboard comes to the hand with Tab.
      await pressOn(page, '.hand .hand-card.playable:not([disabled])', ' ');
    } else {
      const focus = await page.evaluate(() => {
        const a = document.activeElement;
        return { card: Boolean(a?.matches('.hand .hand-card.playable:not([disabled])')), at: a === document.body ? 'the top of the page' : `${a?.tagName} ${a?.className}` };
      });
      assert.ok(focus.card, `at the player's turn the keyboard is on a card he may play, not on ${focus.at}`);
      await page.keyboard.press(' ');
    }
    await page.waitForFunction((n) => document.querySelectorAll('.hand .hand-card').length < n, before);
    await settle(page);
    played += 1;
  }
  await page.locator('[data-testid="result"]').waitFor();
  assert.ok(played >= 2, `cards played: ${played}`);
  assertNoConsoleErrors([me]);
  await me.context.close();
});

test('the turn and every card read out in German on a phone, as play goes on', async () => {
  const me = await openClient(chrome, 'a11y-de', PHONE, 'de');
  await me.page.locator('#name').fill('Hanne');
  await me.page.locator('[data-key="practice-more"]').click();
  await me.page.locator('[data-key="opt-practice_delay-0"]').check();
  await listen(me.page);
  await me.page.locator('[data-key="practice"]').click();
  await me.page.locator('.table-screen').waitFor();
  assert.equal((await regionFacts(me.page)).label, 'Das Spiel am Tisch');
  const s = await me.page.evaluate(() => {
    const S = /** @type {any} */ (window).fipsenDebug.S;
    return { me: S.you.seat, names: S.room.seats.map((x) => x?.name ?? '') };
  });
  // After each of the player's moves, what the region said so far matches the cards played so far.
  let checks = 0;
  await playDeal([me], async () => {
    const now = await playsAndLines(me.page);
    assert.deepEqual(
      now.lines.filter((l) => CARD_LINE.de.test(l)),
      now.plays.map((p) => playedLine('de', s.names[p.seat], p.card, p.seat === s.me)),
    );
    checks += 1;
  });
  await me.page.locator('[data-testid="result"]').waitFor();
  // Every card of the deal, as the server's events tell them.
  await me.page.waitForTimeout(300);
  const plays = cardsPlayed(me.frames);
  const lines = await spoken(me.page);
  assert.deepEqual(
    lines.filter((l) => CARD_LINE.de.test(l)),
    plays.map((p) => playedLine('de', s.names[p.seat], p.card, p.seat === s.me)),
  );
  assert.ok(checks > 3);
  assert.ok(lines.includes('Sie sind dran.'), 'the player’s turn');
  for (const [seat, name] of s.names.entries()) if (seat !== s.me) assert.ok(lines.includes(`${name} ist dran.`), `${name}s Zug`);
  assertNoConsoleErrors([me]);
  await me.context.close();
});

test('the screen reader’s words exist in every language', async () => {
  const { strings } = await import('../../client-web/js/announce-strings.js');
  const keys = ['de', 'en', 'ja'].map((l) => Object.keys(strings[l] ?? {}).sort());
  assert.ok(keys[1].length >= 5);
  assert.deepEqual(keys[0], keys[1]);
  assert.deepEqual(keys[2], keys[1]);
  for (const l of ['de', 'en', 'ja']) for (const text of Object.values(strings[l])) assert.ok(text.trim().length > 0);
});
