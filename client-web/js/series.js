// The series page: a series as far as its deals are over — its players, its scoresheet (printable
// on paper), each finished deal to replay, the file to keep — opened by a share link or, for a
// player, from "your tables". In a room: sharing the series and deleting it by agreement.
// Everything shown comes from the server's `series`, `share_link` and `update` answers.

import { h } from './dom.js';
import { addStrings, lang, t } from './i18n.js';
import { strings } from './series-strings.js';
import { gameName } from './games/index.js';
import { scoresheet } from './sheet.js';
import { openReplay, replayDialog } from './replay.js';
import { costlyTable } from './analysis.js';
import { S, api, mySeat, seatFor } from './store.js';

addStrings(strings);

/**
 * The series page's state: asked for, refused, or the server's answer.
 * @typedef {{status: 'idle'} | {status: 'loading', room: string, key: string}
 *   | {status: 'failed', room: string, key: string, code: string}
 *   | {status: 'ready', room: string, key: string, record: import('./protocol.js').SeriesRecord, shareKey: string|null}} SeriesState
 */

/** Finished deals on one page of the series (the server's largest page). */
const PAGE_DEALS = 50;

/** The first deal of the page that holds deal `n`. @param {number} n */
function pageOf(n) {
  return Math.floor((n - 1) / PAGE_DEALS) * PAGE_DEALS + 1;
}

/**
 * The file to keep being gathered page by page: every deal and scoresheet row so far.
 * @type {{room: string, key: string, deals: any[], rows: any[]} | null}
 */
let gathering = null;

/** The link of a series page (and of one of its deals) for a share key. */
export function seriesLink(room, key, deal) {
  return `${location.origin}${location.pathname}#/series/${room}/${key}${deal ? `/${deal}` : ''}`;
}

/**
 * Asks for the series the route names: by its share key, or (a player's own table, no key in
 * the link) by this browser's seat token of the room.
 * One page of finished deals at a time: from deal `from`, by default the page that holds the
 * deal the link names (else the first).
 * @param {{code: string, key: string|null, deal?: number|null}} route
 * @param {number} [from]
 */
export function askSeries(route, from) {
  const key = route.key ?? seatFor(route.code)?.token ?? '';
  if (!key) {
    S.series = { status: 'failed', room: route.code, key, code: 'series/not_found' };
    return;
  }
  const start = from ?? (route.deal ? pageOf(route.deal) : 1);
  const s = /** @type {any} */ (S.series);
  if (s.status !== 'idle' && s.status !== 'failed' && s.room === route.code && s.key === key && s.from === start) return;
  gathering = null;
  if (api.send({ type: 'series', room: route.code, key, from: start })) S.series = /** @type {any} */ ({ status: 'loading', room: route.code, key, from: start });
}

/** The server's answer. @param {{series: import('./protocol.js').SeriesRecord, share_key?: string|null}} msg */
export function seriesArrived(msg) {
  if (gathering && gathering.room === msg.series.room) {
    gathered(msg.series);
    return;
  }
  const s = /** @type {any} */ (S.series);
  if (s.status !== 'loading' || s.room !== msg.series.room) return;
  const shareKey = msg.share_key ?? (S.route.name === 'series' ? S.route.key : null);
  S.series = /** @type {any} */ ({ status: 'ready', room: s.room, key: s.key, from: s.from, record: msg.series, shareKey });
  // A player's own series page (opened by his seat, no key in the address): the address becomes
  // the share link, so that it can be copied from the address bar and opened anywhere.
  if (S.route.name === 'series' && !S.route.key && msg.share_key) {
    history.replaceState(null, '', `#/series/${s.room}/${msg.share_key}${S.route.deal ? `/${S.route.deal}` : ''}`);
  }
  // A deal's own link opens its replay at once.
  const deal = S.route.name === 'series' ? S.route.deal : null;
  if (deal && msg.series.deals.some((d) => d.number === deal)) replay(deal);
  api.render();
}

/** The server refused. @param {string} code */
export function seriesRefused(code) {
  // A page of the file to keep refused: the file is not saved, and the person is told why.
  if (gathering) {
    gathering = null;
    api.toast(t(`err.${code}`));
    return true;
  }
  const s = S.series;
  if (s.status !== 'loading') return false;
  S.series = { status: 'failed', room: s.room, key: s.key, code };
  return true;
}

function replay(deal) {
  const s = S.series;
  if (s.status !== 'ready') return;
  openReplay(deal, { room: s.room, key: s.key });
}

/** The names at the seats of the series on screen (for the scoresheet and the replay). */
export function seriesNames() {
  return S.series.status === 'ready' ? S.series.record.players : null;
}

/** Copies a link and says so. @param {string} link */
function copy(link) {
  const done = () => api.toast(t('series.copied'));
  if (navigator.clipboard?.writeText) navigator.clipboard.writeText(link).then(done, () => window.prompt(t('series.copy'), link));
  else window.prompt(t('series.copy'), link);
}

/**
 * The file to keep: every finished deal of the series and its whole scoresheet, gathered page
 * by page (one page is the file itself when it holds every deal).
 * @param {import('./protocol.js').SeriesRecord} record the page on screen
 */
function download(record) {
  if (!record.next && (record.deals[0]?.number ?? 1) <= 1) {
    save(record);
    return;
  }
  const s = S.series;
  if (s.status !== 'ready' || gathering) return;
  gathering = { room: s.room, key: s.key, deals: [], rows: [] };
  api.send({ type: 'series', room: s.room, key: s.key, from: 1 });
  api.toast(t('series.gathering'));
}

/** One page of the file to keep arrived: kept, and the next asked for, or the file saved. @param {any} page */
function gathered(page) {
  const g = /** @type {NonNullable<typeof gathering>} */ (gathering);
  g.deals.push(...page.deals);
  g.rows.push(...(page.sheet?.scoresheet ?? []));
  if (page.next) {
    api.send({ type: 'series', room: g.room, key: g.key, from: page.next });
    return;
  }
  gathering = null;
  save({ ...page, next: null, deals: g.deals, sheet: { ...page.sheet, scoresheet: g.rows } });
}

/** Saves a series record as a JSON file. @param {any} record */
function save(record) {
  const blob = new Blob([JSON.stringify(record, null, 2)], { type: 'application/json' });
  const a = /** @type {HTMLAnchorElement} */ (h('a', { href: URL.createObjectURL(blob), download: `fipsen-${record.room}.json` }));
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 60_000);
}

/** The series page. */
export function seriesView() {
  const s = S.series;
  if (s.status === 'idle' || s.status === 'loading') return h('p', { class: 'loading', role: 'status' }, t('series.loading'));
  if (s.status === 'failed') {
    return h(
      'section',
      { class: 'panel series-page' },
      h('h1', null, t('series.title')),
      h('p', { role: 'alert', 'data-testid': 'series-failed' }, s.code === 'series/not_found' ? t('series.not_found') : t(`err.${s.code}`)),
      h('a', { class: 'button', href: '#/' }, t('series.home')),
    );
  }
  const record = s.record;
  const sheet = /** @type {any} */ (record.sheet);
  const players = record.players.map((p, i) => p ?? t('room.seat_label', { n: i + 1 })).join(', ');
  const held = seatFor(record.room);
  const printedAt = new Date().toLocaleDateString(lang(), { year: 'numeric', month: 'long', day: 'numeric' });
  return h(
    'section',
    { class: 'panel series-page', 'data-testid': 'series', 'data-room': record.room },
    h('h1', { class: 'series-title' }, record.title || t('series.title')),
    h('p', { class: 'series-game' }, t('series.game_line', { game: gameName(record.rules.game), players })),
    h('p', { class: 'hint series-status', 'data-testid': 'series-status' }, record.over ? t('series.over') : t('series.running')),
    h('p', { class: 'print-only series-printed' }, t('series.printed_at', { date: printedAt })),
    h(
      'div',
      { class: 'row series-actions no-print' },
      h('button', { type: 'button', class: 'primary', 'data-key': 'series-print', onclick: () => window.print() }, t('series.print')),
      h('button', { type: 'button', 'data-key': 'series-download', title: t('series.download_hint'), onclick: () => download(record) }, t('series.download')),
      s.shareKey ? h('button', { type: 'button', 'data-key': 'series-share', onclick: () => copy(seriesLink(record.room, s.shareKey)) }, t('series.share')) : null,
      !record.over && held?.token ? h('a', { class: 'button', href: `#/room/${record.room}` }, t('series.back_to_table')) : null,
    ),
    s.shareKey ? h('p', { class: 'hint no-print' }, t('series.share_hint')) : null,
    h('div', { class: 'series-sheet' }, scoresheet(sheet)),
    costlyTable(record, record.players.map((p, i) => p ?? t('room.seat_label', { n: i + 1 }))),
    h(
      'section',
      { class: 'series-deals no-print', 'aria-labelledby': 'series-deals-title' },
      h('h2', { id: 'series-deals-title' }, t('series.deals')),
      pager(record),
      record.deals.length
        ? h(
            'ul',
            { class: 'series-deal-list' },
            record.deals.map((d) =>
              h(
                'li',
                { 'data-deal': d.number },
                h('span', null, t('series.deal_row', { n: d.number })),
                h('button', { type: 'button', class: 'small', 'data-key': `series-replay-${d.number}`, 'aria-haspopup': 'dialog', onclick: () => replay(d.number) }, t('series.replay')),
              ),
            ),
          )
        : h('p', { class: 'hint' }, t('series.no_deals')),
    ),
    S.ui.dialog === 'replay' ? replayDialog() : null,
  );
}

/**
 * Which deals the page shows of how many, and the way to the pages before and after it.
 * @param {import('./protocol.js').SeriesRecord} record
 */
function pager(record) {
  const first = record.deals[0]?.number;
  const last = record.deals[record.deals.length - 1]?.number;
  if (!first || !last || (first === 1 && !record.next)) return null;
  const go = (from) => {
    if (S.route.name === 'series') askSeries(S.route, from);
    api.render();
  };
  return h(
    'nav',
    { class: 'row series-pager no-print', 'aria-label': t('series.pages'), 'data-testid': 'series-pager' },
    first > 1 ? h('button', { type: 'button', class: 'small', 'data-key': 'series-earlier', onclick: () => go(Math.max(1, first - PAGE_DEALS)) }, t('series.earlier')) : null,
    h('span', { 'data-testid': 'series-range' }, t('series.range', { a: first, b: last, n: record.finished ?? last })),
    record.next ? h('button', { type: 'button', class: 'small', 'data-key': 'series-later', onclick: () => go(/** @type {number} */ (record.next)) }, t('series.later')) : null,
  );
}

/** A room's "your tables" line: where the series stands and its totals. @param {any} r a MyRoom */
export function myRoomLine(r) {
  const status = r.status === 'waiting' ? t('series.status.waiting') : r.status === 'finished' ? t('series.status.finished') : t('series.status.playing', { n: r.deal });
  const names = (r.players ?? []).map((p, i) => p ?? t('room.seat_label', { n: i + 1 }));
  const totals = r.status === 'waiting' ? '' : ` · ${t('series.totals', { totals: names.map((n, i) => `${n} ${r.totals?.[i] ?? 0}`).join(', ') })}`;
  return `${status}${totals}`;
}

// ---- in a room ----

/** Asks for the share key of the room's series; the answer is copied as a link. */
function share() {
  api.send({ type: 'share_link' });
}

/** The server's share key for the room: copied as the series page's link. @param {{room: string, key: string}} msg */
export function shareArrived(msg) {
  copy(seriesLink(msg.room, msg.key));
}

/** Set while the person is asked to confirm agreeing to delete the series. */
let confirming = false;

/**
 * Under the room's scoresheet: the series page, sharing it, and deleting it by agreement.
 * @param {import('./store.js').Room} room
 */
export function seriesTools(room) {
  const seat = mySeat();
  const votes = room.delete_votes ?? [];
  const people = room.seats.filter((s) => s && !s.bot).length;
  const mine = seat !== null && votes.includes(seat);
  const vote = (agree) => {
    confirming = false;
    api.send({ type: 'delete_series', agree });
    api.render();
  };
  let deleting = null;
  // A tournament table's series belongs to the tournament: it is not deleted by its players.
  if (seat !== null && !room.tournament) {
    if (mine) {
      deleting = h('div', { class: 'series-delete', 'data-testid': 'delete-votes' }, h('p', null, t('series.delete_mine'), ' ', t('series.delete_votes', { n: votes.length, k: people })), h('button', { type: 'button', class: 'small', 'data-key': 'delete-withdraw', onclick: () => vote(false) }, t('series.delete_withdraw')));
    } else if (confirming) {
      deleting = h(
        'div',
        { class: 'series-delete', role: 'group' },
        h('p', null, t('series.delete_explain')),
        h('button', { type: 'button', class: 'small danger', 'data-key': 'delete-confirm', onclick: () => vote(true) }, t('series.delete_confirm')),
        h('button', { type: 'button', class: 'small', 'data-key': 'delete-cancel', onclick: () => ((confirming = false), api.render()) }, t('series.delete_cancel')),
      );
    } else {
      deleting = h(
        'div',
        { class: 'series-delete' },
        votes.length ? h('p', { 'data-testid': 'delete-votes' }, t('series.delete_votes', { n: votes.length, k: people })) : null,
        h('button', { type: 'button', class: 'small', 'data-key': 'delete-series', onclick: () => ((confirming = true), api.render()) }, t('series.delete')),
      );
    }
  }
  const mayShare = seat !== null || Boolean(room.options?.public_replays);
  return h(
    'div',
    { class: 'series-tools' },
    h(
      'div',
      { class: 'row' },
      seat !== null ? h('a', { class: 'button small', href: `#/series/${room.code}`, 'data-key': 'series-page' }, t('series.page')) : null,
      mayShare ? h('button', { type: 'button', class: 'small', 'data-key': 'share-series', title: t('series.share_hint'), onclick: share }, t('series.share')) : null,
    ),
    deleting,
  );
}
