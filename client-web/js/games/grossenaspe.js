// Großenaspe Fipsen (docs/rules/grossenaspe.md §A): the 32-card pack, bids from 1 with clubs as "Gute", the
// Kieker with skat and talon (who may fold), Fips, the scribe, and a score in cents. Everything it
// offers comes from the server's prompt; what a module exports is listed in games/interface.js.

import { h } from '../dom.js';
import { t } from '../i18n.js';
import { suitName } from '../format.js';
import { callButton, callRow, discardPanel, suitButton, term } from '../calls.js';
import { seatName } from '../store.js';
import { cardShort } from '../cards.js';
import { strings as words } from './grossenaspe-strings.js';
import {
  actionTextWith,
  callTextWith,
  commonEventTexts,
  commonOptions,
  commonOutcomeSentence,
  commonResultWord,
  commonRows,
  contractTextWith,
  durchRow,
  sheetFoot,
  totalText,
  trumps,
} from './holstein.js';

export const id = /** @type {string} */ ('grossenaspe');

export function name() {
  return t('game.name.grossenaspe');
}

export const strings = /** @type {Partial<Record<import("../i18n.js").Lang, Record<string, string>>>} */ (words);

/** The server reviews a seat's calls, and the declarer's discard and trumps. */
export const review = /** @type {boolean} */ (true);

// ---- the rules ----

export const defaults = /** @type {Record<string, any>} */ ({
  players: 4,
  min_bid: 1,
  first_lead: 'forehand',
  kieker_show: 'left_opponent',
  loss_factor: 2,
  cents: false,
  deals: '',
});

export const playerChoices = [4, 3, 5];

/** @param {import('./interface.js').FormKit} kit */
export function rulesForm(kit) {
  const common = commonOptions(kit);
  return {
    main: [kit.radio('players', t('opt.players'), playerChoices.map((n) => [n, String(n)]), t('ga.opt.players.help'))],
    more: [
      kit.radio(
        'min_bid',
        t('opt.min_bid'),
        [
          [1, '1'],
          [2, '2'],
        ],
        t('ga.opt.min_bid.help'),
      ),
      common.firstLead,
      kit.radio(
        'kieker_show',
        t('opt.kieker_show'),
        [
          ['left_opponent', t('opt.kieker_show.left_opponent')],
          ['nobody', t('opt.kieker_show.nobody')],
        ],
        t('ga.opt.kieker_show.help'),
      ),
      common.lossFactor,
      common.cents,
      kit.deals(),
    ],
  };
}

/** @returns {import('../protocol.js').GameRules} */
export function rulesFromForm(draft, deals) {
  return {
    game: 'grossenaspe',
    players: draft.players,
    min_bid: draft.min_bid,
    first_lead: draft.first_lead,
    kieker_show: draft.kieker_show,
    loss_factor: draft.loss_factor,
    cents: draft.cents,
    deals,
  };
}

/** @returns {import('../protocol.js').GameRules} */
export function practiceRules(players) {
  return { game: 'grossenaspe', players };
}

/** @param {any} rules */
export function rulesRows(rules) {
  const common = commonRows(rules);
  return [
    [t('opt.players'), String(rules.players ?? 4)],
    [t('opt.min_bid'), String(rules.min_bid ?? 1)],
    common.firstLead,
    [t('opt.kieker_show'), t(`opt.kieker_show.${rules.kieker_show ?? 'left_opponent'}`)],
    common.lossFactor,
    common.cents,
    common.deals,
  ];
}

/** @param {any} rules */
export function inviteFacts(rules) {
  return rules.cents ? [t('hs.opt.cents')] : [];
}

export function howto() {
  return [1, 2, 3, 4, 5, 6].map((i) => t(`howto.grossenaspe.${i}`));
}

// ---- words ----

/** "1", "3 Gute", "Kieker", "Fips". @param {any} bid a GrossenaspeBid */
export function bidText(bid) {
  if (!bid) return '';
  if (bid.kind === 'kieker') return t('ga.bid.kieker');
  if (bid.kind === 'fips') return t('ga.bid.fips');
  const n = t('ga.bid.tricks', { n: bid.tricks });
  return bid.gute ? `${n} ${t('ga.bid.gute')}` : n;
}

/** @param {any} call a GrossenaspeCall */
export const callText = callTextWith(bidText);

/** The game as declared: "3 Gute", "2 in clubs Durch", "Kieker", "Fips". @param {any} game */
export function gameText(game) {
  if (!game) return '';
  const parts = [bidText(game.bid)];
  if (game.bid?.kind === 'tricks' && !game.bid.gute && game.trumps === 'clubs') parts.push(t('ga.game.clubs_named'));
  if (game.durch && game.bid?.kind === 'tricks' && game.bid.tricks < 5) parts.push(t('game.durch'));
  return parts.join(' ');
}

/** Value of a game (§A7), shown only: n × 2 for clubs × 2 for Durch (a 5 always); Kieker 10, Fips 20. */
export function gameValue(game) {
  const bid = game?.bid;
  if (!bid) return 0;
  if (bid.kind === 'kieker') return 10;
  if (bid.kind === 'fips') return 20;
  const clubs = bid.gute || game.trumps === 'clubs' ? 2 : 1;
  const durch = game.durch || bid.tricks === 5 ? 2 : 1;
  return bid.tricks * clubs * durch;
}

/** @param {any} contract a GrossenaspeContract */
export const contractText = contractTextWith(bidText);

/** An action in words (the review of a seat's decisions). @param {any} action a GrossenaspeAction */
export function actionText(action) {
  return actionTextWith(bidText, trumpsName)(action);
}

/** Trumps are named by the suit alone (no Ruten here). */
export function trumpsName(suit) {
  return suitName(suit);
}

/** @param {any} g the declared game */
export function gameTerms(g) {
  const bid = g?.bid;
  return [bid?.kind === 'kieker' ? term('ga_kieker') : null, bid?.kind === 'fips' ? term('fips') : null, bid?.gute || g?.trumps === 'clubs' ? term('gute') : null];
}

// ---- the table ----

/** The scribe's chip at his seat. @param {any} game @param {number} seat */
export function seatChips(game, seat) {
  return game?.scribe === seat ? [h('span', { class: 'chip scribe', 'data-testid': 'scribe' }, t('ga.table.scribe'), term('scribe'))] : [];
}

/** @param {any} deal */
export function pickedUp(deal) {
  return [...(deal.skat ?? []), ...(deal.talon ?? [])];
}

/** The cards lying face down in the middle during the auction: their name's key and how many. @param {any} deal @returns {[string, number]|null} */
// eslint-disable-next-line no-unused-vars
export function auctionPile(deal) {
  return ['table.skat', 2];
}

/** @param {any} reveal */
export function revealZones(reveal) {
  return [
    ['table.skat', reveal.skat],
    ['ga.table.talon', reveal.talon],
    ['table.discards', reveal.discards],
    ['ga.table.laid_aside', reveal.laid_aside],
  ];
}

/** The bids of the auction grid, lowest first: rows of [label, plain, Gute] and single bids. */
const ROWS = [1, 2, 3, 4, 'kieker', 5, 'fips'];

/**
 * The action panel: the auction (bids as the prompt lists them, hold, pass), laying away, the
 * trumps (and a Kieker's fold), stop or go on.
 * @param {any} deal
 * @param {any} p the prompt
 */
export function actions(deal, p) {
  const parts = [];
  if (p.bids?.length || p.hold || p.pass) parts.push(biddingPanel(deal, p));
  if (p.discard) parts.push(discardPanel(p.discard));
  if (p.trumps?.length) {
    parts.push(
      h(
        'div',
        { class: 'suits-row four', role: 'group', 'aria-label': t('do.trumps') },
        p.trumps.map((suit) => suitButton(suit, suitName(suit))),
        p.trumps.includes('clubs') ? h('div', { class: 'gute-note hint' }, `${t('suit.clubs')} = ${t('ga.bid.gute')}`, term('gute')) : null,
      ),
    );
  }
  parts.push(
    callRow([[p.fold, 'ga.act.fold', { action: 'fold' }, 'fold', 'danger']], ['ga_kieker']),
    durchRow(p),
  );
  return parts.filter(Boolean);
}

function bidButton(bid, key) {
  return callButton(bidText(bid), { action: 'bid', bid }, key, 'bid-button', undefined, t('act.bid', { bid: bidText(bid) }));
}

function biddingPanel(deal, p) {
  const bids = p.bids ?? [];
  const rows = [];
  for (const row of ROWS) {
    if (row === 'kieker' || row === 'fips') {
      const bid = bids.find((b) => b.kind === row);
      if (!bid) continue;
      const label = row === 'kieker' ? 'ga_kieker' : 'fips';
      rows.push(
        h(
          'div',
          { class: `bid-row ${row}-row`, role: 'row' },
          h('span', { class: 'bid-row-label', role: 'rowheader' }, t(`ga.bid.${row}`), term(label)),
          h('span', { class: 'kieker-cell', role: 'cell' }, bidButton(bid, `bid-${row}`)),
        ),
      );
      continue;
    }
    const cells = [false, true].map((gute) => bids.find((b) => b.kind === 'tricks' && b.tricks === row && Boolean(b.gute) === gute));
    if (!cells.some(Boolean)) continue;
    rows.push(
      h(
        'div',
        { class: 'bid-row', role: 'row' },
        h('span', { class: 'bid-row-label', role: 'rowheader' }, t('bid.row', { n: row })),
        cells.map((bid, i) => h('span', { class: 'bid-cell', role: 'cell' }, bid ? bidButton(bid, `bid-${row}${i ? '-g' : ''}`) : null)),
      ),
    );
  }
  return h(
    'div',
    { class: 'bidding', role: 'group', 'aria-label': t('do.auction') },
    rows.length
      ? h(
          'div',
          { class: 'bid-grid ga-grid', role: 'table', 'aria-label': t('do.auction') },
          h(
            'div',
            { class: 'bid-row bid-head', role: 'row' },
            h('span', { role: 'columnheader' }),
            h('span', { role: 'columnheader' }, t('ga.col.plain')),
            h('span', { role: 'columnheader' }, t('ga.bid.gute'), term('gute')),
          ),
          rows,
        )
      : null,
    h(
      'div',
      { class: 'row' },
      p.hold ? callButton(t('act.hold', { bid: bidText(deal.standing) }), { action: 'hold' }, 'hold', 'primary big') : null,
      p.hold ? term('hold') : null,
      p.pass ? callButton(t('act.pass'), { action: 'pass' }, 'pass', 'big pass') : null,
    ),
  );
}

// ---- the log ----

export const moves = new Set(['called', 'card_played', 'discarded', 'trumps_named', 'folded', 'stopped', 'went_on']);

/**
 * @param {any} e a GrossenaspeEvent
 * @param {any} deal
 * @param {any} [after] the deal as the message that brought the event leaves it
 * @returns {string[]}
 */
export function eventTexts(e, deal, after) {
  const common = commonEventTexts(e, deal, { callText, contractText, trumpsName, outcomeSentence }, after);
  if (common) return common;
  const name = seatName(e?.seat);
  const one = (key, extra = {}) => [t(key, { name, ...extra })];
  switch (e?.event) {
    case 'skat_taken':
      return one('log.skat_taken');
    case 'folded':
      return one('ga.log.folded');
    case 'scribe_drawn':
      return one('ga.log.scribe', { name: seatName(e.scribe), cards: (e.turned ?? []).map(cardShort).join(' ') });
    case 'kieker_shown':
      return one('log.kieker_shown', { to: seatName(e.to) });
    case 'kieker_picked_up':
      return one('ga.log.kieker_picked_up', { n: e.count });
    default:
      return [];
  }
}

/** @param {any} outcome a GrossenaspeOutcome */
export function outcomeSentence(outcome, scores, dealer, played) {
  if (outcome?.result === 'folded') return t('ga.result.folded', { name: seatName(outcome.declarer) });
  return commonOutcomeSentence(outcome, scores, dealer, gameText, played) ?? '';
}

// ---- the scoresheet ----

export function resultWord(outcome) {
  return outcome?.result === 'folded' ? t('ga.sheet.folded') : (commonResultWord(outcome) ?? '');
}

/** @param {any} row */
export function sheetGame(row) {
  const game = row.outcome?.game;
  return game ? gameText(game) : contractText(row.contract) || '—';
}

/** The scribe, named above the sheet. @param {any} game */
export function sheetHead(game) {
  if (game?.scribe === undefined || game?.scribe === null) return null;
  return h('p', { class: 'sheet-scribe', 'data-testid': 'sheet-scribe' }, t('ga.sheet.scribe', { name: seatName(game.scribe) }));
}

export { sheetFoot, totalText, trumps };
