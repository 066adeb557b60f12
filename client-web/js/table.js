// The table during a series: the players around it, the trick in the middle, the auction, the
// panel offering exactly what the server's prompt lists, your hand, the result, and the chat.

import { cardBack, cardFace, cardName, isTrump, sortHand, suitLetter } from './cards.js';
import { clockIcon, eyeIcon, h, keepOpen, pauseIcon, robotIcon } from './dom.js';
import { t } from './i18n.js';
import { countdownText, points } from './format.js';
import { confirmBar, suitIcon, term } from './calls.js';
import { gameOf } from './games/index.js';
import { NUDGE_AFTER_MS, S, amHost, api, botStandsInForMe, mySeat, seatName } from './store.js';
import { dialog } from './header.js';
import { scoresheet } from './sheet.js';
import { botLabel, seatList } from './room.js';
import { reviewButton, reviewDialog } from './review.js';
import { mayReplay, replayButton, replayDialog, replayList } from './replay.js';
import { seriesTools } from './series.js';
import { rematchPanel } from './rematch.js';
import { tourneyBar } from './tournament.js';

/**
 * Where a seat sits on the screen: `side` is its side of the table (the way a trick it takes
 * flies); at a table of five or more (`ring`) also its place along that side (`order`), which
 * gives its card's place in the trick's rows.
 * @typedef {{side: 'bottom'|'left'|'top'|'right', ring: boolean, order: number}} Place
 */

/** The module of the game being played (games/). */
function G() {
  return gameOf(S.game?.game);
}

/** Up to four at a table the seats have fixed places: left, top and right of the bottom one. */
const FIXED = { 3: ['bottom', 'left', 'right'], 4: ['bottom', 'left', 'top', 'right'] };

/**
 * How many of `m` seats around the table (the viewer's own aside) sit on each side and how many
 * across the top: the sides take a third of those beyond two, and at least half of those beyond
 * three, so that no more than three sit across the top and the trick's top row holds three cards
 * at most (five at a table: one each side, two across; nine: three each side, two across; ten:
 * three each side, three across).
 * @param {number} m
 */
export function ringSides(m) {
  const side = Math.max(0, Math.ceil((m - 2) / 3), Math.ceil((m - 3) / 2));
  return { side, top: m - 2 * side };
}

/**
 * Where each seat sits on the screen, the viewer (or seat 0 for a watcher) at the bottom and the
 * others clockwise from his left: up the left side, across the top, down the right side. Driven by
 * the number of seats only.
 * @param {number} n
 * @param {number} bottom
 * @returns {Record<number, Place>}
 */
function places(n, bottom) {
  /** @type {Record<number, Place>} */
  const out = {};
  const fixed = FIXED[n];
  if (fixed) {
    for (let i = 0; i < n; i++) out[(bottom + i) % n] = { side: fixed[i], ring: false, order: 0 };
    return out;
  }
  const { side, top } = ringSides(n - 1);
  out[bottom] = { side: 'bottom', ring: true, order: 0 };
  for (let i = 1; i < n; i++) {
    const seat = (bottom + i) % n;
    const k = i - 1;
    if (k < side) {
      // Up the left side: the first seat the nearest to the viewer.
      out[seat] = { side: 'left', ring: true, order: k };
    } else if (k < side + top) {
      const j = k - side;
      out[seat] = { side: 'top', ring: true, order: j };
    } else {
      const j = k - side - top;
      out[seat] = { side: 'right', ring: true, order: j };
    }
  }
  return out;
}

/** Whether no card has been played yet in a deal that is not over. */
function beforeFirstCard(deal) {
  return deal.phase !== 'over' && (deal.trick ?? []).length === 0 && (deal.tricks ?? []).length === 0;
}

/** Whether the viewer is the opponent a Kieker's dealt hand was shown to (until the end). */
function shownKieker(deal, me) {
  return Boolean(deal.kieker_hand) && me !== null && me !== deal.declarer && deal.phase !== 'over';
}

function isMyTurn(deal, me) {
  return me !== null && deal.turn === me && Object.keys(deal.prompt ?? {}).length > 0 && !botStandsInForMe();
}

export function tableView() {
  const game = S.game;
  /** @type {any} */
  const deal = game.deal;
  const me = mySeat();
  const n = deal.hand_sizes.length;
  const where = places(n, me ?? 0);
  const myTurn = isMyTurn(deal, me);
  return h(
    'div',
    { class: `table-screen players-${n} game-${G().id}${me === null ? ' spectating' : ''}${myTurn ? ' my-turn' : ''}`, 'data-phase': deal.phase },
    banners(me, myTurn),
    tourneyBar(S.room),
    infoBar(game, deal),
    // Two columns on wide screens; on phones the wrappers dissolve and the parts stack.
    h(
      'div',
      { class: 'table-left' },
      felt(game, deal, me, where),
      me !== null ? handView(deal, me, myTurn) : null,
      // Once the play has begun, the Kieker's shown hand moves from the middle of the table to here.
      shownKieker(deal, me) && !beforeFirstCard(deal) ? kiekerShown(deal) : null,
    ),
    h(
      'div',
      { class: 'table-right' },
      statusLine(deal, me, myTurn),
      deal.phase === 'over' ? resultPanel(game, deal, me) : actionPanel(deal, me),
      chatPanel(),
    ),
    S.ui.dialog === 'sheet' ? dialog('sheet', t('sheet.title'), [earlierRows(), scoresheet(game), replayList(finishedDeals(game, deal)), S.room ? seriesTools(S.room) : null]) : null,
    S.ui.dialog === 'last_trick' ? dialog('last_trick', t('table.last_trick'), lastTrick(deal, where)) : null,
    S.ui.dialog === 'review' ? reviewDialog(/** @type {any} */ (game)) : null,
    S.ui.dialog === 'replay' ? replayDialog() : null,
  );
}

/**
 * The table: the seats around it and the trick in the middle. Up to four the seats have their
 * fixed places; from five on they sit in a ring: a column up the left side, a row across the top
 * and a column down the right side, the trick between them.
 */
function felt(game, deal, me, where) {
  const shown = Object.entries(where)
    .filter(([seat]) => me === null || Number(seat) !== me)
    .map(([seat, place]) => /** @type {[number, Place]} */ ([Number(seat), place]));
  const attrs = { class: 'felt', role: 'region', 'aria-label': t('table.deal', { n: game.number }) };
  const ring = shown.some(([, place]) => place.ring);
  if (!ring) return h('div', attrs, shown.map(([seat, place]) => seatBox(deal, seat, place)), centre(deal, where));
  const n = deal.hand_sizes.length;
  const { side, top } = ringSides(n - 1);
  const on = (which) =>
    shown
      .filter(([, place]) => place.side === which)
      .sort((a, b) => a[1].order - b[1].order)
      .map(([seat, place]) => seatBox(deal, seat, place));
  return h(
    'div',
    { ...attrs, class: `felt ring`, style: `--side:${side};--top:${top}`, 'data-seats': n },
    h('div', { class: 'ring-top' }, on('top')),
    h('div', { class: 'ring-left' }, on('left')),
    centre(deal, where),
    h('div', { class: 'ring-right' }, on('right')),
    me === null ? h('div', { class: 'ring-bottom' }, on('bottom')) : null,
  );
}

/** What the viewer should know first: watching, a bot playing for him, someone waiting, what he missed. */
function banners(me, myTurn) {
  const shown = [
    me === null ? watchingBanner() : null,
    botStandsInForMe() ? standInBanner() : null,
    S.nudged && (myTurn || notReady(me)) ? nudgedBanner() : null,
    S.away ? awayBanner() : null,
  ].filter(Boolean);
  return shown.length ? h('div', { class: 'banners' }, shown) : null;
}

/** The viewer came back in the middle of a trick: a bot finishes it for him first. */
function standInBanner() {
  return h('div', { class: 'stand-in-banner', role: 'status', 'data-testid': 'stand-in-banner' }, robotIcon(), ' ', h('strong', null, t('bot.standing_in')));
}

/** Between deals: this viewer sits and has not said he is ready for the next deal. */
function notReady(me) {
  return me !== null && S.room?.status === 'between_deals' && !(S.room.next_deal_asked ?? []).includes(me);
}

/** Another player nudged this one: it is his turn (or the next deal), and they wait. */
function nudgedBanner() {
  return h(
    'div',
    { class: 'nudged-banner', role: 'alert', 'data-testid': 'nudged' },
    clockIcon(),
    ' ',
    h('strong', null, t('nudge.waiting_for_you', { name: seatName(S.nudged?.by) })),
  );
}

/** Back at the seat: what a bot (or the move clock) did for him meanwhile. */
function awayBanner() {
  return h(
    'div',
    { class: 'away-banner', role: 'status', 'data-testid': 'away' },
    robotIcon(),
    h('p', null, h('strong', null, t('away.title')), ' ', S.away?.lines.join(' ')),
    h(
      'button',
      {
        type: 'button',
        class: 'icon-button',
        'data-key': 'away-close',
        'aria-label': t('table.close'),
        onclick: () => {
          S.away = null;
          api.render();
        },
      },
      '✕',
    ),
  );
}

function watchingBanner() {
  return h(
    'div',
    { class: 'watching-banner', role: 'status' },
    eyeIcon(),
    ' ',
    h('strong', null, S.you?.name ? t('table.watching_as', { name: S.you.name }) : t('table.watching')),
    ' ',
    h('span', { class: 'hint' }, t('table.watching_help')),
  );
}

function openDialog(name) {
  S.ui.dialog = name;
  api.render();
}

/** The bar's middle as most games show it: the declarer's game, the trumps, the tricks. */
function defaultBar(deal) {
  const g = deal.game;
  const trumps = G().trumps(deal);
  return [
    deal.declarer !== null && deal.declarer !== undefined
      ? h(
          'span',
          { class: 'contract', 'data-testid': 'contract' },
          h('span', { class: 'label' }, t('table.declarer'), ': '),
          h('strong', null, seatName(deal.declarer)),
          ' · ',
          g ? G().gameText(g) : G().contractText(deal.contract),
          G().gameTerms(g),
          g ? h('span', { class: 'hint' }, ` (${t('table.value', { value: G().gameValue(g) })})`) : null,
        )
      : null,
    trumps
      ? h(
          'span',
          { class: 'trumps' },
          h('span', { class: 'label' }, t('table.trumps'), ': '),
          h('span', { class: `suit-icon suit-${suitLetter(trumps)}`, 'aria-hidden': 'true' }, suitIcon(suitLetter(trumps))),
          ' ',
          G().trumpsName(trumps),
        )
      : null,
    deal.phase === 'play' || deal.phase === 'durch_choice' || (deal.phase === 'over' && deal.tricks.length > 0)
      ? h(
          'span',
          { class: 'tricks-taken', 'data-testid': 'tricks-taken' },
          h('span', { class: 'label' }, t('table.tricks'), ': '),
          t('table.tricks_taken', { d: deal.tricks_taken.declarer, o: deal.tricks_taken.opponents }),
        )
      : null,
  ];
}

function infoBar(game, deal) {
  return h(
    'div',
    { class: 'info-bar' },
    h('span', { class: 'deal-no' }, t('table.deal', { n: game.number }), deal.rules?.deals ? ` / ${deal.rules.deals}` : ''),
    S.room?.spectators
      ? h('span', { class: 'watchers', title: t('room.spectators', { n: S.room.spectators }) }, eyeIcon(), ' ', t('room.spectators', { n: S.room.spectators }))
      : null,
    // A game may say what its bar shows (Thedinghausen: the round, the trump card, the pot).
    G().tableBar(game, deal) ?? defaultBar(deal),
    h(
      'span',
      { class: 'bar-buttons' },
      // A game without tricks (Wippen) has no last trick to show.
      Array.isArray(deal.tricks)
        ? h(
            'button',
            { type: 'button', class: 'small', 'data-key': 'last-trick', disabled: deal.tricks.length === 0, onclick: () => openDialog('last_trick') },
            t('table.last_trick'),
          )
        : null,
      h('button', { type: 'button', class: 'small', 'data-key': 'open-sheet', onclick: () => openDialog('sheet') }, t('table.scoresheet')),
      h(
        'button',
        {
          type: 'button',
          class: 'small chat-toggle',
          'data-key': 'open-chat',
          'aria-expanded': String(S.ui.chatOpen),
          onclick: () => {
            S.ui.chatOpen = !S.ui.chatOpen;
            S.ui.unread = 0;
            api.render();
          },
        },
        t('chat.open'),
        S.ui.unread ? h('span', { class: 'badge', 'aria-label': String(S.ui.unread) }, String(S.ui.unread)) : null,
      ),
    ),
  );
}

/** The last call of each seat in this auction. */
function lastCalls(deal) {
  const out = {};
  for (const record of deal.calls ?? []) out[record.seat] = record.call;
  return out;
}

/** Above a long series' scoresheet: where its oldest rows, left out of the table's, are. */
function earlierRows() {
  const n = S.rowsBefore;
  if (!n) return null;
  return h('p', { class: 'hint', 'data-testid': 'sheet-earlier' }, n === 1 ? t('sheet.earlier_one') : t('sheet.earlier', { n }));
}

function seatBox(deal, seat, place) {
  const info = S.room?.seats?.[seat];
  const count = deal.hand_sizes[seat] ?? 0;
  const turn = deal.turn === seat;
  const call = deal.phase === 'auction' ? lastCalls(deal)[seat] : null;
  const backs = Math.min(count, 10);
  return h(
    'section',
    {
      class: `seat place-${place.ring ? 'ring' : place.side}${turn ? ' turn' : ''}${info && !info.connected ? ' away' : ''}`,
      'data-seat': seat,
      'aria-label': `${seatName(seat)}: ${cardCount(count)}`,
    },
    h(
      'div',
      { class: 'seat-head' },
      turn ? h('span', { class: 'turn-arrow', 'aria-hidden': 'true' }, '▶') : null,
      info ? h('strong', { class: 'seat-name' }, seatName(seat)) : h('span', { class: 'seat-name free' }, t('room.free')),
      info && !info.connected ? h('span', { class: 'presence away' }, t('table.away')) : null,
    ),
    moveClock(seat),
    botLabel(info),
    h('div', { class: 'chips' }, roleChips(deal, seat)),
    h(
      'div',
      { class: 'backs', 'aria-hidden': 'true', style: `--n:${backs}` },
      Array.from({ length: backs }, () => h('span', { class: 'mini-card' }, cardBack())),
    ),
    h('span', { class: 'count' }, cardCount(count)),
    call ? h('span', { class: `bubble call-${call.call}`, 'data-testid': 'last-call' }, G().callText(call)) : null,
    // A seat whose player stayed away past the grace period, or one left free between deals,
    // may be taken over by a watcher.
    (!info || info.open) && !info?.bot && mySeat() === null
      ? h('button', { type: 'button', class: 'small', 'data-key': `take-open-${seat}`, onclick: () => api.send({ type: 'take_seat', seat }) }, t('room.take_seat'))
      : null,
  );
}

/**
 * The time left on the move clock of the seat whose turn it is (counted down in place, from the
 * room state as it came).
 */
function moveClock(seat) {
  const turn = S.room?.turn;
  if (!turn || turn.seat !== seat || typeof turn.left_ms !== 'number') return null;
  const deadline = S.roomAt + turn.left_ms;
  const left = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
  return h(
    'span',
    { class: `move-clock${left <= 10 ? ' low' : ''}`, 'data-testid': 'move-clock', title: t('clock.title') },
    clockIcon(),
    ' ',
    h('span', { 'data-deadline': deadline, 'data-format': 'clock' }, countdownText('clock', left)),
  );
}

/**
 * Whether this viewer may nudge now: he sits, a connected person's turn (not his, not a bot's)
 * has lasted long enough, and the page is connected (offline, whose turn it is may have changed unseen).
 */
function nudgeable(me) {
  if (S.conn !== 'open') return false;
  const turn = S.room?.turn;
  if (me === null || !turn || turn.seat === me) return false;
  const info = S.room?.seats?.[turn.seat];
  // A player who is not connected would never see the nudge: none is offered.
  if (!info || info.bot || info.stand_in || !info.connected) return false;
  return turn.waited_ms + (Date.now() - S.roomAt) >= NUDGE_AFTER_MS;
}

function cardCount(n) {
  return n === 1 ? t('table.one_card') : t('table.cards', { n });
}

function roleChips(deal, seat) {
  return [
    deal.dealer === seat ? h('span', { class: 'chip dealer', title: t('table.dealer') }, t('table.dealer')) : null,
    G().forehand(deal) === seat ? forehandChip() : null,
    deal.declarer === seat ? h('span', { class: 'chip declarer' }, t('table.declarer'), term('declarer')) : null,
    ...G().seatChips(S.game, seat),
  ];
}

/** The forehand's chip, in the game's word for him ("Vorhand"). */
function forehandChip() {
  const [text, explained] = G().forehandWords;
  return h('span', { class: 'chip vorhand' }, t(text), term(explained));
}

/**
 * The cards of a trick where their players sit. Up to four at a table each card lies toward its
 * side. From five on (a ring) the cards lie in rows that never overlap: across the top the cards
 * of the seats across the top, then a row for each seat up the sides, the left one's card at the
 * left end and the right one's at the right, the viewer's card in the middle of the last row; a
 * seat that has not played keeps its place empty. Each card is as wide as three fit side by side.
 * @param {import('./protocol.js').Play[]} plays
 * @param {Record<number, Place>} where
 * @param {any} trumps
 * @param {{winner?: number|null, ahead?: number|null, settled?: boolean}} marks
 */
function trickArea(plays, where, trumps, marks) {
  const card = (p) => playedCard(p, where[p.seat], trumps, p.seat === marks.winner, p.seat === marks.ahead);
  const cls = `trick-area${marks.settled ? ' settled' : ''}`;
  const seats = Object.entries(where).map(([seat, place]) => /** @type {[number, Place]} */ ([Number(seat), place]));
  if (!seats.some(([, place]) => place.ring)) return h('div', { class: cls }, plays.map(card));
  const bySeat = new Map(plays.map((p) => [p.seat, card(p)]));
  const slot = (seat) => (seat === undefined ? h('div', { class: 'trick-slot', 'aria-hidden': 'true' }) : (bySeat.get(seat) ?? h('div', { class: 'trick-slot', 'aria-hidden': 'true' })));
  const on = (side) => seats.filter(([, place]) => place.side === side).sort((a, b) => a[1].order - b[1].order).map(([seat]) => seat);
  const left = on('left');
  const right = on('right');
  const bottom = on('bottom')[0];
  const rows = [h('div', { class: 'trick-row across' }, on('top').map(slot))];
  const side = Math.max(left.length, right.length, 1);
  for (let r = 0; r < side; r++) {
    // Up the left side from the viewer: the last row holds the left seat nearest him.
    rows.push(h('div', { class: 'trick-row' }, slot(left[side - 1 - r]), r === side - 1 ? slot(bottom) : slot(undefined), slot(right[r])));
  }
  return h('div', { class: `${cls} ring` }, rows);
}

/**
 * A card on the table. `winner`: it took the finished trick; `ahead`: it takes the trick being
 * played as it stands (the server's `deal.winning`), marked unlike both the winner and a trump.
 */
function playedCard(play, place, trumps, winner, ahead = false) {
  const who = { name: seatName(play.seat) };
  const note = winner ? ` — ${t('table.takes_trick', who)}` : ahead ? ` — ${t('table.ahead_long', who)}` : '';
  return h(
    'div',
    {
      class: `played place-${place.ring ? 'ring' : place.side}${winner ? ' winner' : ''}${ahead ? ' ahead' : ''}`,
      'data-card': play.card,
      'data-seat': play.seat,
      role: 'img',
      'aria-label': `${seatName(play.seat)}: ${cardName(play.card)}${note}`,
    },
    cardFace(play.card, { trump: isTrump(play.card, trumps) }),
    // The winner's mark: a ribbon across the bottom edge, unlike the trump's star in the corner.
    winner ? h('span', { class: 'win-badge', 'aria-hidden': 'true' }, '✔ ', t('table.wins')) : null,
    ahead ? h('span', { class: 'ahead-badge', 'aria-hidden': 'true' }, '▲ ', t('table.ahead')) : null,
  );
}

/**
 * The auction in the middle of the table: the highest bid and who made it (and who holds it),
 * and the duel being fought — who challenges whom, with the calls of this duel.
 */
function auctionCaption(deal) {
  const calls = deal.calls ?? [];
  /** Each call with the highest bid before it (to say what a hold held). */
  let standing = null;
  let bidder = null;
  let heldBy = null;
  const said = calls.map((record) => {
    const before = standing;
    if (record.call.call === 'bid') {
      standing = record.call.bid;
      bidder = record.seat;
      heldBy = null;
    } else if (record.call.call === 'hold') heldBy = record.seat;
    return { seat: record.seat, text: record.call.call === 'hold' && before ? t('act.hold', { bid: G().bidText(before) }) : G().callText(record.call) };
  });
  const parts = [];
  if (deal.standing && bidder !== null) {
    parts.push(
      h(
        'p',
        { class: 'centre-caption standing', 'data-testid': 'standing', 'data-bidder': bidder },
        t('table.standing_by', { bid: G().bidText(deal.standing), name: seatName(bidder) }),
        heldBy !== null ? ` · ${t('table.held_by', { name: seatName(heldBy) })}` : '',
      ),
    );
  } else parts.push(h('p', { class: 'centre-caption standing', 'data-testid': 'standing' }, t('table.no_bid')));
  const holder = deal.holder;
  const challenger = deal.challenger;
  if (holder !== null && holder !== undefined && challenger !== null && challenger !== undefined) {
    // The duel began when the challenger came in: his calls and the holder's since, after the
    // call of the holder's he has to beat.
    let entry = calls.findIndex((r) => r.seat === challenger);
    if (entry < 0) entry = calls.length;
    const opening = said.slice(0, entry).findLastIndex((r, i) => r.seat === holder && calls[i].call.call !== 'pass');
    const duel = [...(opening >= 0 ? [said[opening]] : []), ...said.slice(entry)];
    parts.push(
      h(
        'p',
        { class: 'centre-caption duel', 'data-testid': 'duel', 'data-holder': holder, 'data-challenger': challenger },
        h('strong', null, t('table.duel', { a: seatName(holder), b: seatName(challenger) })),
        duel.length ? h('span', { class: 'duel-calls' }, duel.map((r) => `${seatName(r.seat)}: ${r.text}`).join(' · ')) : null,
      ),
    );
  }
  return parts;
}

function centre(deal, where) {
  const trumps = G().trumps(deal);
  /** @type {any} */
  let content = [];
  let caption = null;
  const held = S.ui.held && S.ui.held.deal === S.game?.number && deal.phase !== 'over' ? S.ui.held : null;
  if (deal.phase === 'auction') {
    caption = auctionCaption(deal);
    // The cards lying face down while the auction runs (a skat; the Dutt).
    const pile = G().auctionPile(deal);
    if (pile) content = [h('div', { class: 'skat', 'aria-label': t(pile[0]) }, Array.from({ length: pile[1] }, () => cardBack()))];
  } else if (held) {
    // The trick just taken stays a moment (what came after it waits), then goes to its winner.
    const { trick } = held;
    return h(
      'div',
      {
        class: `centre settled held${held.phase === 'sweep' ? ` sweep sweep-${where[trick.winner].side}` : ''}`,
        'data-testid': 'trick',
        'data-held': held.index,
      },
      trickArea(trick.cards, where, trumps, { winner: trick.winner }),
      h('p', { class: 'centre-caption' }, t('table.takes_trick', { name: seatName(trick.winner) })),
      G().centreExtra(S.game, deal),
    );
  } else if (shownKieker(deal, mySeat()) && beforeFirstCard(deal)) {
    // Laying away and naming trumps leave the middle free: the shown hand goes there.
    return h(
      'div',
      { class: 'centre shown', 'data-testid': 'trick' },
      h('section', { class: 'kieker-shown' }, h('h2', { class: 'centre-caption' }, t('table.kieker_hand', { name: seatName(deal.declarer) })), cardRow(deal.kieker_hand, trumps)),
    );
  } else if (G().centreShown(deal, (cards) => cardRow(cards, trumps))) {
    // Something the game lays down in the middle (Prisdorf: a Siebener Fips).
    return h('div', { class: 'centre shown', 'data-testid': 'trick' }, G().centreShown(deal, (cards) => cardRow(cards, trumps)));
  } else if (deal.trick.length > 0) {
    content = trickArea(deal.trick, where, trumps, { ahead: deal.winning });
  } else if (deal.tricks.length > 0 && deal.phase === 'over') {
    const last = deal.tricks[deal.tricks.length - 1];
    content = trickArea(last.cards, where, trumps, { winner: last.winner });
    caption = t('table.takes_trick', { name: seatName(last.winner) });
  } else if (deal.tricks.length > 0) {
    // The trick taken has gone to its winner, who leads the next.
    const last = deal.tricks[deal.tricks.length - 1];
    caption = t('table.took_trick', { name: seatName(last.winner) });
  } else if (deal.declarer !== null && deal.declarer !== undefined) {
    caption = `${seatName(deal.declarer)}: ${deal.game ? G().gameText(deal.game) : G().contractText(deal.contract)}`;
  }
  return h(
    'div',
    { class: `centre${deal.phase === 'auction' ? ' auction' : ''}${deal.trick.length === 0 && deal.tricks.length > 0 ? ' settled' : ''}`, 'data-testid': 'trick' },
    Array.isArray(content) ? h('div', { class: 'trick-area' }, content) : content,
    Array.isArray(caption) ? caption : caption ? h('p', { class: 'centre-caption' }, caption) : null,
    G().centreExtra(S.game, deal),
  );
}

function statusLine(deal, me, myTurn) {
  let text;
  if (deal.phase === 'over') return null;
  if (myTurn) {
    const key = deal.phase === 'discard' ? (deal.prompt.discard === 1 ? 'do.discard_one' : 'do.discard') : `do.${deal.phase}`;
    text = `${t('table.your_turn')}: ${t(key, { n: deal.prompt.discard ?? 2 })}`;
  } else if (me !== null && deal.turn === me && botStandsInForMe()) {
    text = t('wait.bot_for_you');
  } else if (deal.turn !== null && deal.turn !== undefined) {
    text = t(`wait.${deal.phase}`, { name: seatName(deal.turn) });
  } else text = '';
  const line = h('p', { class: `status${myTurn ? ' status-turn' : ''}`, role: 'status', 'aria-live': 'polite', 'data-testid': 'status' }, text);
  if (!nudgeable(me)) return line;
  const turn = S.room?.turn?.seat ?? 0;
  return h(
    'div',
    { class: 'status-row' },
    line,
    h(
      'button',
      { type: 'button', class: 'small nudge', 'data-key': 'nudge', title: t('nudge.help'), onclick: () => api.send({ type: 'nudge' }) },
      clockIcon(),
      ' ',
      t('nudge.button', { name: seatName(turn) }),
    ),
  );
}

/**
 * At the player's turn, brings the middle of the table (the trick, or Wippen's piles), his hand
 * and what he may do into view together, scrolling as little as that takes (the plates across
 * the top give way first). Where they do not all fit, the cards played to the trick (or
 * Wippen's piles) keep their top in view; with nothing played yet, the choices their bottom.
 * Moving the choices alone into view cut the trick off a phone.
 * @param {ScrollBehavior} [behavior]
 */
export function showTurn(behavior = 'smooth') {
  // On a wide screen the choices stay in view by themselves, beside the table (style.css).
  const stuck = (/** @type {Element} */ e) => {
    const column = e.closest('.table-right');
    return column !== null && getComputedStyle(column).position === 'sticky';
  };
  const parts = ['.felt .centre', '.hand', 'main .actions'].map((sel) => document.querySelector(sel)).filter((e) => e !== null && !stuck(e));
  if (parts.length === 0) return;
  const boxes = parts.map((e) => e.getBoundingClientRect());
  const top = Math.min(...boxes.map((b) => b.top));
  const bottom = Math.max(...boxes.map((b) => b.bottom));
  const margin = 8;
  const room = window.innerHeight - margin;
  let by = 0;
  if (bottom - top <= room - margin) {
    if (bottom > room) by = bottom - room;
    else if (top < margin) by = top - margin;
  } else {
    const played = document.querySelector('.felt .centre :is(.played, .wp-pile)') !== null;
    by = played ? top - margin : bottom - room;
  }
  if (Math.abs(by) >= 1) window.scrollBy({ top: by, behavior });
}

// ---- the action panel ----

/** The action panel: exactly what the prompt offers, in the rows of the room's game. */
function actionPanel(deal, me) {
  // While a bot finishes the trick for him, the server refuses his actions: offer none.
  if (me === null || botStandsInForMe()) return null;
  const p = deal.prompt ?? {};
  if (S.ui.confirm) {
    return h('section', { class: 'actions', 'aria-label': t('do.auction') }, confirmBar());
  }
  const parts = G().actions(deal, p);
  if (parts.length === 0) return null;
  return h('section', { class: 'actions', 'aria-label': t('do.auction') }, parts);
}

// ---- your hand ----

function handView(deal, me, myTurn) {
  const p = deal.prompt ?? {};
  const trumps = G().trumps(deal);
  const cards = sortHand(deal.hand ?? [], trumps);
  const playable = new Set(p.cards ?? []);
  // Cards to choose: so many to lay away, or up to so many to exchange (Tippen).
  const pick = p.discard ?? p.exchange ?? 0;
  const discarding = pick > 0;
  // While laying away, show which cards came from the skat (and the stock, in a Kieker) —
  // unless all did, as in a Kieker at three.
  let pickedUp = new Set(discarding ? G().pickedUp(deal) : []);
  if (cards.every((c) => pickedUp.has(c))) pickedUp = new Set();
  const onKey = (e) => {
    if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
    const buttons = [...e.currentTarget.querySelectorAll('button:not([disabled])')];
    const i = buttons.indexOf(document.activeElement);
    const next = buttons[(i + (e.key === 'ArrowRight' ? 1 : -1) + buttons.length) % buttons.length];
    if (next) {
      e.preventDefault();
      next.focus();
    }
  };
  return h(
    'section',
    // The keyboard's home between turns (see replaceKeepingFocus): from here it goes to a card
    // as soon as one can be played, and the arrow keys reach the cards.
    {
      class: `hand${discarding ? ' discarding' : ''}`,
      'aria-label': t('table.your_hand'),
      style: `--n:${cards.length}`,
      onkeydown: onKey,
      tabindex: '-1',
      'data-key': 'hand',
      'data-group-home': 'hand',
    },
    h(
      'div',
      { class: `me-bar${myTurn ? ' turn' : ''}` },
      h('strong', { class: 'seat-name' }, seatName(me)),
      h('span', { class: 'hint' }, `(${t('room.you')})`),
      moveClock(me),
      roleChips(deal, me),
      deal.phase === 'auction' && lastCalls(deal)[me]
        ? h('span', { class: `bubble inline call-${lastCalls(deal)[me].call}` }, G().callText(lastCalls(deal)[me]))
        : null,
      h('h2', { class: 'sr-only' }, t('table.your_hand')),
    ),
    h(
      'div',
      // Ten cards (a Kieker laying away) take two rows on a phone, more than twelve three.
      {
        class: `hand-cards${cards.length > 7 ? ' many' : ''}${cards.length > 12 ? ' most' : ''}`,
        style: `--cols:${Math.ceil(cards.length / (cards.length > 12 ? 3 : 2))}`,
      },
      cards.map((card) => {
        const trump = isTrump(card, trumps);
        // A game whose hand card is chosen before the move is made (Wippen) says which is chosen.
        const picks = Boolean(G().handPicks);
        const selected = picks ? G().pickedCard(card) : discarding && S.ui.selected.includes(card);
        const enabled = !S.waiting && !botStandsInForMe() && (picks ? myTurn : discarding || playable.has(card));
        return h(
          'button',
          {
            type: 'button',
            class: `hand-card${selected ? ' selected' : ''}${trump ? ' trump' : ''}${(picks ? enabled : playable.has(card)) ? ' playable' : ''}${pickedUp.has(card) ? ' picked-up' : ''}`,
            'data-card': card,
            'data-key': `card-${card}`,
            'data-group': 'hand',
            'aria-label': `${cardName(card)}${trump ? `, ${t('table.trump')}` : ''}${pickedUp.has(card) ? `, ${t('table.from_skat')}` : ''}`,
            'aria-pressed': discarding || picks ? String(selected) : null,
            disabled: !enabled,
            onclick: () => (picks ? G().pickCard(card) : clickCard(card, discarding, pick)),
          },
          cardFace(card, { trump }),
          pickedUp.has(card) ? h('span', { class: 'card-tag', 'aria-hidden': 'true' }, t('table.from_skat')) : null,
        );
      }),
    ),
  );
}

function clickCard(card, discarding, k) {
  if (discarding) {
    const sel = S.ui.selected;
    if (sel.includes(card)) S.ui.selected = sel.filter((c) => c !== card);
    else if (sel.length < k) S.ui.selected = [...sel, card];
    api.render();
    return;
  }
  // One tap plays a card the server allows: a card is not a call to take back.
  api.act({ action: 'play', card });
}

function kiekerShown(deal) {
  return h(
    'section',
    { class: 'panel kieker-shown' },
    h('h2', null, t('table.kieker_hand', { name: seatName(deal.declarer) })),
    cardRow(deal.kieker_hand, G().trumps(deal)),
  );
}

function cardRow(cards, trumps, label) {
  return h(
    'div',
    { class: 'card-row', role: 'list', 'aria-label': label ?? null },
    sortHand(cards ?? [], trumps).map((c) =>
      h('span', { class: 'small-card', role: 'listitem', 'aria-label': cardName(c), 'data-card': c }, cardFace(c, { trump: isTrump(c, trumps) })),
    ),
  );
}

// ---- the end of a deal ----

/** The numbers of the series' finished deals: every one before this, and this once it is over. */
function finishedDeals(game, deal) {
  const last = deal.phase === 'over' ? game.number : game.number - 1;
  return Array.from({ length: Math.max(0, last) }, (_, i) => i + 1);
}

function resultPanel(game, deal, me) {
  const played = Array.isArray(deal.tricks) && deal.tricks.length > 0 ? deal.tricks.length : undefined;
  const sentence = G().outcomeSentence(deal.outcome, deal.scores, deal.dealer, played);
  const reveal = deal.reveal;
  const trumps = G().trumps(deal);
  const n = deal.hand_sizes.length;
  return h(
    'section',
    { class: 'result panel', 'aria-labelledby': 'result-title', 'data-testid': 'result' },
    h('h2', { id: 'result-title' }, t('result.title')),
    h('p', { class: 'result-sentence' }, sentence),
    // At the end of the series its words ("Final totals:") lead into the totals below them.
    game.over ? h('p', { class: 'series-over' }, t('result.series_over')) : null,
    h(
      'ul',
      { class: 'result-scores' },
      Array.from({ length: n }, (_, i) =>
        h(
          'li',
          { 'data-seat': i },
          h('span', null, seatName(i)),
          h('strong', { class: 'total' }, points(game.totals?.[i] ?? 0)),
          deal.scores?.[i] ? h('span', { class: 'hint points' }, ` (${points(deal.scores[i])})`) : null,
        ),
      ),
    ),
    game.over ? rematchPanel(S.room) : null,
    game.over ? null : nextDealPanel(me),
    h(
      'div',
      { class: 'row' },
      h('button', { type: 'button', class: 'big', 'data-key': 'result-sheet', 'aria-haspopup': 'dialog', onclick: () => openDialog('sheet') }, t('table.scoresheet')),
      me !== null && G().review ? reviewButton(/** @type {any} */ (game)) : null,
      mayReplay() ? replayButton(game.number) : null,
    ),
    seatsBetweenDeals(),
    reveal
      ? h(
          'details',
          { class: 'reveal', open: true },
          h('summary', null, t('result.hands')),
          h(
            'div',
            { class: 'reveal-grid' },
            Array.from({ length: n }, (_, i) => h('div', { class: 'reveal-seat', 'data-seat': i }, h('h3', null, seatName(i), ` — ${t('result.dealt')}`), cardRow(reveal.dealt[i], trumps, seatName(i)))),
            G()
              .revealZones(reveal)
              .map(([key, cards]) => (cards?.length ? h('div', null, h('h3', null, t(key)), cardRow(cards, trumps)) : null)),
          ),
        )
      : null,
  );
}

/**
 * Between deals: the seats, for the host to seat or take off bots, and for everyone to see a
 * seat left free (the next deal waits for it). Open by itself when a seat is free.
 */
function seatsBetweenDeals() {
  const room = S.room;
  // A tournament table's seats are the tournament's: nothing to change there.
  if (room?.status !== 'between_deals' || room.tournament) return null;
  const free = room.seats.some((seat) => !seat);
  if (!free && !amHost()) return null;
  return h(
    'details',
    { class: 'seats-between', open: free || S.ui.botPicker !== null || seatsOpen, ...keepOpen((open) => (seatsOpen = open)) },
    h('summary', { 'data-key': 'seats-between' }, t('room.seats_bots')),
    free ? h('p', { class: 'hint', role: 'status' }, t('room.next_deal_waits')) : null,
    seatList(),
  );
}
let seatsOpen = false;

/**
 * Between deals: when the next deal comes by itself (counting down, or standing still while
 * someone reads), who is ready, "Ready" and "Wait — I'm reading".
 */
function nextDealPanel(me) {
  const room = S.room;
  const asked = room?.next_deal_asked ?? [];
  // The next deal waits for the people at the table who are connected (not bots, not the absent).
  const people = (room?.seats ?? []).filter((seat) => seat && !seat.bot && seat.connected);
  const ready = people.filter((seat) => asked.includes(seat.seat)).length;
  const paused = Boolean(room?.next_deal_paused);
  const mine = me !== null && asked.includes(me);
  let when = null;
  if (paused) {
    const reading = room?.reading ?? [];
    const others = reading.filter((seat) => seat !== me).map((seat) => seatName(seat));
    const text = others.length ? t('next.paused', { names: others.join(', ') }) : t('next.paused_you');
    when = h('span', { class: 'paused' }, pauseIcon(), ' ', text);
  } else if (S.nextDealAt) {
    const left = Math.max(0, Math.ceil((S.nextDealAt - Date.now()) / 1000));
    when = h('span', { 'data-deadline': S.nextDealAt, 'data-format': 'next' }, countdownText('next', left));
  } else when = h('span', null, t('next.when_ready'));
  return h(
    'div',
    { class: `next-deal${paused ? ' paused' : ''}`, 'data-testid': 'next-deal' },
    h('p', { class: 'next-when', role: 'status', 'data-testid': 'next-when' }, when),
    h('p', { class: 'hint', 'data-testid': 'ready-count' }, t('next.ready', { n: ready, k: people.length })),
    me !== null
      ? h(
          'div',
          { class: 'row' },
          h(
            'button',
            { type: 'button', class: 'primary big', 'data-key': 'next-deal', disabled: S.waiting || mine, onclick: () => api.ready() },
            mine ? `✔ ${t('next.ready_done')}` : t('next.ready_button'),
          ),
          mine && othersToNudge(me)
            ? h(
                'button',
                { type: 'button', class: 'nudge', 'data-key': 'nudge', title: t('nudge.help'), onclick: () => api.send({ type: 'nudge' }) },
                clockIcon(),
                ' ',
                t('nudge.others'),
              )
            : null,
          mine
            ? null
            : h(
                'label',
                { class: 'check reading-toggle' },
                h('input', {
                  type: 'checkbox',
                  'data-key': 'reading',
                  checked: S.ui.reading,
                  onchange: (e) => {
                    S.ui.reading = e.target.checked;
                    api.render();
                  },
                }),
                h('span', null, t('next.reading')),
              ),
        )
      : null,
  );
}

/**
 * Between deals, once this player is ready: whether others keep the table waiting long enough
 * (15 s after the deal ended) to remind them.
 */
function othersToNudge(me) {
  const room = S.room;
  const asked = room?.next_deal_asked ?? [];
  const waiting = (room?.seats ?? []).some((seat) => seat && seat.seat !== me && !seat.bot && seat.connected && !asked.includes(seat.seat));
  return waiting && Date.now() - S.overAt >= NUDGE_AFTER_MS;
}

function lastTrick(deal, where) {
  const last = deal.tricks[deal.tricks.length - 1];
  if (!last) return h('p', null, '—');
  return h(
    'div',
    { class: 'last-trick' },
    trickArea(last.cards, where, G().trumps(deal), { winner: last.winner, settled: true }),
    h(
      'ul',
      { class: 'plain-list' },
      last.cards.map((p) => h('li', { class: p.seat === last.winner ? 'winner' : null }, `${seatName(p.seat)}: ${cardName(p.card)}`, p.seat === last.winner ? h('strong', null, ` ✔ ${t('table.wins')}`) : null)),
    ),
    h('p', { 'data-testid': 'last-trick-winner', 'data-seat': last.winner }, t('table.takes_trick', { name: seatName(last.winner) })),
  );
}

// ---- chat and log ----

function chatPanel() {
  const send = () => {
    const text = S.ui.chatDraft.trim();
    if (!text) return;
    if (api.send({ type: 'chat', text })) {
      S.ui.chatDraft = '';
      api.render();
    }
  };
  return h(
    'aside',
    { class: `side${S.ui.chatOpen ? ' open' : ''}`, 'aria-label': t('chat.title') },
    h(
      'div',
      { class: 'side-head' },
      h('h2', null, t('chat.title')),
      h(
        'button',
        {
          type: 'button',
          class: 'icon-button side-close',
          'data-key': 'close-chat',
          'aria-label': t('table.close'),
          onclick: () => {
            S.ui.chatOpen = false;
            api.render();
          },
        },
        '✕',
      ),
    ),
    h(
      'ol',
      // Focusable, so that the keyboard scrolls it too.
      { class: 'chat-log', tabindex: '0', 'data-key': 'chat-log', 'aria-label': t('chat.title'), 'aria-live': 'polite', 'aria-relevant': 'additions' },
      S.log.slice(-200).map((line) =>
        line.kind === 'chat'
          ? h(
              'li',
              { class: `chat-line${line.role === 'spectator' ? ' from-spectator' : ''}` },
              line.role === 'spectator'
                ? h('span', { class: 'watcher-mark', 'data-testid': 'watcher-mark' }, eyeIcon(), ' ', t('chat.watching'))
                : null,
              h('strong', null, line.from, ': '),
              line.text,
            )
          : h('li', { class: 'log-line' }, line.text),
      ),
    ),
    h(
      'form',
      {
        class: 'chat-form',
        onsubmit: (e) => {
          e.preventDefault();
          send();
        },
      },
      h('input', {
        type: 'text',
        'data-key': 'chat-input',
        maxlength: 300,
        placeholder: t('chat.placeholder'),
        'aria-label': t('chat.placeholder'),
        value: S.ui.chatDraft,
        oninput: (e) => (S.ui.chatDraft = e.target.value),
      }),
      h('button', { type: 'submit', 'data-key': 'chat-send' }, t('chat.send')),
    ),
  );
}
