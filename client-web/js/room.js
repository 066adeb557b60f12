// The room before the game: the invitation link, the seats, watchers, and the start button.

import { eyeIcon, h, robotIcon } from './dom.js';
import { lang, t } from './i18n.js';
import { S, amHost, api, mySeat } from './store.js';
import { gameName, gameOf } from './games/index.js';
import { tourneyBar } from './tournament.js';
import { tableTitle } from './format.js';

export function inviteLink(code) {
  return `${location.origin}${location.pathname}#/room/${code}`;
}

async function copy(text, input) {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    input?.select();
    document.execCommand?.('copy');
  }
  S.ui.copied = true;
  api.render();
  setTimeout(() => {
    S.ui.copied = false;
    api.render();
  }, 2500);
}

/** The invitation box: the link, a copy button and (on phones) the share sheet. */
export function inviteBox(code) {
  const link = inviteLink(code);
  const input = h('input', { type: 'text', readonly: true, value: link, 'data-key': 'invite-link', 'aria-label': t('room.invite'), onfocus: (e) => e.target.select() });
  return h(
    'div',
    { class: 'invite' },
    h('p', { class: 'invite-label' }, t('room.invite')),
    h(
      'div',
      { class: 'invite-row' },
      input,
      h('button', { type: 'button', class: 'primary', 'data-key': 'copy-link', onclick: () => copy(link, input) }, S.ui.copied ? t('room.copied') : t('room.copy')),
      navigator.share
        ? h('button', { type: 'button', 'data-key': 'share-link', onclick: () => navigator.share({ title: 'Fipsen', url: link }).catch(() => {}) }, t('room.share'))
        : null,
    ),
    h('p', { class: 'hint' }, t('home.code'), ': ', h('strong', { class: 'code' }, code)),
  );
}

/** The table's game and its options in words. @param {any} rules */
export function rulesSummary(rules) {
  if (!rules) return null;
  const row = (label, value) => h('div', { class: 'rule' }, h('dt', null, label), h('dd', null, value));
  return h(
    'dl',
    { class: 'rules-summary' },
    row(t('opt.game'), gameName(rules.game)),
    gameOf(rules.game)
      .rulesRows(rules)
      .map(([label, value]) => row(label, value)),
  );
}

/** The room's own options (pause between deals, seat holding, watchers). */
export function optionsSummary(options) {
  if (!options) return null;
  const row = (label, value) => h('div', { class: 'rule' }, h('dt', null, label), h('dd', null, value));
  const pause = options.next_deal_seconds;
  return h(
    'dl',
    { class: 'rules-summary' },
    row(t('opt.next_deal'), pause === null || pause === undefined ? t('opt.next_deal.ask') : t('opt.next_deal.seconds', { s: pause })),
    row(t('opt.grace'), t('opt.grace.value', { s: options.grace_seconds ?? 120 })),
    row(t('opt.bot_takeover'), options.bot_takeover ? t(`bot.level.${options.bot_takeover}`) : t('opt.bot_takeover.off')),
    row(t('opt.bot_delay'), botDelayText(options.bot_delay_ms ?? 900)),
    row(t('opt.move'), options.move_seconds ? moveSecondsText(options.move_seconds) : t('opt.move.off')),
    row(t('opt.spectators'), options.spectators_allowed ? t('opt.yes') : t('opt.no')),
    row(t('opt.public'), options.public ? t('opt.yes') : t('opt.no')),
  );
}

/** A move clock in words: "30 seconds per move". @param {number} seconds */
export function moveSecondsText(seconds) {
  return t('opt.move.value', { s: seconds });
}

/** The bots' levels, weakest first. */
export const LEVELS = /** @type {import('./protocol.js').Level[]} */ (['easy', 'normal', 'strong']);

/** The pauses a bot may take before acting, as the forms offer them (ms). */
export const BOT_DELAYS = /** @type {[number, string][]} */ ([
  [0, 'none'],
  [400, 'quick'],
  [900, 'natural'],
  [1600, 'slow'],
]);

/** A bot's pause in words: "natural (0.9 s)". */
export function botDelayText(ms) {
  const seconds = t('opt.bot_delay.value', { s: (ms / 1000).toLocaleString(lang()) });
  const named = BOT_DELAYS.find(([value]) => value === ms);
  return named ? `${t(`opt.bot_delay.${named[1]}`)} (${seconds})` : seconds;
}

/**
 * A small label for a seat a bot plays: a bot of its own, or one standing in for an absent
 * player.
 * @param {import('./protocol.js').SeatInfo|null} info
 */
export function botLabel(info) {
  if (info?.bot) return h('span', { class: 'bot-tag', 'data-testid': 'bot-tag' }, robotIcon(), ' ', t('bot.tag', { level: t(`bot.level.${info.bot}`) }));
  if (info?.stand_in) return h('span', { class: 'bot-tag stand-in', 'data-testid': 'stand-in' }, robotIcon(), ' ', t('bot.plays_for', { name: info.name }));
  return null;
}

/** Whether the host may seat or take off bots now: before the series or between deals. */
function botsChangeable(room) {
  return room.status === 'waiting' || room.status === 'between_deals';
}

/** The choice of level for a bot about to be seated at `seat`. */
function botPicker(seat) {
  return h(
    'div',
    { class: 'bot-picker', role: 'group', 'aria-label': t('bot.choose_level') },
    h('p', { class: 'hint' }, t('bot.choose_level')),
    LEVELS.map((level) =>
      h(
        'button',
        {
          type: 'button',
          class: 'level-choice',
          'data-key': `add-bot-${seat}-${level}`,
          'aria-label': t('bot.add_level', { level: t(`bot.level.${level}`) }),
          onclick: () => {
            S.ui.botPicker = null;
            api.send({ type: 'add_bot', seat, level });
          },
        },
        h('strong', null, robotIcon(), ' ', t(`bot.level.${level}`)),
        h('span', { class: 'hint' }, t(`bot.level.${level}.help`)),
      ),
    ),
    h(
      'button',
      {
        type: 'button',
        class: 'small',
        'data-key': `add-bot-${seat}-cancel`,
        onclick: () => {
          S.ui.botPicker = null;
          api.render();
        },
      },
      t('bot.cancel'),
    ),
  );
}

/**
 * The seats: who sits where, the bots with their level, free seats to sit at; for the host the
 * controls to seat a bot at a free seat and to take a bot off (before the start and between
 * deals).
 */
export function seatList() {
  const room = S.room;
  const me = mySeat();
  const players = room.seats.length;
  const isHost = amHost();
  const waiting = room.status === 'waiting';
  const bots = isHost && botsChangeable(room);
  return h(
    'ol',
    { class: 'seat-list', 'aria-label': t('room.seats') },
    Array.from({ length: players }, (_, i) => {
      const info = room.seats[i];
      const mine = me === i;
      const free = !info;
      // An open seat's player stayed away past the grace period: a bot may take it over.
      const botSeatable = bots && (free || (info.open && !info.bot && !mine));
      return h(
        'li',
        { class: `seat-row${mine ? ' mine' : ''}${free ? ' free' : ''}${info?.bot ? ' bot' : ''}`, 'data-seat': i },
        h('span', { class: 'seat-no', 'aria-hidden': 'true' }, String(i + 1)),
        info
          ? h(
              'span',
              { class: 'seat-name' },
              h('strong', null, info.name),
              mine ? h('span', { class: 'tag' }, t('room.you')) : null,
              info.host ? h('span', { class: 'tag' }, t('room.host')) : null,
              botLabel(info),
              info.bot ? null : h('span', { class: `presence ${info.connected ? 'here' : 'away'}` }, info.connected ? t('room.online') : t('room.away')),
            )
          : h('span', { class: 'seat-name free' }, t('room.free')),
        free && me === null
          ? h('button', { type: 'button', class: 'small', 'data-key': `take-${i}`, onclick: () => api.send({ type: 'take_seat', seat: i }) }, t('room.take_seat'))
          : null,
        mine && !isHost && waiting
          ? h('button', { type: 'button', class: 'small', 'data-key': 'leave-seat', onclick: () => api.send({ type: 'leave_seat' }) }, t('room.leave_seat'))
          : null,
        botSeatable
          ? h(
              'button',
              {
                type: 'button',
                class: 'small',
                'data-key': `add-bot-${i}`,
                'aria-expanded': String(S.ui.botPicker === i),
                onclick: () => {
                  S.ui.botPicker = S.ui.botPicker === i ? null : i;
                  api.render();
                },
              },
              robotIcon(),
              ' ',
              t('bot.add'),
            )
          : null,
        bots && info?.bot
          ? h(
              'button',
              {
                type: 'button',
                class: 'small',
                'data-key': `remove-bot-${i}`,
                'aria-label': t('bot.remove_label', { name: info.name }),
                onclick: () => api.send({ type: 'remove_bot', seat: i }),
              },
              t('bot.remove'),
            )
          : null,
        botSeatable && S.ui.botPicker === i ? botPicker(i) : null,
      );
    }),
  );
}

export function roomView() {
  const room = S.room;
  const me = mySeat();
  const players = room.seats.length;
  const seated = room.seats.filter(Boolean).length;
  const missing = Math.max(0, players - seated);
  // A tournament table's seats and start are the tournament's.
  const isHost = amHost() && !room.tournament;
  return h(
    'div',
    { class: 'room' },
    h('h1', null, tableTitle(room.title, room.host) || t('room.title', { code: room.code })),
    tourneyBar(room),
    room.tournament ? null : inviteBox(room.code),
    h(
      'section',
      { class: 'panel' },
      h('h2', null, t('room.seats')),
      seatList(),
      room.spectators ? h('p', { class: 'hint' }, eyeIcon(), ' ', t('room.spectators', { n: room.spectators })) : null,
      me === null ? h('p', { class: 'watching-banner', role: 'status' }, eyeIcon(), ' ', t('table.watching')) : null,
      isHost
        ? h(
            'label',
            { class: 'check' },
            h('input', {
              type: 'checkbox',
              'data-key': 'set-public',
              checked: Boolean(room.options?.public),
              onchange: (e) => api.send({ type: 'set_public', public: e.target.checked }),
            }),
            h('span', null, t('opt.public')),
          )
        : null,
      isHost
        ? h('button', { type: 'button', class: 'primary big', 'data-key': 'start', disabled: missing > 0 || S.waiting, onclick: () => api.send({ type: 'start' }) }, t('room.start'))
        : null,
      h('p', { class: 'hint', role: 'status' }, missing > 0 ? t('room.waiting', { n: missing }) : t('room.host_starts')),
      isHost && missing > 0 ? h('p', { class: 'hint' }, robotIcon(), ' ', t('room.or_bots')) : null,
    ),
    h('details', { class: 'panel', open: true }, h('summary', null, t('room.rules')), rulesSummary(room.rules), optionsSummary(room.options)),
    h('p', null, h('a', { href: '#/', 'data-key': 'leave-room' }, '← ', t('room.leave'))),
  );
}
