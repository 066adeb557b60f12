// The review of a player's decisions before the play, in every game but Prisdorf (whose bidding
// review is review.js's): each decision with every option he had, its expected result ± margin
// over the sampled deals, the sample size, his choice and the bot's, and what his choice lost
// against the best; in Wippen each of his moves against the moves the bot preferred. After any
// deal the review's dialog also lists his cards that cost something, from the analysis the
// replay of the deal carries (asked for once the review is here). Everything shown comes from
// the server; the game's module says each action in its own words.

import { h } from './dom.js';
import { addStrings, lang, t } from './i18n.js';
import { strings } from './reviews-strings.js';
import { cardName, cardShort } from './cards.js';
import { gameOf } from './games/index.js';
import { S, api } from './store.js';
import { costlyCards, costText } from './analysis.js';

addStrings(strings);

/** @typedef {import('./protocol.js').GameDecisions} GameDecisions */

/** A value with one decimal and its sign: "+1.9", "−13.0", "0.0". @param {number} v */
function value(v) {
  const text = new Intl.NumberFormat(lang(), { minimumFractionDigits: 1, maximumFractionDigits: 1, signDisplay: 'exceptZero' }).format(v);
  return text.replace('-', '−');
}

/** A margin with one decimal: "0.6". @param {number} v */
function margin(v) {
  return new Intl.NumberFormat(lang(), { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(Math.abs(v));
}

/** "+1.4 ± 0.6" (a margin of 0 left out). @param {{value: number, margin: number}} o */
function estimate(o) {
  return o.margin > 0.05 ? `${value(o.value)} ± ${margin(o.margin)}` : value(o.value);
}

/** A JSON value written with its keys in order: equal actions give equal keys. @param {any} v @returns {string} */
function key(v) {
  if (Array.isArray(v)) return `[${v.map(key).join(',')}]`;
  if (v && typeof v === 'object') {
    return `{${Object.keys(v)
      .sort()
      .filter((k) => v[k] !== null && v[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${key(v[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}

/** Whether two actions are the same. @param {any} a @param {any} b */
export function sameAction(a, b) {
  return key(a) === key(b);
}

/** The tags of an option: the seat's choice, the bot's. @param {boolean} yours @param {boolean} bot */
function tags(yours, bot) {
  return [
    bot ? h('span', { class: 'tag tag-best' }, '★ ', t('rv.bot')) : null,
    yours ? h('span', { class: 'tag tag-yours' }, t('rv.yours')) : null,
  ];
}

/**
 * The verdict under a decision: the bot's choice against his, and the value his choice lost
 * against the best option (none when it was the best, or not among those valued).
 * @param {{options: {action: any, value: number}[], bot: any, chosen: any}} d
 * @param {(action: any) => string} say
 */
function verdict(d, say) {
  const agreed = sameAction(d.chosen, d.bot);
  const chosen = d.options.find((o) => sameAction(o.action, d.chosen));
  const best = d.options.reduce((a, b) => (b.value > a.value ? b : a), d.options[0]);
  const lost = chosen && best ? best.value - chosen.value : 0;
  return [
    h(
      'p',
      { class: `verdict ${agreed ? 'good' : 'worse'}`, 'data-testid': 'verdict' },
      h('span', { class: 'mark', 'aria-hidden': 'true' }, agreed ? '✓ ' : '✗ '),
      agreed ? t('rv.same', { action: say(d.chosen) }) : h('strong', null, t('rv.differs', { bot: say(d.bot), yours: say(d.chosen) })),
    ),
    chosen && best
      ? h(
          'p',
          { class: `value-lost${lost > 0.05 ? ' lost' : ''}`, 'data-testid': 'value-lost', 'data-lost': lost.toFixed(2) },
          lost > 0.05 ? t('rv.lost', { n: margin(lost), best: value(best.value), yours: value(chosen.value) }) : t('rv.lost_none'),
        )
      : null,
  ];
}

/**
 * A table of options, best first, his and the bot's marked; `extra` adds the columns of a move.
 * @param {string} label
 * @param {any[]} options
 * @param {any} d the decision (its `bot` and `chosen`)
 * @param {(action: any) => string} say
 * @param {{head: string[], cells: (o: any) => any[]}} [extra]
 */
function optionsTable(label, options, d, say, extra) {
  const rows = [...options].sort((a, b) => b.value - a.value);
  return h(
    'div',
    { class: 'table-scroll', tabindex: '0', role: 'region', 'aria-label': label },
    h(
      'table',
      { class: 'estimates options', 'data-testid': 'review-options' },
      h('caption', { class: 'sr-only' }, label),
      h(
        'thead',
        null,
        h(
          'tr',
          null,
          h('th', { scope: 'col' }, t('rv.option')),
          (extra?.head ?? []).map((head) => h('th', { scope: 'col' }, head)),
          h('th', { scope: 'col', class: 'num' }, t('rv.value')),
        ),
      ),
      h(
        'tbody',
        null,
        rows.map((o) => {
          const yours = sameAction(o.action, d.chosen);
          const bot = sameAction(o.action, d.bot);
          return h(
            'tr',
            { class: [bot ? 'best' : '', yours ? 'yours' : ''].filter(Boolean).join(' ') || null, 'data-chosen': yours ? 'yes' : null, 'data-bot': bot ? 'yes' : null },
            h('th', { scope: 'row' }, say(o.action), ' ', tags(yours, bot)),
            extra ? extra.cells(o) : null,
            h('td', { class: `num${o.value < 0 ? ' neg' : ''}` }, estimate(o)),
          );
        }),
      ),
    ),
  );
}

/**
 * The sample size of a decision, and what weighted deals are worth as equally weighted ones.
 * @param {number} samples @param {number | null} [effective] (left out where the deals are not weighted)
 */
function samplesLine(samples, effective) {
  const text = !samples
    ? t('rv.samples_none')
    : typeof effective === 'number'
      ? t('rv.samples_weighted', { n: samples, e: effective.toFixed(1) })
      : t('rv.samples', { n: samples });
  return h('p', { class: 'hint samples' }, text);
}

/**
 * The decisions before the play, in order.
 * @param {{decisions: import('./protocol.js').Decision[]}} review (any game's DecisionReview)
 * @param {(action: any) => string} say
 */
function decisionsList(review, say) {
  if (!review.decisions.length) return h('p', { class: 'hint', 'data-testid': 'review-no-decisions' }, t('rv.none'));
  return h(
    'ol',
    { class: 'review-decisions' },
    review.decisions.map((d, i) =>
      h(
        'li',
        { class: `decision ${sameAction(d.chosen, d.bot) ? 'good' : 'worse'}`, 'data-kind': d.decision, 'data-testid': 'decision' },
        h('h4', null, t('rv.decision', { n: i + 1, kind: t(`rv.kind.${d.decision}`) })),
        samplesLine(d.samples, d.effective),
        optionsTable(t('rv.options', { n: i + 1 }), d.options, d, say),
        verdict(d, say),
      ),
    ),
  );
}

/** Cards as short text, or a dash for none. @param {string[]} cards */
function cardsText(cards) {
  return cards.length ? cards.map(cardShort).join(' ') : t('rv.nothing');
}

/**
 * Wippen: each of his moves against the moves the bot weighed.
 * @param {import('./protocol.js').MoveReview} review
 * @param {(action: any) => string} say
 */
function movesList(review, say) {
  if (!review.moves.length) return h('p', { class: 'hint', 'data-testid': 'review-no-decisions' }, t('rv.moves_none'));
  const extra = {
    head: [t('rv.taken'), t('rv.worth'), t('rv.left')],
    /** @param {import('./protocol.js').MoveOption} o */
    cells: (o) => [
      h('td', null, cardsText(o.taken), o.sweep ? [' ', h('span', { class: 'tag tag-best' }, t('rv.sweep'))] : null),
      h('td', { class: 'num' }, String(o.worth)),
      h('td', null, cardsText(o.left)),
    ],
  };
  return h(
    'ol',
    { class: 'review-decisions' },
    review.moves.map((m) =>
      h(
        'li',
        { class: `decision ${sameAction(m.chosen, m.bot) ? 'good' : 'worse'}`, 'data-kind': 'move', 'data-testid': 'decision' },
        h('h4', null, t('rv.move', { n: m.at + 1 })),
        samplesLine(m.samples),
        optionsTable(t('rv.move_options', { n: m.at + 1 }), m.options, m, say, extra),
        verdict(m, say),
      ),
    ),
  );
}

/**
 * The review of a seat's decisions in a deal of any game but Prisdorf.
 * @param {GameDecisions} decisions
 */
export function decisionsBody(decisions) {
  const game = gameOf(decisions.game);
  const say = (action) => game.actionText(action);
  const wippen = decisions.game === 'wippen';
  const explain = wippen ? t('rv.explain.wippen') : decisions.game === 'thedinghausen' ? `${t('rv.explain')} ${t('rv.explain.thedinghausen')}` : t('rv.explain');
  return h(
    'div',
    { class: 'review review-of-decisions', 'data-testid': 'review', 'data-game': decisions.game },
    h('p', { class: 'review-explain' }, explain),
    h(
      'section',
      { class: 'review-choices', 'aria-labelledby': 'review-decisions-title' },
      h('h3', { id: 'review-decisions-title' }, wippen ? t('rv.moves') : t('rv.decisions')),
      wippen ? movesList(/** @type {any} */ (decisions.review), say) : decisionsList(/** @type {any} */ (decisions.review), say),
    ),
  );
}

/**
 * Asks for the replay of finished deal `deal` for the analysis of its play it carries (shown
 * in the review's dialog), unless it is here or asked for.
 * @param {number} deal
 */
export function askAnalysis(deal) {
  const r = S.replay;
  if ((r.status === 'ready' || r.status === 'loading') && r.deal === deal && !('room' in r && r.room)) return;
  if (api.send({ type: 'replay', deal })) S.replay = { status: 'loading', deal };
}

/**
 * In the review's dialog: the seat's cards of deal `deal` that cost something (the card, what
 * it cost, the better card), from the analysis of the deal's replay.
 * @param {number} deal
 * @param {number|null} seat
 */
export function playAnalysis(deal, seat) {
  const r = S.replay;
  let body;
  if (r.status === 'ready' && r.deal === deal && !r.room) {
    const analysis = r.replay.analysis;
    const mine = costlyCards(r.replay).filter((c) => c.seat === seat);
    if (!analysis) body = h('p', { class: 'hint', 'data-testid': 'review-analysis-none' }, t('rv.play.unavailable'));
    else if (!mine.length) body = h('p', { 'data-testid': 'review-analysis-none' }, t('rv.play.none'));
    else {
      const place = (c) => (c.trick !== null ? t('analysis.trick', { n: c.trick }) : t('analysis.move', { n: c.index + 1 }));
      body = h(
        'ol',
        { class: 'analysis-list review-costly' },
        mine.map((c) =>
          h(
            'li',
            { 'data-card': c.card, 'data-cost': c.cost },
            h('strong', null, `${place(c)}: ${t('rv.play.played', { card: cardShort(c.card) })}`),
            h('span', { class: 'sr-only' }, ` (${cardName(c.card)})`),
            ' — ',
            h('span', { class: 'analysis-cost' }, costText(c, analysis.unit)),
          ),
        ),
      );
    }
  } else if (r.status === 'failed' && r.deal === deal) {
    body = h('p', { class: 'hint' }, t('rv.play.failed'));
  } else {
    body = h('p', { role: 'status', class: 'hint' }, t('rv.play.loading'));
  }
  return h(
    'section',
    { class: 'review-analysis', 'data-testid': 'review-analysis', 'aria-labelledby': 'review-analysis-title' },
    h('h3', { id: 'review-analysis-title' }, t('rv.play.title')),
    body,
  );
}
