// Prisdorf Fipsen (docs/rules/prisdorf.md): its words for bids, games and outcomes, its action panel, its log
// lines, its scoresheet cells, its options on the create form and its rules in brief. What the
// shared screens need of a game is listed in games/interface.js.

import { h } from '../dom.js';
import { t } from '../i18n.js';
import { suitName } from '../format.js';
import { callButton, callRow, discardPanel, suitButton, term } from '../calls.js';
import { seatName } from '../store.js';
import { actionTextWith, tricksPlayed } from './holstein.js';

export const id = /** @type {string} */ ('prisdorf');

/** The game's name. */
export function name() {
  return t('game.name.prisdorf');
}

/** Whether the server reviews a finished deal of this game (the bidding review). */
export const review = /** @type {boolean} */ (true);

// ---- the rules: the create form, the room, the invitation ----

/** The rules the create form starts from (the rules crate's defaults). */
export const defaults = /** @type {Record<string, any>} */ ({
  players: 4,
  min_bid: 2,
  kontra: false,
  first_lead: 'forehand',
  kieker_show: 'left_opponent',
  deals: '',
});

/** The numbers of players a table of this game may have, the default first. */
export const playerChoices = [4, 3];

/**
 * The create form's options of this game: `main` in view, `more` under "Rules of this table".
 * @param {import('./interface.js').FormKit} kit
 */
export function rulesForm(kit) {
  return {
    main: [kit.radio('players', t('opt.players'), playerChoices.map((n) => [n, String(n)]))],
    more: [
      kit.radio('min_bid', t('opt.min_bid'), [
        [2, '2'],
        [3, '3'],
      ]),
      kit.check('kontra', t('opt.kontra'), 'opt.kontra.help'),
      kit.radio('first_lead', t('opt.first_lead'), [
        ['forehand', t('opt.first_lead.forehand')],
        ['declarer', t('opt.first_lead.declarer')],
      ]),
      kit.radio('kieker_show', t('opt.kieker_show'), [
        ['left_opponent', t('opt.kieker_show.left_opponent')],
        ['nobody', t('opt.kieker_show.nobody')],
      ]),
      kit.deals(),
    ],
  };
}

/** The rules to send from the form's choices. @returns {import('../protocol.js').GameRules} */
export function rulesFromForm(draft, deals) {
  return {
    players: draft.players,
    min_bid: draft.min_bid,
    kontra: draft.kontra,
    first_lead: draft.first_lead,
    kieker_show: draft.kieker_show,
    deals,
  };
}

/** A practice table's rules. @returns {import('../protocol.js').GameRules} */
export function practiceRules(players) {
  return { players };
}

/** The table's options in words, as rows [label, value]. @param {any} rules */
export function rulesRows(rules) {
  return [
    [t('opt.players'), String(rules.players)],
    [t('opt.min_bid'), String(rules.min_bid)],
    [t('opt.kontra'), rules.kontra ? t('opt.yes') : t('opt.no')],
    [t('opt.first_lead'), t(`opt.first_lead.${rules.first_lead}`)],
    [t('opt.kieker_show'), t(`opt.kieker_show.${rules.kieker_show}`)],
    [t('opt.deals'), rules.deals ? String(rules.deals) : t('opt.deals.open')],
  ];
}

/** What the invitation page says of the rules beyond players and deals. @param {any} rules */
export function inviteFacts(rules) {
  return rules.kontra ? [t('opt.kontra')] : [];
}

/** The rules in brief, one sentence per item. */
export function howto() {
  return [1, 2, 3, 4, 5, 6].map((i) => t(`howto.${i}`));
}

// ---- words ----

/** @param {any} bid a Prisdorf Bid */
export function bidText(bid) {
  if (!bid) return '';
  if (bid.kind === 'kieker') return t('bid.kieker');
  const parts = [t('bid.tricks', { n: bid.tricks })];
  if (bid.hand) parts.push(t('bid.hand'));
  if (bid.ruten) parts.push(t('bid.ruten'));
  return parts.join(' ');
}

/** @param {any} call a Prisdorf Call */
export function callText(call) {
  if (!call) return '';
  if (call.call === 'bid') return bidText(call.bid);
  if (call.call === 'hold') return t('call.hold_short');
  return t('call.pass_short');
}

/** The game as declared: "3 Hand Ruten", "Kieker Durch", with Kontra/Rekontra. */
export function gameText(game) {
  if (!game) return '';
  const parts = [game.kieker ? t('game.kieker') : t('game.tricks', { n: game.tricks })];
  if (game.hand) parts.push(t('game.hand'));
  if (game.trumps === 'diamonds') parts.push(t('game.ruten'));
  if (game.durch && !game.kieker) parts.push(t('game.durch'));
  if (game.kontra) parts.push(t('game.kontra'));
  if (game.rekontra) parts.push(t('game.rekontra'));
  return parts.join(' ');
}

/** Value of a game: base × 2^doubles (shown, never used to decide anything). */
export function gameValue(game) {
  if (!game) return 0;
  const doubles = [game.hand, game.trumps === 'diamonds', game.durch, game.kontra, game.rekontra].filter(Boolean).length;
  return game.tricks * 2 ** doubles;
}

/** The contract owed after the auction, e.g. "3 Hand (held)". */
export function contractText(contract) {
  if (!contract) return '';
  const text = bidText(contract.bid);
  return contract.held ? `${text} (${t('game.held')})` : text;
}

/** A trump suit's name: diamonds are Ruten. */
export function trumpsName(suit) {
  return suitName(suit, true);
}

/** An action in words (as the other games' reviews say theirs). @param {any} action an Action */
export function actionText(action) {
  return actionTextWith(bidText, trumpsName)(action);
}

/** The terms explained beside the game on the info bar. @param {any} g the declared game */
export function gameTerms(g) {
  return [g?.kieker ? term('kieker') : null, g?.hand ? term('hand') : null, g?.trumps === 'diamonds' ? term('ruten') : null];
}

// ---- the table ----

/** The forehand's chip: its text key and the term explaining it. @type {[string, string]} */
export const forehandWords = ['table.vorhand', 'vorhand'];

/** The seat left of the dealer, who speaks first. @param {any} deal */
export function forehand(deal) {
  return deal.vorhand;
}

/** The trump suit of the deal, once named. @param {any} deal @returns {import('../protocol.js').Suit|null} */
export function trumps(deal) {
  return deal.game?.trumps ?? null;
}

/** While laying away, the cards that came from the skat (and the stock, in a Kieker). */
export function pickedUp(deal) {
  return [...(deal.skat ?? []), ...(deal.stock ?? [])];
}

/**
 * What the middle of the table shows instead of the trick, if anything: the Siebener Fips laid
 * down. @param {any} deal @param {(cards: string[]) => any} cardRow
 */
export function centreShown(deal, cardRow) {
  if (deal.outcome?.result !== 'siebener_fips') return null;
  // The four sevens and the ace laid down on the table, as the outcome names them.
  return h('section', { class: 'fips-shown' }, h('h2', { class: 'centre-caption' }, t('log.fips', { name: seatName(deal.outcome.seat) })), cardRow(deal.outcome.cards));
}

/** The cards lying face down in the middle during the auction: their name's key and how many. @param {any} deal @returns {[string, number]|null} */
// eslint-disable-next-line no-unused-vars
export function auctionPile(deal) {
  return ['table.skat', 2];
}

/** The zones of the reveal after the deal, below the dealt hands: [text key, cards]. @param {any} reveal */
export function revealZones(reveal) {
  return [
    ['table.skat', reveal.skat],
    ['table.discards', reveal.discards],
    ['table.stock', reveal.stock],
    ['table.thrown', reveal.thrown],
  ];
}

const VARIANTS = [
  [false, false],
  [true, false],
  [false, true],
  [true, true],
];

/**
 * The action panel's rows for the prompt: the auction, laying away, the suits, the other calls
 * (the cards themselves are played from the hand).
 * @param {any} deal
 * @param {any} p the prompt
 */
export function actions(deal, p) {
  const parts = [];
  // A pass belongs to the auction unless it declines a Kontra or Rekontra.
  const auctionPass = p.pass && !p.kontra && !p.rekontra;
  if (p.bids?.length || p.hold || auctionPass) parts.push(biddingPanel(deal, { ...p, pass: auctionPass }));
  if (p.discard) parts.push(discardPanel(p.discard));
  if (p.trumps?.length) {
    const button = (suit) => suitButton(suit, suitName(suit, suit === 'diamonds'));
    // The three plain suits side by side; Ruten, which doubles, on a line of its own.
    parts.push(
      h(
        'div',
        { class: 'suits-row', role: 'group', 'aria-label': t('do.trumps') },
        p.trumps.filter((suit) => suit !== 'diamonds').map(button),
        p.trumps.includes('diamonds') ? h('div', { class: 'ruten-cell' }, button('diamonds'), term('ruten')) : null,
      ),
    );
  }
  parts.push(
    callRow(
      [
        [p.take_skat, 'act.take_skat', { action: 'take_skat' }, 'take-skat', 'primary big'],
        [p.play_hand, 'act.play_hand', { action: 'play_hand' }, 'play-hand', 'big'],
      ],
      ['skat', 'hand'],
    ),
    callRow(
      [
        [p.kontra, 'act.kontra', { action: 'kontra' }, 'kontra', 'primary big'],
        [p.rekontra, 'act.rekontra', { action: 'rekontra' }, 'rekontra', 'primary big'],
        [(p.kontra || p.rekontra) && p.pass, 'act.no_kontra', { action: 'pass' }, 'no-kontra', 'big'],
      ],
      ['kontra'],
    ),
    callRow(
      [
        [p.stop, 'act.stop', { action: 'stop' }, 'stop', 'big'],
        [p.go_on, 'act.go_on', { action: 'go_on' }, 'go-on', 'primary big'],
      ],
      ['durch'],
    ),
    callRow([[p.give_up, 'act.give_up', { action: 'give_up' }, 'give-up', 'danger']], ['kieker']),
    callRow([[p.siebener_fips, 'act.siebener_fips', { action: 'siebener_fips' }, 'siebener-fips', 'gold big']], ['siebener_fips']),
  );
  return parts.filter(Boolean);
}

function biddingPanel(deal, p) {
  const bids = p.bids ?? [];
  const find = (tricks, hand, ruten) => bids.find((b) => b.kind === 'tricks' && b.tricks === tricks && Boolean(b.hand) === hand && Boolean(b.ruten) === ruten);
  const rows = [];
  for (const tricks of [2, 3, 4, 'kieker', 5]) {
    if (tricks === 'kieker') {
      const kieker = bids.find((b) => b.kind === 'kieker');
      if (kieker) {
        rows.push(
          h(
            'div',
            { class: 'bid-row kieker-row', role: 'row' },
            h('span', { class: 'bid-row-label', role: 'rowheader' }, t('bid.kieker'), term('kieker')),
            h(
              'span',
              { class: 'kieker-cell', role: 'cell' },
              callButton(t('bid.kieker'), { action: 'bid', bid: kieker }, 'bid-kieker', 'bid-button', undefined, t('act.bid', { bid: t('bid.kieker') })),
            ),
          ),
        );
      }
      continue;
    }
    const cells = VARIANTS.map(([hand, ruten]) => find(tricks, hand, ruten));
    if (!cells.some(Boolean)) continue;
    rows.push(
      h(
        'div',
        { class: 'bid-row', role: 'row' },
        h('span', { class: 'bid-row-label', role: 'rowheader' }, t('bid.row', { n: tricks })),
        cells.map((bid, i) =>
          h(
            'span',
            { class: 'bid-cell', role: 'cell' },
            bid
              ? callButton(
                  bidText(bid),
                  { action: 'bid', bid },
                  `bid-${tricks}-${VARIANTS[i][0] ? 'h' : ''}${VARIANTS[i][1] ? 'r' : ''}`,
                  'bid-button',
                  undefined,
                  t('act.bid', { bid: bidText(bid) }),
                )
              : null,
          ),
        ),
      ),
    );
  }
  return h(
    'div',
    { class: 'bidding', role: 'group', 'aria-label': t('do.auction') },
    rows.length
      ? h(
          'div',
          { class: 'bid-grid', role: 'table', 'aria-label': t('do.auction') },
          h(
            'div',
            { class: 'bid-row bid-head', role: 'row' },
            h('span', { role: 'columnheader' }),
            h('span', { role: 'columnheader' }, t('bid.plain')),
            h('span', { role: 'columnheader' }, t('bid.hand'), term('hand')),
            h('span', { role: 'columnheader' }, t('bid.ruten'), term('ruten')),
            h('span', { role: 'columnheader' }, `${t('bid.hand')} + ${t('bid.ruten')}`),
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

/** Game events that are a player's own move (not what follows from it). */
export const moves = new Set(['called', 'card_played', 'skat_taken', 'hand_chosen', 'discarded', 'trumps_named', 'kontra', 'rekontra', 'declined', 'gave_up', 'stopped', 'went_on', 'siebener_fips', 'kieker_picked_up']);

/** Game events told in one sentence naming the seat that acted. */
const SIMPLE = {
  kieker_picked_up: 'log.kieker_picked_up',
  skat_taken: 'log.skat_taken',
  hand_chosen: 'log.hand',
  kontra: 'log.kontra',
  rekontra: 'log.rekontra',
  declined: 'log.declined',
  gave_up: 'log.gave_up',
  siebener_fips: 'log.fips',
  trick_taken: 'log.trick',
  stopped: 'log.stopped',
  went_on: 'log.went_on',
};

/**
 * The log's sentences for one game event.
 * @param {any} e a Prisdorf Event
 * @param {any} deal the deal being shown (for what the event leaves out)
 * @param {any} [after] the deal as the message that brought the event leaves it
 * @returns {string[]}
 */
export function eventTexts(e, deal, after) {
  const name = seatName(e?.seat);
  const one = (key, extra = {}) => [t(key, { name, ...extra })];
  if (e?.event in SIMPLE) return one(SIMPLE[e.event]);
  switch (e?.event) {
    case 'dealt':
      return one('log.dealt', { n: e.number, name: seatName(e.dealer) });
    case 'called':
      return one('log.called', { call: callText(e.call) });
    case 'auction_won':
      return one('log.auction_won', { name: seatName(e.declarer), game: contractText(e.contract) });
    case 'discarded': {
      // The cards are hidden from everybody but the declarer; a Kieker lays away five.
      const kieker = deal?.contract?.bid?.kind === 'kieker';
      return one('log.discarded', { n: e.cards?.length ?? (kieker ? 5 : 2) });
    }
    case 'kieker_shown':
      return one('log.kieker_shown', { to: seatName(e.to) });
    case 'trumps_named':
      return one('log.trumps', { suit: suitName(e.suit, true) });
    case 'deal_over':
      return [outcomeSentence(e.outcome, e.scores, deal?.dealer, tricksPlayed(after ?? deal))];
    default:
      return [];
  }
}

/**
 * One sentence for how a deal ended. `played`: the tricks played, fewer than five when the
 * declarer stopped or lost early (five when not known).
 */
export function outcomeSentence(outcome, scores, dealer, played = 5) {
  if (!outcome) return '';
  switch (outcome.result) {
    case 'thrown_in':
      return t('result.thrown_in', { name: seatName(dealer) });
    case 'siebener_fips':
      return t('result.siebener_fips', { name: seatName(outcome.seat) });
    case 'given_up':
      return t('result.given_up', { name: seatName(outcome.declarer) });
    case 'won':
    case 'lost': {
      const value = scores?.[outcome.declarer] ?? 0;
      return t(`result.${outcome.result}`, {
        name: seatName(outcome.declarer),
        game: gameText(outcome.game),
        tricks: outcome.tricks,
        played,
        value: outcome.result === 'lost' ? `−${Math.abs(value)}` : value,
      });
    }
    default:
      return '';
  }
}

// ---- the scoresheet ----

/** The result column of a row. */
export function resultWord(outcome) {
  switch (outcome?.result) {
    case 'won':
      return `${t('sheet.won')} (${outcome.tricks})`;
    case 'lost':
      return `${t('sheet.lost')} (${outcome.tricks})`;
    case 'given_up':
      return t('sheet.given_up');
    case 'thrown_in':
      return t('sheet.thrown_in');
    case 'siebener_fips':
      return t('sheet.siebener_fips');
    default:
      return '';
  }
}

/** The game column of a row. @param {any} row */
export function sheetGame(row) {
  const game = row.outcome?.game;
  return game ? gameText(game) : contractText(row.contract) || '—';
}
