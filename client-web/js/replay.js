// The replay of a finished deal: asked for from the result panel or the scoresheet, shown in a
// dialog step by step — the deal as dealt, then every action with what it caused — with every
// hand open (the deal is over). Back and forth with the buttons, the arrow keys (Home / End for
// the ends) or a swipe; a jump to each trick. Everything shown comes from the server's `replay`
// answer; the game's module words the events and draws its chips and the middle of the table.

import { cardFace, cardName, cardShort, sortHand } from './cards.js';
import { h, stepIcon } from './dom.js';
import { t } from './i18n.js';
import { gameOf } from './games/index.js';
import { S, api, seatName, mySeat } from './store.js';
import { dialog } from './header.js';
import { askReview, reviewBody } from './review.js';
import { analysisPanel, costMark, costlyCards } from './analysis.js';
import { applyPatches } from './patch.js';

/**
 * What the replay dialog shows: asked for (`loading`), refused (`failed`), or the server's
 * answer and the step on screen.
 * @typedef {{status: 'idle'} | {status: 'loading', deal: number} | {status: 'failed', deal: number, code: string}
 *   | {status: 'ready', deal: number, replay: ShownReplay, step: number, room?: string|null}} ReplayState
 */

/**
 * A step of a replay, whole: what was done and caused, the deal after it and every hand.
 * @typedef {{seat?: number|null, action?: any, events: import('./protocol.js').GameEvent[], deal: Record<string, any>, hands: string[][]}} ShownStep
 */

/**
 * A replay as the dialog shows it: the server's, with every step whole.
 * @typedef {Omit<import('./protocol.js').DealReplay, 'steps'> & {steps: ShownStep[]}} ShownReplay
 */

/**
 * Every step of the server's replay whole: the first carries the deal and the hands, each later
 * one the patches from the step before (format 2). Each step's patches copy only the parts they
 * change, so the steps share the rest and cost what the server's answer did.
 * @param {import('./protocol.js').DealReplay} replay
 * @returns {ShownReplay}
 */
export function wholeSteps(replay) {
  /** @type {any} */
  let shown = null;
  const steps = replay.steps.map((step) => {
    const { patches, deal, hands, ...rest } = step;
    if (deal !== undefined && deal !== null && hands !== undefined && hands !== null) shown = { deal, hands };
    else shown = applyPatches(shown, patches ?? []);
    return { ...rest, deal: shown.deal, hands: shown.hands };
  });
  return { ...replay, steps };
}

/** Whether this viewer may replay the room's finished deals: a seated player, or anyone where the room makes them public. */
export function mayReplay() {
  return mySeat() !== null || Boolean(S.room?.options?.public_replays);
}

/**
 * Asks the server for deal `deal` and opens the dialog: of the room's series, or (on a series
 * page) of the series that `from` opens.
 * @param {number} deal
 * @param {{room: string, key: string}} [from]
 */
export function openReplay(deal, from) {
  const r = S.replay;
  if (r.status === 'ready' && r.deal === deal && (r.room ?? null) === (from?.room ?? null)) {
    S.ui.dialog = 'replay';
    api.render();
    focusStage();
    return;
  }
  const ask = from ? { type: 'series_replay', room: from.room, key: from.key, deal } : { type: 'replay', deal };
  if (api.send(/** @type {any} */ (ask))) {
    S.ui.replayReview = false;
    S.replay = { status: 'loading', deal };
    S.ui.dialog = 'replay';
    api.render();
  }
}

/** The server's answer. @param {import('./protocol.js').DealReplay} answer */
export function replayArrived(answer) {
  if (S.replay.status !== 'loading' || S.replay.deal !== answer.deal) return;
  let replay;
  try {
    replay = wholeSteps(answer);
  } catch {
    // Steps whose patches do not fit (a server of another format): said, never half shown.
    S.replay = { status: 'failed', deal: answer.deal, code: 'proto/malformed' };
    api.render();
    return;
  }
  S.replay = { status: 'ready', deal: replay.deal, replay, step: 0, room: S.route.name === 'series' ? S.route.code : null };
  api.render();
  focusStage();
}

/** The keyboard on the replay, so that its keys work at once. */
function focusStage() {
  requestAnimationFrame(() => /** @type {HTMLElement|null} */ (document.querySelector('.replay-stage'))?.focus({ preventScroll: true }));
}

/** The replay's keys: ← → one step, Home and End to the ends. @param {KeyboardEvent} e */
function onReplayKey(e) {
  const r = S.replay;
  if (r.status !== 'ready' || e.altKey || e.ctrlKey || e.metaKey) return;
  const moves = { ArrowRight: r.step + 1, ArrowLeft: r.step - 1, Home: 0, End: r.replay.steps.length - 1 };
  if (e.key in moves) {
    e.preventDefault();
    go(moves[e.key]);
  }
}

// While the replay is open its keys work wherever the keyboard is (but in a text field), also
// before anything in it was clicked or after a button in it was redrawn.
window.addEventListener('keydown', (e) => {
  if (e.defaultPrevented || S.ui.dialog !== 'replay') return;
  const target = /** @type {HTMLElement|null} */ (e.target instanceof HTMLElement ? e.target : null);
  if (target?.closest('input, textarea, select, [contenteditable], .replay-stage')) return;
  onReplayKey(e);
});

/** The server refused. @param {string} code */
export function replayRefused(code) {
  if (S.replay.status !== 'loading') return false;
  S.replay = { status: 'failed', deal: S.replay.deal, code };
  return true;
}

/** The result panel's button for the deal just ended. @param {number} deal */
export function replayButton(deal) {
  return h(
    'button',
    { type: 'button', class: 'big replay-button', 'data-key': 'replay-open', 'aria-haspopup': 'dialog', onclick: () => openReplay(deal) },
    t('replay.button'),
  );
}

/**
 * Under the scoresheet: a button for each finished deal.
 * @param {number[]} deals
 */
export function replayList(deals) {
  if (!deals.length || !mayReplay()) return null;
  return h(
    'div',
    { class: 'replay-list', role: 'group', 'aria-label': t('replay.list') },
    h('span', { class: 'hint' }, t('replay.list'), ' '),
    deals.map((n) =>
      h('button', { type: 'button', class: 'small', 'data-key': `replay-${n}`, 'aria-label': t('replay.deal', { n }), onclick: () => openReplay(n) }, String(n)),
    ),
  );
}

/** Moves to step `i` (kept within the replay). @param {number} i */
function go(i) {
  const r = S.replay;
  if (r.status !== 'ready') return;
  const last = r.replay.steps.length - 1;
  r.step = Math.max(0, Math.min(last, i));
  api.render();
  // Keep the keyboard on the dialog after the redraw.
  focusStage();
}

/** The steps at which each trick was completed (games without tricks have none). @param {any[]} steps */
function trickSteps(steps) {
  const out = [];
  let taken = 0;
  steps.forEach((step, i) => {
    const n = Array.isArray(step.deal?.tricks) ? step.deal.tricks.length : 0;
    if (n > taken) {
      out.push(i);
      taken = n;
    }
  });
  return out;
}

/** What happened in a step, in words, by the game's module. */
function stepLines(game, step) {
  // A card played is drawn on the table, not told in the log: here it is said.
  const said = (e) => {
    const lines = game.eventTexts(e, step.deal, step.deal);
    if (lines.length || e?.event !== 'card_played') return lines;
    return [t('replay.played', { name: seatName(e.seat), card: cardShort(e.card) })];
  };
  const lines = (step.events ?? []).flatMap(said);
  return lines.length ? lines : [t('replay.nothing')];
}

/** What happened in a step, after the name of who acted unless the words name him already. */
function whatHappened(game, step) {
  const lines = stepLines(game, step);
  const who = step.seat !== null && step.seat !== undefined ? seatName(step.seat) : null;
  const named = who !== null && lines.some((line) => line.includes(who));
  return h(
    'div',
    { class: 'replay-what', 'data-testid': 'replay-what' },
    who !== null && !named ? h('strong', null, who, ': ') : null,
    lines.map((line) => h('p', null, line)),
  );
}

/** A hand, open. @param {string[]} cards @param {any} trumps */
function openHand(cards, trumps, label) {
  return h(
    'div',
    { class: 'card-row replay-hand', role: 'list', 'aria-label': label },
    cards.length
      ? sortHand(cards, trumps).map((c) => h('span', { class: 'small-card', role: 'listitem', 'aria-label': cardName(c), 'data-card': c }, cardFace(c)))
      : h('span', { class: 'hint' }, t('replay.no_cards')),
  );
}

/**
 * The middle: the trick being played, or what the game lays in the middle (Wippen: its piles);
 * a card of the trick that cost something in the analysis is marked.
 * @param {any} game @param {any} deal @param {Map<string, any>} costly by card @param {string} unit
 */
function middle(game, deal, costly, unit) {
  if (Array.isArray(deal.trick)) {
    const shown = deal.trick.length ? deal.trick : (deal.tricks ?? []).at(-1)?.cards ?? [];
    return h(
      'div',
      { class: 'replay-trick', 'data-testid': 'replay-trick' },
      shown.map((p) =>
        h(
          'span',
          { class: `replay-play${costly.has(p.card) ? ' costly' : ''}`, 'data-card': p.card },
          h('span', { class: 'small-card', role: 'img', 'aria-label': cardName(p.card) }, cardFace(p.card)),
          costMark(costly.get(p.card), unit),
          h('span', { class: 'hint' }, seatName(p.seat)),
        ),
      ),
    );
  }
  // Shown, never touched: nothing in a replay can be chosen.
  return h('div', { class: 'replay-centre', inert: '' }, game.centreShown(deal, () => null));
}

/** The dialog. */
export function replayDialog() {
  const r = S.replay;
  const title = r.status === 'idle' ? t('replay.title_plain') : t('replay.title', { n: r.deal });
  let body;
  if (r.status === 'loading' || r.status === 'idle') body = h('p', { role: 'status' }, t('replay.loading'));
  else if (r.status === 'failed') body = h('p', { role: 'status', 'data-testid': 'replay-failed' }, t(`err.${r.code}`));
  else body = withReview(r);
  return dialog('replay', title, body);
}

/** The replay on screen. @param {Extract<ReplayState, {status: 'ready'}>} r */
function stage(r) {
  const { replay } = r;
  const steps = replay.steps;
  const step = /** @type {any} */ (steps[r.step]);
  const game = gameOf(replay.game);
  const deal = step.deal ?? {};
  const trumps = game.trumps(deal);
  // The series around the deal: the room's, or on a series page the one it shows.
  const series = S.game ?? (S.series.status === 'ready' ? S.series.record.sheet : {});
  const shell = { ...series, deal };
  const tricks = trickSteps(steps);
  // The analysis's costly cards played so far, by card (a card is played once in a deal).
  const costly = new Map(costlyCards(replay).filter((c) => c.step <= r.step).map((c) => [c.card, c]));
  const unit = replay.analysis?.unit ?? 'tricks';
  let startX = null;
  const swipe = {
    ontouchstart: (e) => (startX = e.touches[0]?.clientX ?? null),
    ontouchend: (e) => {
      const endX = e.changedTouches[0]?.clientX;
      if (startX === null || endX === undefined) return;
      const dx = endX - startX;
      startX = null;
      if (Math.abs(dx) > 40) go(r.step + (dx < 0 ? 1 : -1));
    },
  };
  const button = (key, label, to, disabled) =>
    h('button', { type: 'button', class: 'small', 'data-key': key, 'aria-label': label, title: label, disabled, onclick: () => go(to) }, stepIcon(key));
  return h(
    'section',
    // Its `data-key` keeps the keyboard on it through every redraw of the page (any answer or
    // update that arrives while it is open draws the dialog anew).
    { class: 'replay-stage', tabindex: '0', 'aria-roledescription': t('replay.title_plain'), 'data-testid': 'replay', 'data-key': 'replay-stage', 'data-step': r.step, onkeydown: onReplayKey, ...swipe },
    h(
      'div',
      { class: 'replay-controls row', role: 'group', 'aria-label': t('replay.controls') },
      button('first', t('replay.first'), 0, r.step === 0),
      button('back', t('replay.back'), r.step - 1, r.step === 0),
      h('span', { class: 'replay-counter', role: 'status', 'aria-live': 'polite', 'data-testid': 'replay-counter' }, t('replay.step', { i: r.step, n: steps.length - 1 })),
      button('next', t('replay.next'), r.step + 1, r.step === steps.length - 1),
      button('last', t('replay.last'), steps.length - 1, r.step === steps.length - 1),
    ),
    tricks.length
      ? h(
          'div',
          { class: 'replay-tricks row', role: 'group', 'aria-label': t('replay.tricks') },
          h('span', { class: 'hint' }, t('replay.tricks'), ' '),
          tricks.map((at, i) =>
            h('button', { type: 'button', class: `small${r.step === at ? ' current' : ''}`, 'data-key': `replay-trick-${i + 1}`, onclick: () => go(at) }, String(i + 1)),
          ),
        )
      : null,
    whatHappened(game, step),
    middle(game, deal, costly, unit),
    h(
      'div',
      { class: 'replay-seats' },
      step.hands.map((cards, seat) =>
        h(
          'div',
          { class: `replay-seat${step.seat === seat ? ' acted' : ''}`, 'data-seat': seat },
          h('h3', null, seatName(seat), deal.turn === seat ? h('span', { class: 'hint' }, ` · ${t('replay.to_move')}`) : null),
          h('div', { class: 'chips' }, game.seatChips(shell, seat)),
          openHand(cards, trumps, seatName(seat)),
        ),
      ),
    ),
    analysisPanel(replay, r.step, go),
    h('p', { class: 'hint replay-keys' }, t('replay.keys')),
  );
}

/**
 * The replay, and beside it (in a room whose game has one, for a seated player) the review of
 * the same deal for his own seat: Prisdorf's bidding review, the other games' decisions.
 * @param {Extract<ReplayState, {status: 'ready'}>} r
 */
function withReview(r) {
  const game = gameOf(r.replay.game);
  const series = S.game;
  if (!game.review || !S.room || mySeat() === null || !series) return stage(r);
  const open = S.ui.replayReview;
  const toggle = () => {
    S.ui.replayReview = !open;
    if (!open) askReview(r.deal);
    api.render();
  };
  const here = S.review.status !== 'idle' && S.review.deal === r.deal;
  const bidding = r.replay.game === 'prisdorf';
  const title = bidding ? t('review.title', { n: r.deal }) : t('rv.title', { n: r.deal });
  return h(
    'div',
    { class: `replay-with-review${open ? ' open' : ''}` },
    h('div', { class: 'replay-main' }, stage(r), h('button', { type: 'button', class: 'small', 'data-key': 'replay-review', 'aria-expanded': String(open), onclick: toggle }, open ? t('replay.review_hide') : bidding ? t('replay.review') : t('rv.replay'))),
    open
      ? h('aside', { class: 'replay-review', 'data-testid': 'replay-review', 'aria-label': title }, h('h3', null, title), here ? reviewBody(/** @type {any} */ (series), () => askReview(r.deal)) : h('p', { role: 'status' }, t('review.loading')))
      : null,
  );
}
