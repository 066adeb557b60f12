// The client's whole state, the browser storage it keeps, and the actions views may call.
// The server's `room` and `game` are shown as they come; nothing here decides a rule.

import { t } from './i18n.js';
import { CATALOGUE } from './catalogue.js';

/**
 * A line of the table log: a chat line (with its writer and whether he plays or watches), or a
 * sentence about an event.
 * @typedef {{kind: 'chat'|'event', text: string, from?: string, role?: import('./protocol.js').Role}} LogLine
 */

/**
 * @typedef {Omit<import('./protocol.js').RoomState, 'seats'> & {code: string, seats: Array<import('./protocol.js').SeatInfo|null>}} Room
 */

/**
 * A series as the server sends it: the game's own view, tagged with the game's id (`game`).
 * @typedef {import('./protocol.js').GameView & {game: import('./protocol.js').GameId}} GameView
 */

/**
 * @typedef {object} Settings
 * @property {'french'|'four'|'german'} deck the card faces: French, French in four colours, German
 * @property {boolean} deckChosen whether the person chose the faces himself; if not, a table whose
 *   rules name faces (`faces`, the Mecklenburg games) shows its own (see `deckInUse`)
 * @property {boolean} sound
 * @property {boolean} confirmCalls ask "are you sure?" before a bid or another irrevocable call
 * @property {boolean} autoForced play the only card the prompt allows by itself, after a pause
 */

/**
 * @typedef {object} State
 * @property {{name: 'home'} | {name: 'room', code: string} | {name: 'series', code: string, key: string|null, deal: number|null}
 *   | {name: 'tourney_new'} | {name: 'tourney', code: string, results: boolean}} route
 * @property {import('./conn.js').ConnState} conn
 * @property {number} retryIn
 * @property {string} name
 * @property {Settings} settings
 * @property {Room|null} room
 * @property {import('./protocol.js').You|null} you
 * @property {GameView|null} game
 * @property {number} seq
 * @property {number|null} nextDealAt
 * @property {number} roomAt when the last room state arrived (ms since 1970): its clocks count from then
 * @property {{by: number, at: number}|null} nudged another player is waiting for this viewer
 * @property {{lines: string[]}|null} away what happened at this viewer's seat while he was away
 * @property {{code: string, info: import('./protocol.js').LobbyRoom|null, error: string|null}|null} peek
 *   the room of the invitation link, as the server described it (`room_info`) or its error
 * @property {number} rowsBefore how many of the scoresheet's oldest rows the last snapshot left out
 * @property {number} lobbyTotal how many public rooms there are (the lobby comes in pages)
 * @property {number|null} overDeal the deal this viewer saw end
 * @property {number} overAt when he saw it end (ms since 1970)
 * @property {LogLine[]} log
 * @property {import('./protocol.js').LobbyRoom[]|null} lobby
 * @property {import('./protocol.js').MyRoom[]|null} myRooms
 * @property {{text: string, kind: 'error'|'info'}|null} toast
 * @property {boolean} waiting
 * @property {{room: string, msg: any}|null} joining a `join_room` not answered yet, sent again with its key after a lost connection
 * @property {ReviewState} review
 * @property {import('./replay.js').ReplayState} replay
 * @property {import('./series.js').SeriesState} series
 * @property {{levels: import('./protocol.js').Level[]} | null} practice
 * @property {{selected: string[], confirm: {what: string, action: import('./protocol.js').Action}|null,
 *   dialog: null|'sheet'|'settings'|'last_trick'|'review'|'replay', chatOpen: boolean, chatDraft: string, copied: boolean, unread: number,
 *   botPicker: number|null, reading: boolean, held: HeldTrick|null, replayReview: boolean,
 *   seatedAt: {code: string, title: string}|null, secondSeat: string|null}} ui
 */

/**
 * A finished trick kept on the table a moment after it was taken (`hold`), then swept toward its
 * winner (`sweep`), whatever came after it meanwhile.
 * @typedef {{deal: number, index: number, trick: import('./protocol.js').TrickView, phase: 'hold'|'sweep'}} HeldTrick
 */

/**
 * The review of a finished deal: asked for (`loading`), or the server's answer (Prisdorf's
 * bidding review, or another game's review of the decisions before the play).
 * @typedef {{status: 'idle'} | {status: 'loading', deal: number} | {status: 'failed', deal: number, code: string}
 *   | {status: 'ready', deal: number, review: import('./protocol.js').Review}
 *   | {status: 'ready', deal: number, decisions: import('./protocol.js').GameDecisions}} ReviewState
 */

/** @type {State} */
export const S = {
  /** The replay of a finished deal asked for, or shown. */
  replay: /** @type {import('./replay.js').ReplayState} */ ({ status: 'idle' }),
  /** The series page's series asked for, or shown. */
  series: /** @type {import('./series.js').SeriesState} */ ({ status: 'idle' }),
  route: { name: 'home' },
  /** @type {import('./conn.js').ConnState} */
  conn: 'connecting',
  retryIn: 0,
  name: localStorage.getItem('fipsen.name') || '',
  /** @type {Settings} */
  settings: readSettings(),
  /** The room as the server last sent it, with the invite code as `code` and free seats `null`. */
  room: /** @type {Room|null} */ (null),
  /** Who we are in the room. */
  you: /** @type {import('./protocol.js').You|null} */ (null),
  /** The series as this viewer may see it (fipsen_rules::SeriesView), or null before the start. */
  game: /** @type {GameView|null} */ (null),
  seq: 0,
  /** When the next deal comes by itself (ms since 1970), if the server said so. */
  nextDealAt: /** @type {number|null} */ (null),
  roomAt: 0,
  /** Someone nudged this player: the banner "Anna is waiting for you". */
  nudged: /** @type {{by: number, at: number}|null} */ (null),
  /** "While you were away": what a bot or the clock did at this seat. */
  away: /** @type {{lines: string[]}|null} */ (null),
  /** The room of an invitation link, before joining it. */
  peek: /** @type {{code: string, info: any, error: string|null}|null} */ (null),
  /** How many of the scoresheet's oldest rows the last snapshot left out (a long series). */
  rowsBefore: 0,
  lobbyTotal: 0,
  /** The deal this viewer saw end, and when (between deals the others may be nudged 15 s later). */
  overDeal: /** @type {number|null} */ (null),
  overAt: 0,
  /** Chat lines and table log, oldest first. */
  log: /** @type {LogLine[]} */ ([]),
  lobby: /** @type {any[]|null} */ (null),
  myRooms: /** @type {any[]|null} */ (null),
  /** A message for the person (already translated). */
  toast: /** @type {{text: string, kind: 'error'|'info'}|null} */ (null),
  /** What we asked the server for while we wait for its answer. */
  waiting: false,
  /**
   * A `join_room` not answered yet, with the key chosen for it: sent again as it is on the next
   * connection if this one breaks first, so that the server seats us once.
   */
  joining: /** @type {{room: string, msg: any}|null} */ (null),
  /** The bidding review asked for, or shown. */
  review: /** @type {ReviewState} */ ({ status: 'idle' }),
  /** A practice table being set up: the bots still to seat, then `start`. */
  practice: /** @type {{levels: import('./protocol.js').Level[]} | null} */ (null),
  ui: {
    /** Cards picked to lay away. */
    selected: /** @type {string[]} */ ([]),
    /** An irrevocable call waiting for confirmation. */
    confirm: /** @type {{what: string, action: any}|null} */ (null),
    /** The open dialog. */
    dialog: /** @type {null|'sheet'|'settings'|'last_trick'|'review'|'replay'} */ (null),
    chatOpen: false,
    /** The bidding review shown beside a replay. */
    replayReview: false,
    chatDraft: '',
    copied: false,
    unread: 0,
    /** The free seat whose "add a bot" choice of level is open. */
    botPicker: /** @type {number|null} */ (null),
    /** "Wait — I'm reading" switched on between deals. */
    reading: false,
    /** The trick just taken, kept on the table a moment. */
    held: /** @type {HeldTrick|null} */ (null),
    /**
     * The table where this tab's player sat when he opened another invitation in it (his seat
     * there stays his): the invitation says so, and asks before he sits down a second time.
     */
    seatedAt: /** @type {{code: string, title: string}|null} */ (null),
    /** The invitation at which sitting down a second time was asked about once. */
    secondSeat: /** @type {string|null} */ (null),
  },
};

/** The settings kept in this browser; one tap plays a card, calls are confirmed by default. */
function readSettings() {
  const saved = readJson('fipsen.settings', {});
  // Before one tap played a card, "quick play" also skipped the confirmation of calls.
  if (saved.confirmCalls === undefined && saved.quickPlay) saved.confirmCalls = false;
  delete saved.quickPlay;
  // Faces saved before tables had faces of their own: anything but the old default was chosen.
  if (saved.deckChosen === undefined) saved.deckChosen = saved.deck !== undefined ? saved.deck !== 'french' : Boolean(saved.fourColour);
  // Before German faces, the four-colour pack was a switch of its own.
  if (saved.deck === undefined) saved.deck = saved.fourColour ? 'four' : 'french';
  delete saved.fourColour;
  return { deck: 'french', deckChosen: false, sound: true, confirmCalls: true, autoForced: false, ...saved };
}

function readJson(key, fallback) {
  try {
    const v = JSON.parse(localStorage.getItem(key) || 'null');
    return v ?? fallback;
  } catch {
    return fallback;
  }
}

/** The faces a table's rules name (`faces`), as the settings name them; null if it names none. */
export function tableDeck() {
  const faces = /** @type {any} */ (S.room?.rules)?.faces;
  return { german: 'german', french: 'french', four_colour: 'four' }[faces] ?? null;
}

/**
 * The card faces to draw: the person's own choice in the settings (the dialog behind the header's
 * settings button, kept in this browser), else the table's (`faces` in its rules), else French.
 * @returns {'french'|'four'|'german'}
 */
export function deckInUse() {
  if (S.settings.deckChosen) return S.settings.deck;
  return tableDeck() ?? S.settings.deck;
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

/** How many lines of the table log a tab keeps per room (in sessionStorage, for a reload). */
export const LOG_LINES = 200;

/**
 * Keeps the table log of a room for this tab, with the seq it is complete up to.
 * @param {string} code
 * @param {number} seq
 * @param {LogLine[]} lines
 */
export function saveLog(code, seq, lines) {
  try {
    sessionStorage.setItem(`fipsen.log.${code}`, JSON.stringify({ seq, lines: lines.slice(-LOG_LINES) }));
  } catch {
    /* storage full or unavailable: the log is only a convenience */
  }
}

/**
 * The table log this tab kept for a room, if any.
 * @param {string} code
 * @returns {{seq: number, lines: LogLine[]}|null}
 */
export function loadLog(code) {
  try {
    const saved = JSON.parse(sessionStorage.getItem(`fipsen.log.${code}`) || 'null');
    if (saved && Array.isArray(saved.lines) && typeof saved.seq === 'number') return saved;
  } catch {
    /* unreadable: start afresh */
  }
  return null;
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
  // Out of any room, on a series page: the names the series holds.
  const named = !S.room && S.series.status === 'ready' ? S.series.record.players[seat] : null;
  return info?.name || named || t('room.seat_label', { n: seat + 1 });
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

/** How long a person's turn lasts before the others may nudge him (the server's rule), in ms. */
export const NUDGE_AFTER_MS = CATALOGUE.nudge_after_ms;

/** Hooks filled in by app.js, so views can act without importing the app. */
export const api = {
  /** Ready for the next deal (and done reading). @type {() => void} */
  ready: () => {},
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
