// The client's entry point: the connection, routing, the messages from the server, and
// rendering the screen for the current state.

import { installCardSprite } from './cards.js';
import { Connection } from './conn.js';
import { h, replaceKeepingFocus } from './dom.js';
import { has, initLang, t } from './i18n.js';
import { eventLines } from './log.js';
import { S, amHost, api, botStandsInForMe, forgetSeat, mySeat, saveSeat, seatFor } from './store.js';
import { homeView, joinView } from './home.js';
import { roomView } from './room.js';
import { tableView } from './table.js';
import { headerView } from './header.js';
import { beep } from './sound.js';

initLang();
installCardSprite();

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
/** @type {any} */ (window).fipsenDebug = { S, conn, render: () => render() };

// ---- routing ----

function parseRoute() {
  const m = location.hash.match(/^#\/(?:room|r)\/([A-Za-z0-9_-]+)/);
  if (m) return { name: 'room', code: m[1] };
  return { name: 'home' };
}

function onRoute() {
  const route = parseRoute();
  const before = S.route;
  S.route = /** @type {any} */ (route);
  if (route.name === 'room') {
    if (S.room?.code !== route.code) {
      resetRoom();
      if (conn.ready) enterRoom();
    }
  } else if (before.name === 'room') {
    // Leaving a room: the seat stays ours (the token is kept) and the connection is free again.
    resetRoom();
    if (conn.ready) {
      conn.send({ type: 'leave_room' });
      askHome();
    }
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
  S.ui.picked = null;
  S.ui.confirm = null;
  S.ui.dialog = null;
  S.ui.botPicker = null;
  S.review = { status: 'idle' };
  S.practice = null;
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
  if (S.route.name === 'room') enterRoom();
  else askHome();
}

function askHome() {
  conn.send({ type: 'lobby' });
  const tokens = Object.values(readSeats())
    .map((s) => s.token)
    .filter(Boolean);
  if (tokens.length) conn.send({ type: 'my_rooms', tokens });
}

function readSeats() {
  try {
    return JSON.parse(localStorage.getItem('fipsen.seats') || '{}');
  } catch {
    return {};
  }
}

/** Resumes our seat in the routed room if this browser holds one. */
function enterRoom() {
  if (S.route.name !== 'room') return;
  const code = S.route.code;
  const held = seatFor(code);
  if (held?.token) {
    S.waiting = true;
    conn.send({ type: 'resume', room: code, token: held.token, last_seq: S.room?.code === code ? S.seq : 0 });
  } else if (held?.watching && held.name) {
    // A watcher has no seat token: he simply watches again.
    S.waiting = true;
    conn.send({ type: 'join_room', room: code, name: held.name, role: 'spectator' });
  }
}

api.send = (msg) => {
  const sent = conn.send(msg);
  if (!sent) api.toast(t('conn.offline', { s: S.retryIn || 1 }), 'error');
  return sent;
};

api.act = (action) => {
  if (S.waiting || S.route.name !== 'room') return;
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

/** After an ack: the seq of the update that will show the action's result. */
let awaitSeq = 0;
let awaitTimer = 0;

function onMessage(msg) {
  switch (msg.type) {
    case 'joined': {
      S.waiting = false;
      awaitSeq = 0;
      const wasTurn = myTurn();
      const fresh = S.room?.code !== msg.room?.room || msg.resync;
      S.room = normaliseRoom(msg.room);
      S.you = msg.you;
      S.game = msg.game ?? null;
      const code = S.room.code;
      if (fresh) {
        S.log = (msg.chat ?? []).map((line) => ({ kind: 'chat', text: line.text, from: line.from }));
      } else {
        for (const ev of msg.missed ?? []) S.log.push(...eventLines(ev));
      }
      S.seq = msg.seq ?? S.seq;
      noteNextDeal();
      const held = seatFor(code);
      const nextId = Math.max(held?.nextId ?? 1, (msg.you?.last_act_id ?? 0) + 1);
      if (msg.you?.token) saveSeat(code, { token: msg.you.token, seq: S.seq, name: msg.you.name, nextId, watching: false });
      else if (msg.you?.role === 'spectator') saveSeat(code, { watching: true, name: msg.you.name });
      if (S.route.name !== 'room' || S.route.code !== code) {
        S.route = { name: 'room', code };
        history.replaceState(null, '', `#/room/${code}`);
      }
      afterChange(wasTurn);
      practiceStep();
      break;
    }
    case 'update': {
      const wasTurn = myTurn();
      for (const ev of msg.events ?? []) {
        if ((ev.seq ?? 0) <= S.seq) continue;
        S.log.push(...eventLines(ev));
        if (ev.kind === 'chat' && !S.ui.chatOpen) S.ui.unread += 1;
      }
      S.seq = Math.max(S.seq, msg.seq ?? 0);
      if (msg.room) S.room = normaliseRoom(msg.room);
      if ('game' in msg) S.game = msg.game ?? null;
      noteNextDeal();
      if (msg.you) S.you = msg.you;
      if (S.seq >= awaitSeq) {
        S.waiting = false;
        clearTimeout(awaitTimer);
      }
      if (S.route.name === 'room') saveSeat(S.route.code, { seq: S.seq });
      afterChange(wasTurn);
      practiceStep();
      break;
    }
    case 'review':
      // The review of our own hand in a finished deal, asked for from the result panel (an
      // answer that comes after leaving the room is dropped).
      if (S.review.status !== 'loading' || !S.room) break;
      S.review = { status: 'ready', deal: msg.deal, review: msg.review };
      render();
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
    case 'lobby':
      S.lobby = msg.rooms ?? [];
      render();
      break;
    case 'my_rooms':
      S.myRooms = msg.rooms ?? [];
      render();
      break;
    case 'left':
      break;
    default:
      break;
  }
}

function onError(msg) {
  S.waiting = false;
  const code = msg.code ?? '';
  if (code.startsWith('review/') && S.review.status === 'loading') {
    S.review = { status: 'failed', deal: S.review.deal, code };
  }
  // A practice table that cannot be set up is left as it is: the host sees the room.
  if (S.practice && S.room) S.practice = null;
  const watching = S.route.name === 'room' && seatFor(S.route.code)?.watching;
  if ((code === 'token/invalid' || code === 'room/not_found' || watching) && S.route.name === 'room' && !S.room) {
    forgetSeat(S.route.code);
    S.room = null;
    S.you = null;
    S.game = null;
  }
  api.toast(errorText(code, msg.message), 'error');
}

/** A readable sentence for a server error, translated by its code where we know it. */
export function errorText(code, message) {
  const key = `err.${code}`;
  if (has(key)) return t(key);
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

/** When the server will deal the next deal by itself: a countdown on the result panel. */
function noteNextDeal() {
  const ms = S.room?.next_deal_in_ms;
  S.nextDealAt = typeof ms === 'number' ? Date.now() + ms : null;
  clearInterval(countdown);
  if (S.nextDealAt) countdown = window.setInterval(() => (S.nextDealAt && S.nextDealAt > Date.now() ? render() : clearInterval(countdown)), 1000);
}
let countdown = 0;

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
  if (S.game?.deal?.phase !== 'discard') S.ui.selected = [];
  render();
  if (turn && !wasTurn) {
    S.ui.picked = null;
    S.ui.confirm = null;
    if (S.settings.sound) beep();
    // Vibrating is allowed only after the person has touched the page.
    if (navigator.userActivation?.hasBeenActive) navigator.vibrate?.(80);
    // On a phone the panel may be below the fold: bring it into view.
    queueMicrotask(() => document.querySelector('main .actions')?.scrollIntoView({ block: 'nearest', behavior: 'smooth' }));
  }
}

function updateTitle() {
  let title = 'Fipsen';
  if (S.route.name === 'room') title = `${S.room?.title || t('room.title', { code: S.route.code })} — Fipsen`;
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

function renderNow() {
  document.body.classList.toggle('four-colour', S.settings.fourColour);
  let main;
  if (S.route.name === 'home') {
    main = homeView();
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
  updateTitle();
}

conn.connect();
onRoute();
