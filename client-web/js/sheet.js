// The scoresheet: one row per deal with running totals, and a small chart of the totals.

import { h, s } from './dom.js';
import { t } from './i18n.js';
import { points } from './format.js';
import { gameOf } from './games/index.js';
import { seatName } from './store.js';

const LINE_COLOURS = ['#1f5fbf', '#c0392b', '#1e8449', '#b9770e', '#7d3c98'];

/** The media on which the scoresheet puts the players' columns first (the page is drawn again
 * when it starts or stops matching: app.js). */
export const NARROW_SCREEN = 'screen and (max-width: 700px)';

/**
 * The sheet of a series, with what its game adds (Großenaspe: the scribe above, the settlement
 * below) and its own cells for the game and the result.
 * @param {any} game a GameView
 */
export function scoresheet(game) {
  const rules = gameOf(game.game);
  const rows = game.scoresheet ?? [];
  const n = game.totals?.length ?? 4;
  const names = Array.from({ length: n }, (_, i) => seatName(i));
  const head = h('div', { class: 'sheet-head' }, h('p', { class: 'sheet-game', 'data-testid': 'sheet-game' }, rules.name()), rules.sheetHead(game));
  if (rows.length === 0) return h('div', { class: 'sheet' }, head, h('p', { class: 'hint' }, t('sheet.empty')));
  // A game whose rows are not one declarer's game each draws its sheet itself (Thedinghausen).
  const own = rules.sheetBody(game);
  if (own) return h('div', { class: 'sheet', 'data-game': rules.id }, head, own, rules.sheetFoot(game));
  // On a phone the table scrolls sideways: the players' columns come right after the deal's
  // number, so that every running total and the totals below stand in view beside their label.
  // On paper the columns keep their usual order, whatever the width of the screen it came from.
  const narrow = typeof window.matchMedia === 'function' && window.matchMedia(NARROW_SCREEN).matches;
  /** @param {any} lead @param {any[]} facts @param {any[]} totals */
  const cells = (lead, facts, totals) => (narrow ? [lead, ...totals, ...facts] : [lead, ...facts, ...totals]);
  return h(
    'div',
    { class: `sheet${narrow ? ' totals-first' : ''}`, 'data-game': rules.id },
    head,
    chart(rows, names),
    h(
      'div',
      { class: 'sheet-scroll', tabindex: '0', role: 'region', 'aria-label': t('table.scoresheet') },
      h(
        'table',
        { class: 'sheet-table', 'data-testid': 'scoresheet' },
        h(
          'thead',
          null,
          h(
            'tr',
            null,
            cells(
              h('th', { scope: 'col' }, t('sheet.deal')),
              [
                h('th', { scope: 'col', class: 'wide-only' }, t('sheet.dealer')),
                h('th', { scope: 'col' }, t('sheet.declarer')),
                h('th', { scope: 'col' }, t('sheet.game')),
                h('th', { scope: 'col' }, t('sheet.result')),
                h('th', { scope: 'col' }, t('sheet.value')),
              ],
              names.map((name, i) => h('th', { scope: 'col', class: 'total-col', style: `--c:${LINE_COLOURS[i]}` }, name)),
            ),
          ),
        ),
        h(
          'tbody',
          null,
          rows.map((row) => {
            return h(
              'tr',
              { 'data-deal': row.number },
              cells(
                h('th', { scope: 'row' }, String(row.number)),
                [
                  h('td', { class: 'wide-only' }, seatName(row.dealer)),
                  h('td', null, row.declarer === null || row.declarer === undefined ? '—' : seatName(row.declarer)),
                  h('td', null, rules.sheetGame(row)),
                  h('td', null, rules.resultWord(row.outcome)),
                  h('td', { class: row.value < 0 ? 'neg' : '' }, points(row.value)),
                ],
                row.totals.map((total) => h('td', { class: `total${total < 0 ? ' neg' : ''}` }, rules.totalText(total, game))),
              ),
            );
          }),
        ),
        h(
          'tfoot',
          null,
          h(
            'tr',
            null,
            cells(
              h('th', { scope: 'row' }, t('sheet.totals')),
              [h('td', { class: 'wide-only' }), h('td', { colspan: 4 })],
              (game.totals ?? []).map((total) => h('td', { class: `total${total < 0 ? ' neg' : ''}` }, h('strong', null, rules.totalText(total, game)))),
            ),
          ),
        ),
      ),
    ),
    rules.sheetFoot(game),
  );
}

/** A line chart of each player's running total, deal by deal. */
function chart(rows, names) {
  const W = 600;
  const H = 200;
  const pad = { l: 40, r: 12, t: 12, b: 24 };
  // From 0 before the first deal; a page or the newest rows of a long series start at their
  // first row's totals.
  const first = rows[0]?.number ?? 1;
  const start = first > 1 ? [] : [0];
  const series = names.map((_, i) => [...start, ...rows.map((r) => r.totals[i] ?? 0)]);
  const all = series.flat();
  const lo = Math.min(0, ...all);
  const hi = Math.max(1, ...all);
  const steps = series[0].length - 1;
  const x = (k) => pad.l + ((W - pad.l - pad.r) * k) / Math.max(1, steps);
  const y = (v) => pad.t + ((H - pad.t - pad.b) * (hi - v)) / (hi - lo || 1);
  const label = `${t('sheet.chart')}: ${names.map((n, i) => `${n} ${series[i][steps]}`).join(', ')}`;
  return h(
    'figure',
    { class: 'chart' },
    s(
      'svg',
      { viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': label, class: 'chart-svg' },
      s('title', null, label),
      s('line', { x1: pad.l, x2: W - pad.r, y1: y(0), y2: y(0), class: 'axis-zero' }),
      s('text', { x: pad.l - 6, y: y(hi) + 4, 'text-anchor': 'end', class: 'axis-label' }, String(hi)),
      s('text', { x: pad.l - 6, y: y(0) + 4, 'text-anchor': 'end', class: 'axis-label' }, '0'),
      lo < 0 ? s('text', { x: pad.l - 6, y: y(lo) + 4, 'text-anchor': 'end', class: 'axis-label' }, String(lo)) : null,
      first > 1 && steps > 0 ? s('text', { x: x(0), y: H - 6, 'text-anchor': 'start', class: 'axis-label' }, String(first)) : null,
      s('text', { x: x(steps), y: H - 6, 'text-anchor': 'end', class: 'axis-label' }, String(rows.at(-1)?.number ?? steps)),
      series.map((values, i) =>
        s('polyline', {
          points: values.map((v, k) => `${x(k).toFixed(1)},${y(v).toFixed(1)}`).join(' '),
          fill: 'none',
          stroke: LINE_COLOURS[i],
          'stroke-width': 3,
          'stroke-linejoin': 'round',
          'stroke-dasharray': i % 2 ? '8 4' : null,
        }),
      ),
    ),
    h(
      'figcaption',
      { class: 'legend' },
      names.map((name, i) =>
        h(
          'span',
          { class: 'legend-item' },
          h('span', { class: 'swatch', style: `background:${LINE_COLOURS[i]}` }),
          name,
          ' ',
          h('strong', { class: series[i][steps] < 0 ? 'neg' : '' }, String(series[i][steps])),
        ),
      ),
    ),
  );
}
