// The home screen: your name, a new table with its rules, joining by code, the open tables.

import { h, keepOpen } from './dom.js';
import { has, t } from './i18n.js';
import { S, api, saveName, seatFor, seats } from './store.js';
import { BOT_DELAYS, LEVELS, botDelayText, moveSecondsText } from './room.js';
import { eyeIcon, radioFieldset, robotIcon } from './dom.js';
import { GAMES, GAME_IDS, gameName, gameOf } from './games/index.js';
import { myRoomLine } from './series.js';
import { tableTitle } from './format.js';
import { listedTourneys, myTourneys, tourneyBar } from './tournament.js';

/**
 * The table being set up (kept across renders): the game, each game's rules (from its module's
 * defaults), and the room's options.
 */
const draft = {
  game: GAME_IDS[0],
  /** Each game's rules as chosen so far. @type {Record<string, Record<string, any>>} */
  rules: Object.fromEntries(GAME_IDS.map((id) => [id, { ...GAMES[id].defaults }])),
  deals: '',
  public: false,
  spectators_allowed: true,
  title: '',
  next_deal: 'auto',
  /** Seconds a disconnected player's seat is held for him (the server's default). */
  grace: '120',
  /** The level of the bot that plays for a player gone past the grace period, or 'off'. */
  bot_takeover: 'normal',
  /** A bot's pause before acting, in ms (the server's default). */
  bot_delay: 900,
  /** The move clock: seconds per move, or 'off' (the server's default). */
  move: /** @type {'off'|number} */ ('off'),
  /** The practice table: the game, the bots' level, the number of players, the bots' pause. */
  practice_game: GAME_IDS[0],
  practice_level: 'normal',
  practice_players: 4,
  practice_delay: 900,
  code: '',
  /** Whether the "rules of this table" section is open. */
  more: false,
};

const DEFAULTS = { ...draft };
/** The move clocks the form offers, in seconds. */
const MOVE_SECONDS = [20, 30, 60, 120];
const DEFAULT_GRACE = 120;
/** The longest seat-holding time the server accepts: one day. */
const MAX_GRACE = 86_400;

/**
 * The player's name, kept for the next visit.
 * @param {() => void} [onEnter] what the Enter key does in the field
 */
export function nameField(onEnter) {
  return h(
    'div',
    { class: 'field name-field' },
    h('label', { for: 'name' }, t('home.name')),
    h('input', {
      id: 'name',
      type: 'text',
      'data-key': 'name',
      autocomplete: 'nickname',
      maxlength: 24,
      value: S.name,
      'aria-describedby': 'name-hint',
      oninput: (e) => saveName(e.target.value.trim()),
      onkeydown: onEnter
        ? (e) => {
            if (e.key === 'Enter') onEnter();
          }
        : null,
    }),
    h('p', { id: 'name-hint', class: 'hint' }, t('home.name_hint')),
  );
}

/** Whether the player has yet to give his name; if so, says so and puts the cursor there. */
export function needName() {
  if (S.name.trim()) return false;
  api.toast(t('home.need_name'), 'error');
  document.getElementById('name')?.focus();
  return true;
}

/**
 * Whether the line can carry a request now: open, or resting after an idle close (the request
 * then wakes it and follows).
 */
function usable() {
  return S.conn === 'open' || S.conn === 'idle';
}

/** Sends a join for `code` as a player or a spectator. */
/**
 * "Sit down" on an invitation: at once, or, for a player seated at another table in this tab,
 * on the second tap (the first asks).
 * @param {string} code @param {{code: string, title: string}|null} elsewhere
 */
function sitDown(code, elsewhere) {
  if (elsewhere && S.ui.secondSeat !== code) {
    S.ui.secondSeat = code;
    api.render();
    return;
  }
  join(code, 'player');
}

export function join(code, role) {
  if (needName()) return;
  // Someone may paste the whole invitation link instead of the code.
  const fromLink = code.match(/#\/room\/([A-Za-z0-9_-]+)/);
  const room = fromLink ? fromLink[1] : code.trim();
  if (!room) return;
  // One person, one seat: a browser that already sits at this table gets that seat back.
  const token = role === 'player' ? seatFor(room)?.token || null : null;
  // A join not answered yet keeps its key when it is sent again: the server seats us once.
  const key = role !== 'player' ? null : S.joining?.room === room ? S.joining.msg.key : joinKey();
  const msg = { type: 'join_room', room, name: S.name.trim(), role, ...(token ? { token } : {}), ...(key ? { key } : {}) };
  if (key) S.joining = { room, msg };
  if (api.send(msg)) {
    S.waiting = true;
    api.render();
  }
}

/** A fresh join key: 144 random bits, URL-safe (as random as a seat token). */
function joinKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(18));
  return btoa(String.fromCharCode(...bytes)).replaceAll('+', '-').replaceAll('/', '_');
}

/** The seat-holding time as typed, or null when it is not a whole number from 0 to one day. */
function graceSeconds() {
  const text = String(draft.grace).trim();
  if (text === '') return DEFAULT_GRACE;
  if (!/^\d+$/.test(text)) return null;
  const seconds = Number(text);
  return seconds <= MAX_GRACE ? seconds : null;
}

function create() {
  if (needName()) return;
  const grace = graceSeconds();
  if (grace === null) {
    draft.more = true;
    api.toast(t('opt.grace.invalid'), 'error');
    api.render();
    queueMicrotask(() => document.getElementById('opt-grace')?.focus());
    return;
  }
  const deals = parseInt(String(draft.deals), 10);
  const rules = gameOf(draft.game).rulesFromForm(draft.rules[draft.game], Number.isFinite(deals) && deals > 0 ? deals : null);
  const options = {
    title: draft.title.trim(),
    public: draft.public,
    spectators_allowed: draft.spectators_allowed,
    grace_seconds: grace,
    next_deal_seconds: draft.next_deal === 'auto' ? 10 : draft.next_deal === 'slow' ? 30 : null,
    bot_takeover: draft.bot_takeover === 'off' ? null : /** @type {import('./protocol.js').Level} */ (draft.bot_takeover),
    bot_delay_ms: draft.bot_delay,
    move_seconds: draft.move === 'off' ? null : draft.move,
  };
  if (api.send({ type: 'create_room', name: S.name.trim(), rules, options })) {
    S.waiting = true;
    api.render();
  }
}

/**
 * A practice table in one click: a private room named "Practice" that deals the next deal only
 * when asked (time to read the review), then a bot at every other seat, then the start (the
 * app sends those as the room answers).
 */
function practise() {
  if (needName()) return;
  const players = draft.practice_players;
  const rules = gameOf(draft.practice_game).practiceRules(players);
  const options = {
    title: t('practice.title'),
    public: false,
    next_deal_seconds: null,
    bot_delay_ms: draft.practice_delay,
  };
  S.practice = { levels: Array.from({ length: players - 1 }, () => /** @type {import('./protocol.js').Level} */ (draft.practice_level)) };
  if (api.send({ type: 'create_room', name: S.name.trim(), rules, options })) {
    S.waiting = true;
    api.render();
  } else {
    S.practice = null;
  }
}

/**
 * One option: a legend with its default, an explaining sentence, and radio buttons.
 * @param {string} key
 * @param {string} label
 * @param {[any, string, string?][]} choices value, label and (optional) a line explaining it
 * @param {string} [help] the explaining sentence (default: the text of `opt.<key>.help`)
 * @param {Record<string, any>} [store] where the choice is kept (default: the form's draft)
 * @param {Record<string, any>} [defaults] the defaults of `store`
 */
function radioOption(key, label, choices, help = t(`opt.${key}.help`), store = draft, defaults = DEFAULTS) {
  const defaultLabel = choices.find(([v]) => v === defaults[key])?.[1] ?? '';
  const explained = choices.some((c) => c[2]);
  return radioFieldset({
    name: `opt-${key}`,
    legend: [label, ' ', h('span', { class: 'default' }, t('opt.default', { value: defaultLabel }))],
    help,
    choices,
    current: store[key],
    choose: (value) => {
      store[key] = value;
      api.render();
    },
    className: `option${explained ? ' explained' : ''}`,
  });
}

/** The bots' levels as choices, each with its one-line explanation. */
function levelChoices() {
  return LEVELS.map((level) => /** @type {[any, string, string]} */ ([level, t(`bot.level.${level}`), t(`bot.level.${level}.help`)]));
}

/** The bots' pauses as choices: "natural (0.9 s)". */
function delayChoices() {
  return BOT_DELAYS.map(([ms]) => /** @type {[any, string]} */ ([ms, botDelayText(ms)]));
}

/**
 * A jump from the game chosen to its rules in brief, at the foot of the page (on a phone far
 * below): they open there, the game's own in view.
 * @param {string} id
 * @param {string} where
 */
function rulesJump(id, where) {
  const jump = () => {
    howtoOpen = true;
    api.render();
    requestAnimationFrame(() => document.getElementById(`howto-${id}`)?.scrollIntoView({ block: 'start' }));
  };
  return h('p', { class: 'rules-jump' }, h('button', { type: 'button', class: 'link', 'data-key': `howto-jump-${where}`, onclick: jump }, t('howto.jump', { game: gameName(id) })));
}

/** The games as choices. */
function gameChoices() {
  return GAME_IDS.map((id) => /** @type {[any, string]} */ ([id, gameName(id)]));
}

function practiceSection() {
  const choices = gameOf(draft.practice_game).playerChoices;
  if (!choices.includes(draft.practice_players)) draft.practice_players = choices[0];
  return h(
    'section',
    { class: 'panel practice', 'aria-labelledby': 'practice-title' },
    h('h2', { id: 'practice-title' }, robotIcon(), ' ', t('practice.heading')),
    h('p', { class: 'hint' }, t('practice.help')),
    radioOption('practice_game', t('opt.game'), gameChoices(), ''),
    rulesJump(draft.practice_game, 'practice'),
    radioOption('practice_level', t('practice.level'), levelChoices(), ''),
    radioOption(
      'practice_players',
      t('opt.players'),
      choices.map((n) => /** @type {[any, string]} */ ([n, String(n)])),
      '',
    ),
    h(
      'details',
      { class: 'practice-more', open: practiceMore, ...keepOpen((open) => (practiceMore = open)) },
      h('summary', { 'data-key': 'practice-more' }, h('span', null, t('opt.bot_delay'), ': ', h('span', { class: 'default' }, botDelayText(draft.practice_delay)))),
      radioOption('practice_delay', t('opt.bot_delay'), delayChoices(), t('opt.bot_delay.help')),
    ),
    h(
      'button',
      { type: 'button', class: 'primary big', 'data-key': 'practice', disabled: S.waiting || !usable(), onclick: practise },
      t('practice.button'),
    ),
  );
}
let practiceMore = false;

/**
 * One yes/no option with its default and an explaining sentence.
 * @param {string} key
 * @param {string} label
 * @param {string} helpKey
 * @param {Record<string, any>} [store] where the choice is kept (default: the form's draft)
 * @param {Record<string, any>} [defaults] the defaults of `store`
 */
function checkOption(key, label, helpKey, store = draft, defaults = DEFAULTS) {
  return h(
    'div',
    { class: 'option' },
    h(
      'label',
      { class: 'check' },
      h('input', {
        type: 'checkbox',
        'data-key': `opt-${key}`,
        checked: store[key],
        onchange: (e) => {
          store[key] = e.target.checked;
        },
      }),
      h('span', null, label, ' ', h('span', { class: 'default' }, t('opt.default', { value: defaults[key] ? t('opt.yes') : t('opt.no') }))),
    ),
    h('p', { class: 'hint' }, t(helpKey)),
  );
}

/**
 * The length of the series (every game has it): a number of deals, or in the game's own words
 * (Thedinghausen: rounds). Sent as the `deals` of `rulesFromForm`.
 * @param {{label: string, help: string}} [words] the keys of the label and its help
 */
function dealsOption(words = { label: 'opt.deals', help: 'opt.deals.help' }) {
  return h(
    'div',
    { class: 'option' },
    h('label', { for: 'opt-deals' }, t(words.label), ' ', h('span', { class: 'default' }, t('opt.default', { value: t('opt.deals.open') }))),
    h('p', { class: 'hint' }, t(words.help)),
    h('input', {
      id: 'opt-deals',
      type: 'number',
      min: 1,
      max: 1000,
      inputmode: 'numeric',
      'data-key': 'opt-deals',
      placeholder: t('opt.deals.open'),
      value: draft.deals,
      oninput: (e) => (draft.deals = e.target.value),
    }),
  );
}

function createSection() {
  const game = gameOf(draft.game);
  const store = draft.rules[draft.game];
  /** @type {import('./games/interface.js').FormKit} */
  const kit = {
    radio: (key, label, choices, help) => radioOption(key, label, choices, help ?? t(`opt.${key}.help`), store, game.defaults),
    check: (key, label, helpKey) => checkOption(key, label, helpKey, store, game.defaults),
    deals: dealsOption,
    draft: store,
  };
  const form = game.rulesForm(kit);
  return h(
    'section',
    { class: 'panel create', 'aria-labelledby': 'create-title' },
    h('h2', { id: 'create-title' }, t('home.create')),
    h(
      'div',
      { class: 'field' },
      h('label', { for: 'opt-title' }, t('opt.title'), ' ', h('span', { class: 'default' }, t('opt.title.default'))),
      h('input', {
        id: 'opt-title',
        type: 'text',
        maxlength: 60,
        'data-key': 'opt-title',
        value: draft.title,
        oninput: (e) => (draft.title = e.target.value),
      }),
    ),
    radioOption('game', t('opt.game'), gameChoices()),
    rulesJump(draft.game, 'create'),
    form.main,
    h(
      'details',
      { class: 'more-rules', open: draft.more, ...keepOpen((open) => (draft.more = open)) },
      h('summary', null, t('room.rules')),
      form.more,
      radioOption('next_deal', t('opt.next_deal'), [
        ['auto', t('opt.next_deal.auto')],
        ['slow', t('opt.next_deal.slow')],
        ['ask', t('opt.next_deal.ask')],
      ]),
      h(
        'div',
        { class: 'option' },
        h(
          'label',
          { for: 'opt-grace' },
          t('opt.grace'),
          ' ',
          h('span', { class: 'default' }, t('opt.default', { value: t('opt.grace.value', { s: DEFAULT_GRACE }) })),
        ),
        h('p', { class: 'hint', id: 'opt-grace-help' }, t('opt.grace.help')),
        h(
          'span',
          { class: 'unit-input' },
          h('input', {
            id: 'opt-grace',
            type: 'number',
            min: 0,
            max: MAX_GRACE,
            step: 1,
            inputmode: 'numeric',
            'data-key': 'opt-grace',
            'aria-describedby': 'opt-grace-help',
            value: draft.grace,
            oninput: (e) => (draft.grace = e.target.value),
          }),
          h('span', { class: 'unit', 'aria-hidden': 'true' }, t('opt.seconds_unit')),
        ),
      ),
      radioOption('move', t('opt.move'), [
        ['off', t('opt.move.off')],
        ...MOVE_SECONDS.map((seconds) => /** @type {[any, string]} */ ([seconds, moveSecondsText(seconds)])),
      ]),
      radioOption('bot_takeover', t('opt.bot_takeover'), [['off', t('opt.bot_takeover.off')], ...levelChoices()]),
      radioOption('bot_delay', t('opt.bot_delay'), delayChoices()),
      checkOption('public', t('opt.public'), 'opt.public.help'),
      checkOption('spectators_allowed', t('opt.spectators'), 'opt.spectators.help'),
    ),
    h(
      'button',
      { type: 'button', class: 'primary big', 'data-key': 'create', disabled: S.waiting || !usable(), onclick: create },
      t('home.create_button'),
    ),
  );
}

function joinSection() {
  return h(
    'section',
    { class: 'panel join', 'aria-labelledby': 'join-title' },
    h('h2', { id: 'join-title' }, t('home.join')),
    h('p', { class: 'hint' }, t('home.join_hint')),
    h(
      'div',
      { class: 'field' },
      h('label', { for: 'join-code' }, t('home.code')),
      h('input', {
        id: 'join-code',
        type: 'text',
        'data-key': 'join-code',
        autocapitalize: 'off',
        autocomplete: 'off',
        spellcheck: 'false',
        maxlength: 32,
        value: draft.code,
        oninput: (e) => (draft.code = e.target.value),
        onkeydown: (e) => {
          if (e.key === 'Enter') join(draft.code, 'player');
        },
      }),
    ),
    h(
      'div',
      { class: 'row' },
      h('button', { type: 'button', class: 'primary', 'data-key': 'join-sit', onclick: () => join(draft.code, 'player') }, t('home.join_button')),
      h('button', { type: 'button', 'data-key': 'join-watch', onclick: () => join(draft.code, 'spectator') }, t('home.watch_button')),
    ),
  );
}

function lobbySection() {
  const rooms = S.lobby ?? [];
  const more = S.lobbyTotal > rooms.length;
  return h(
    'section',
    { class: 'panel lobby', 'aria-labelledby': 'lobby-title' },
    h(
      'div',
      { class: 'panel-head' },
      h('h2', { id: 'lobby-title' }, t('home.lobby')),
      h('button', { type: 'button', class: 'small', 'data-key': 'lobby-refresh', onclick: () => api.send({ type: 'lobby' }) }, t('home.refresh')),
    ),
    rooms.length === 0
      ? h('p', { class: 'hint' }, t('home.lobby_empty'))
      : h(
          'ul',
          { class: 'lobby-list' },
          rooms.map((r) => {
            const code = String(r.room);
            const players = r.players ?? [];
            const seated = players.filter((p) => p !== null).length;
            const waiting = r.status === 'waiting';
            return h(
              'li',
              { class: 'lobby-row' },
              h(
                'div',
                { class: 'lobby-info' },
                h('strong', null, tableTitle(r.title, r.host) || code),
                h('span', { class: 'lobby-game', 'data-testid': 'lobby-game' }, gameName(r.rules?.game)),
                h('span', null, players.filter(Boolean).join(', ')),
                h(
                  'span',
                  { class: 'hint' },
                  `${t('home.lobby_row', { seated, players: players.length })} · ${
                    waiting ? t('home.lobby_waiting') : t('home.lobby_playing')
                  }${r.spectators ? ` · ${t('home.lobby_watchers', { n: r.spectators })}` : ''}`,
                ),
              ),
              h(
                'div',
                { class: 'row' },
                waiting && seated < players.length
                  ? h('button', { type: 'button', class: 'primary small', 'data-key': `lobby-sit-${code}`, onclick: () => join(code, 'player') }, t('home.join_button'))
                  : null,
                r.spectators_allowed !== false
                  ? h('button', { type: 'button', class: 'small', 'data-key': `lobby-watch-${code}`, onclick: () => join(code, 'spectator') }, t('home.watch_button'))
                  : null,
              ),
            );
          }),
        ),
    more
      ? h(
          'div',
          { class: 'row lobby-more' },
          h('span', { class: 'hint' }, t('home.lobby_shown', { n: rooms.length, total: S.lobbyTotal })),
          h('button', { type: 'button', 'data-key': 'lobby-more', onclick: () => api.send({ type: 'lobby', offset: rooms.length }) }, t('home.lobby_more')),
        )
      : null,
  );
}

function myRoomsSection() {
  const held = seats();
  const codes = Object.keys(held).filter((code) => held[code].token);
  if (codes.length === 0) return null;
  // Once the server answered `my_rooms`, list only the rooms it still knows, with their state.
  const known = S.myRooms ? new Map(S.myRooms.map((r) => [String(r.room), r])) : null;
  const shown = known ? codes.filter((c) => known.has(c)) : codes;
  if (shown.length === 0) return null;
  return h(
    'section',
    { class: 'panel mine', 'aria-labelledby': 'mine-title' },
    h('h2', { id: 'mine-title' }, t('home.your_rooms')),
    h(
      'ul',
      { class: 'lobby-list' },
      shown.map((code) => {
        const r = known?.get(code);
        // A room whose stored history the server cannot rebuild stays closed: listed, with why.
        if (r?.broken) {
          return h(
            'li',
            { class: 'lobby-row', 'data-testid': 'mine-broken' },
            h(
              'div',
              { class: 'lobby-info' },
              h('strong', null, t('room.title', { code })),
              h('span', { class: 'hint', 'data-testid': 'mine-status' }, t('err.room/broken')),
            ),
          );
        }
        return h(
          'li',
          { class: 'lobby-row' },
          h(
            'div',
            { class: 'lobby-info' },
            h('strong', null, tableTitle(r?.title) || t('room.title', { code })),
            r ? h('span', { class: 'lobby-game', 'data-testid': 'lobby-game' }, gameName(r.game)) : null,
            r ? h('span', { class: 'hint' }, (r.players ?? []).filter(Boolean).join(', ')) : null,
            r ? h('span', { class: 'hint', 'data-testid': 'mine-status' }, myRoomLine(r)) : null,
          ),
          h(
            'div',
            { class: 'row' },
            r && r.status !== 'waiting' ? h('a', { class: 'button small', href: `#/series/${code}`, 'data-key': `mine-series-${code}` }, t('series.open')) : null,
            h('a', { class: 'button primary small', href: `#/room/${code}` }, t('home.return')),
          ),
        );
      }),
    ),
  );
}

let howtoOpen = false;

/**
 * Each game's rules in a few sentences, for people who have never played (the game of an
 * invitation first).
 * @param {string} [first] the id of the game to tell first
 */
function howToPlay(first) {
  const ids = first && GAME_IDS.includes(first) ? [first, ...GAME_IDS.filter((id) => id !== first)] : GAME_IDS;
  return h(
    'details',
    { class: 'panel howto', open: howtoOpen, ...keepOpen((open) => (howtoOpen = open)) },
    h('summary', null, t('howto.title')),
    ids.map((id) =>
      h(
        'section',
        { class: 'howto-game', 'data-game': id, 'aria-labelledby': `howto-${id}` },
        h('h3', { id: `howto-${id}` }, gameName(id)),
        h('ol', null, gameOf(id).howto().map((line) => h('li', null, line))),
      ),
    ),
  );
}

export function homeView() {
  return h(
    'div',
    { class: 'home' },
    h('p', { class: 'tagline' }, t('app.tagline')),
    nameField(),
    myRoomsSection(),
    myTourneys(),
    practiceSection(),
    listedTourneys(),
    h('div', { class: 'home-grid' }, createSection(), h('div', { class: 'stack' }, joinSection(), lobbySection())),
    howToPlay(),
  );
}

/**
 * The name of an invited table: "Friday table — hosted by Antje" ("Antje's table" when it is named
 * after its host).
 * @param {import('./protocol.js').LobbyRoom} info
 */
export function inviteTitle(info) {
  const title = tableTitle(info.title, info.host);
  if (title !== info.title) return title;
  return t('invite.hosted', { title: info.title, host: info.host });
}

/** What the invitation is for, as the server describes the room (`room_info`). */
function inviteInfo(info) {
  const players = info.players ?? [];
  const seated = players.filter((p) => p !== null);
  const rules = /** @type {any} */ (info.rules ?? {});
  const game = [
    gameName(rules.game),
    t('invite.players', { n: rules.players ?? players.length }),
    gameOf(rules.game).lengthText(rules),
    ...gameOf(rules.game).inviteFacts(rules),
  ];
  return h(
    'div',
    { class: 'invite-info', 'data-testid': 'invite-info' },
    h('p', { class: 'invite-game', 'data-testid': 'invite-game', 'data-game': gameOf(rules.game).id }, game.join(' · ')),
    h('p', { class: 'invite-status', 'data-testid': 'invite-status' }, t(`invite.status.${info.status}`)),
    h(
      'ul',
      { class: 'invite-seats', 'aria-label': t('room.seats') },
      players.map((name, i) =>
        h(
          'li',
          { class: name === null ? 'free' : null },
          h('span', { class: 'seat-no', 'aria-hidden': 'true' }, String(i + 1)),
          ' ',
          name ?? h('span', { class: 'hint' }, t('room.free')),
        ),
      ),
    ),
    h(
      'p',
      { class: 'hint' },
      t('home.lobby_row', { seated: seated.length, players: players.length }),
      info.spectators ? [' · ', eyeIcon(), ' ', t('home.lobby_watchers', { n: info.spectators })] : null,
    ),
  );
}

/**
 * Someone opened an invitation link: the table it is for (its name, host, game, players and
 * status, as the server describes it), then the name, then sit down or watch.
 */
export function joinView(code) {
  const peek = S.peek?.code === code ? S.peek : null;
  const info = peek?.info ?? null;
  const error = peek?.error ?? null;
  const off = S.waiting || !usable();
  // Seated at another table in this tab (his seat there stays his): said, and asked before he
  // sits down here as well. A seat he holds here already is simply his again.
  const elsewhere = S.ui.seatedAt && S.ui.seatedAt.code !== code && !seatFor(code)?.token ? S.ui.seatedAt : null;
  return h(
    'div',
    { class: 'home invited' },
    h(
      'section',
      { class: 'panel', 'aria-labelledby': 'invite-title' },
      h('p', { class: 'invite-kicker' }, t('invite.kicker')),
      h('h1', { id: 'invite-title', 'data-testid': 'invite-title' }, info ? inviteTitle(info) : t('room.title', { code })),
      error
        ? h('p', { class: 'invite-error', role: 'alert', 'data-testid': 'invite-error' }, has(`err.${error}`) ? t(`err.${error}`) : t('err.generic', { message: error }))
        : info
          ? [tourneyBar(info), inviteInfo(info)]
          : h('p', { class: 'hint', role: 'status' }, t('conn.connecting')),
      info?.tournament ? h('p', { class: 'hint', 'data-testid': 'invite-tournament' }, t('tn.invite_players')) : null,
      error ? null : nameField(),
      elsewhere
        ? h(
            'p',
            { class: 'invite-elsewhere', 'data-testid': 'invite-elsewhere' },
            t('invite.elsewhere', { table: elsewhere.title }),
            ' ',
            h('a', { href: `#/room/${elsewhere.code}`, 'data-key': 'invite-back' }, t('invite.back', { table: elsewhere.title })),
          )
        : null,
      error
        ? null
        : h(
            'div',
            { class: 'row' },
            // A tournament's players sit down from its page, with their tournament tokens.
            info?.tournament
              ? null
              : h(
                  'button',
                  { type: 'button', class: 'primary big', 'data-key': 'invite-sit', disabled: off, onclick: () => sitDown(code, elsewhere) },
                  elsewhere && S.ui.secondSeat === code ? t('invite.sit_too') : t('home.join_button'),
                ),
            info?.spectators_allowed === false
              ? null
              : h('button', { type: 'button', class: 'big', 'data-key': 'invite-watch', disabled: off, onclick: () => join(code, 'spectator') }, t('home.watch_button')),
          ),
      h('p', null, h('a', { href: '#/' }, '← Fipsen')),
    ),
    howToPlay(info?.rules?.game),
  );
}
