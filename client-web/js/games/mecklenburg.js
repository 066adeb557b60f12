// The Mecklenburg games (docs/rules/mecklenburg.md §B): Anseggerfips and Duttfips. Both play the 25-card pack
// with the Rutenas (♦A) as the only diamond, four players, a Dutt of five cards, Ruten (the
// Rutenas the only trump, double), Fips and Rutenfips; they differ in the auction and in the Dutt.
// `mecklenburg(id)` makes the module of either game (what a module exports is listed in
// games/interface.js), which games/index.js registers for each game.

import { h } from '../dom.js';
import { t } from '../i18n.js';
import { suitName } from '../format.js';
import { callButton, discardPanel, suitButton, term } from '../calls.js';
import { seatName } from '../store.js';
import { cardShort } from '../cards.js';
import { strings as words } from './mecklenburg-strings.js';
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

const strings = /** @type {Partial<Record<import("../i18n.js").Lang, Record<string, string>>>} */ (words);

/** Each game's options as the server defaults them (§B7). */
const DEFAULTS = {
  anseggerfips: {
    auction: 'single_round',
    min_bid: 2,
    dutt: 'unused',
    ruten_needs_rutenas: true,
    ruten_unbid: true,
    durch: true,
    loss_factor: 2,
    first_lead: 'forehand',
    faces: 'german',
    cents: false,
    deals: '',
  },
  duttfips: {
    ruten_needs_rutenas: false,
    ruten_unbid: true,
    durch: true,
    loss_factor: 2,
    first_lead: 'forehand',
    faces: 'german',
    cents: false,
    deals: '',
  },
};

/** The table's faces as the settings' deck choices name them. */
export const FACES_DECK = { german: 'german', french: 'french', four_colour: 'four' };

// ---- words shared by both games ----

/** "3", "Ruten 3", "Fips", "Rutenfips", "Dutt", "Ruten oewer". @param {any} bid a MecklenburgBid */
export function bidText(bid) {
  if (!bid) return '';
  if (bid.kind === 'tricks') return bid.ruten ? t('mb.bid.ruten', { n: bid.tricks }) : String(bid.tricks);
  return t(`mb.bid.${bid.kind}`);
}

/** Whether a bid is a Ruten bid. */
function isRuten(bid) {
  return Boolean(bid?.ruten) || bid?.kind === 'rutenfips' || bid?.kind === 'ruten_oewer';
}

/** The bid a game is played as: a suit bid played with Ruten named becomes its Ruten bid (§B2, §B3). */
function playedBid(game) {
  const bid = game?.bid;
  if (!bid || game.trumps !== 'diamonds' || isRuten(bid)) return bid;
  if (bid.kind === 'tricks') return { ...bid, ruten: true };
  if (bid.kind === 'fips') return { kind: 'rutenfips' };
  if (bid.kind === 'dutt') return { kind: 'ruten_oewer' };
  return bid;
}

/** The tricks a bid undertakes. */
function target(bid) {
  if (bid?.kind === 'tricks') return bid.tricks;
  if (bid?.kind === 'dutt' || bid?.kind === 'ruten_oewer') return 3;
  return 5;
}

/** The game as played: "Ruten 3", "4 Durch", "Rutenfips". @param {any} game a MecklenburgGame */
export function gameText(game) {
  if (!game) return '';
  const bid = playedBid(game);
  const text = bidText(bid);
  return game.durch && target(bid) < 5 ? `${text} ${t('game.durch')}` : text;
}

/** Value (§B5), shown only: target × 2 for Ruten × 2 for Durch (a five-trick game always). */
export function gameValue(game) {
  const bid = playedBid(game);
  if (!bid) return 0;
  const n = target(bid);
  return n * (isRuten(bid) ? 2 : 1) * (game.durch || n === 5 ? 2 : 1);
}

export const callText = callTextWith(bidText);
export const contractText = contractTextWith(bidText);

/** Diamonds as trumps are Ruten: the Rutenas alone. @param {any} suit */
export function trumpsName(suit) {
  return suit === 'diamonds' ? t('mb.trumps.ruten') : suitName(suit);
}

/** The one term that explains the game as played (Fips also Rutenfips). @param {any} g */
export function gameTerms(g) {
  const bid = playedBid(g);
  if (bid?.kind === 'fips' || bid?.kind === 'rutenfips') return [term('mb_fips')];
  if (bid?.kind === 'dutt') return [term('mb_dutt')];
  return [isRuten(bid) ? term('mb_ruten') : null];
}

// ---- the action panel ----

/** Where a bid sits in the auction grid: its row (lowest first) and whether it is the Ruten column. */
function gridPlace(bid) {
  if (bid.kind === 'tricks') return { row: bid.tricks, ruten: Boolean(bid.ruten) };
  if (bid.kind === 'dutt' || bid.kind === 'ruten_oewer') return { row: 'three', ruten: bid.kind === 'ruten_oewer' };
  return { row: 'fips', ruten: bid.kind === 'rutenfips' };
}

/** The data-key of a bid's button: bid-3, bid-3-r, bid-fips, bid-rutenfips, bid-dutt, bid-ruten_oewer. */
function bidKey(bid) {
  return bid.kind === 'tricks' ? `bid-${bid.tricks}${bid.ruten ? '-r' : ''}` : `bid-${bid.kind}`;
}

function bidButton(bid) {
  return callButton(bidText(bid), { action: 'bid', bid }, bidKey(bid), 'bid-button', undefined, t('act.bid', { bid: bidText(bid) }));
}

const ROW_ORDER = [1, 2, 3, 4, 'three', 'fips'];

/** The bids the prompt lists in a grid: a row per target, a suit column and a Ruten column; hold and pass below. */
function biddingPanel(deal, p) {
  const rows = new Map();
  for (const bid of p.bids ?? []) {
    const { row, ruten } = gridPlace(bid);
    if (!rows.has(row)) rows.set(row, [null, null]);
    rows.get(row)[ruten ? 1 : 0] = bid;
  }
  const label = (row) => (row === 'fips' ? t('mb.row.fips') : row === 'three' ? t('mb.row.three') : t('bid.row', { n: row }));
  const grid = rows.size
    ? h(
        'div',
        { class: 'bid-grid mb-grid', role: 'table', 'aria-label': t('do.auction') },
        h(
          'div',
          { class: 'bid-row bid-head', role: 'row' },
          h('span', { role: 'columnheader' }),
          h('span', { role: 'columnheader' }, t('mb.col.suit')),
          h('span', { role: 'columnheader' }, t('mb.col.ruten'), term('mb_ruten')),
        ),
        ROW_ORDER.filter((row) => rows.has(row)).map((row) =>
          h(
            'div',
            { class: 'bid-row', role: 'row' },
            h('span', { class: 'bid-row-label', role: 'rowheader' }, label(row)),
            rows.get(row).map((bid) => h('span', { class: 'bid-cell', role: 'cell' }, bid ? bidButton(bid) : null)),
          ),
        ),
      )
    : null;
  return h(
    'div',
    { class: 'bidding', role: 'group', 'aria-label': t('do.auction') },
    grid,
    h(
      'div',
      { class: 'row' },
      p.hold ? callButton(t('act.hold', { bid: bidText(deal.standing) }), { action: 'hold' }, 'hold', 'primary big') : null,
      p.hold ? term('hold') : null,
      p.pass ? callButton(t('act.pass'), { action: 'pass' }, 'pass', 'big pass') : null,
    ),
  );
}

/** The trumps the prompt offers; diamonds said as Ruten. */
function trumpsPanel(p) {
  return h(
    'div',
    { class: `suits-row${p.trumps.length > 3 ? ' four' : ''}`, role: 'group', 'aria-label': t('do.trumps') },
    p.trumps.map((suit) => suitButton(suit, trumpsName(suit))),
    p.trumps.includes('diamonds') ? h('div', { class: 'gute-note hint' }, t('mb.trumps.ruten_note'), term('mb_ruten')) : null,
  );
}

/**
 * The action panel: the auction (the bids as the prompt lists them, hold, pass), laying away
 * (after taking the Dutt), the trumps incl. Ruten, stop or go on.
 * @param {any} deal
 * @param {any} p the prompt
 */
export function actions(deal, p) {
  return [
    p.bids?.length || p.hold || p.pass ? biddingPanel(deal, p) : null,
    p.discard ? discardPanel(p.discard) : null,
    p.trumps?.length ? trumpsPanel(p) : null,
    durchRow(p),
  ].filter(Boolean);
}

// ---- the log ----

function eventTextsWith(say) {
  return (e, deal, after) => {
    const common = commonEventTexts(e, deal, say, after);
    if (common) return common;
    if (e?.event === 'dutt_taken') {
      const name = seatName(e.seat);
      // The declarer sees the Dutt's cards; everybody else how many.
      return e.dutt?.length ? [t('mb.log.dutt_taken_cards', { name, cards: e.dutt.map(cardShort).join(' ') })] : [t('mb.log.dutt_taken', { name, n: e.count })];
    }
    return [];
  };
}

/** @param {any} outcome a MecklenburgOutcome */
function outcomeSentence(outcome, scores, dealer, played) {
  return commonOutcomeSentence(outcome, scores, dealer, gameText, played) ?? '';
}

// ---- the module of one game ----

/**
 * The module of Anseggerfips or Duttfips.
 * @param {'anseggerfips'|'duttfips'} id
 */
export function mecklenburg(id) {
  const ansegger = id === 'anseggerfips';
  const defaults = /** @type {Record<string, any>} */ ({ ...DEFAULTS[id] });

  /** @param {import('./interface.js').FormKit} kit */
  function rulesForm(kit) {
    const common = commonOptions(kit);
    const check = (key) => kit.check(key, t(`mb.opt.${key}`), `mb.opt.${key}.help`);
    return {
      main: ansegger
        ? [
            kit.radio(
              'auction',
              t('mb.opt.auction'),
              [
                ['single_round', t('mb.opt.auction.single_round')],
                ['duels', t('mb.opt.auction.duels')],
              ],
              t('mb.opt.auction.help'),
            ),
          ]
        : [],
      more: [
        ansegger ? kit.radio('min_bid', t('opt.min_bid'), [1, 2, 3, 4].map((n) => [n, String(n)]), t('mb.opt.min_bid.help')) : null,
        ansegger
          ? kit.radio(
              'dutt',
              t('mb.opt.dutt'),
              [
                ['unused', t('mb.opt.dutt.unused')],
                ['exchange', t('mb.opt.dutt.exchange')],
              ],
              t('mb.opt.dutt.help'),
            )
          : null,
        check('ruten_needs_rutenas'),
        check('ruten_unbid'),
        check('durch'),
        common.firstLead,
        common.lossFactor,
        kit.radio(
          'faces',
          t('mb.opt.faces'),
          ['german', 'french', 'four_colour'].map((f) => [f, t(`mb.opt.faces.${f}`)]),
          t('mb.opt.faces.help'),
        ),
        common.cents,
        kit.deals(),
      ].filter(Boolean),
    };
  }

  /** @returns {import('../protocol.js').GameRules} */
  function rulesFromForm(draft, deals) {
    const shared = {
      ruten_needs_rutenas: draft.ruten_needs_rutenas,
      ruten_unbid: draft.ruten_unbid,
      durch: draft.durch,
      first_lead: draft.first_lead,
      loss_factor: draft.loss_factor,
      faces: draft.faces,
      cents: draft.cents,
      deals,
    };
    if (!ansegger) return { game: 'duttfips', ...shared };
    return { game: 'anseggerfips', auction: draft.auction, min_bid: draft.min_bid, dutt: draft.dutt, ...shared };
  }

  /** @returns {import('../protocol.js').GameRules} */
  // eslint-disable-next-line no-unused-vars
  function practiceRules(players) {
    return { game: id };
  }

  /** @param {any} rules */
  function rulesRows(rules) {
    const common = commonRows(rules);
    const yesNo = (key) => [t(`mb.opt.${key}`), (rules[key] ?? defaults[key]) ? t('opt.yes') : t('opt.no')];
    return [
      [t('opt.players'), '4'],
      ...(ansegger
        ? [
            [t('mb.opt.auction'), t(`mb.opt.auction.${rules.auction ?? 'single_round'}`)],
            [t('opt.min_bid'), String(rules.min_bid ?? 2)],
            [t('mb.opt.dutt'), t(`mb.opt.dutt.${rules.dutt ?? 'unused'}`)],
          ]
        : []),
      yesNo('ruten_needs_rutenas'),
      yesNo('ruten_unbid'),
      yesNo('durch'),
      common.firstLead,
      common.lossFactor,
      [t('mb.opt.faces'), t(`mb.opt.faces.${rules.faces ?? 'german'}`)],
      common.cents,
      common.deals,
    ];
  }

  /** @param {any} rules */
  function inviteFacts(rules) {
    return [ansegger && rules.dutt === 'exchange' ? t('mb.invite.dutt') : null, rules.cents ? t('hs.opt.cents') : null].filter(Boolean);
  }

  return {
    id,
    name: () => t(`game.name.${id}`),
    strings,
    review: true,
    defaults,
    playerChoices: [4],
    rulesForm,
    rulesFromForm,
    practiceRules,
    rulesRows,
    inviteFacts,
    howto: () => [1, 2, 3, 4, 5].map((i) => t(`howto.${id}.${i}`)),
    bidText,
    callText,
    contractText,
    /** An action in words (the review of a seat's decisions). @param {any} action a MecklenburgAction */
    actionText: actionTextWith(bidText, trumpsName),
    gameText,
    gameValue,
    trumpsName,
    gameTerms,
    trumps,
    /** The Dutt, marked in the declarer's hand while he lays away. @param {any} deal */
    pickedUp: (deal) => deal.dutt ?? [],
    /** The Dutt lies face down while the auction runs. @param {any} deal @returns {[string, number]|null} */
    // eslint-disable-next-line no-unused-vars
    auctionPile: (deal) => ['mb.table.dutt', 5],
    /** @param {any} reveal */
    revealZones: (reveal) => [
      ['mb.table.dutt', reveal.dutt],
      ['table.discards', reveal.discards],
    ],
    actions,
    moves: new Set(['called', 'card_played', 'discarded', 'trumps_named', 'stopped', 'went_on']),
    eventTexts: eventTextsWith({ callText, contractText, trumpsName, outcomeSentence }),
    outcomeSentence,
    resultWord: (outcome) => commonResultWord(outcome) ?? '',
    /** @param {any} row */
    sheetGame: (row) => (row.outcome?.game ? gameText(row.outcome.game) : contractText(row.contract) || '—'),
    sheetFoot,
    totalText,
  };
}
