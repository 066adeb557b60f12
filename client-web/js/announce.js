// The table read out to a screen reader: each card played, each other move, and whose turn it
// is, as lines added to a live region. The region sits outside the redrawn part of the page
// (`#app` is replaced on every change), so that it stays in the document between messages and
// assistive technology reads what is added to it.

import { addStrings, t } from './i18n.js';
import { strings } from './announce-strings.js';
import { cardName } from './cards.js';
import { gameOf } from './games/index.js';
import { S, seatName } from './store.js';

addStrings(strings);

/** How many lines the region keeps (older ones were read already). */
const KEEP = 12;

/** @type {HTMLElement|null} */
let region = null;
/** The turn last announced (deal number, seat, whether it was the viewer's), or null. */
let announcedTurn = /** @type {string|null} */ (null);

/** Puts the live region into the page (once). */
export function installAnnouncer() {
  if (region) return;
  region = document.createElement('div');
  region.id = 'announcer';
  region.className = 'sr-only';
  region.setAttribute('role', 'log');
  region.setAttribute('aria-live', 'polite');
  region.setAttribute('aria-relevant', 'additions');
  region.setAttribute('data-testid', 'announcer');
  labelRegion();
  document.body.append(region);
}

/** The region's name in the page's language. */
export function labelRegion() {
  region?.setAttribute('aria-label', t('sr.region'));
}

/** @param {string} text */
function say(text) {
  if (!region || !text) return;
  const line = document.createElement('p');
  line.textContent = text;
  region.append(line);
  while (region.childElementCount > KEEP) region.firstElementChild?.remove();
}

/** Events read out though nobody chose them: who took a trick, how the deal and the series ended. */
const TOLD = new Set(['trick_taken', 'deal_over', 'series_over']);

/**
 * A room event as it arrives: a card played is read out, and so is any other move a player
 * makes (a call, trumps named, a Wippen move) in the words of the table log, who took each trick,
 * how the deal ended, and the host's offer to play again. After a move the turn is read out
 * again, even where it stays with the same player.
 * @param {any} ev a SeqEvent
 * @param {number|null} me the viewer's seat
 * @param {any} [after] the deal once the event's update is applied (the words of how a deal
 *   ended count its tricks)
 */
export function announceEvent(ev, me, after) {
  // The host offers to play again: the offer to answer is on the result panel.
  if (ev?.kind === 'rematch') {
    say(t('sr.rematch', { name: S.room?.host ?? '' }));
    return;
  }
  if (ev?.kind !== 'game') return;
  const e = ev.event;
  const game = gameOf(S.game?.game ?? S.room?.rules?.game);
  if (e?.event === 'card_played') {
    const card = cardName(e.card);
    say(e.seat === me ? t('sr.you_played', { card }) : t('sr.played', { name: seatName(e.seat), card }));
  } else if (game.moves.has(e?.event) || TOLD.has(e?.event)) {
    const lines = game.eventTexts(e, S.game?.deal, after ?? S.game?.deal) ?? [];
    if (!lines.length && e.event === 'trick_taken') lines.push(t('log.trick', { name: seatName(e.seat) }));
    for (const text of lines) say(text);
  } else return;
  announcedTurn = null;
}

/**
 * After a change: whose turn it is, read out when it passes to another seat (or to this viewer).
 * @param {number|null} me the viewer's seat
 * @param {boolean} mine whether the server asks this viewer to act now
 */
export function announceTurn(me, mine) {
  const deal = /** @type {any} */ (S.game?.deal);
  const turn = deal && deal.phase !== 'over' ? deal.turn : null;
  const key = turn === null || turn === undefined ? null : `${S.game?.number}|${turn}|${mine}`;
  if (key === announcedTurn) return;
  announcedTurn = key;
  if (key === null) return;
  say(mine ? t('sr.your_turn') : turn === me ? '' : t('sr.turn', { name: seatName(turn) }));
}

/** Leaving the table: nothing is left to read. */
export function clearAnnouncer() {
  announcedTurn = null;
  region?.replaceChildren();
}
