// "Play again": once a series is over, its host asks the server for a new room with the same
// seats, rules and options (`rematch`). The old room then names the new one (`room.rematch`):
// each player of the old room follows there with the seat token he holds for it (`join_room`
// with that token gives him his seat back) or leaves; a watcher may watch the next series. The
// host follows by himself once the new room is open.

import { h } from './dom.js';
import { t } from './i18n.js';
import { S, amHost, api, mySeat, saveSeat, seatFor } from './store.js';

/** The room in which this tab's host asked for a new series, until the server answers. */
let offeredIn = /** @type {string|null} */ (null);

/**
 * The new room this tab goes to as a player of the old one: entered with `join_room` and the old
 * seat token (a token stored for the new room would be resumed instead).
 * @type {{code: string, token: string, name: string}|null}
 */
let following = null;

/** Whether the series on screen is over and the room may be played again (not a tournament's). */
function overHere(room) {
  return Boolean(room && room.status === 'over' && !room.tournament);
}

/** The host asks for a new series. */
function offer() {
  const room = S.room;
  if (!room || offeredIn) return;
  if (api.send({ type: 'rematch' })) offeredIn = room.code;
  api.render();
}

/**
 * Goes to the new room the old one names: a player with his seat token (his seat is held for
 * him there), a watcher as a watcher again.
 */
function follow() {
  const room = S.room;
  const next = room?.rematch;
  if (!room || !next) return;
  const token = seatFor(room.code)?.token;
  const name = S.you?.name ?? S.name;
  if (mySeat() !== null && token) following = { code: next, token, name };
  else if (mySeat() === null) saveSeat(next, { watching: true, name });
  api.go(`#/room/${next}`);
}

/** A player who does not play again: off home (his seat in the new room opens in time). */
function leave() {
  api.go('#/');
}

/**
 * The message that enters the routed room for a player following into it, or null.
 * @param {string} code the routed room
 */
export function followingInto(code) {
  if (following?.code !== code) return null;
  return /** @type {const} */ ({ type: 'join_room', room: code, name: following.name, role: 'player', token: following.token });
}

/**
 * A room was entered (`joined`), or entering it was refused: the follow is done either way.
 * @param {string} code
 * @returns {boolean} whether this tab was following into that room
 */
export function followDone(code) {
  if (following?.code !== code) return false;
  following = null;
  return true;
}

/**
 * After each change of the room: the host who asked for the new series goes there once the
 * server names it; anyone else sees the offer.
 */
export function noteRematch() {
  const room = S.room;
  if (offeredIn && room?.code === offeredIn && room.rematch) {
    offeredIn = null;
    follow();
    return;
  }
  // The offer in view once it is there (on a phone the result may be scrolled away from it).
  if (room?.rematch && shownIn !== room.code) {
    shownIn = room.code;
    queueMicrotask(() => document.querySelector('.rematch.offer')?.scrollIntoView({ block: 'center' }));
  }
}
/** The room whose offer was last brought into view. */
let shownIn = /** @type {string|null} */ (null);

/**
 * A new connection: an offer sent on the old one is answered no more (if the server had opened
 * the new room, the old one names it and the host is offered it like the others).
 */
export function offerLost() {
  offeredIn = null;
}

/**
 * The server refused a request: a pending offer is over (the button comes back).
 * @param {string} code the error's code
 * @returns {boolean} whether it was the answer to an offer
 */
export function rematchRefused(code) {
  if (!offeredIn || !(code.startsWith('rematch/') || code === 'room/not_host')) return false;
  offeredIn = null;
  return true;
}

/**
 * On the result of the series' last deal: the host's "Play again", and once the new room is
 * open, the offer to every player (play again or leave) and to every watcher.
 * @param {import('./store.js').Room|null} room
 */
export function rematchPanel(room) {
  if (!room || !overHere(room)) return null;
  const seated = mySeat() !== null;
  const host = room.host;
  if (!room.rematch) {
    if (!amHost()) return null;
    return h(
      'div',
      { class: 'rematch', 'data-testid': 'rematch' },
      h(
        'button',
        { type: 'button', class: 'primary big', 'data-key': 'rematch-offer', 'aria-describedby': 'rematch-hint', disabled: Boolean(offeredIn), onclick: offer },
        t('rematch.offer_button'),
      ),
      h('p', { class: 'hint', id: 'rematch-hint' }, t('rematch.offer_hint')),
    );
  }
  if (!seated) {
    return h(
      'div',
      { class: 'rematch offer', role: 'group', 'aria-labelledby': 'rematch-offer', 'data-testid': 'rematch-offer' },
      h('p', { id: 'rematch-offer' }, t('rematch.offer_watch', { name: host })),
      h('div', { class: 'row' }, h('button', { type: 'button', class: 'primary', 'data-key': 'rematch-watch', onclick: follow }, t('rematch.watch'))),
    );
  }
  return h(
    'div',
    { class: 'rematch offer', role: 'group', 'aria-labelledby': 'rematch-offer', 'data-testid': 'rematch-offer' },
    h('p', { id: 'rematch-offer' }, amHost() ? t('rematch.offer_mine') : t('rematch.offer', { name: host })),
    h(
      'div',
      { class: 'row' },
      h('button', { type: 'button', class: 'primary', 'data-key': 'rematch-accept', onclick: follow }, t('rematch.accept')),
      h('button', { type: 'button', 'data-key': 'rematch-leave', onclick: leave }, t('rematch.leave')),
    ),
  );
}
