// The client's whole state, the browser storage it keeps, and the actions views may call.
// The server's `room` and `game` are shown as they come; nothing here decides a rule.

import { t } from './i18n.js';

/** @typedef {{kind: 'chat'|'event', text: string, from?: string}} LogLine */

/**
 * @typedef {Omit<import('./protocol.js').RoomState, 'seats'> & {code: string, seats: Array<import('./protocol.js').SeatInfo|null>}} Room
 */

/**
 * @typedef {object} Settings
 * @property {boolean} fourColour
 * @property {boolean} sound
 * @property {boolean} quickPlay
 */

/**
 * @typedef {object} State
 * @property {{name: 'home'} | {name: 'room', code: string}} route
 * @property {import('./conn.js').ConnState} conn
 * @property {number} retryIn
 * @property {string} name
 * @property {Settings} settings
 * @property {Room|null} room
 * @property {import('./protocol.js').You|null} you
 * @property {import('./protocol.js').SeriesView|null} game
 * @property {number} seq
 * @property {number|null} nextDealAt
 * @property {LogLine[]} log
 * @property {import('./protocol.js').LobbyRoom[]|null} lobby
 * @property {import('./protocol.js').MyRoom[]|null} myRooms
 * @property {{text: string, kind: 'error'|'info'}|null} toast
 * @property {boolean} waiting
 * @property {ReviewState} review
 * @property {{levels: import('./protocol.js').Level[]} | null} practice
 * @property {{selected: string[], picked: string|null, confirm: {what: string, action: import('./protocol.js').Action}|null,
 *   dialog: null|'sheet'|'settings'|'last_trick'|'review', chatOpen: boolean, chatDraft: string, copied: boolean, unread: number,
 *   botPicker: number|null}} ui
 */

/**
 * The bidding review of a finished deal: asked for (`loading`), or the server's answer.
 * @typedef {{status: 'idle'} | {status: 'loading', deal: number} | {status: 'failed', deal: number, code: string}
 *   | {status: 'ready', deal: number, review: import('./protocol.js').Review}} ReviewState
 */

/** @type {State} */
export const S = {
  /** @type {{name: 'home'} | {name: 'room', code: string}} */
  route: { name: 'home' },
  /** @type {import('./conn.js').ConnState} */
  conn: 'connecting',
  retryIn: 0,
  name: localStorage.getItem('fipsen.name') || '',
  /** @type {Settings} */
  settings: { fourColour: false, sound: true, quickPlay: false, ...readJson('fipsen.settings', {}) },
  /** The room as the server last sent it, with the invite code as `code` and free seats `null`. */
  room: /** @type {Room|null} */ (null),
  /** Who we are in the room. */
  you: /** @type {import('./protocol.js').You|null} */ (null),
  /** The series as this viewer may see it (fipsen_rules::SeriesView), or null before the start. */
  game: /** @type {import('./protocol.js').SeriesView|null} */ (null),
  seq: 0,
  /** When the next deal comes by itself (ms since 1970), if the server said so. */
  nextDealAt: /** @type {number|null} */ (null),
  /** Chat lines and table log, oldest first. */
  log: /** @type {LogLine[]} */ ([]),
  lobby: /** @type {any[]|null} */ (null),
  myRooms: /** @type {any[]|null} */ (null),
  /** A message for the person (already translated). */
  toast: /** @type {{text: string, kind: 'error'|'info'}|null} */ (null),
  /** What we asked the server for while we wait for its answer. */
  waiting: false,
  /** The bidding review asked for, or shown. */
  review: /** @type {ReviewState} */ ({ status: 'idle' }),
  /** A practice table being set up: the bots still to seat, then `start`. */
  practice: /** @type {{levels: import('./protocol.js').Level[]} | null} */ (null),
  ui: {
    /** Cards picked to lay away. */
    selected: /** @type {string[]} */ ([]),
    /** A card picked to play (tap again to play it). */
    picked: /** @type {string|null} */ (null),
    /** An irrevocable call waiting for confirmation. */
    confirm: /** @type {{what: string, action: any}|null} */ (null),
    /** The open dialog. */
    dialog: /** @type {null|'sheet'|'settings'|'last_trick'|'review'} */ (null),
    chatOpen: false,
    chatDraft: '',
    copied: false,
    unread: 0,
    /** The free seat whose "add a bot" choice of level is open. */
    botPicker: /** @type {number|null} */ (null),
  },
};

function readJson(key, fallback) {
  try {
    const v = JSON.parse(localStorage.getItem(key) || 'null');
    return v ?? fallback;
  } catch {
    return fallback;
  }
}

export function saveSettings() {
  localStorage.setItem('fipsen.settings', JSON.stringify(S.settings));
}

export function saveName(name) {
  S.name = name;
  localStorage.setItem('fipsen.name', name);
}

/**
 * The seats this browser holds, by room code: the resume token, the last seq seen and the
 * next action id; or, for a room only watched, `watching` and the name.
 * @returns {Record<string, {token: string, seq: number, nextId: number, name?: string, watching?: boolean}>}
 */
export function seats() {
  return readJson('fipsen.seats', {});
}

export function seatFor(code) {
  return seats()[code] ?? null;
}

export function saveSeat(code, patch) {
  const all = seats();
  all[code] = { token: '', seq: 0, nextId: 1, ...all[code], ...patch };
  localStorage.setItem('fipsen.seats', JSON.stringify(all));
}

export function forgetSeat(code) {
  const all = seats();
  delete all[code];
  localStorage.setItem('fipsen.seats', JSON.stringify(all));
}

/** Name of the player in `seat`, or "Seat n" for a free seat. */
export function seatName(seat) {
  if (seat === null || seat === undefined) return '';
  const info = S.room?.seats?.[seat];
  return info?.name || t('room.seat_label', { n: seat + 1 });
}

/**
 * Whether a bot stands in at the viewer's seat: he came back in the middle of a trick, and the
 * bot finishes it before handing the seat back (the server refuses his actions until then).
 */
export function botStandsInForMe() {
  const seat = mySeat();
  return seat !== null && Boolean(S.room?.seats?.[seat]?.stand_in);
}

/**
 * Whether the viewer is the room's host now: the seat's flag follows the room (the host's part
 * passes on when he is gone past his grace period); `you` says it for a host without a seat.
 */
export function amHost() {
  const seat = mySeat();
  if (seat !== null && S.room?.seats?.[seat]) return Boolean(S.room.seats[seat].host);
  return Boolean(S.you?.host);
}

/** The viewer's seat, or null for a spectator. */
export function mySeat() {
  const seat = S.you?.seat;
  return seat === undefined ? null : seat;
}

/** Hooks filled in by app.js, so views can act without importing the app. */
export const api = {
  /** @type {(action: any) => void} */
  act: () => {},
  /** @type {(msg: any) => boolean} */
  send: () => false,
  /** @type {() => void} */
  render: () => {},
  /** @type {(hash: string) => void} */
  go: () => {},
  /** @type {(text: string, kind?: 'error'|'info') => void} */
  toast: () => {},
};
