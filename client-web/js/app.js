// The client's entry point: the connection, routing, the messages from the server, and
// rendering the screen for the current state.

import { cardShort, installCardSprite, setCardFaces } from './cards.js';
import { Connection } from './conn.js';
import { h, replaceKeepingFocus } from './dom.js';
import { has, initLang, t } from './i18n.js';
import { eventLines } from './log.js';
import { applyPatches } from './patch.js';
import { countdownText, tableTitle } from './format.js';
import { gameName, gameOf } from './games/index.js';
import { replayArrived, replayRefused } from './replay.js';
import { askAnalysis } from './reviews.js';
import { askSeries, seriesArrived, seriesRefused, seriesView, shareArrived } from './series.js';
import { NUDGE_AFTER_MS, S, amHost, api, botStandsInForMe, deckInUse, forgetSeat, loadLog, mySeat, saveLog, saveSeat, seatFor } from './store.js';
import { homeView, inviteTitle, joinView } from './home.js';
import { roomView } from './room.js';
import { followDone, followingInto, noteRematch, offerLost, rematchRefused } from './rematch.js';
import { showTurn, tableView } from './table.js';
import { headerView } from './header.js';
import { askTourneysForHome, createTourneyView, enterTourney, leaveTourney, resultsView, tourney, tourneyMessage, tourneyRefused, tourneyView } from './tournament.js';
import { NARROW_SCREEN } from './sheet.js';
import { beep } from './sound.js';
import { announceEvent, announceTurn, clearAnnouncer, installAnnouncer, labelRegion } from './announce.js';

initLang();
installCardSprite();
installAnnouncer();

const root = /** @type {HTMLElement} */ (document.getElementById('app'));

const conn = new Connection({
  ready: onReady,
  message: onMessage,
  state(state, retryIn) {
    S.conn = state;
    S.retryIn = retryIn ?? 0;
    render();
  },
});

// For the browser tests and for curious players: the state, the connection and a re-render.
/** @type {any} */ (window).fipsenDebug = { S, conn, render: () => render(), showTurn: () => showTurn('instant') };

// ---- routing ----

/** @returns {typeof S.route} */
function parseRoute() {
  const m = location.hash.match(/^#\/(?:room|r)\/([A-Za-z0-9_-]+)/);
  if (m) return { name: 'room', code: m[1] };
  // A series page: by its share key (and a deal to replay), or a player's own by his seat.
  const s = location.hash.match(/^#\/series\/([A-Za-z0-9_-]+)(?:\/([A-Za-z0-9_-]+))?(?:\/(\d+))?/);
  if (s) return { name: 'series', code: s[1], key: s[2] ?? null, deal: s[3] ? Number(s[3]) : null };
  // A tournament: the form that creates one, its page (the registration link) and its results.
  if (/^#\/tournament\/new/.test(location.hash)) return { name: 'tourney_new' };
  const tn = location.hash.match(/^#\/t\/([A-Za-z0-9_-]+)(\/results)?/);
  if (tn) return { name: 'tourney', code: tn[1], results: Boolean(tn[2]) };
  return { name: 'home' };
}

function onRoute() {
  const route = parseRoute();
  const before = S.route;
  S.route = route;
  // Off the tournament's pages: its updates are no longer needed.
  if (before.name === 'tourney' && (route.name !== 'tourney' || route.code !== before.code) && conn.ready) leaveTourney();
  if (route.name === 'series') {
    // A series page starts afresh (the link may name another series or deal).
    S.series = { status: 'idle' };
    S.replay = { status: 'idle' };
    S.ui.dialog = null;
  }
  if (route.name === 'room') {
    if (S.room?.code !== route.code) {
      // From one table to another (a second invitation opened in this tab): the connection leaves
      // the first (the seat there stays ours) before it looks at the second.
      const leaving = before.name === 'room' && before.code !== route.code && (S.room || S.you);
      const seated = leaving && S.you?.seat !== null && S.you?.seat !== undefined && S.room?.status !== 'over';
      S.ui.seatedAt = seated ? { code: before.code, title: tableTitle(S.room?.title, S.room?.host) || t('room.title', { code: before.code }) } : S.ui.seatedAt?.code === route.code ? null : S.ui.seatedAt;
      S.ui.secondSeat = null;
      resetRoom();
      if (conn.ready) {
        if (leaving) conn.send({ type: 'leave_room' });
        enterRoom();
      }
    }
  } else if (before.name === 'room') {
    // Leaving a room: the seat stays ours (the token is kept) and the connection is free again.
    S.ui.seatedAt = null;
    resetRoom();
    if (conn.ready) {
      conn.send({ type: 'leave_room' });
      if (route.name === 'series') askSeries(route);
      else if (route.name === 'tourney') enterTourney(route);
      else askHome();
    }
  } else if (route.name === 'series') {
    if (conn.ready) askSeries(route);
  } else if (route.name === 'tourney') {
    if (conn.ready) enterTourney(route);
  } else if (conn.ready) {
    askHome();
  }
  render();
}

function resetRoom() {
  S.room = null;
  S.you = null;
  S.game = null;
  S.seq = 0;
  S.log = [];
  S.waiting = false;
  awaitSeq = 0;
  S.ui.selected = [];
  S.ui.confirm = null;
  S.ui.dialog = null;
  S.ui.botPicker = null;
  S.ui.reading = false;
  S.ui.held = null;
  S.nudged = null;
  S.away = null;
  S.peek = null;
  S.review = { status: 'idle' };
  S.practice = null;
  sentReading = false;
  clearAnnouncer();
}

api.go = (hash) => {
  if (location.hash === hash) onRoute();
  else location.hash = hash;
};

window.addEventListener('hashchange', onRoute);

// ---- connection ----

function onReady() {
  // A review asked for on a connection that broke is not coming: offer to ask again.
  if (S.review.status === 'loading') S.review = { status: 'failed', deal: S.review.deal, code: '' };
  // The new connection is in no room yet: whether we read is told again once back in it.
  sentReading = false;
  offerLost();
  // A join whose answer the broken connection took with it: sent again with its key.
  if (S.joining) {
    S.waiting = true;
    conn.send(S.joining.msg);
  }
  if (S.route.name === 'room') {
    if (!S.joining) enterRoom();
  } else if (S.route.name === 'series') {
    // A series asked for on a connection that broke is asked for again.
    if (S.series.status === 'loading') S.series = { status: 'idle' };
    askSeries(S.route);
  } else if (S.route.name === 'tourney') enterTourney(S.route);
  else askHome();
}

function askHome() {
  conn.send({ type: 'lobby' });
  const tokens = Object.values(readSeats())
    .map((s) => s.token)
    .filter(Boolean);
  if (tokens.length) conn.send({ type: 'my_rooms', tokens });
  askTourneysForHome();
}

function readSeats() {
  try {
    return JSON.parse(localStorage.getItem('fipsen.seats') || '{}');
  } catch {
    return {};
  }
}

/**
 * Resumes our seat in the routed room if this browser holds one; otherwise asks what room the
 * invitation is for (`peek`), to show it before joining.
 */
function enterRoom() {
  if (S.route.name !== 'room') return;
  const code = S.route.code;
  const held = seatFor(code);
  // A player of a finished series following its host into the new room: his old seat token.
  const rejoin = followingInto(code);
  if (rejoin) {
    S.waiting = true;
    conn.send(rejoin);
  } else if (held?.token) {
    S.waiting = true;
    // From where this tab's log ends (a reload), or from the last event this browser saw at the
    // seat (a return): the server sends what happened since in `missed`.
    const since = S.room?.code === code ? S.seq : (loadLog(code)?.seq ?? held.seq ?? 0);
    conn.send({ type: 'resume', room: code, token: held.token, last_seq: since });
  } else if (held?.watching && held.name) {
    // A watcher has no seat token: he simply watches again.
    S.waiting = true;
    conn.send({ type: 'join_room', room: code, name: held.name, role: 'spectator' });
  } else {
    S.peek = { code, info: null, error: null };
    conn.send({ type: 'peek', room: code });
  }
}

api.send = (msg) => {
  const sent = conn.send(msg);
  if (!sent) api.toast(t('conn.offline', { s: S.retryIn || 1 }), 'error');
  return sent;
};

api.act = (action) => {
  if (S.waiting || S.route.name !== 'room') return;
  // Playing a card shows it at once: the trick just taken has been seen.
  if (action.action === 'play') endHold();
  const code = S.route.code;
  const held = seatFor(code);
  const id = Math.max(held?.nextId ?? 1, (S.you?.last_act_id ?? 0) + 1);
  saveSeat(code, { nextId: id + 1 });
  S.ui.confirm = null;
  if (api.send({ type: 'act', id, seq: S.seq, action })) {
    S.waiting = true;
    render();
  }
};

api.toast = (text, kind = 'info') => {
  S.toast = { text, kind };
  render();
  clearTimeout(toastTimer);
  toastTimer = window.setTimeout(() => {
    S.toast = null;
    render();
  }, 6000);
};
let toastTimer = 0;

// ---- messages ----

/**
 * The room as the views use it: `RoomState` with the invite code upper-cased and each seat's
 * occupant (a seat is taken while it has a name).
 * @param {import('./protocol.js').RoomState} raw
 */
function normaliseRoom(raw) {
  if (!raw) return null;
  return {
    ...raw,
    code: String(raw.room ?? ''),
    seats: (raw.seats ?? []).map((seat) => (seat.name === null || seat.name === undefined ? null : seat)),
    spectators: raw.spectators ?? 0,
  };
}

/**
 * The room and the series exactly as the server last sent them (`joined`, then each `update`'s
 * patches applied): the base of the next update. `S.room` and `S.game` are made from it.
 * @type {import('./patch.js').ServerState}
 */
let served = { room: null, game: null };

/** After an ack: the seq of the update that will show the action's result. */
let awaitSeq = 0;
let awaitTimer = 0;

function onMessage(msg) {
  switch (msg.type) {
    case 'joined': {
      S.waiting = false;
      S.joining = null;
      awaitSeq = 0;
      const wasTurn = myTurn();
      const before = S.game;
      const fresh = S.room?.code !== msg.room?.room;
      served = { room: msg.room, game: msg.game ?? null };
      S.room = normaliseRoom(msg.room);
      S.roomAt = Date.now();
      S.you = msg.you;
      S.game = msg.game ?? null;
      S.rowsBefore = msg.rows_before ?? 0;
      S.peek = null;
      const code = S.room.code;
      followDone(code);
      const missed = msg.missed ?? [];
      if (fresh) {
        // A reload: this tab's log goes on where it ended. Elsewhere: the room's last chat lines.
        const kept = loadLog(code);
        if (kept) S.log = kept.lines;
        else {
          S.log = (msg.chat ?? []).map(chatLine);
          const said = new Set((msg.chat ?? []).map((c) => `${c.at}|${c.from}|${c.text}`));
          missed.splice(0, missed.length, ...missed.filter((ev) => ev.kind !== 'chat' || !said.has(`${ev.at}|${ev.from}|${ev.text}`)));
        }
      }
      for (const ev of missed) S.log.push(...eventLines(ev, msg.game?.deal));
      const away = awaySummary(missed, msg.you?.seat ?? null);
      if (away) {
        S.away = away;
        S.log.push({ kind: 'event', text: `${t('away.title')} ${away.lines.join(' ')}` });
      }
      S.seq = msg.seq ?? S.seq;
      if (!fresh) noteTrick(before);
      noteRoom();
      const held = seatFor(code);
      const nextId = Math.max(held?.nextId ?? 1, (msg.you?.last_act_id ?? 0) + 1);
      if (msg.you?.token) saveSeat(code, { token: msg.you.token, seq: S.seq, name: msg.you.name, nextId, watching: false });
      else if (msg.you?.role === 'spectator') saveSeat(code, { watching: true, name: msg.you.name });
      saveLog(code, S.seq, S.log);
      if (S.route.name !== 'room' || S.route.code !== code) {
        S.route = { name: 'room', code };
        history.replaceState(null, '', `#/room/${code}`);
      }
      // A room just created or joined from further down the home page: its top (the invitation
      // link) is what to see first.
      if (fresh) queueMicrotask(() => window.scrollTo({ top: 0 }));
      afterChange(wasTurn);
      practiceStep();
      noteRematch();
      break;
    }
    case 'update': {
      let next;
      try {
        next = applyPatches(served, msg.patches ?? []);
      } catch (err) {
        // The state here is not the one the server patched: a new connection comes back to the
        // room (`resume`, or watching again) and its snapshot replaces the state.
        console.warn('an update that does not fit the state; connecting again for a snapshot', err);
        conn.drop();
        break;
      }
      const wasTurn = myTurn();
      const before = S.game;
      for (const ev of msg.events ?? []) {
        if ((ev.seq ?? 0) <= S.seq) continue;
        S.log.push(...eventLines(ev, next.game?.deal));
        announceEvent(ev, mySeat(), next.game?.deal);
        if (ev.kind === 'chat' && !S.ui.chatOpen) S.ui.unread += 1;
        if (ev.kind === 'nudged' && ev.seat === mySeat()) nudged(ev.by);
      }
      S.seq = Math.max(S.seq, msg.seq ?? 0);
      if (next.room !== served.room) {
        S.room = normaliseRoom(next.room);
        S.roomAt = Date.now();
      }
      S.game = next.game ?? null;
      served = next;
      noteTrick(before);
      noteRoom();
      if (msg.you) S.you = msg.you;
      if (S.seq >= awaitSeq) {
        S.waiting = false;
        clearTimeout(awaitTimer);
      }
      if (S.route.name === 'room') {
        saveSeat(S.route.code, { seq: S.seq });
        saveLog(S.route.code, S.seq, S.log);
      }
      afterChange(wasTurn);
      practiceStep();
      noteRematch();
      break;
    }
    case 'review':
      // The review of our own hand in a finished deal, asked for from the result panel (an
      // answer that comes after leaving the room is dropped).
      if (S.review.status !== 'loading' || !S.room) break;
      S.review = { status: 'ready', deal: msg.deal, review: msg.review };
      // In the review's dialog the analysis of the deal's play comes with it (the replay
      // carries it); beside a replay it is there already.
      if (S.ui.dialog === 'review') askAnalysis(msg.deal);
      render();
      break;
    case 'decisions':
      // Another game's review of our decisions before the play: the same way.
      if (S.review.status !== 'loading' || !S.room) break;
      S.review = { status: 'ready', deal: msg.deal, decisions: msg.review };
      if (S.ui.dialog === 'review') askAnalysis(msg.deal);
      render();
      break;
    case 'replay':
      replayArrived(msg.replay);
      break;
    case 'series':
      seriesArrived(msg);
      break;
    case 'share_link':
      shareArrived(msg);
      break;
    case 'deleted':
      // Every player agreed: the series is gone, and so is our seat in it.
      forgetSeat(msg.room);
      if (S.route.name === 'room' && S.route.code === msg.room) {
        resetRoom();
        api.go('#/');
      }
      api.toast(t('series.deleted'));
      break;
    case 'answer':
      // The game's answer to a question about one's moves (a hand card and table piles chosen,
      // say); the game's module keeps it if it is still the choice on screen.
      gameOf(S.game?.game).answer(msg.answer);
      break;
    case 'ack':
      // The update with the action's result follows the ack: keep the buttons off until then.
      if ((msg.seq ?? 0) > S.seq) {
        awaitSeq = msg.seq;
        clearTimeout(awaitTimer);
        awaitTimer = window.setTimeout(() => {
          S.waiting = false;
          render();
        }, 5000);
      } else S.waiting = false;
      render();
      break;
    case 'error':
      onError(msg);
      break;
    case 'lobby': {
      // The lobby comes in pages: a later page adds to those shown.
      const rooms = msg.rooms ?? [];
      if ((msg.offset ?? 0) > 0 && S.lobby) {
        const shown = new Set(S.lobby.map((r) => r.room));
        S.lobby = [...S.lobby, ...rooms.filter((r) => !shown.has(r.room))];
      } else S.lobby = rooms;
      S.lobbyTotal = msg.total ?? S.lobby.length;
      render();
      break;
    }
    case 'room_info':
      // The room of the invitation link being looked at.
      if (S.peek && !S.room && S.peek.code === msg.room?.room) {
        S.peek = { code: S.peek.code, info: msg.room, error: null };
        render();
      }
      break;
    case 'my_rooms':
      S.myRooms = msg.rooms ?? [];
      render();
      break;
    case 'left':
      break;
    default:
      if (tourneyMessage(msg)) render();
      break;
  }
}

function onError(msg) {
  const code = msg.code ?? '';
  // The answer to `peek`: the invitation page says it instead of the join buttons.
  if (S.peek && !S.peek.info && !S.peek.error && !S.waiting && !S.room && code.startsWith('room/')) {
    S.peek = { ...S.peek, error: code };
    render();
    return;
  }
  S.waiting = false;
  S.joining = null;
  if (code.startsWith('tournament/') && tourneyRefused(code)) {
    render();
    return;
  }
  if (code.startsWith('replay/') && replayRefused(code)) {
    render();
    return;
  }
  if (S.route.name === 'series' && seriesRefused(code)) {
    render();
    return;
  }
  if (code.startsWith('review/') && S.review.status === 'loading') {
    S.review = { status: 'failed', deal: S.review.deal, code };
  }
  // An offer to play again that was refused: the host may offer again; following one that
  // cannot be: the new room's invitation page instead (below).
  rematchRefused(code);
  const followed = S.route.name === 'room' && !S.room && followDone(S.route.code);
  // A practice table that cannot be set up is left as it is: the host sees the room.
  if (S.practice && S.room) S.practice = null;
  const watching = S.route.name === 'room' && seatFor(S.route.code)?.watching;
  if ((code === 'token/invalid' || code === 'room/not_found' || watching || followed) && S.route.name === 'room' && !S.room) {
    forgetSeat(S.route.code);
    S.room = null;
    S.you = null;
    S.game = null;
    // The invitation page instead: what the room is, or that there is none.
    if (code === 'room/not_found') S.peek = { code: S.route.code, info: null, error: code };
    else if (conn.ready) {
      S.peek = { code: S.route.code, info: null, error: null };
      conn.send({ type: 'peek', room: S.route.code });
    }
  }
  api.toast(errorText(code, msg.message), 'error');
}

/** A readable sentence for a server error, translated by its code where we know it. */
export function errorText(code, message) {
  const key = `err.${code}`;
  if (has(key)) return t(key, { message: message || code });
  return t('err.generic', { message: message || code });
}

/**
 * Sets up a practice table step by step as the room answers: once we sit in the new room as its
 * host, a bot at every free seat; once every seat is taken, the start.
 */
function practiceStep() {
  const practice = S.practice;
  const room = S.room;
  if (!practice || !room || !amHost()) return;
  if (room.status !== 'waiting') {
    S.practice = null;
    return;
  }
  const free = room.seats.map((seat, i) => (seat ? -1 : i)).filter((i) => i >= 0);
  if (free.length === 0) {
    S.practice = null;
    api.send({ type: 'start' });
    return;
  }
  if (practice.levels.length === 0) return; // the bots were asked for: wait for them
  for (const seat of free) {
    const level = practice.levels.shift();
    if (level) api.send({ type: 'add_bot', seat, level });
  }
}

/**
 * The room's clocks, counted from when its state arrived: when the next deal comes by itself (a
 * countdown on the result panel), and when the turn will have lasted long enough to nudge.
 */
function noteRoom() {
  const ms = S.room?.next_deal_in_ms;
  S.nextDealAt = typeof ms === 'number' ? S.roomAt + ms : null;
  clearTimeout(nudgeTimer);
  const turn = S.room?.turn;
  if (turn && turn.waited_ms < NUDGE_AFTER_MS) nudgeTimer = window.setTimeout(render, NUDGE_AFTER_MS - turn.waited_ms + 100);
  // Between deals: when this viewer first saw the deal over (the others may nudge after 15 s).
  const over = S.game?.deal?.phase === 'over' ? S.game.number : null;
  if (over !== S.overDeal) {
    S.overDeal = over;
    S.overAt = S.roomAt;
    if (over !== null) nudgeTimer = window.setTimeout(render, NUDGE_AFTER_MS + 100);
  }
  // A call to this player is over once it is someone else's turn, or once he is ready.
  const me = mySeat();
  const wanted = S.room?.status === 'between_deals' ? !(S.room.next_deal_asked ?? []).includes(me) : turn?.seat === me;
  if (S.nudged && !wanted) S.nudged = null;
}
let nudgeTimer = 0;

/** Another player waits for this one: a chime, a vibration and a banner. */
function nudged(by) {
  S.nudged = { by, at: Date.now() };
  if (S.settings.sound) beep();
  if (navigator.userActivation?.hasBeenActive) navigator.vibrate?.([80, 60, 80]);
}

/**
 * The countdowns on the page (`data-deadline`, ms since 1970) are counted down in place, without
 * drawing the page anew: the next deal, the move clock.
 */
function tick() {
  const now = Date.now();
  for (const el of document.querySelectorAll('[data-deadline]')) {
    const left = Math.max(0, Math.ceil((Number(/** @type {HTMLElement} */ (el).dataset.deadline) - now) / 1000));
    const format = /** @type {HTMLElement} */ (el).dataset.format ?? '';
    const text = countdownText(format, left);
    if (el.textContent !== text) el.textContent = text;
    // The last ten seconds of a move clock show in red.
    if (format === 'clock') el.parentElement?.classList.toggle('low', left <= 10);
  }
}
window.setInterval(tick, 250);

// ---- the trick just taken ----

/** How long a taken trick stays on the table, and how long it takes to sweep it away (ms). */
const HOLD_MS = 1500;
const SWEEP_MS = 450;
let holdTimer = 0;

/**
 * After a trick is taken it stays on the table a moment, whatever comes next (the next lead of a
 * quick player or a bot waits on the screen, not in the game), then moves toward its winner.
 * @param {import('./store.js').GameView|null} before the series before this message
 */
function noteTrick(before) {
  // Any game's deal: one without tricks (Wippen) holds nothing to keep on the table.
  const deal = /** @type {any} */ (S.game?.deal);
  if (!deal || !before || before.number !== S.game?.number || deal.phase === 'over' || !Array.isArray(deal.tricks)) return;
  const taken = deal.tricks.length;
  if (taken <= (/** @type {any} */ (before.deal)?.tricks?.length ?? 0)) return;
  S.ui.held = { deal: S.game.number, index: taken - 1, trick: deal.tricks[taken - 1], phase: 'hold' };
  clearTimeout(holdTimer);
  holdTimer = window.setTimeout(sweepHeld, HOLD_MS);
}

function sweepHeld() {
  if (!S.ui.held) return;
  if (window.matchMedia?.('(prefers-reduced-motion: reduce)').matches) {
    endHold();
    return;
  }
  S.ui.held = { ...S.ui.held, phase: 'sweep' };
  render();
  holdTimer = window.setTimeout(endHold, SWEEP_MS);
}

function endHold() {
  clearTimeout(holdTimer);
  if (!S.ui.held) return;
  S.ui.held = null;
  render();
}

// ---- reading between deals ----

/** Whether the server was told that this player reads (so the next deal waits). */
let sentReading = false;

/**
 * Between deals a player who reads holds the countdown to the next deal: with "Wait — I'm
 * reading", or while the review or the scoresheet is open. Tells the server when that changes.
 */
function syncReading() {
  const room = S.room;
  const me = mySeat();
  const between = room?.status === 'between_deals' && S.game?.deal?.phase === 'over' && !S.game.over;
  if (!between || me === null || !conn.ready) {
    // The server forgets who read once the next deal is dealt.
    if (!between) sentReading = false;
    return;
  }
  const asked = (room.next_deal_asked ?? []).includes(me);
  const reading = !asked && (S.ui.reading || S.ui.dialog === 'review' || S.ui.dialog === 'sheet');
  if (reading !== sentReading && conn.send({ type: 'reading', reading })) sentReading = reading;
}

/** Ready for the next deal: done reading too. */
api.ready = () => {
  S.ui.reading = false;
  if (api.send({ type: 'next_deal' })) sentReading = false;
  render();
};

// ---- a player back at his seat ----

/**
 * What happened at the viewer's seat while he was away (`missed` of a resume): the moves a bot
 * made for him, standing in or when his clock ran out, and how many moves the others made.
 * @param {any[]} missed
 * @param {number|null} seat
 * @returns {{lines: string[]}|null}
 */
function awaySummary(missed, seat) {
  if (seat === null || missed.length === 0) return null;
  let level = null;
  let stoodIn = false;
  let clock = 0;
  let others = 0;
  const mine = [];
  // Game events that are a player's own move (not what follows from it), as his game says.
  const moves = gameOf(S.game?.game ?? S.room?.rules?.game).moves;
  for (const ev of missed) {
    if (ev.kind === 'stand_in' && ev.seat === seat) {
      stoodIn = true;
      level = ev.level;
    } else if (ev.kind === 'clock_ran_out' && ev.seat === seat) {
      clock += 1;
      level = ev.level;
    } else if (ev.kind === 'game' && moves.has(ev.event?.event)) {
      if (ev.event.seat !== seat) others += 1;
      else mine.push(moveText(ev.event));
    }
  }
  if (mine.length === 0 && !stoodIn && clock === 0) return null;
  const bot = t(`bot.level.${level ?? S.room?.options?.bot_takeover ?? 'normal'}`);
  const lines = [mine.length ? t('away.bot_played', { level: bot, moves: mine.join(', ') }) : t('away.bot_stood_in', { level: bot })];
  if (clock) lines.push(t('away.clock', { n: clock }));
  if (others) lines.push(t('away.others', { n: others }));
  return { lines };
}

/** A move in a few words: "♠8", "Pass", "Trumps: Hearts". */
function moveText(e) {
  const game = gameOf(S.game?.game ?? S.room?.rules?.game);
  switch (e.event) {
    case 'card_played':
      return cardShort(e.card);
    case 'called':
      return game.callText(e.call);
    case 'trumps_named':
      return `${t('table.trumps')}: ${game.trumpsName(e.suit)}`;
    default:
      return eventLines({ kind: 'game', event: e })
        .map((line) => line.text)
        .join(' ');
  }
}

/** @param {import('./protocol.js').ChatLine} line @returns {import('./store.js').LogLine} */
function chatLine(line) {
  return { kind: 'chat', text: line.text, from: line.from, role: line.role };
}

// ---- turn signals ----

/** Whether the server asks this viewer to act now. */
function myTurn() {
  const deal = S.game?.deal;
  const seat = mySeat();
  if (!deal || seat === null || botStandsInForMe()) return false;
  return deal.turn === seat && Object.keys(deal.prompt ?? {}).length > 0;
}

function afterChange(wasTurn) {
  const turn = myTurn();
  // Cards chosen to lay away (or to exchange) stay chosen while that goes on.
  const phase = /** @type {string|undefined} */ (S.game?.deal?.phase);
  if (phase !== 'discard' && phase !== 'exchange') S.ui.selected = [];
  if (S.room?.status !== 'between_deals') S.ui.reading = false;
  render();
  announceTurn(mySeat(), turn);
  if (turn && !wasTurn) {
    S.ui.confirm = null;
    if (S.settings.sound) beep();
    // Vibrating is allowed only after the person has touched the page.
    if (navigator.userActivation?.hasBeenActive) navigator.vibrate?.(80);
    // On a phone the hand and the panel may be below the fold: bring them into view with the trick.
    queueMicrotask(() => showTurn());
  }
}

/**
 * With the option on, the only card the server allows is played by itself — after a pause like a
 * person's (1 to 2.5 s), so that the speed of the play does not tell at once that there was no
 * choice. Anything that changes meanwhile (another prompt, a card played by hand) cancels it.
 */
function autoPlayForced() {
  // Any game's deal: only a trick game's prompt lists cards to play.
  const deal = /** @type {any} */ (S.game?.deal);
  const cards = deal?.prompt?.cards ?? [];
  const wanted = S.settings.autoForced && myTurn() && deal?.phase === 'play' && Array.isArray(deal.tricks) && cards.length === 1 ? `${S.game?.number}|${deal.tricks.length}|${deal.trick.length}|${cards[0]}` : null;
  if (wanted === forced.key) return;
  clearTimeout(forced.timer);
  forced.key = wanted;
  if (!wanted) return;
  const card = cards[0];
  forced.timer = window.setTimeout(() => {
    const now = /** @type {any} */ (S.game?.deal);
    if (forced.key !== wanted || !myTurn() || !(now?.prompt?.cards ?? []).includes(card)) return;
    forced.key = null;
    api.act({ action: 'play', card });
  }, 1000 + Math.random() * 1500);
}
const forced = { key: /** @type {string|null} */ (null), timer: 0 };

function updateTitle() {
  let title = 'Fipsen';
  // A room's page names its table and its game: "Friday table — Prisdorf Fipsen".
  if (S.route.name === 'room') title = `${tableTitle(S.room?.title, S.room?.host) || t('room.title', { code: S.route.code })} — ${S.room ? gameName(S.room.rules?.game) : 'Fipsen'}`;
  if (S.route.name === 'room' && !S.room && S.peek?.info) title = `${inviteTitle(S.peek.info)} — ${gameName(S.peek.info.rules?.game)}`;
  if (S.route.name === 'tourney' && tourney?.state) title = `${tourney.state.view.settings.name} — ${gameName(tourney.state.view.settings.game)}`;
  if (myTurn()) title = `▶ ${t('table.your_turn')} — Fipsen`;
  if (document.title !== title) document.title = title;
}

// ---- rendering ----

let renderQueued = false;

/** Renders on the next frame (many messages may arrive at once). */
function render() {
  if (renderQueued) return;
  renderQueued = true;
  queueMicrotask(() => {
    renderQueued = false;
    renderNow();
  });
}
api.render = render;

// The scoresheet's columns depend on the medium (a phone's screen, or paper): drawn again, at
// once, when the page goes to the printer and comes back, or the screen turns.
if (typeof window.matchMedia === 'function') {
  window.matchMedia(NARROW_SCREEN).addEventListener?.('change', () => renderNow());
}
window.addEventListener('beforeprint', () => renderNow());
window.addEventListener('afterprint', () => renderNow());

function renderNow() {
  const deck = deckInUse();
  document.body.classList.toggle('four-colour', deck === 'four');
  document.body.classList.toggle('german-faces', deck === 'german');
  setCardFaces(deck === 'german' ? 'german' : 'french');
  let main;
  if (S.route.name === 'home') {
    main = homeView();
  } else if (S.route.name === 'series') {
    main = seriesView();
  } else if (S.route.name === 'tourney_new') {
    main = createTourneyView();
  } else if (S.route.name === 'tourney') {
    main = S.route.results ? resultsView() : tourneyView();
  } else if (!S.room) {
    const held = seatFor(S.route.code);
    main = S.waiting || held?.token || held?.watching ? h('p', { class: 'loading' }, t('conn.connecting')) : joinView(S.route.code);
  } else if (!S.game) {
    main = roomView();
  } else {
    main = tableView();
  }
  const toast = S.toast
    ? h('div', { class: `toast toast-${S.toast.kind}`, role: S.toast.kind === 'error' ? 'alert' : 'status' }, S.toast.text)
    : null;
  // An open dialog is drawn anew with each update: it keeps where the person had scrolled to.
  const before = root.querySelector('dialog[data-open]');
  const scrolled = before ? { name: before.className, top: before.scrollTop } : null;
  replaceKeepingFocus(root, [headerView(conn), h('main', { id: 'main' }, main), toast].filter(Boolean), () => {
    // Dialogs rendered open need showModal() once they are in the document.
    for (const dialog of root.querySelectorAll('dialog[data-open]')) {
      const d = /** @type {HTMLDialogElement} */ (dialog);
      if (!d.open) d.showModal();
      if (scrolled && d.className === scrolled.name) d.scrollTop = scrolled.top;
    }
  });
  const log = root.querySelector('.chat-log');
  if (log) log.scrollTop = log.scrollHeight;
  tick();
  labelRegion();
  updateTitle();
  syncReading();
  autoPlayForced();
}

conn.connect();
onRoute();
