// Tippen / Dreiblatt: a pot of play-money counters, small hands, a trump card turned up (or the
// 1821 dealer's own last card face up), play or pass, and a share of the pot for every trick; in
// seven historical rule sets for 2 to 10 players. Everything the table offers comes from the
// server's prompt; what a module exports is listed in games/interface.js. The counters are play money,
// and the table, the form and the scoresheet say so.

import { coinIcon, h, infoButton } from '../dom.js';
import { t } from '../i18n.js';
import { points, suitName } from '../format.js';
import { ask, callButton, suitIcon, term } from '../calls.js';
import { S, seatName } from '../store.js';
import { cardFace, cardName, cardShort } from '../cards.js';
import { strings as words } from './tippen-strings.js';
import { CATALOGUE } from '../catalogue.js';

export const id = /** @type {string} */ ('tippen');

export function name() {
  return t('game.name.tippen');
}

export const strings = /** @type {Partial<Record<import("../i18n.js").Lang, Record<string, string>>>} */ (words);

/** The server reviews a seat's decisions before the play (shove, knock, sniff, play or pass, the exchange). */
export const review = /** @type {boolean} */ (true);

/**
 * An action in words (the review of a seat's decisions): the dealer's shove, knock and sniff,
 * playing, robbing or passing, the exchange, a card.
 * @param {any} action a TippenAction
 */
export function actionText(action) {
  const cards = (action?.cards ?? []).map(cardShort).join(' ');
  switch (action?.action) {
    case 'discard':
      return t('rv.act.discard', { cards });
    case 'exchange':
      return t('rv.act.exchange', { n: action.cards?.length ?? 0, cards });
    case 'play':
      return t('rv.act.play', { card: cardShort(action.card) });
    case 'shove':
    case 'deal':
    case 'knock':
    case 'no_knock':
    case 'sniff':
    case 'no_sniff':
    case 'join':
    case 'rob':
    case 'pass':
    case 'drop_out':
    case 'keep':
      return t(`tp.act.${action.action}`);
    default:
      return action?.action ?? '';
  }
}

/**
 * What the create form knows of each rule set: the players it seats, the cards in a hand (a
 * maximum bête is a multiple of it; a trick's share is the pot played for divided by it), and the
 * options the server accepts with it (the rules crate's, from the catalogue). The order is the
 * order of the sources.
 * @type {Record<string, {range: number[], hand: number, options: string[], sniffing?: string}>}
 */
const PRESETS = Object.fromEntries(CATALOGUE.tippen.presets.map((preset) => [preset.id, preset]));

/** The pack has 52 cards from this many players on (32 below), as the rules crate says. */
const BIG_PACK_FROM = CATALOGUE.tippen.big_pack_from;

/** The maximum bête the form offers, as multiples of the hand size (0: none). */
const BETE_TIMES = [0, 4, 8];

/** The limit of the middle of rules that name none (the rules crate's default). */
const DEFAULT_MAX_POT = CATALOGUE.games.tippen.rules.max_pot;

/** The limits of the middle (pot and reserve) the form offers; the rules crate's default first. */
const POT_LIMITS = [DEFAULT_MAX_POT, 120, 12000, 120000];

/** @param {string|undefined} preset */
function presetOf(preset) {
  return PRESETS[preset ?? 'modern_grupp'] ?? PRESETS.modern_grupp;
}

/** The most pot and reserve together hold at a table. @param {any} rules @returns {number} */
function maxPot(rules) {
  return rules?.max_pot ?? DEFAULT_MAX_POT;
}

/** @param {string|undefined} preset */
function presetName(preset) {
  return t(`tp.preset.${preset ?? 'modern_grupp'}`);
}

// ---- the rules ----

/** The rules the create form starts from (the rules crate's defaults). */
export const defaults = /** @type {Record<string, any>} */ ({
  preset: 'modern_grupp',
  players: 4,
  tipp_zwang: false,
  shoving: false,
  knocking: false,
  sniffing: false,
  robbing: false,
  hop_and_jump: false,
  daus_card: 'ace',
  exchange_max: 0,
  max_bete: 0,
  max_pot: DEFAULT_MAX_POT,
});

/** A practice table seats two to ten (the rule set follows from the number). */
export const playerChoices = [2, 3, 4, 5, 6, 7, 8, 9, 10];

/** The notice that the counters are play money, as a line of the form or the how-to. */
function playMoneyNote() {
  return h('p', { class: 'tp-money-note', 'data-testid': 'play-money' }, coinIcon(), ' ', h('strong', null, t('tp.money.title')), ' ', t('tp.money.text'));
}

/**
 * The form: the rule set (each with a line saying what it is), the players it seats, and only the
 * options it offers.
 * @param {import('./interface.js').FormKit} kit
 */
export function rulesForm(kit) {
  const d = kit.draft;
  const preset = presetOf(d.preset);
  const [min, max] = preset.range;
  if (!(d.players >= min)) d.players = Math.max(min, Math.min(max, 4));
  if (d.players > max) d.players = max;
  const offers = (option) => preset.options.includes(option);
  const players = Array.from({ length: max - min + 1 }, (_, i) => min + i);
  return {
    main: [
      playMoneyNote(),
      kit.radio(
        'preset',
        t('tp.opt.preset'),
        Object.keys(PRESETS).map((p) => /** @type {[any, string, string]} */ ([p, presetName(p), t(`tp.preset.${p}.line`)])),
        t('tp.opt.preset.help'),
      ),
      kit.radio(
        'players',
        t('opt.players'),
        players.map((n) => /** @type {[any, string]} */ ([n, String(n)])),
        max >= BIG_PACK_FROM ? t('tp.opt.players.help_big', { min, max, big: BIG_PACK_FROM }) : t('tp.opt.players.help', { min, max }),
      ),
    ],
    more: [
      offers('tipp_zwang') ? kit.check('tipp_zwang', t('tp.opt.tipp_zwang'), 'tp.opt.tipp_zwang.help') : null,
      offers('shoving') ? kit.check('shoving', t('tp.opt.shoving'), 'tp.opt.shoving.help') : null,
      offers('knocking') ? kit.check('knocking', t('tp.opt.knocking'), 'tp.opt.knocking.help') : null,
      offers('sniffing') ? kit.check('sniffing', t('tp.opt.sniffing'), `tp.opt.sniffing.${preset.sniffing}.help`) : null,
      offers('robbing') ? kit.check('robbing', t('tp.opt.robbing'), 'tp.opt.robbing.help') : null,
      offers('hop_and_jump') ? kit.check('hop_and_jump', t('tp.opt.hop_and_jump'), 'tp.opt.hop_and_jump.help') : null,
      // The two as the Daus needs the twos of the 52-card pack.
      offers('daus_card') && d.players >= BIG_PACK_FROM
        ? kit.radio(
            'daus_card',
            t('tp.opt.daus_card'),
            [
              ['ace', t('tp.opt.daus_card.ace')],
              ['two', t('tp.opt.daus_card.two')],
            ],
            t('tp.opt.daus_card.help'),
          )
        : null,
      offers('exchange_max')
        ? kit.radio(
            'exchange_max',
            t('tp.opt.exchange_max'),
            [0, 1, 2, 3, 4].map((n) => /** @type {[any, string]} */ ([n, n === 0 ? t('tp.opt.exchange_max.none') : String(n)])),
            t('tp.opt.exchange_max.help'),
          )
        : null,
      kit.radio(
        'max_bete',
        t('tp.opt.max_bete'),
        BETE_TIMES.map((k) => /** @type {[any, string]} */ ([k, k === 0 ? t('tp.opt.max_bete.none') : t('tp.counters', { n: k * preset.hand })])),
        t('tp.opt.max_bete.help'),
      ),
      kit.radio(
        'max_pot',
        t('tp.opt.max_pot'),
        [...POT_LIMITS].sort((a, b) => a - b).map((n) => /** @type {[any, string]} */ ([n, t('tp.counters', { n })])),
        t('tp.opt.max_pot.help'),
      ),
      kit.deals(),
    ].filter((part) => part !== null),
  };
}

/**
 * The rules to send: the rule set, the players, and only the options it offers.
 * @param {Record<string, any>} draft
 * @param {number|null} deals
 * @returns {import('../protocol.js').GameRules}
 */
export function rulesFromForm(draft, deals) {
  const preset = presetOf(draft.preset);
  const offers = (option) => preset.options.includes(option);
  /** @type {Record<string, any>} */
  const rules = { game: 'tippen', preset: draft.preset, players: draft.players, deals };
  if (draft.max_bete) rules.max_bete = draft.max_bete * preset.hand;
  rules.max_pot = draft.max_pot ?? DEFAULT_MAX_POT;
  if (offers('tipp_zwang')) rules.tipp_zwang = Boolean(draft.tipp_zwang);
  if (offers('shoving')) rules.shoving = Boolean(draft.shoving);
  if (offers('knocking')) rules.knocking = Boolean(draft.knocking);
  if (offers('sniffing')) rules.sniffing = draft.sniffing ? preset.sniffing : 'off';
  if (offers('robbing')) rules.robbing = Boolean(draft.robbing);
  if (offers('hop_and_jump')) rules.hop_and_jump = Boolean(draft.hop_and_jump);
  if (offers('daus_card') && draft.players >= BIG_PACK_FROM) rules.daus_card = draft.daus_card;
  if (offers('exchange_max')) rules.exchange_max = draft.exchange_max;
  return /** @type {import('../protocol.js').GameRules} */ (rules);
}

/**
 * A practice table: the modern rules after Grupp for three to six, the Dreiblatt of 1859 for two
 * and for seven to ten.
 * @param {number} players
 * @returns {import('../protocol.js').GameRules}
 */
export function practiceRules(players) {
  const preset = players >= 3 && players <= 6 ? 'modern_grupp' : 'dreiblatt_1859';
  return { game: 'tippen', preset, players };
}

/** @param {any} rules */
export function rulesRows(rules) {
  const yesNo = (on) => (on ? t('opt.yes') : t('opt.no'));
  const preset = presetOf(rules.preset);
  const offers = (option) => preset.options.includes(option);
  const players = rules.players ?? 4;
  return [
    [t('tp.opt.preset'), `${presetName(rules.preset)} — ${t(`tp.preset.${rules.preset ?? 'modern_grupp'}.line`)}`],
    [t('opt.players'), `${players} · ${t('tp.pack', { n: players >= BIG_PACK_FROM ? 52 : 32 })}`],
    [t('tp.money.title'), t('tp.money.short')],
    offers('tipp_zwang') ? [t('tp.opt.tipp_zwang'), yesNo(rules.tipp_zwang)] : null,
    offers('shoving') ? [t('tp.opt.shoving'), yesNo(rules.shoving)] : null,
    offers('knocking') ? [t('tp.opt.knocking'), yesNo(rules.knocking)] : null,
    offers('sniffing') ? [t('tp.opt.sniffing'), yesNo(rules.sniffing && rules.sniffing !== 'off')] : null,
    offers('robbing') ? [t('tp.opt.robbing'), yesNo(rules.robbing)] : null,
    offers('hop_and_jump') ? [t('tp.opt.hop_and_jump'), yesNo(rules.hop_and_jump)] : null,
    offers('daus_card') ? [t('tp.opt.daus_card'), t(`tp.opt.daus_card.${rules.daus_card ?? 'ace'}`)] : null,
    offers('exchange_max') ? [t('tp.opt.exchange_max'), rules.exchange_max ? String(rules.exchange_max) : t('tp.opt.exchange_max.none')] : null,
    [t('tp.opt.max_bete'), rules.max_bete ? t('tp.counters', { n: rules.max_bete }) : t('tp.opt.max_bete.none')],
    [t('tp.opt.max_pot'), t('tp.counters', { n: maxPot(rules) })],
    [t('opt.deals'), rules.deals ? String(rules.deals) : t('opt.deals.open')],
  ].filter((row) => row !== null);
}

/** @param {any} rules */
export function inviteFacts(rules) {
  const on = (key) => (rules[key] ? t(`tp.opt.${key}`) : null);
  return [
    presetName(rules.preset),
    t('tp.money.short'),
    on('tipp_zwang'),
    on('shoving'),
    on('knocking'),
    rules.sniffing && rules.sniffing !== 'off' ? t('tp.opt.sniffing') : null,
    on('robbing'),
    on('hop_and_jump'),
    rules.exchange_max ? t('tp.invite.exchange', { n: rules.exchange_max }) : null,
    rules.max_bete ? t('tp.invite.max_bete', { n: rules.max_bete }) : null,
    t('tp.invite.max_pot', { n: maxPot(rules) }),
  ].filter(Boolean);
}

export function howto() {
  return [1, 2, 3, 4, 5, 6].map((i) => t(`howto.tippen.${i}`));
}

// ---- the table ----

/** Trumps, once the server names them. @param {any} deal @returns {import('../protocol.js').Suit|null} */
export function trumps(deal) {
  return deal?.trumps ?? null;
}

/** A number of counters, with its tooltip saying they are play money. @param {number} n @param {string} [cls] */
function counters(n, cls = '') {
  return h('strong', { class: `tp-counters ${cls}`.trim(), title: t('tp.money.short') }, String(n));
}

/** What a seat answered in the decisions, if it has. @param {any} deal @param {number} seat */
function choiceOf(deal, seat) {
  return (deal.decisions ?? []).find((d) => d.seat === seat)?.choice ?? null;
}

/**
 * A seat's standing: shoved the deal, the bottom card of a hop, knocked or sniffed, the 1821
 * dealer's face-up card, what it answered (a pass greys the seat), its exchange, its tricks and
 * its balance in counters.
 * @param {any} game
 * @param {number} seat
 * @returns {HTMLElement[]}
 */
export function seatChips(game, seat) {
  const deal = game?.deal;
  if (!deal) return [];
  const choice = choiceOf(deal, seat);
  const exchange = (deal.exchanges ?? []).find((e) => e.seat === seat);
  const taken = deal.tricks_taken?.[seat] ?? 0;
  const active = (deal.active ?? []).includes(seat);
  const balance = game.totals?.[seat] ?? 0;
  const dealer = deal.dealer === seat;
  const chip = (cls, text, long, testid = null) => h('span', { class: `chip ${cls}`, title: long, 'aria-label': long, 'data-testid': testid }, text);
  return [
    (deal.shoves ?? []).includes(seat) ? chip('tp-shoved', t('tp.chip.shoved'), t('tp.chip.shoved_long'), 'shoved') : null,
    ...(deal.hops ?? [])
      .filter((hop) => hop.seat === seat)
      .map((hop) =>
        chip(
          'tp-hop',
          `${t('tp.chip.bottom')} ${cardShort(hop.card)}${hop.passed ? ' ↷' : ''}`,
          t(hop.passed ? 'tp.chip.hop_passed_long' : 'tp.chip.hop_long', { card: cardName(hop.card) }),
          'hop',
        ),
      ),
    dealer && deal.knocked ? chip('tp-knocked', t('tp.chip.knocked'), t('tp.chip.knocked_long'), 'knocked') : null,
    dealer && deal.sniffed && deal.sniffed !== 'off' ? chip('tp-sniffed', t('tp.chip.sniffed'), t('tp.chip.sniffed_long'), 'sniffed') : null,
    dealer && deal.exposed
      ? h(
          'span',
          { class: 'chip tp-exposed', 'data-testid': 'exposed-chip', title: t('tp.table.exposed_long', { card: cardName(deal.exposed) }) },
          t('tp.chip.exposed', { card: cardShort(deal.exposed) }),
        )
      : null,
    choice ? chip(`tp-choice tp-${choice}${choice === 'pass' || choice === 'drop_out' ? ' tp-passed' : ''}`, t(`tp.chip.${choice}`), t(`tp.chip.${choice}_long`), 'choice') : null,
    // Everyone plays without being asked: the chip says so once the play is decided.
    !choice && active && deal.everyone_must_play ? chip('tp-choice tp-join', t('tp.chip.join'), t('tp.chip.join_long'), 'choice') : null,
    exchange ? chip('tp-exchange', t('tp.chip.exchange', { n: exchange.count }), t('tp.chip.exchange_long', { n: exchange.count }), 'exchange') : null,
    active && (deal.phase === 'play' || deal.phase === 'over')
      ? chip('tp-tricks', t('tp.chip.tricks', { n: taken }), t('tp.chip.tricks_long', { n: taken }), 'deal-tricks')
      : null,
    h(
      'span',
      {
        class: `chip tp-balance${balance < 0 ? ' neg' : ''}`,
        'data-testid': 'balance',
        title: t('tp.chip.balance_long', { n: points(balance) }),
        'aria-label': t('tp.chip.balance_long', { n: points(balance) }),
      },
      t('tp.chip.balance', { n: points(balance) }),
    ),
  ].filter((c) => c !== null);
}

/** Nothing is picked up. @param {any} deal @returns {string[]} */
// eslint-disable-next-line no-unused-vars
export function pickedUp(deal) {
  return [];
}

/** Nothing is laid down instead of the trick. @param {any} deal @param {(cards: string[]) => any} cardRow @returns {HTMLElement|null} */
// eslint-disable-next-line no-unused-vars
export function centreShown(deal, cardRow) {
  return null;
}

/** A card lying face up beside the trick, with its label. */
function faceUp(card, label, long, testid, trump) {
  return h(
    'div',
    { class: 'tp-faceup', 'data-testid': testid, 'data-card': card, role: 'img', 'aria-label': long },
    h('span', { class: 'small-card' }, cardFace(card, { trump })),
    h('span', { class: 'tp-faceup-label' }, label),
  );
}

/** The share of the pot played for that one trick takes. @param {any} deal */
function share(deal) {
  const hand = presetOf(deal.rules?.preset).hand;
  return Math.floor((deal.played_for ?? 0) / hand);
}

/**
 * The table's limit of the middle; once pot and reserve reach it, the words that bêtes are cut.
 * @param {any} deal
 */
function limitFigure(deal) {
  const limit = maxPot(deal.rules);
  const full = (deal.pot ?? 0) + (deal.reserve ?? 0) >= limit;
  return h(
    'div',
    { class: `tp-figure tp-limit${full ? ' tp-full' : ''}`, 'data-testid': 'max-pot', 'data-value': limit, 'data-full': String(full) },
    h('span', { class: 'tp-figure-label' }, t('tp.table.limit')),
    counters(limit),
    // What the limit does, on a tap as well as a hover (a phone has no hover).
    infoButton(t('tp.table.limit'), t('tp.opt.max_pot.help')),
    full ? h('span', { class: 'tp-share', 'data-testid': 'middle-full' }, t('tp.table.full')) : null,
  );
}

/**
 * Below the trick: the card face up on the table (the turned trump card, or the seven a robber
 * laid out for it), the 1821 dealer's face-up card, the bottom cards of hop and jump; the pot, the
 * pot played for and a trick's share of it, the reserve — in play-money counters.
 * @param {any} game
 * @param {any} deal
 * @returns {HTMLElement|null}
 */
export function centreExtra(game, deal) {
  if (!deal) return null;
  const suit = trumps(deal);
  const cards = [];
  if (deal.table_card) {
    const robbed = deal.robbed !== null && deal.robbed !== undefined;
    cards.push(
      robbed
        ? faceUp(deal.table_card, t('tp.table.seven'), t('tp.table.seven_long', { card: cardName(deal.table_card), name: seatName(deal.robbed) }), 'robbing-seven', true)
        : faceUp(deal.table_card, t('tp.table.trump_card'), t('tp.table.trump_card_long', { card: cardName(deal.table_card), suit: suitName(suit) }), 'trump-card', true),
    );
  }
  if (deal.exposed) {
    cards.push(faceUp(deal.exposed, t('tp.table.exposed'), t('tp.table.exposed_long', { card: cardName(deal.exposed) }), 'exposed', true));
  }
  const hops = deal.phase === 'over' || deal.phase === 'play' ? [] : (deal.hops ?? []);
  const figure = (label, value, testid, extra = null, cls = '') =>
    h('div', { class: `tp-figure ${cls}`.trim(), 'data-testid': testid, 'data-value': value }, h('span', { class: 'tp-figure-label' }, label), counters(value), extra);
  return h(
    'div',
    { class: 'tp-stakes', 'data-testid': 'stakes' },
    cards.length ? h('div', { class: 'tp-faceups' }, cards) : null,
    hops.length
      ? h(
          'p',
          { class: 'tp-hops', 'data-testid': 'hops' },
          hops.map((hop) => h('span', { 'data-card': hop.card }, t(hop.passed ? 'tp.table.hop_passed' : 'tp.table.hop', { name: seatName(hop.seat), card: cardShort(hop.card) }))),
        )
      : null,
    h(
      'div',
      { class: 'tp-figures' },
      figure(t('tp.table.pot'), deal.pot, 'pot', null, 'tp-pot'),
      deal.played_for
        ? figure(t('tp.table.played_for'), deal.played_for, 'played-for', h('span', { class: 'tp-share', 'data-testid': 'share' }, t('tp.table.share', { n: share(deal) })))
        : null,
      figure(t('tp.table.reserve'), deal.reserve, 'reserve', null, deal.reserve ? '' : 'tp-zero'),
      limitFigure(deal),
      deal.phase === 'exchange' ? figure(t('tp.table.talon'), deal.talon, 'talon') : null,
    ),
    h('p', { class: 'tp-money-line' }, t('tp.money.short')),
  );
}

/**
 * The info bar: the rule set, the trumps (with the card that made them, once shown), the pot and
 * what is played for, the reserve, and the notice that the counters are play money.
 * @param {any} game
 * @param {any} deal
 * @returns {HTMLElement[]|null}
 */
export function tableBar(game, deal) {
  const suit = trumps(deal);
  const card = deal.trump_card ?? deal.exposed ?? null;
  const letter = card ? card[0] : suit ? { clubs: 'C', spades: 'S', hearts: 'H', diamonds: 'D' }[suit] : null;
  return [
    h('span', { class: 'tp-preset wide-only', 'data-testid': 'preset' }, presetName(deal.rules?.preset)),
    suit
      ? h(
          'span',
          { class: 'trumps', 'data-testid': 'trumps' },
          h('span', { class: 'label' }, t('table.trumps'), ': '),
          h('span', { class: `suit-icon suit-${letter}`, 'aria-hidden': 'true' }, suitIcon(letter)),
          ' ',
          suitName(suit),
          card ? h('span', { class: 'hint' }, ` (${cardShort(card)})`) : null,
          term('tp_trump_card'),
        )
      : null,
    h(
      'span',
      { class: 'tp-bar-pot', 'data-testid': 'bar-pot' },
      h('span', { class: 'label' }, t('tp.table.pot'), ': '),
      counters(deal.pot),
      deal.played_for ? h('span', { class: 'hint' }, ` · P ${deal.played_for}`) : null,
      deal.reserve ? h('span', { class: 'hint' }, ` · ${t('tp.table.reserve')} ${deal.reserve}`) : null,
      term('tp_pot'),
    ),
    h(
      'span',
      { class: 'tp-bar-money', 'data-testid': 'bar-money', title: t('tp.money.text') },
      coinIcon(),
      ' ',
      t('tp.money.bar'),
      term('tp_counters'),
    ),
  ];
}

/** After the deal: the trump card, the talon left and the cards laid away. @param {any} reveal */
export function revealZones(reveal) {
  return [
    ['tp.reveal.trump_card', reveal.trump_card ? [reveal.trump_card] : []],
    ['tp.reveal.talon', reveal.talon ?? []],
    ['tp.reveal.discards', (reveal.discards ?? []).flat()],
  ];
}

/**
 * Cards chosen in the hand, and the button that sends them: exactly `k` to lay away, or one up to
 * `k` to exchange.
 * @param {'discard'|'exchange'} action
 * @param {number} k
 * @param {boolean} exact
 */
function choosePanel(action, k, exact) {
  const chosen = S.ui.selected.length;
  const ok = exact ? chosen === k : chosen >= 1 && chosen <= k;
  const label = action === 'discard' ? t('tp.act.discard') : t('tp.act.exchange', { n: chosen || 1 });
  const sent = { action, cards: [...S.ui.selected] };
  return h(
    'div',
    { class: 'row discard-row' },
    h('span', { class: 'hint', role: 'status', 'data-testid': 'chosen' }, exact ? t('act.selected', { n: chosen, k }) : t('tp.act.chosen_up_to', { n: chosen, k })),
    h(
      'button',
      {
        type: 'button',
        class: 'primary big',
        'data-key': action,
        'data-action': JSON.stringify({ action, cards: [] }),
        disabled: !ok || S.waiting,
        onclick: () => ask(label, sent),
      },
      label,
    ),
  );
}

/**
 * The action panel: every choice the prompt offers, in rows — deal or shove the deal on, knock or
 * not, sniff or not, lay a card away, play / rob / pass / drop out, keep or exchange (cards are
 * chosen in the hand, and played from it: only those the prompt lists).
 * @param {any} deal
 * @param {any} p the prompt
 */
export function actions(deal, p) {
  const row = (label, cls, ...parts) => h('div', { class: `row tp-row ${cls}`, role: 'group', 'aria-label': label }, parts);
  const rows = [];
  if (p.deal || p.shove) {
    rows.push(
      row(
        t('do.shove'),
        'tp-dealing',
        p.deal ? callButton(t('tp.act.deal'), { action: 'deal' }, 'deal', 'primary big') : null,
        p.shove ? callButton(t('tp.act.shove'), { action: 'shove' }, 'shove', 'big') : null,
        term('tp_shove'),
      ),
    );
  }
  if (p.knock || p.no_knock) {
    rows.push(h('p', { class: 'hint tp-unseen' }, t('tp.act.knock_hint')));
    rows.push(
      row(
        t('do.knock'),
        'tp-knocking',
        p.knock ? callButton(t('tp.act.knock'), { action: 'knock' }, 'knock', 'gold big') : null,
        p.no_knock ? callButton(t('tp.act.no_knock'), { action: 'no_knock' }, 'no_knock', 'big') : null,
        term('tp_knock'),
      ),
    );
  }
  if (p.sniff || p.no_sniff) {
    rows.push(
      row(
        t('do.sniff'),
        'tp-sniffing',
        p.sniff ? callButton(t('tp.act.sniff'), { action: 'sniff' }, 'sniff', 'gold big') : null,
        p.no_sniff ? callButton(t('tp.act.no_sniff'), { action: 'no_sniff' }, 'no_sniff', 'big') : null,
        term('tp_sniff'),
      ),
    );
  }
  if (p.discard) rows.push(choosePanel('discard', p.discard, true));
  if (p.join || p.rob || p.pass || p.drop_out) {
    rows.push(
      row(
        t('do.decide'),
        'tp-deciding',
        p.join ? callButton(t('tp.act.join'), { action: 'join' }, 'join', 'primary big') : null,
        p.rob ? callButton(t('tp.act.rob'), { action: 'rob' }, 'rob', 'gold big') : null,
        p.pass ? callButton(t('tp.act.pass'), { action: 'pass' }, 'pass', 'big pass') : null,
        p.drop_out ? callButton(t('tp.act.drop_out'), { action: 'drop_out' }, 'drop_out', 'big pass') : null,
        p.rob ? term('tp_rob') : null,
        term('tp_decide'),
      ),
    );
  }
  if (p.keep || p.exchange) {
    rows.push(h('p', { class: 'hint' }, t('tp.act.exchange_hint', { n: p.exchange ?? 0 })));
    rows.push(
      row(
        t('do.exchange'),
        'tp-exchanging',
        p.keep ? callButton(t('tp.act.keep'), { action: 'keep' }, 'keep', 'big') : null,
        term('tp_exchange'),
      ),
    );
    if (p.exchange) rows.push(choosePanel('exchange', p.exchange, false));
  }
  return rows;
}

// ---- the log ----

/** Game events that are a player's own move. */
export const moves = new Set(['shoved', 'knocked', 'not_knocked', 'sniffed', 'not_sniffed', 'discarded', 'decided', 'robbed', 'exchanged', 'card_played']);

/** "Antje, Carl". @param {number[]} seats */
function names(seats) {
  return seats.map((s) => seatName(s)).join(', ');
}

/**
 * @param {any} e a Tippen event
 * @param {any} deal
 * @returns {string[]}
 */
export function eventTexts(e, deal) {
  const name = seatName(e?.seat);
  switch (e?.event) {
    case 'first_dealer':
      return [t('tp.log.first_dealer', { cards: (e.cards ?? []).map(cardShort).join(' '), name })];
    case 'anted':
      return [t('tp.log.anted', { name, stake: e.stake, pot: e.pot })];
    case 'shoved':
      return [t('tp.log.shoved', { name })];
    case 'bottom_card':
      return [t(e.passed ? 'tp.log.bottom_passed' : 'tp.log.bottom', { name, card: cardShort(e.card) })];
    case 'dealt': {
      const lines = [t('tp.log.dealt', { n: e.number, name: seatName(e.dealer), p: e.played_for })];
      if (e.reserve) lines.push(t('tp.log.reserve', { n: e.reserve }));
      if (e.exposed) lines.push(t('tp.log.exposed', { card: cardShort(e.exposed), suit: suitName(suitOf(e.exposed)) }));
      return lines;
    }
    case 'knocked':
      return [t('tp.log.knocked', { name, suit: suitName(e.suit) })];
    case 'not_knocked':
      return [t('tp.log.not_knocked', { name })];
    case 'sniffed':
      return [
        e.kind === 'alvensleben' && e.trump_card
          ? t('tp.log.sniffed_open', { name, card: cardShort(e.trump_card), suit: suitName(e.suit) })
          : t('tp.log.sniffed', { name, suit: suitName(e.suit) }),
      ];
    case 'not_sniffed':
      return [t('tp.log.not_sniffed', { name })];
    case 'discarded':
      return [e.cards?.length ? t('tp.log.discarded_own', { name, cards: e.cards.map(cardShort).join(' ') }) : t('tp.log.discarded', { name, n: e.count })];
    case 'trump_turned':
      return [t('tp.log.trump_turned', { card: cardShort(e.card), suit: suitName(suitOf(e.card)) })];
    case 'decided':
      return [t(`tp.log.decided.${e.choice}`, { name, paid: e.paid, pot: e.pot })];
    case 'robbed':
      return [t('tp.log.robbed', { name, card: cardShort(e.trump_card), seven: cardShort(e.seven) })];
    case 'playing':
      return [(e.seats ?? []).length ? t('tp.log.playing', { names: names(e.seats) }) : t('tp.log.nobody')];
    case 'took_pot':
      return [t('tp.log.took_pot', { name, amount: e.amount, pot: e.pot })];
    case 'exchanged':
      if (!e.count) return [t('tp.log.kept', { name })];
      return [e.received?.length ? t('tp.log.exchanged_own', { name, n: e.count, cards: e.received.map(cardShort).join(' ') }) : t('tp.log.exchanged', { name, n: e.count })];
    case 'trick_taken':
      return [t('log.trick', { name })];
    case 'settled': {
      const parts = [];
      if (e.received) parts.push(t('tp.log.settled_received', { name, tricks: e.tricks, n: e.received }));
      if (e.paid) parts.push(t('tp.log.settled_paid', { name, tricks: e.tricks, n: e.paid }));
      if (!parts.length) parts.push(t('tp.log.settled_even', { name, tricks: e.tricks }));
      return parts;
    }
    case 'deal_over':
      return [outcomeSentence(e.outcome, e.scores, deal?.dealer)];
    case 'series_over':
      return [t('tp.log.series_over', { list: (e.balances ?? []).map((b, seat) => `${seatName(seat)} ${points(b)}`).join(', '), pot: e.pot, reserve: e.reserve })];
    default:
      return [];
  }
}

/** The suit of a card code. @param {string} card @returns {string} */
function suitOf(card) {
  return { C: 'clubs', S: 'spades', H: 'hearts', D: 'diamonds' }[card?.[0]] ?? 'clubs';
}

/**
 * How a deal ended: nobody played (the pot stays), one player alone took the pot, or the shares
 * each player's tricks took and the bêtes paid into the next pot; then the pot left.
 * @param {any} outcome a Tippen Outcome
 * @param {any} scores
 * @param {any} dealer
 */
// eslint-disable-next-line no-unused-vars
export function outcomeSentence(outcome, scores, dealer) {
  if (!outcome) return '';
  if (outcome.void) return t('tp.result.void', { pot: outcome.pot });
  const receipts = outcome.receipts ?? [];
  const payments = outcome.payments ?? [];
  const tricks = outcome.tricks ?? [];
  if (outcome.alone !== null && outcome.alone !== undefined) {
    return [t('tp.result.alone', { name: seatName(outcome.alone), n: receipts[outcome.alone] ?? 0 }), paidText(payments), t('tp.result.pot', { pot: outcome.pot })]
      .filter(Boolean)
      .join(' ');
  }
  const shares = (outcome.active ?? [])
    .filter((seat) => (receipts[seat] ?? 0) > 0)
    .map((seat) => t('tp.result.share', { name: seatName(seat), n: receipts[seat], tricks: tricks[seat] ?? 0 }));
  return [
    shares.length ? t('tp.result.shares', { list: shares.join(', ') }) : null,
    paidText(payments) ?? t('tp.result.no_bete'),
    t('tp.result.pot', { pot: outcome.pot }),
  ]
    .filter(Boolean)
    .join(' ');
}

/** "Bêtes: Carl pays 9." — or null when nobody paid. @param {number[]} payments */
function paidText(payments) {
  const paid = payments.map((n, seat) => (n > 0 ? t('tp.result.bete', { name: seatName(seat), n }) : null)).filter(Boolean);
  return paid.length ? t('tp.result.betes', { list: paid.join(', ') }) : null;
}

// ---- the scoresheet ----

/** @param {any} outcome */
export function resultWord(outcome) {
  if (!outcome) return '';
  if (outcome.void) return t('tp.sheet.void');
  if (outcome.alone !== null && outcome.alone !== undefined) return t('tp.sheet.alone');
  return t('tp.sheet.played');
}

/** The pot a deal was played for. @param {any} row */
export function sheetGame(row) {
  return String(row.played_for ?? 0);
}

/**
 * Above the sheet: the pot and the reserve now, in play-money counters.
 * @param {any} game
 * @returns {HTMLElement|null}
 */
export function sheetHead(game) {
  return h(
    'p',
    { class: 'tp-sheet-head', 'data-testid': 'sheet-pot' },
    h('span', null, t('tp.table.pot'), ': ', counters(game?.pot ?? 0)),
    ' · ',
    h('span', null, t('tp.table.reserve'), ': ', counters(game?.reserve ?? 0)),
    ' · ',
    h('span', { class: 'hint' }, coinIcon(), ' ', t('tp.money.short')),
  );
}

/**
 * The sheet: a row per deal — the dealer (and who shoved, the bottom cards of a hop), what lay in
 * the middle before it, the pot played for, the reserve, each seat's tricks, receipts and payments
 * (a seat that did not play shows a dash) over its balance after the deal, and the pot left — the
 * balances at the foot.
 * @param {any} game
 * @returns {HTMLElement|null}
 */
export function sheetBody(game) {
  const rows = game?.scoresheet ?? [];
  const n = game?.totals?.length ?? 4;
  const seats = Array.from({ length: n }, (_, i) => i);
  const seatCell = (row, i) => {
    const active = (row.active ?? []).includes(i);
    const received = row.receipts?.[i] ?? 0;
    const paid = (row.payments?.[i] ?? 0) + (row.antes?.[i] ?? 0);
    const balance = row.balances?.[i] ?? 0;
    const marks = [
      active ? h('span', { class: 'tp-tricks', title: t('tp.chip.tricks_long', { n: row.tricks?.[i] ?? 0 }) }, t('tp.sheet.tricks', { n: row.tricks?.[i] ?? 0 })) : h('span', { class: 'tp-out', title: t('tp.sheet.out') }, '—'),
      received ? h('span', { class: 'tp-in' }, ` +${received}`) : null,
      paid ? h('span', { class: 'tp-paid' }, ` −${paid}`) : null,
    ];
    return h(
      'td',
      { class: `tp-cell${active ? ' tp-active' : ''}${row.alone === i ? ' tp-alone' : ''}`, 'data-seat': i },
      h('span', { class: 'tp-moves' }, marks),
      h('span', { class: `tp-run${balance < 0 ? ' neg' : ''}` }, points(balance)),
    );
  };
  const dealerCell = (row) => [
    seatName(row.dealer),
    (row.shoves ?? []).length ? h('span', { class: 'hint tp-sheet-shoves' }, ` ${t('tp.sheet.shoved', { names: names(row.shoves) })}`) : null,
    (row.hops ?? []).length ? h('span', { class: 'hint tp-sheet-hops' }, ` ${row.hops.map((hop) => `${cardShort(hop.card)}${hop.passed ? '↷' : ''}`).join(' ')}`) : null,
  ];
  return h(
    'div',
    { class: 'sheet-scroll', tabindex: '0', role: 'region', 'aria-label': t('table.scoresheet') },
    h('p', { class: 'hint tp-sheet-key' }, t('tp.sheet.key')),
    h(
      'table',
      { class: 'sheet-table tp-sheet', 'data-testid': 'scoresheet' },
      h(
        'thead',
        null,
        h(
          'tr',
          null,
          h('th', { scope: 'col' }, t('sheet.deal')),
          h('th', { scope: 'col', class: 'wide-only' }, t('sheet.dealer')),
          h('th', { scope: 'col', class: 'wide-only', title: t('tp.sheet.carry_long') }, t('tp.sheet.carry')),
          h('th', { scope: 'col', title: t('tp.table.played_for') }, 'P'),
          h('th', { scope: 'col', class: 'wide-only' }, t('tp.table.reserve')),
          seats.map((i) => h('th', { scope: 'col', class: 'total-col' }, seatName(i))),
          h('th', { scope: 'col' }, t('tp.table.pot')),
        ),
      ),
      h(
        'tbody',
        null,
        rows.map((row) =>
          h(
            'tr',
            { 'data-deal': row.number, class: row.void ? 'tp-void' : null },
            h('th', { scope: 'row' }, String(row.number), h('span', { class: 'tp-sheet-dealer narrow-only' }, seatName(row.dealer))),
            h('td', { class: 'wide-only' }, dealerCell(row)),
            h('td', { class: 'wide-only' }, String(row.carry)),
            h('td', { 'data-testid': 'sheet-p' }, String(row.played_for), row.void ? h('span', { class: 'hint' }, ` ${t('tp.sheet.void')}`) : null),
            h('td', { class: 'wide-only' }, String(row.reserve)),
            seats.map((i) => seatCell(row, i)),
            h('td', { class: 'tp-pot-cell', 'data-testid': 'sheet-pot-after' }, String(row.pot)),
          ),
        ),
      ),
      h(
        'tfoot',
        null,
        h(
          'tr',
          null,
          h('th', { scope: 'row' }, t('tp.sheet.balances')),
          h('td', { class: 'wide-only' }),
          h('td', { class: 'wide-only' }),
          h('td'),
          h('td', { class: 'wide-only' }),
          seats.map((i) => h('td', { class: `total${(game.totals?.[i] ?? 0) < 0 ? ' neg' : ''}`, 'data-testid': 'sheet-balance' }, h('strong', null, points(game.totals?.[i] ?? 0)))),
          h('td', null, h('strong', null, String(game.pot ?? 0))),
        ),
      ),
    ),
  );
}
