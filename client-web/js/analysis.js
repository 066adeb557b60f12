// The analysis of a finished deal's play, as the server's replay carries it: each card that
// cost something, marked on the table of the replay and listed by trick beside it (with the
// better cards, or in Wippen the better moves in words), and on the series page each player's
// costly cards per deal. Everything shown comes from the server; nothing is computed here but
// where in the replay each card was played.

import { h } from './dom.js';
import { addStrings, t } from './i18n.js';
import { strings } from './analysis-strings.js';
import { cardName, cardShort } from './cards.js';
import { seatName } from './store.js';
import { gameOf } from './games/index.js';

addStrings(strings);

/**
 * A card of the analysis with where the replay shows it: the step that played it, the trick
 * (or, in a game without tricks, the move) it belongs to, the game, and the deal as it stood
 * before the card (a better move's buildings are named by their values there).
 * @typedef {import('./protocol.js').CardCost & {step: number, trick: number | null, game: string, dealBefore: any}} PlacedCost
 */

/**
 * The cards of `replay`'s analysis that cost something, each with the step that played it:
 * the first step after the last one found where the card left its player's hand.
 * @param {import('./replay.js').ShownReplay} replay
 * @returns {PlacedCost[]}
 */
export function costlyCards(replay) {
  const analysis = replay.analysis;
  if (!analysis) return [];
  const steps = /** @type {any[]} */ (replay.steps);
  const out = [];
  let from = 1;
  for (const c of analysis.cards) {
    let at = -1;
    for (let i = from; i < steps.length; i++) {
      if (steps[i].seat === c.seat && (steps[i - 1].hands[c.seat] ?? []).includes(c.card) && !(steps[i].hands[c.seat] ?? []).includes(c.card)) {
        at = i;
        break;
      }
    }
    if (at < 0) continue;
    from = at + 1;
    if (!(c.cost !== null && c.cost !== undefined && c.cost > 0)) continue;
    const before = steps[at - 1].deal;
    const trick = Array.isArray(before?.tricks) ? before.tricks.length + 1 : null;
    out.push({ ...c, step: at, trick, game: replay.game, dealBefore: before });
  }
  return out;
}

/**
 * What a card cost, in words, with what was better: the better cards, or where the analysis
 * names moves (Wippen, where one card can be played by a good move and a costly one) the better
 * moves in the game's own words, "Capture with ♥10: 10 = ♠4 + ♣6".
 * @param {PlacedCost} c @param {string} unit
 */
export function costText(c, unit) {
  const moves = c.best_moves ?? [];
  const what = moves.length ? 'analysis.move_cost' : 'analysis.cost';
  const cost = t(unit === 'tricks' ? `${what}_tricks` : `${what}_points`, { n: c.cost ?? 0 });
  let better = '';
  if (moves.length) {
    // Only a game whose analysis names moves reads the deal; the others take the action alone.
    const words = gameOf(c.game).actionText;
    const say = (m) => t('analysis.quoted', { move: words(m, c.dealBefore) });
    better = `; ${t('analysis.better_moves', { moves: moves.map(say).join(t('analysis.or')) })}`;
  } else if (c.best.length) {
    better = `; ${t('analysis.better', { cards: c.best.map(cardShort).join(', ') })}`;
  }
  const horizon = c.horizon !== null && c.horizon !== undefined ? ` ${t('analysis.horizon', { n: c.horizon })}` : '';
  return `${cost}${better}${horizon}`;
}

/**
 * The mark beside a card of the replay's table that cost something.
 * @param {PlacedCost | undefined} c @param {string} unit
 */
export function costMark(c, unit) {
  if (!c) return null;
  const text = costText(c, unit);
  return h('span', { class: 'cost-mark', role: 'img', 'aria-label': `${t('analysis.mark')}: ${text}`, title: text, 'data-testid': 'cost-mark' }, '!');
}

/**
 * The analysis beside the replay: how it was found, then the costly cards by trick, each a
 * button to the step that played it (the one on screen marked).
 * @param {import('./replay.js').ShownReplay} replay
 * @param {number} step the step on screen
 * @param {(step: number) => void} go
 */
export function analysisPanel(replay, step, go) {
  const analysis = replay.analysis;
  if (!analysis) return null;
  const costly = costlyCards(replay);
  const place = (c) => (c.trick !== null ? t('analysis.trick', { n: c.trick }) : t('analysis.move', { n: c.index + 1 }));
  return h(
    'section',
    { class: 'replay-analysis', 'data-testid': 'replay-analysis', 'aria-labelledby': 'replay-analysis-title' },
    h('h3', { id: 'replay-analysis-title' }, t('analysis.title')),
    h('p', { class: 'hint' }, t(`analysis.${analysis.method}`), analysis.complete ? null : ` ${t('analysis.incomplete')}`),
    costly.length
      ? h(
          'ol',
          { class: 'analysis-list' },
          costly.map((c) =>
            h(
              'li',
              { class: c.step === step ? 'current' : '', 'data-card': c.card, 'data-seat': c.seat, 'data-step': c.step, 'data-cost': c.cost },
              h(
                'button',
                { type: 'button', class: 'link', onclick: () => go(c.step) },
                `${place(c)} · ${t('analysis.played', { name: seatName(c.seat), card: cardShort(c.card) })}`,
                // The card's whole name for a screen reader, after the visible text (which the
                // accessible name must contain).
                h('span', { class: 'sr-only' }, ` (${cardName(c.card)})`),
              ),
              ' ',
              h('span', { class: 'analysis-cost' }, costText(c, analysis.unit)),
            ),
          ),
        )
      : h('p', { 'data-testid': 'analysis-none' }, t('analysis.none')),
  );
}

/**
 * On the series page: each player's costly cards per deal, and in all (printable); nothing
 * where no deal has an analysis.
 * @param {import('./protocol.js').SeriesRecord} record
 * @param {string[]} names
 */
export function costlyTable(record, names) {
  const deals = record.deals.filter((d) => Array.isArray(d.costly));
  if (!deals.length) return null;
  const totals = names.map((_, seat) => deals.reduce((sum, d) => sum + (d.costly?.[seat] ?? 0), 0));
  return h(
    'section',
    { class: 'series-analysis', 'data-testid': 'series-analysis', 'aria-labelledby': 'series-analysis-title' },
    h('h2', { id: 'series-analysis-title' }, t('analysis.series_title')),
    h('p', { class: 'hint' }, t('analysis.series_hint')),
    h(
      'div',
      { class: 'table-scroll' },
      h(
        'table',
        { class: 'costly-table' },
        h('thead', null, h('tr', null, h('th', { scope: 'col' }, t('analysis.deal')), names.map((n) => h('th', { scope: 'col' }, n)))),
        h(
          'tbody',
          null,
          deals.map((d) => h('tr', { 'data-deal': d.number }, h('th', { scope: 'row' }, String(d.number)), names.map((_, seat) => h('td', { class: (d.costly?.[seat] ?? 0) > 0 ? 'lost' : '' }, String(d.costly?.[seat] ?? 0))))),
        ),
        h('tfoot', null, h('tr', null, h('th', { scope: 'row' }, t('analysis.total')), totals.map((n) => h('td', null, String(n))))),
      ),
    ),
  );
}
