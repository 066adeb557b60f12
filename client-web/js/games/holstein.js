// What the Holstein-family games share beyond Prisdorf (Großenaspe, Anseggerfips, Duttfips —
// docs/rules/README.md §0.6, §A, §B): the Holstein play machine's stop or go on, a declarer who alone
// scores (a lost game costs `loss_factor` × its value), an optional score in cents with its
// settlement, forehand, and the log lines of an auction, a discard, trumps and tricks. Each game
// passes in its own words (how a bid and a game are said).

import { h } from '../dom.js';
import { t } from '../i18n.js';
import { points } from '../format.js';
import { callRow } from '../calls.js';
import { seatName } from '../store.js';
import { cardShort } from '../cards.js';
import { strings as words } from './holstein-strings.js';

export const strings = /** @type {Partial<Record<import("../i18n.js").Lang, Record<string, string>>>} */ (words);

// ---- the rules ----

/** The options every Holstein game has, for its create form. @param {import('./interface.js').FormKit} kit */
export function commonOptions(kit) {
  return {
    firstLead: kit.radio(
      'first_lead',
      t('opt.first_lead'),
      [
        ['forehand', t('hs.opt.first_lead.forehand')],
        ['declarer', t('opt.first_lead.declarer')],
      ],
      t('hs.opt.first_lead.help'),
    ),
    lossFactor: kit.radio(
      'loss_factor',
      t('hs.opt.loss_factor'),
      [
        [2, t('hs.opt.loss_factor.2')],
        [1, t('hs.opt.loss_factor.1')],
      ],
      t('hs.opt.loss_factor.help'),
    ),
    cents: kit.check('cents', t('hs.opt.cents'), 'hs.opt.cents.help'),
  };
}

/** Those options in words, for the room's summary. @param {any} rules */
export function commonRows(rules) {
  return {
    firstLead: [t('opt.first_lead'), rules.first_lead === 'declarer' ? t('opt.first_lead.declarer') : t('hs.opt.first_lead.forehand')],
    lossFactor: [t('hs.opt.loss_factor'), t(`hs.opt.loss_factor.${rules.loss_factor ?? 2}`)],
    cents: [t('hs.opt.cents'), rules.cents ? t('opt.yes') : t('opt.no')],
    deals: [t('opt.deals'), rules.deals ? String(rules.deals) : t('opt.deals.open')],
  };
}

// ---- words ----

/** A call of the auction in words, by the game's way of saying a bid. @param {(bid: any) => string} bidText */
export function callTextWith(bidText) {
  return (call) => {
    if (!call) return '';
    if (call.call === 'bid') return bidText(call.bid);
    if (call.call === 'hold') return t('call.hold_short');
    return t('call.pass_short');
  };
}

/**
 * An action of a Holstein-family deal in words, for the review of a seat's decisions: a call
 * as the auction says it, the cards laid away, the trumps named, a card played.
 * @param {(bid: any) => string} bidText
 * @param {(suit: string) => string} trumpsName
 */
export function actionTextWith(bidText, trumpsName) {
  return (action) => {
    switch (action?.action) {
      case 'bid':
        return bidText(action.bid);
      case 'hold':
        return t('call.hold_short');
      case 'pass':
        return t('call.pass_short');
      case 'discard':
        return t('rv.act.discard', { cards: (action.cards ?? []).map(cardShort).join(' ') });
      case 'name_trumps':
        return t('rv.act.trumps', { suit: trumpsName(action.suit) });
      case 'play':
        return t('rv.act.play', { card: cardShort(action.card) });
      case 'fold':
        return t('ga.act.fold');
      case 'stop':
        return t('rv.act.stop');
      case 'go_on':
        return t('rv.act.go_on');
      case 'take_skat':
      case 'play_hand':
      case 'kontra':
      case 'rekontra':
      case 'give_up':
      case 'siebener_fips':
        return t(`act.${action.action}`);
      default:
        return action?.action ?? '';
    }
  };
}

/** The contract in words ("3 (held)"). @param {(bid: any) => string} bidText */
export function contractTextWith(bidText) {
  return (contract) => {
    if (!contract) return '';
    const text = bidText(contract.bid);
    return contract.held ? `${text} (${t('game.held')})` : text;
  };
}

// ---- the table ----

/** The forehand's chip: its text key and the term explaining it (every game's but Prisdorf's: the interface's default). @type {[string, string]} */
export const forehandWords = ['hs.table.forehand', 'forehand'];

/** Stop, or go on for Durch. @param {any} p the prompt */
export function durchRow(p) {
  return callRow(
    [
      [p.stop, 'act.stop', { action: 'stop' }, 'stop', 'big'],
      [p.go_on, 'act.go_on', { action: 'go_on' }, 'go-on', 'primary big'],
    ],
    ['durch'],
  );
}

// ---- the log ----

const SIMPLE = {
  trick_taken: 'log.trick',
  stopped: 'log.stopped',
  went_on: 'log.went_on',
};

/** The tricks played in a deal (five when the deal does not tell). @param {any} deal */
export function tricksPlayed(deal) {
  return Array.isArray(deal?.tricks) && deal.tricks.length > 0 ? deal.tricks.length : 5;
}

/**
 * The log lines every Holstein game says alike; null for an event the game says itself.
 * @param {any} e the event
 * @param {any} deal
 * @param {{callText: (call: any) => string, contractText: (contract: any) => string, trumpsName: (suit: string) => string,
 *   outcomeSentence: (outcome: any, scores: any, dealer: any, played?: number) => string}} say the game's words
 * @param {any} [after] the deal as the message that brought the event leaves it
 * @returns {string[]|null}
 */
export function commonEventTexts(e, deal, say, after) {
  const name = seatName(e?.seat);
  const one = (key, extra = {}) => [t(key, { name, ...extra })];
  if (e?.event in SIMPLE) return one(SIMPLE[e.event]);
  switch (e?.event) {
    case 'dealt':
      return one('log.dealt', { n: e.number, name: seatName(e.dealer) });
    case 'called':
      return one('log.called', { call: say.callText(e.call) });
    case 'auction_won':
      return one('log.auction_won', { name: seatName(e.declarer), game: say.contractText(e.contract) });
    case 'discarded':
      return one('hs.log.discarded', { n: e.count ?? e.cards?.length ?? 2 });
    case 'trumps_named':
      return one('log.trumps', { suit: say.trumpsName(e.suit) });
    case 'deal_over':
      return [say.outcomeSentence(e.outcome, e.scores, deal?.dealer, tricksPlayed(after ?? deal))];
    default:
      return null;
  }
}

/**
 * The result of a won or lost game, or a throw-in; null for an outcome the game says itself.
 * @param {any} outcome
 * @param {any} scores
 * @param {any} dealer
 * @param {(game: any) => string} gameText
 * @param {number} [played] the tricks played (five when not known)
 */
export function commonOutcomeSentence(outcome, scores, dealer, gameText, played = 5) {
  switch (outcome?.result) {
    case 'thrown_in':
      return t('result.thrown_in', { name: seatName(dealer) });
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
      return null;
  }
}

// ---- the scoresheet ----

/** Won or lost (with the tricks taken), or thrown in; null for an outcome the game names itself. */
export function commonResultWord(outcome) {
  switch (outcome?.result) {
    case 'won':
      return `${t('sheet.won')} (${outcome.tricks})`;
    case 'lost':
      return `${t('sheet.lost')} (${outcome.tricks})`;
    case 'thrown_in':
      return t('sheet.thrown_in');
    default:
      return null;
  }
}

/** With the score in cents: the settlement the server gives, seat by seat. @param {any} game */
export function sheetFoot(game) {
  if (!game?.deal?.rules?.cents || !game.settlement) return null;
  return h(
    'section',
    { class: 'settlement', 'data-testid': 'settlement' },
    h('h3', null, t('hs.sheet.settlement')),
    h(
      'ul',
      { class: 'plain-list' },
      game.settlement.map((n, seat) =>
        h(
          'li',
          { 'data-seat': seat, class: n < 0 ? 'neg' : null },
          n > 0 ? t('hs.sheet.receives', { name: seatName(seat), n }) : n < 0 ? t('hs.sheet.pays', { name: seatName(seat), n: -n }) : t('hs.sheet.even', { name: seatName(seat) }),
        ),
      ),
    ),
  );
}

/** A total on the sheet: in cents when the table keeps the score in cents. @param {number} total @param {any} game */
export function totalText(total, game) {
  return game?.deal?.rules?.cents ? t('hs.cents', { n: points(total) }) : points(total);
}

// ---- what the shared screens show alike for every Holstein game ----

/** The trump suit of the deal, once named. @param {any} deal @returns {import('../protocol.js').Suit|null} */
export function trumps(deal) {
  return deal.game?.trumps ?? null;
}
