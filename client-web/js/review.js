// The review after a deal: asked for from the result panel, shown in a dialog. In Prisdorf the
// bidding review — the hand as dealt, what each game was worth, each call against the best one,
// and for the declarer his play trick by trick (the server's `review` answer); in the other
// games the review of the decisions before the play (`decisions`, drawn by reviews.js). Below
// it in the dialog, his cards of the deal that cost something (the analysis of the play).

import { cardFace, cardName, cardShort, sortHand } from './cards.js';
import { h } from './dom.js';
import { has, lang, t } from './i18n.js';
import { bidText } from './games/prisdorf.js';
import { S, api, mySeat } from './store.js';
import { dialog } from './header.js';
import { decisionsBody, playAnalysis } from './reviews.js';

/** @typedef {import('./protocol.js').Review} Review */
/** @typedef {import('./protocol.js').Bid} Bid */
/** @typedef {import('./protocol.js').Call} Call */

/** Asks the server for the review of the deal just ended and opens the dialog. */
function ask(deal) {
  if (api.send({ type: 'review' })) {
    S.review = { status: 'loading', deal };
    S.ui.dialog = 'review';
    api.render();
  }
}

/**
 * Asks for the review of finished deal `deal` (shown beside its replay), unless it is here.
 * @param {number} deal
 */
export function askReview(deal) {
  const r = S.review;
  if (r.status !== 'idle' && r.status !== 'failed' && r.deal === deal) return;
  if (api.send({ type: 'review', deal })) S.review = { status: 'loading', deal };
}

/**
 * The result panel's button: asks for the review, or shows it again once it is here.
 * @param {import('./protocol.js').SeriesView} game
 */
export function reviewButton(game) {
  const r = S.review;
  const here = r.status !== 'idle' && r.deal === game.number;
  return h(
    'button',
    {
      type: 'button',
      class: 'big review-button',
      'data-key': 'review-open',
      'aria-haspopup': 'dialog',
      onclick: () => {
        if (here && r.status !== 'failed') {
          S.ui.dialog = 'review';
          api.render();
        } else ask(game.number);
      },
    },
    here && r.status === 'ready' ? t('review.show') : bidding() ? t('review.button') : t('rv.button'),
  );
}

/** Whether the room's game has Prisdorf's bidding review (the others review their decisions). */
function bidding() {
  return (S.game?.game ?? 'prisdorf') === 'prisdorf';
}

/** A signed expected score with one decimal: "+1.9", "−13.0", "0.0". */
export function expected(score) {
  const text = new Intl.NumberFormat(lang(), { minimumFractionDigits: 1, maximumFractionDigits: 1, signDisplay: 'exceptZero' }).format(score);
  return text.replace('-', '−');
}

/** A chance as a whole percentage: "97 %". */
export function percent(win) {
  return new Intl.NumberFormat(lang(), { style: 'percent', maximumFractionDigits: 0 }).format(win);
}

/** A signed whole score: "+2", "−4". */
function signed(n) {
  return n > 0 ? `+${n}` : n < 0 ? `−${-n}` : '0';
}

/** A game one could call, in words: "3 tricks Hand Ruten", "Kieker". @param {Bid} bid */
function gameName(bid) {
  if (bid.kind === 'kieker') return t('bid.kieker');
  return [t('bid.row', { n: bid.tricks }), bid.hand ? t('bid.hand') : '', bid.ruten ? t('bid.ruten') : ''].filter(Boolean).join(' ');
}

/** A key that is equal for equal bids. @param {Bid|null|undefined} bid */
function bidKey(bid) {
  if (!bid) return '';
  return bid.kind === 'kieker' ? 'kieker' : `${bid.tricks}${bid.hand ? 'h' : ''}${bid.ruten ? 'r' : ''}`;
}

/** A call in words: "Pass", "Hold 3", "3 Hand". @param {Call} call @param {Bid|null|undefined} standing */
function callName(call, standing) {
  if (call.call === 'bid') return bidText(call.bid);
  if (call.call === 'hold') return standing ? t('act.hold', { bid: bidText(standing) }) : t('call.hold_short');
  return t('call.pass_short');
}

function sameCall(a, b) {
  return a.call === b.call && (a.call !== 'bid' || b.call !== 'bid' || bidKey(a.bid) === bidKey(b.bid));
}

/**
 * The game the reviewed seat played (as a bid: tricks, Hand, Ruten or Kieker) if he was the
 * declarer of that deal, from the scoresheet row of the deal.
 * @param {import('./protocol.js').SeriesView} game
 * @param {Review} review
 * @param {number} number the deal
 * @returns {Bid|null}
 */
function playedGame(game, review, number) {
  const row = (game.scoresheet ?? []).find((r) => r.number === number);
  const outcome = row?.outcome ?? (game.number === number ? game.deal.outcome : null);
  if (!outcome || !('declarer' in outcome) || outcome.declarer !== review.seat) return null;
  const g = outcome.game;
  if (g.kieker) return { kind: 'kieker' };
  return { kind: 'tricks', tricks: g.tricks, hand: g.hand, ruten: g.trumps === 'diamonds' };
}

/** His highest bid in the auction (a hold counts as the bid he held). @param {Review} review */
function highestBid(review) {
  let bid = null;
  for (const c of review.calls) {
    if (c.call.call === 'bid') bid = c.call.bid;
    else if (c.call.call === 'hold' && c.standing) bid = c.standing;
  }
  return bid;
}

/** The dealt hand as small cards. */
function handRow(cards) {
  return h(
    'div',
    { class: 'card-row review-hand', role: 'list', 'aria-label': t('review.hand'), 'data-testid': 'review-hand' },
    sortHand(cards, null).map((c) => h('span', { class: 'small-card', role: 'listitem', 'aria-label': cardName(c), 'data-card': c }, cardFace(c))),
  );
}

/** @param {Review} review @param {Bid|null} played @param {Bid|null} bid */
function estimatesTable(review, played, bid) {
  const rows = [...review.estimates].sort((a, b) => b.score - a.score);
  const bestKey = rows.length ? bidKey(rows[0].game) : '';
  const mine = bidKey(played ?? bid);
  return h(
    'div',
    { class: 'table-scroll', tabindex: '0', role: 'region', 'aria-label': t('review.games') },
    h(
      'table',
      { class: 'estimates', 'data-testid': 'review-estimates' },
      h('caption', { class: 'sr-only' }, t('review.games')),
      h(
        'thead',
        null,
        h('tr', null, h('th', { scope: 'col' }, t('review.game')), h('th', { scope: 'col', class: 'num' }, t('review.win')), h('th', { scope: 'col', class: 'num' }, t('review.score'))),
      ),
      h(
        'tbody',
        null,
        rows.map((e) => {
          const key = bidKey(e.game);
          const best = key === bestKey;
          const yours = key === mine;
          return h(
            'tr',
            { class: `${best ? 'best' : ''}${yours ? ' yours' : ''}`.trim() || null, 'data-game': key },
            h(
              'th',
              { scope: 'row' },
              gameName(e.game),
              best ? h('span', { class: 'tag tag-best' }, '★ ', t('review.best')) : null,
              yours ? h('span', { class: 'tag tag-yours' }, played ? t('review.played_game') : t('review.your_bid')) : null,
            ),
            h('td', { class: 'num' }, percent(e.win)),
            h('td', { class: `num${e.score < 0 ? ' neg' : ''}` }, expected(e.score)),
          );
        }),
      ),
    ),
  );
}

/** @param {Review} review */
function callsList(review) {
  if (review.calls.length === 0) return h('p', { class: 'hint' }, t('review.no_calls'));
  return h(
    'ol',
    { class: 'review-calls', 'data-testid': 'review-calls' },
    review.calls.map((c) => {
      const good = c.score >= c.best_score - 1e-9 || sameCall(c.call, c.best);
      return h(
        'li',
        { class: good ? 'good' : 'worse' },
        h('span', { class: 'hint standing' }, c.standing ? t('review.standing', { bid: bidText(c.standing) }) : t('review.standing_none')),
        h(
          'span',
          { class: 'verdict' },
          h('span', { class: 'mark', 'aria-hidden': 'true' }, good ? '✓' : '✗'),
          ' ',
          t('review.you_called', { call: callName(c.call, c.standing), score: expected(c.score) }),
          ' — ',
          good ? h('strong', null, t('review.good')) : h('strong', null, t('review.best_was', { call: callName(c.best, c.standing), score: expected(c.best_score) })),
        ),
      );
    }),
  );
}

/** @param {Review} review */
function playList(review) {
  const plays = review.play ?? [];
  return h(
    'ol',
    { class: 'review-play', 'data-testid': 'review-play' },
    plays.map((p) =>
      h(
        'li',
        { class: p.worse ? 'worse' : 'good', 'data-trick': p.trick },
        h('span', { class: 'trick-no' }, t('review.trick', { n: p.trick })),
        h('span', { class: 'hint before' }, p.before.length ? t('review.after', { cards: p.before.map(cardShort).join(' ') }) : t('review.led')),
        h(
          'span',
          { class: 'verdict' },
          h('span', { class: 'mark', 'aria-hidden': 'true' }, p.worse ? '✗' : '✓'),
          ' ',
          t('review.you_played', { card: cardShort(p.played), score: signed(p.score) }),
          ' — ',
          p.worse
            ? h('strong', null, t('review.better', { card: cardShort(p.best), score: signed(p.best_score) }))
            : h('strong', null, t('review.best_card')),
        ),
      ),
    ),
  );
}

/** @param {import('./protocol.js').DurchReview} d */
function durchSentence(d) {
  const key = d.went_on ? (d.could_take_all ? 'on_right' : 'on_wrong') : d.could_take_all ? 'stop_missed' : 'stop_right';
  const good = key === 'on_right' || key === 'stop_right';
  return h('p', { class: `durch-review ${good ? 'good' : 'worse'}`, 'data-testid': 'review-durch' }, h('span', { class: 'mark', 'aria-hidden': 'true' }, good ? '✓ ' : '✗ '), t(`review.durch.${key}`));
}

/**
 * The review dialog: loading, failed, or the review itself.
 * @param {import('./protocol.js').SeriesView} game
 */
export function reviewDialog(game) {
  const r = S.review;
  const number = r.status === 'idle' ? game.number : r.deal;
  const title = bidding() ? t('review.title', { n: number }) : t('rv.title', { n: number });
  const ready = r.status === 'ready';
  return dialog('review', title, [
    reviewBody(game, () => ask(game.number)),
    ready ? playAnalysis(r.deal, mySeat()) : null,
    ready ? h('div', { class: 'row no-print' }, h('button', { type: 'button', class: 'small', 'data-key': 'review-print', onclick: () => window.print() }, t('rv.print'))) : null,
  ]);
}

/**
 * The review itself (or that it is coming, or failed, with a way to ask again).
 * @param {import('./protocol.js').SeriesView} game
 * @param {() => void} retry
 */
export function reviewBody(game, retry) {
  const r = S.review;
  let body;
  if (r.status === 'loading' || r.status === 'idle') {
    body = h('p', { class: 'review-loading', role: 'status', 'aria-live': 'polite', 'data-testid': 'review-loading' }, h('span', { class: 'spinner', 'aria-hidden': 'true' }), ' ', t('review.loading'));
  } else if (r.status === 'failed') {
    body = [
      h('p', { role: 'alert' }, t('review.failed'), ' ', has(`err.${r.code}`) ? t(`err.${r.code}`) : ''),
      h('button', { type: 'button', class: 'primary', 'data-key': 'review-retry', onclick: retry }, t('review.retry')),
    ];
  } else if ('decisions' in r) {
    body = decisionsBody(r.decisions);
  } else {
    const review = r.review;
    const played = playedGame(game, review, r.deal);
    body = h(
      'div',
      { class: 'review', 'data-testid': 'review' },
      h('div', { class: 'review-top' }, h('p', { class: 'review-explain' }, t('review.explain')), h('h3', null, t('review.hand')), handRow(review.dealt)),
      h('section', { class: 'review-games', 'aria-label': t('review.games') }, h('h3', null, t('review.games')), estimatesTable(review, played, highestBid(review))),
      h(
        'section',
        { class: 'review-choices', 'aria-label': t('review.calls') },
        h('h3', null, t('review.calls')),
        callsList(review),
        review.play?.length ? [h('h3', null, t('review.play')), h('p', { class: 'hint' }, t('review.play_explain')), playList(review)] : null,
        review.durch ? [h('h3', null, t('review.durch')), durchSentence(review.durch)] : null,
      ),
    );
  }
  return body;
}
