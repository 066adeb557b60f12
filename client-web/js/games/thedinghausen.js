// Thedinghausen Fipsen: five players, no auction, a turned-up card naming trumps, the duty to
// trump and overtrump, and a race over several deals to be first to ten tricks, which wins the
// round's pot. Everything the table offers comes from the server's prompt; what a module exports
// is listed in games/interface.js.

import { h } from '../dom.js';
import { t } from '../i18n.js';
import { points, suitName } from '../format.js';
import { callButton, suitIcon, term } from '../calls.js';
import { seatName } from '../store.js';
import { SUITS, cardFace, cardName, cardShort } from '../cards.js';
import { strings as words } from './thedinghausen-strings.js';

export const id = /** @type {string} */ ('thedinghausen');

export function name() {
  return t('game.name.thedinghausen');
}

export const strings = /** @type {Partial<Record<import("../i18n.js").Lang, Record<string, string>>>} */ (words);

/** The server reviews a seat's announcement (fipsen or pass). */
export const review = /** @type {boolean} */ (true);

/** The tricks that win a round. */
const TARGET = 10;

/** How a fipsen stands, in a sign on the scoresheet. */
const FIPSEN_MARK = { running: '…', won: '✔', lost: '✘', void: '∅' };

// ---- the rules ----

/** The rules the create form starts from (the rules crate's defaults). */
export const defaults = /** @type {Record<string, any>} */ ({
  fipsen: true,
  head_the_trick: false,
});

/** Always five at the table. */
export const playerChoices = [5];

/** The form's field for the series length, in rounds. */
const ROUNDS_WORDS = { label: 'th.opt.rounds', help: 'th.opt.rounds.help' };

/** @param {import('./interface.js').FormKit} kit */
export function rulesForm(kit) {
  return {
    main: [kit.check('fipsen', t('th.opt.fipsen'), 'th.opt.fipsen.help')],
    more: [kit.check('head_the_trick', t('th.opt.head_the_trick'), 'th.opt.head_the_trick.help'), kit.deals(ROUNDS_WORDS)],
  };
}

/**
 * The rules to send: the form's series length is a number of rounds here.
 * @param {Record<string, any>} draft
 * @param {number|null} deals the length typed in the form
 * @returns {import('../protocol.js').GameRules}
 */
export function rulesFromForm(draft, deals) {
  return { game: 'thedinghausen', fipsen: draft.fipsen, head_the_trick: draft.head_the_trick, rounds: deals };
}

/**
 * A practice table: always five players.
 * @param {number} _players
 * @returns {import('../protocol.js').GameRules}
 */
export function practiceRules(_players) {
  return { game: 'thedinghausen' };
}

/** @param {any} rules */
export function rulesRows(rules) {
  const yesNo = (on) => (on ? t('opt.yes') : t('opt.no'));
  return [
    [t('opt.players'), '5'],
    [t('th.opt.fipsen'), yesNo(rules.fipsen ?? true)],
    [t('th.opt.head_the_trick'), yesNo(rules.head_the_trick ?? false)],
    [t('th.opt.rounds'), rules.rounds ? String(rules.rounds) : t('opt.deals.open')],
  ];
}

/** @param {any} rules */
export function inviteFacts(rules) {
  return [rules.fipsen === false ? t('th.invite.no_fipsen') : null, rules.head_the_trick ? t('th.opt.head_the_trick') : null].filter(Boolean);
}

/** The series is counted in rounds. @param {any} rules */
export function lengthText(rules) {
  return rules.rounds ? t('th.invite.rounds', { n: rules.rounds }) : t('th.invite.rounds_open');
}

export function howto() {
  return [1, 2, 3, 4, 5].map((i) => t(`howto.thedinghausen.${i}`));
}

// ---- words (there is no auction and no declarer) ----

/** An action in words (the review of a seat's decisions): fipsen, pass, a card. @param {any} action a ThedinghausenAction */
export function actionText(action) {
  if (action?.action === 'fipsen') return t('th.act.fipsen');
  if (action?.action === 'pass') return t('act.pass');
  if (action?.action === 'play') return t('rv.act.play', { card: cardShort(action.card) });
  return action?.action ?? '';
}

// ---- the table ----

/** Trumps are the suit of the turned-up card. @param {any} deal @returns {import('../protocol.js').Suit|null} */
export function trumps(deal) {
  const card = deal?.trump_card;
  return card ? /** @type {import('../protocol.js').Suit} */ (SUITS[/** @type {keyof typeof SUITS} */ (card[0])]) : null;
}

/**
 * A seat's standing: its round count in the race to ten, its tricks this deal, its fipsen, a pass
 * in the announcements, its balance and its slips.
 * @param {any} game
 * @param {number} seat
 * @returns {HTMLElement[]}
 */
export function seatChips(game, seat) {
  const deal = game?.deal;
  if (!deal) return [];
  const count = deal.counts?.[seat] ?? 0;
  const taken = deal.tricks_taken?.[seat] ?? 0;
  const balance = game.totals?.[seat] ?? 0;
  const slips = game.slips?.[seat] ?? 0;
  const fipsen = deal.fipsen?.seat === seat ? deal.fipsen : null;
  const passed = deal.phase === 'fipsen' && (deal.passed ?? []).includes(seat);
  return [
    h(
      'span',
      {
        class: `chip th-count${count >= TARGET ? ' reached' : count >= TARGET - 2 ? ' near' : ''}`,
        'data-testid': 'round-count',
        'data-count': count,
        title: t('th.chip.count_long', { n: count }),
        'aria-label': t('th.chip.count_long', { n: count }),
      },
      t('th.chip.count', { n: count }),
    ),
    taken > 0 && deal.phase !== 'fipsen'
      ? h('span', { class: 'chip th-deal', 'data-testid': 'deal-tricks', title: t('th.chip.deal_long', { n: taken }), 'aria-label': t('th.chip.deal_long', { n: taken }) }, t('th.chip.deal', { n: taken }))
      : null,
    fipsen ? h('span', { class: `chip th-fipsen fipsen-${fipsen.result}`, 'data-testid': 'fipsen-chip' }, t(`th.fipsen.${fipsen.result}`)) : null,
    passed ? h('span', { class: 'chip th-passed' }, t('call.pass_short')) : null,
    h(
      'span',
      {
        class: `chip th-balance${balance < 0 ? ' neg' : ''}`,
        'data-testid': 'balance',
        title: t('th.chip.balance_long', { n: points(balance) }),
        'aria-label': t('th.chip.balance_long', { n: points(balance) }),
      },
      t('th.chip.balance', { n: points(balance) }),
    ),
    slips > 0
      ? h('span', { class: 'chip th-slips', 'data-testid': 'slips', title: t('th.chip.slips_long', { n: slips }), 'aria-label': t('th.chip.slips_long', { n: slips }) }, t('th.chip.slips', { n: slips }))
      : null,
  ].filter((chip) => chip !== null);
}

/**
 * Below the trick: the turned-up card (trumps are its suit) and the round's pot.
 * @param {any} game
 * @param {any} deal
 * @returns {HTMLElement|null}
 */
export function centreExtra(game, deal) {
  const card = deal?.trump_card;
  if (!card) return null;
  const suit = trumps(deal);
  return h(
    'div',
    { class: 'th-stakes' },
    h(
      'div',
      {
        class: 'th-turned',
        'data-testid': 'trump-card',
        'data-card': card,
        role: 'img',
        'aria-label': t('th.table.trump_card_long', { card: cardName(card), suit: suitName(suit) }),
      },
      h('span', { class: 'small-card' }, cardFace(card, { trump: true })),
      h('span', { class: 'th-turned-label' }, t('th.table.trump_card')),
    ),
    h(
      'div',
      { class: 'th-pot', 'data-testid': 'pot', 'data-pot': deal.pot },
      h('span', { class: 'th-pot-label' }, t('th.table.pot')),
      h('strong', { class: 'th-pot-value' }, String(deal.pot)),
    ),
  );
}

/**
 * The info bar: the round (of how many), the trumps with the card turned up, the pot, the fipsen.
 * @param {any} game
 * @param {any} deal
 * @returns {HTMLElement[]|null}
 */
export function tableBar(game, deal) {
  const suit = trumps(deal);
  const rounds = deal.rules?.rounds;
  const fipsen = deal.fipsen;
  return [
    h('span', { class: 'th-round', 'data-testid': 'th-round' }, rounds ? t('th.table.round_of', { n: deal.round, k: rounds }) : t('th.table.round', { n: deal.round }), term('th_race')),
    suit
      ? h(
          'span',
          { class: 'trumps', 'data-testid': 'trumps' },
          h('span', { class: 'label' }, t('table.trumps'), ': '),
          h('span', { class: `suit-icon suit-${deal.trump_card[0]}`, 'aria-hidden': 'true' }, suitIcon(deal.trump_card[0])),
          ' ',
          suitName(suit),
          h('span', { class: 'hint' }, ` (${cardShort(deal.trump_card)})`),
          term('th_trump_card'),
        )
      : null,
    h('span', { class: 'th-bar-pot' }, h('span', { class: 'label' }, t('th.table.pot'), ': '), h('strong', null, String(deal.pot)), term('th_pot')),
    fipsen
      ? h(
          'span',
          { class: `th-bar-fipsen fipsen-${fipsen.result}`, 'data-testid': 'fipsen' },
          h('span', { class: 'label' }, t('th.opt.fipsen'), ': '),
          h('strong', null, seatName(fipsen.seat)),
          ` · ${t(`th.sheet.${fipsen.result}`)}`,
          term('th_fipsen'),
        )
      : null,
  ];
}

/** After the deal: the six cards set aside. @param {any} reveal */
export function revealZones(reveal) {
  return [['th.table.unused', reveal.unused]];
}

/**
 * The action panel: fipsen or pass, as the prompt offers (cards are played from the hand, only
 * those the prompt lists).
 * @param {any} deal
 * @param {any} p the prompt
 */
// eslint-disable-next-line no-unused-vars
export function actions(deal, p) {
  if (!p.fipsen && !p.pass) return [];
  return [
    h(
      'div',
      { class: 'row th-announce', role: 'group', 'aria-label': t('do.fipsen') },
      p.fipsen ? callButton(t('th.act.fipsen'), { action: 'fipsen' }, 'fipsen', 'gold big', undefined, t('th.act.fipsen_what')) : null,
      p.fipsen ? term('th_fipsen') : null,
      p.pass ? callButton(t('act.pass'), { action: 'pass' }, 'pass', 'big pass') : null,
    ),
  ];
}

// ---- the log ----

/** Game events that are a player's own move. */
export const moves = new Set(['announced', 'passed', 'card_played']);

/**
 * @param {any} e a Thedinghausen event
 * @param {any} deal
 * @returns {string[]}
 */
export function eventTexts(e, deal) {
  const name = seatName(e?.seat);
  switch (e?.event) {
    case 'dealt': {
      const suit = trumps({ trump_card: e.trump_card });
      const lines = [t('th.log.dealt', { n: e.number, round: e.round, name: seatName(e.dealer), card: cardShort(e.trump_card), suit: suitName(suit) })];
      if (e.anted) lines.push(t('th.log.anted', { round: e.round, pot: e.pot }));
      return lines;
    }
    case 'announced':
      return [t('th.log.announced', { name })];
    case 'passed':
      return [t('th.log.passed', { name })];
    case 'trick_taken':
      return [t('log.trick', { name })];
    case 'fipsen_lost':
      return [t('th.log.fipsen_lost', { name, penalty: e.penalty, pot: e.pot })];
    case 'fipsen_won':
      return [t('th.log.fipsen_won', { name, count: e.count })];
    case 'fipsen_void':
      return [t('th.log.fipsen_void', { name })];
    case 'round_won':
      return [t('th.log.round_won', { name, round: e.round, pot: e.pot })];
    case 'deal_over':
      return [outcomeSentence(e.outcome, e.scores, deal?.dealer)];
    case 'series_over':
      return [t('th.log.series_over', { list: standings(e.balances ?? [], e.slips ?? []) })];
    default:
      return [];
  }
}

/** "Antje +4 (1×✉), Carl −1". */
function standings(balances, slips) {
  return balances.map((b, seat) => `${seatName(seat)} ${points(b)}${slips[seat] ? ` (${t('th.chip.slips', { n: slips[seat] })})` : ''}`).join(', ');
}

/**
 * How a deal ended: the fipsen, then the round won (by whom, with how many, the pot) or the race
 * going on (who leads).
 * @param {any} outcome a Thedinghausen Outcome
 * @param {any} scores
 * @param {any} dealer
 */
// eslint-disable-next-line no-unused-vars
export function outcomeSentence(outcome, scores, dealer) {
  if (!outcome) return '';
  const parts = [];
  const fipsen = outcome.fipsen;
  if (fipsen && fipsen.result !== 'running') parts.push(t(`th.result.fipsen_${fipsen.result}`, { name: seatName(fipsen.seat) }));
  const counts = outcome.counts ?? [];
  if (outcome.winner !== null && outcome.winner !== undefined) {
    parts.push(t('th.result.round', { name: seatName(outcome.winner), count: counts[outcome.winner] ?? TARGET, pot: outcome.pot }));
  } else if (counts.length) {
    const best = Math.max(...counts);
    const leaders = counts.map((c, seat) => (c === best ? seatName(seat) : null)).filter(Boolean);
    parts.push(leaders.length > 1 ? t('th.result.deal_tied', { names: leaders.join(', '), count: best }) : t('th.result.deal', { name: leaders[0], count: best }));
  }
  return parts.join(' ');
}

// ---- the scoresheet ----

/** Whether the round was won in this deal. @param {any} outcome */
export function resultWord(outcome) {
  return outcome?.winner !== null && outcome?.winner !== undefined ? t('th.sheet.round_over') : t('th.sheet.race');
}

/** The deal's turned-up card. @param {any} row */
export function sheetGame(row) {
  return row.trump_card ? cardShort(row.trump_card) : '—';
}

/**
 * The sheet: a row per deal (dealer, trump card, fipsen, each player's tricks in the deal and his
 * round count after it), a row per finished round (winner, pot, balances and slips), the
 * balances and slips now at the foot.
 * @param {any} game
 * @returns {HTMLElement|null}
 */
export function sheetBody(game) {
  const rows = game?.scoresheet ?? [];
  const n = game?.totals?.length ?? 5;
  const seats = Array.from({ length: n }, (_, i) => i);
  const fipsenCell = (f) => (f ? `${FIPSEN_MARK[f.result] ?? ''} ${seatName(f.seat)}` : '—');
  return h(
    'div',
    { class: 'sheet-scroll', tabindex: '0', role: 'region', 'aria-label': t('table.scoresheet') },
    h('p', { class: 'hint th-sheet-key' }, t('th.sheet.tricks_counts')),
    h(
      'table',
      { class: 'sheet-table th-sheet', 'data-testid': 'scoresheet' },
      h(
        'thead',
        null,
        h(
          'tr',
          null,
          h('th', { scope: 'col' }, t('sheet.deal')),
          h('th', { scope: 'col', class: 'wide-only' }, t('sheet.dealer')),
          h('th', { scope: 'col', class: 'wide-only' }, t('th.sheet.fipsen')),
          seats.map((i) => h('th', { scope: 'col', class: 'total-col' }, seatName(i))),
        ),
      ),
      h(
        'tbody',
        null,
        rows.map((row) =>
          row.row === 'round'
            ? h(
                'tr',
                { class: 'th-round-row', 'data-round': row.round },
                h('th', { scope: 'row', class: 'th-round-cell' }, t('th.sheet.round_won', { round: row.round, name: seatName(row.winner), pot: row.pot })),
                h('td', { class: 'wide-only' }),
                h('td', { class: 'wide-only' }),
                seats.map((i) =>
                  h(
                    'td',
                    { class: `total${(row.balances?.[i] ?? 0) < 0 ? ' neg' : ''}${i === row.winner ? ' th-winner' : ''}` },
                    h('strong', null, points(row.balances?.[i] ?? 0)),
                    row.slips?.[i] ? h('span', { class: 'hint' }, ` ${t('th.chip.slips', { n: row.slips[i] })}`) : null,
                  ),
                ),
              )
            : h(
                'tr',
                { 'data-deal': row.number },
                h(
                  'th',
                  { scope: 'row' },
                  String(row.number),
                  h('span', { class: 'th-deal-card', 'data-card': row.trump_card, title: t('th.sheet.trump_card') }, cardShort(row.trump_card)),
                ),
                h('td', { class: 'wide-only' }, seatName(row.dealer)),
                h(
                  'td',
                  { class: `wide-only th-fipsen-cell${row.fipsen ? ` fipsen-${row.fipsen.result}` : ''}`, title: row.fipsen ? `${seatName(row.fipsen.seat)}: ${t(`th.sheet.${row.fipsen.result}`)}` : null },
                  fipsenCell(row.fipsen),
                ),
                seats.map((i) =>
                  h(
                    'td',
                    { class: `th-race${(row.counts?.[i] ?? 0) >= TARGET ? ' reached' : ''}` },
                    String(row.tricks?.[i] ?? 0),
                    // The announcer's fipsen beside his tricks (on a phone the only place it shows).
                    row.fipsen?.seat === i
                      ? h('span', { class: `th-fipsen-mark fipsen-${row.fipsen.result}`, title: `${t('th.sheet.fipsen')}: ${t(`th.sheet.${row.fipsen.result}`)}` }, ` F${FIPSEN_MARK[row.fipsen.result] ?? ''}`)
                      : null,
                    h('span', { class: 'hint' }, ` / ${row.counts?.[i] ?? 0}`),
                  ),
                ),
              ),
        ),
      ),
      h(
        'tfoot',
        null,
        h(
          'tr',
          null,
          h('th', { scope: 'row' }, t('th.sheet.balances')),
          h('td', { class: 'wide-only' }),
          h('td', { class: 'wide-only' }),
          seats.map((i) => h('td', { class: `total${(game.totals?.[i] ?? 0) < 0 ? ' neg' : ''}`, 'data-testid': 'sheet-balance' }, h('strong', null, points(game.totals?.[i] ?? 0)))),
        ),
        h(
          'tr',
          null,
          h('th', { scope: 'row' }, t('th.sheet.slips')),
          h('td', { class: 'wide-only' }),
          h('td', { class: 'wide-only' }),
          seats.map((i) => h('td', null, String(game.slips?.[i] ?? 0))),
        ),
      ),
    ),
  );
}
