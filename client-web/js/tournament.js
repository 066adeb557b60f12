// Tournaments: the form that creates one, the page its registration link opens (registering by
// name, the organiser's controls, the seating, the live standings), the results page (printable,
// with the CSV files), "your tournaments" and the listed tournaments on the home page, and the
// bar a tournament table shows. Everything shown comes from the server's `tournament`,
// `tournament_results` and `tournaments` answers; the tokens are kept in this browser.

import { h, keepOpen, radioFieldset, robotIcon } from './dom.js';
import { addStrings, lang, t } from './i18n.js';
import { strings } from './tournament-strings.js';
import { GAME_IDS, gameName, gameOf } from './games/index.js';
import { BOT_DELAYS, LEVELS, botDelayText } from './room.js';
import { S, api, saveName, saveSeat } from './store.js';
import { nameField, needName } from './home.js';
import { CATALOGUE } from './catalogue.js';

addStrings(strings);

/**
 * What the tournament page shows: the tournament as last sent, or why there is none; its results
 * once asked for: the standings, and each round's tables (asked for round by round, so that no
 * answer grows with both the players and the rounds).
 * @typedef {{code: string, state: import('./protocol.js').TournamentState|null, error: string|null,
 *   results: {results: import('./protocol.js').Results, csv: string}|null,
 *   rounds: Record<number, {round: import('./protocol.js').RoundResult, csv: string}>, asked: boolean}} TourneyState
 */

/** @type {TourneyState|null} */
export let tourney = null;

/** The tournaments of this browser's tokens, as last described by the server (home page). @type {Record<string, import('./protocol.js').TournamentState>} */
const known = {};

/** The listed tournaments (home page). @type {import('./protocol.js').TournamentSummary[]|null} */
let listed = null;

// ---- the tokens kept in this browser ----

/**
 * The tournaments this browser holds a token of, by link code: the token, and whether it is the
 * organiser's; the entrant's name; the tournament's name for the home page.
 * @typedef {{token: string, organiser: boolean, entrant: number|null, name: string, title: string}} HeldTourney
 * @returns {Record<string, HeldTourney>}
 */
export function heldTourneys() {
  try {
    return JSON.parse(localStorage.getItem('fipsen.tournaments') || '{}') ?? {};
  } catch {
    return {};
  }
}

/** @param {string} code @param {Partial<HeldTourney>} patch */
function hold(code, patch) {
  const all = heldTourneys();
  all[code] = { token: '', organiser: false, entrant: null, name: '', title: '', ...all[code], ...patch };
  localStorage.setItem('fipsen.tournaments', JSON.stringify(all));
}

/** @param {string} code */
function forget(code) {
  const all = heldTourneys();
  delete all[code];
  localStorage.setItem('fipsen.tournaments', JSON.stringify(all));
}

/** The link that registers for (and shows) a tournament. @param {string} code */
export function tourneyLink(code) {
  return `${location.origin}${location.pathname}#/t/${code}`;
}

// ---- talking to the server ----

/**
 * The tournament page opened (or the connection is back): watch it with this browser's token, or
 * as a spectator; on the results page also ask for the results.
 * @param {{code: string, results: boolean}} route
 */
export function enterTourney(route) {
  if (!tourney || tourney.code !== route.code) tourney = { code: route.code, state: null, error: null, results: null, rounds: {}, asked: false };
  const token = heldTourneys()[route.code]?.token || null;
  api.send({ type: 'watch_tournament', tournament: route.code, ...(token ? { token } : {}) });
  if (route.results) askResults();
}

function askResults() {
  if (!tourney) return;
  if (api.send({ type: 'tournament_results', tournament: tourney.code })) tourney.asked = true;
}

/**
 * Asks for the tables of every round of the standings not held yet or still being played.
 * @param {import('./protocol.js').Results} results
 */
function askRounds(results) {
  if (!tourney) return;
  for (const r of results.rounds) {
    if (!tourney.rounds[r.round]?.round.over) api.send({ type: 'tournament_results', tournament: tourney.code, round: r.round });
  }
}

/** Leaving the tournament's pages: no more updates of it. */
export function leaveTourney() {
  if (tourney) api.send({ type: 'unwatch_tournament' });
  tourney = null;
}

/** The home page: the listed tournaments, and where this browser's own ones stand. */
export function askTourneysForHome() {
  api.send({ type: 'tournaments' });
  for (const code of Object.keys(heldTourneys()).slice(0, 20)) api.send({ type: 'peek_tournament', tournament: code });
}

/**
 * A message of the server about tournaments; false if it is none.
 * @param {any} msg
 */
export function tourneyMessage(msg) {
  switch (msg.type) {
    case 'tournament': {
      /** @type {import('./protocol.js').TournamentState} */
      const state = msg.tournament;
      const code = state.code;
      if (heldTourneys()[code]) {
        known[code] = state;
        hold(code, { title: state.view.settings.name });
      }
      if (tourney?.code === code) {
        const before = tourney.state;
        tourney.state = state;
        tourney.error = null;
        // The results page follows the standings: asked again after every change.
        if (S.route.name === 'tourney' && S.route.results && before) askResults();
      }
      return true;
    }
    case 'tournament_created':
      hold(msg.tournament, { token: msg.token, organiser: true, entrant: null, name: S.name.trim(), title: draft.name.trim() });
      S.waiting = false;
      api.go(`#/t/${msg.tournament}`);
      return true;
    case 'registered':
      hold(msg.tournament, { token: msg.token, organiser: false, entrant: msg.entrant, name: msg.name });
      S.waiting = false;
      api.toast(t('tn.registered_toast', { name: msg.name }));
      return true;
    case 'tournament_results':
      if (tourney?.code !== msg.tournament) return true;
      if (msg.round === undefined || msg.round === null) {
        tourney.results = { results: msg.results, csv: msg.csv };
        askRounds(msg.results);
      } else {
        const round = msg.results.rounds.find((r) => r.round === msg.round);
        if (round) tourney.rounds[msg.round] = { round, csv: msg.tables_csv };
      }
      return true;
    case 'tournaments':
      listed = msg.tournaments ?? [];
      return true;
    case 'unwatched':
      return true;
    default:
      return false;
  }
}

/**
 * A refusal about tournaments, if it belongs to the tournament pages; true if it was dealt with
 * here (the page shows it), false to toast it as usual.
 * @param {string} code
 */
export function tourneyRefused(code) {
  if (code === 'tournament/token_invalid' && tourney) {
    // A token this tournament does not know: watched as a spectator instead.
    forget(tourney.code);
    api.send({ type: 'watch_tournament', tournament: tourney.code });
    return false;
  }
  if (code === 'tournament/not_found') {
    if (tourney && !tourney.state) {
      tourney.error = code;
      return true;
    }
    // A peek of the home page for a tournament that is gone: quietly dropped.
    return S.route.name === 'home';
  }
  S.waiting = false;
  return false;
}

// ---- the create form ----

/** The tournament crate's preset (docs/rules/prisdorf.md §10), from the catalogue. */
const PRESET = CATALOGUE.tournament.preset;

/**
 * The preset as the form holds it: 100 deals at a table of four, 120 at a table of three,
 * Kontra off.
 */
const PRISDORF = {
  game: PRESET.game,
  size: PRESET.tables[0].seats,
  short: PRESET.tables.length > 1,
  max_short: PRESET.max_short_tables,
  deals: String(PRESET.tables[0].deals),
  short_deals: String(PRESET.tables[PRESET.tables.length - 1].deals),
  short_follows: true,
  kontra: Boolean(PRESET.tables[0].rules.kontra),
};

/** The most rounds and players a tournament may have (the server may take fewer players). */
const MAX_ROUNDS = CATALOGUE.tournament.max_rounds;
const MAX_ENTRANTS = CATALOGUE.tournament.max_entrants;

/**
 * The deals of the short tables that follow the deals of the full ones: a fifth more, as the
 * Prisdorf rules have 120 at a table of three for 100 at a table of four (rounded).
 * @param {string} deals
 */
function followingDeals(deals) {
  const n = whole(deals, 1, 1000);
  return n === null ? deals : String(Math.min(1000, Math.floor((n * 6 + 2) / 5)));
}

/** The tournament being set up (kept across renders). */
const draft = {
  name: '',
  ...PRISDORF,
  rounds: '1',
  /** The most players who may register; empty: as many as the server takes. */
  max_entrants: '',
  reseating: /** @type {import('./protocol.js').Reseating} */ ('by_standings'),
  duplicate: false,
  listed: false,
  /** 'plays' or 'runs' (only organises). */
  organiser: 'plays',
  /** Whether watchers may come to the tables: null follows the default (off for duplicate deals). @type {boolean|null} */
  spectators: /** @type {boolean|null} */ (null),
  next_deal: 'auto',
  grace: '120',
  bot_takeover: 'normal',
  bot_delay: 900,
  /** Whether the options of the tables are open. */
  more: false,
};

/** The games whose rules carry the number of deals of the series (the catalogue says). */
const DEALS_IN_RULES = new Set(
  Object.entries(CATALOGUE.games)
    .filter(([, game]) => game.deals_in_rules)
    .map(([id]) => id),
);

/** The table sizes a game may be played at (two and more). @param {string} game */
function sizes(game) {
  return gameOf(game).playerChoices.filter((n) => n >= 2).sort((a, b) => b - a);
}

/** Whether the game is also played one fewer than `size`. */
function shortPossible(game, size) {
  return sizes(game).includes(size - 1);
}

function spectatorsAllowed() {
  return draft.spectators ?? !draft.duplicate;
}

/** A whole number typed in a field, or null. @param {string} text @param {number} min @param {number} max */
function whole(text, min, max) {
  const s = String(text).trim();
  if (!/^\d+$/.test(s)) return null;
  const n = Number(s);
  return n >= min && n <= max ? n : null;
}

/** The rules of a table of `seats` playing `deals`. */
function tableRules(seats, deals) {
  const game = gameOf(draft.game);
  /** @type {Record<string, any>} */
  const rules = { ...game.practiceRules(seats), game: game.id };
  if (game.id === 'prisdorf') rules.kontra = draft.kontra;
  if (DEALS_IN_RULES.has(game.id)) rules.deals = deals;
  return /** @type {import('./protocol.js').GameRules} */ (rules);
}

function createTourney() {
  const field = (id, key) => {
    api.toast(t(key), 'error');
    queueMicrotask(() => document.getElementById(id)?.focus());
    return null;
  };
  if (!S.name.trim()) return field('name', 'home.need_name');
  if (!draft.name.trim()) return field('tn-name', 'tn.need_name');
  const deals = whole(draft.deals, 1, 1000);
  if (deals === null) return field('tn-deals', 'tn.bad_number');
  const rounds = whole(draft.rounds, 1, MAX_ROUNDS);
  if (rounds === null) return field('tn-rounds', 'tn.bad_number');
  const maxEntrants = draft.max_entrants.trim() === '' ? null : whole(draft.max_entrants, 2, MAX_ENTRANTS);
  if (draft.max_entrants.trim() !== '' && maxEntrants === null) return field('tn-max-entrants', 'tn.bad_number');
  const short = draft.short && shortPossible(draft.game, draft.size);
  const shortDeals = short ? whole(draft.short_deals, 1, 1000) : null;
  if (short && shortDeals === null) return field('tn-short-deals', 'tn.bad_number');
  const grace = whole(draft.grace, 0, 86_400);
  if (grace === null) return field('tn-grace', 'opt.grace.invalid');
  const tables = [{ seats: draft.size, deals, rules: tableRules(draft.size, deals) }];
  if (short && shortDeals !== null) tables.push({ seats: draft.size - 1, deals: shortDeals, rules: tableRules(draft.size - 1, shortDeals) });
  /** @type {import('./protocol.js').Settings} */
  const settings = {
    name: draft.name.trim(),
    game: /** @type {import('./protocol.js').GameId} */ (draft.game),
    tables,
    max_short_tables: short ? draft.max_short : 0,
    rounds,
    reseating: draft.reseating,
    duplicate: draft.duplicate,
    listed: draft.listed,
    organiser_plays: draft.organiser === 'plays',
    ...(maxEntrants === null ? {} : { max_entrants: maxEntrants }),
  };
  const options = {
    spectators_allowed: spectatorsAllowed(),
    grace_seconds: grace,
    next_deal_seconds: draft.next_deal === 'auto' ? 10 : draft.next_deal === 'slow' ? 30 : draft.next_deal === 'now' ? 0 : null,
    bot_takeover: /** @type {import('./protocol.js').Level} */ (draft.bot_takeover),
    bot_delay_ms: draft.bot_delay,
  };
  if (api.send({ type: 'create_tournament', name: S.name.trim(), settings, tables: options })) {
    S.waiting = true;
    api.render();
  }
  return null;
}

/**
 * Radio buttons of the form.
 * @param {string} key the draft's field
 * @param {string} label
 * @param {[any, string, string?][]} choices
 * @param {string} [help]
 */
function radios(key, label, choices, help) {
  return radioFieldset({
    name: `tn-${key}`,
    legend: label,
    help,
    choices,
    current: draft[key],
    choose: (value) => {
      draft[key] = value;
      api.render();
    },
  });
}

/** A yes/no field. @param {string} key @param {string} label @param {string|null} help @param {boolean} [value] @param {(v: boolean) => void} [set] */
function check(key, label, help, value = draft[key], set = (v) => (draft[key] = v)) {
  return h(
    'div',
    { class: 'option' },
    h(
      'label',
      { class: 'check' },
      h('input', {
        type: 'checkbox',
        'data-key': `tn-${key}`,
        checked: value,
        onchange: (e) => {
          set(e.target.checked);
          api.render();
        },
      }),
      h('span', null, label),
    ),
    help ? h('p', { class: 'hint' }, help) : null,
  );
}

/**
 * A number field.
 * @param {string} id @param {string} key @param {string} label @param {string|null} help @param {number} max
 * @param {(value: string) => void} [changed] also told each new value
 * @param {number} [min]
 */
function number(id, key, label, help, max, changed, min = 1) {
  return h(
    'div',
    { class: 'option' },
    h('label', { for: id }, label),
    help ? h('p', { class: 'hint', id: `${id}-help` }, help) : null,
    h('input', {
      id,
      type: 'number',
      min,
      max,
      inputmode: 'numeric',
      'data-key': id,
      value: draft[key],
      'aria-describedby': help ? `${id}-help` : null,
      oninput: (e) => {
        draft[key] = e.target.value;
        changed?.(e.target.value);
      },
    }),
  );
}

/** The form that creates a tournament. */
export function createTourneyView() {
  const game = draft.game;
  if (!sizes(game).includes(draft.size)) draft.size = sizes(game)[0];
  const short = shortPossible(game, draft.size);
  const preset = draft.game === PRISDORF.game && draft.size === 4 && draft.short && draft.max_short === 3 && draft.deals === '100' && draft.short_deals === '120' && !draft.kontra;
  const withShort = short && draft.short;
  // The short tables' deals follow the full tables' until the organiser sets them himself; the
  // line below both fields says what every table size plays.
  const followDeals = () => {
    if (draft.short_follows) {
      draft.short_deals = followingDeals(draft.deals);
      const other = /** @type {HTMLInputElement|null} */ (document.getElementById('tn-short-deals'));
      if (other) other.value = draft.short_deals;
    }
    const line = document.querySelector('[data-testid="tn-deals-summary"]');
    if (line) line.textContent = dealsSummary(withShort);
  };
  return h(
    'div',
    { class: 'home tourney-new' },
    h(
      'section',
      { class: 'panel create', 'aria-labelledby': 'tn-new-title' },
      h('h1', { id: 'tn-new-title' }, t('tn.new')),
      h('p', { class: 'hint' }, t('tn.new_help')),
      h(
        'div',
        { class: 'field' },
        h('label', { for: 'name' }, t('tn.organiser_name')),
        h('input', { id: 'name', type: 'text', 'data-key': 'name', maxlength: 32, autocomplete: 'nickname', value: S.name, oninput: (e) => saveName(e.target.value.trim()) }),
      ),
      h(
        'div',
        { class: 'field' },
        h('label', { for: 'tn-name' }, t('tn.name')),
        h('input', { id: 'tn-name', type: 'text', 'data-key': 'tn-name', maxlength: 64, placeholder: t('tn.name_placeholder'), value: draft.name, oninput: (e) => (draft.name = e.target.value) }),
      ),
      h(
        'div',
        { class: 'option tn-preset' },
        h(
          'button',
          {
            type: 'button',
            'data-key': 'tn-preset-prisdorf',
            'aria-pressed': String(preset),
            onclick: () => {
              Object.assign(draft, PRISDORF);
              api.render();
            },
          },
          t('tn.preset'),
        ),
        h('p', { class: 'hint' }, preset ? t('tn.preset_on') : t('tn.preset_help')),
      ),
      radios(
        'game',
        t('opt.game'),
        GAME_IDS.map((id) => /** @type {[any, string]} */ ([id, gameName(id)])),
      ),
      sizes(game).length > 1
        ? radios(
            'size',
            t('tn.size'),
            sizes(game).map((n) => /** @type {[any, string]} */ ([n, String(n)])),
          )
        : h('p', { class: 'option' }, t('tn.size_fixed', { n: draft.size })),
      number('tn-deals', 'deals', t('tn.deals', { n: draft.size }), t('tn.deals_help'), 1000, followDeals),
      short ? check('short', t('tn.short', { n: draft.size - 1 }), t('tn.short_help', { n: draft.size, k: draft.size - 1 })) : null,
      withShort
        ? number('tn-short-deals', 'short_deals', t('tn.deals', { n: draft.size - 1 }), t('tn.short_deals_help', { n: draft.size - 1, k: draft.size }), 1000, () => {
            draft.short_follows = false;
            followDeals();
          })
        : null,
      h('p', { class: 'option tn-deals-summary', role: 'status', 'data-testid': 'tn-deals-summary' }, dealsSummary(withShort)),
      short && draft.short
        ? radios(
            'max_short',
            t('tn.max_short'),
            [1, 2, 3, 4].map((n) => /** @type {[any, string]} */ ([n, String(n)])),
          )
        : null,
      game === 'prisdorf' ? check('kontra', t('opt.kontra'), t('opt.kontra.help')) : null,
      number('tn-rounds', 'rounds', t('tn.rounds'), t('tn.rounds_help', { n: MAX_ROUNDS }), MAX_ROUNDS),
      number('tn-max-entrants', 'max_entrants', t('tn.max_entrants'), t('tn.max_entrants_help', { n: MAX_ENTRANTS }), MAX_ENTRANTS, undefined, 2),
      radios('reseating', t('tn.reseating'), [
        ['by_standings', t('tn.reseating.by_standings'), t('tn.reseating.by_standings.help')],
        ['random', t('tn.reseating.random'), t('tn.reseating.random.help')],
      ]),
      check('duplicate', t('tn.duplicate'), t('tn.duplicate_help')),
      check('spectators', t('opt.spectators'), draft.duplicate ? t('tn.spectators_duplicate') : t('opt.spectators.help'), spectatorsAllowed(), (v) => (draft.spectators = v)),
      check('listed', t('tn.listed'), t('tn.listed_help')),
      radios('organiser', t('tn.organiser'), [
        ['plays', t('tn.organiser.plays')],
        ['runs', t('tn.organiser.runs')],
      ]),
      h(
        'details',
        { class: 'more-rules', open: draft.more, ...keepOpen((open) => (draft.more = open)) },
        h('summary', { 'data-key': 'tn-tables-more' }, t('tn.table_options')),
        radios('next_deal', t('opt.next_deal'), [
          ['auto', t('opt.next_deal.auto')],
          ['slow', t('opt.next_deal.slow')],
          ['now', t('tn.next_deal.now')],
          ['ask', t('opt.next_deal.ask')],
        ]),
        h(
          'div',
          { class: 'option' },
          h('label', { for: 'tn-grace' }, t('opt.grace')),
          h('p', { class: 'hint' }, t('tn.grace_help')),
          h('input', { id: 'tn-grace', type: 'number', min: 0, max: 86400, inputmode: 'numeric', 'data-key': 'tn-grace', value: draft.grace, oninput: (e) => (draft.grace = e.target.value) }),
        ),
        radios(
          'bot_takeover',
          t('opt.bot_takeover'),
          LEVELS.map((level) => /** @type {[any, string]} */ ([level, t(`bot.level.${level}`)])),
        ),
        radios(
          'bot_delay',
          t('opt.bot_delay'),
          BOT_DELAYS.map(([ms]) => /** @type {[any, string]} */ ([ms, botDelayText(ms)])),
        ),
      ),
      h('button', { type: 'button', class: 'primary big', 'data-key': 'tn-create', disabled: S.waiting || !(S.conn === 'open' || S.conn === 'idle'), onclick: createTourney }, t('tn.create')),
    ),
    h('p', null, h('a', { href: '#/' }, '← Fipsen')),
  );
}

/** What every table size plays a round, in words. @param {boolean} withShort */
function dealsSummary(withShort) {
  /** @type {[number, string][]} */
  const sizes = withShort ? [[draft.size, draft.deals], [draft.size - 1, draft.short_deals]] : [[draft.size, draft.deals]];
  const parts = sizes.map(([n, deals]) => t('tn.size_deals', { n, deals: t('tn.deals_count', { n: whole(deals, 0, 1000) ?? '?' }) }));
  return t('tn.deals_summary', { tables: parts.join(', ') });
}

// ---- the tournament page ----

/** A phase in words. @param {import('./protocol.js').Phase2} phase @param {number} rounds */
function phaseText(phase, rounds) {
  switch (phase.phase) {
    case 'registration':
      return t('tn.phase.registration');
    case 'closed':
      return t('tn.phase.closed');
    case 'playing':
      return t('tn.phase.playing', { round: phase.round, rounds });
    case 'round_over':
      return t('tn.phase.round_over', { round: phase.round, rounds });
    default:
      return t('tn.phase.finished');
  }
}

/** Whether the tournament has started. @param {import('./protocol.js').TournamentView} view */
function started(view) {
  return view.phase.phase !== 'registration' && view.phase.phase !== 'closed';
}

/** The tables of each size and their deals, in words. @param {import('./protocol.js').Settings} settings */
function formatText(settings) {
  const parts = settings.tables.map((f) => t('tn.format_table', { n: f.seats, deals: t('tn.deals_count', { n: f.deals }) }));
  const short = settings.tables.length > 1 ? ` ${t('tn.format_short', { n: settings.max_short_tables })}` : '';
  return `${gameName(settings.game)} · ${parts.join(', ')}${short} · ${t('tn.format_rounds', { n: settings.rounds })}`;
}

/** A duplicate score in hundredths, as shown: "+1.50". @param {number|null|undefined} v */
function hundredths(v) {
  if (v === null || v === undefined) return '—';
  const text = (v / 100).toLocaleString(lang(), { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  return v > 0 ? `+${text}` : text;
}

/** The tie-break rule in words. @param {boolean} duplicate */
function tieBreakText(duplicate) {
  return duplicate ? t('tn.tie_break_duplicate') : t('tn.tie_break');
}

/** A name, marked when a bot plays it. @param {string} name @param {boolean} bot */
function entrantName(name, bot) {
  return bot ? [h('span', null, name), ' ', h('span', { class: 'bot-tag', 'data-testid': 'bot-tag' }, robotIcon(), ' ', t('tn.bot'))] : name;
}

/**
 * The tournament's link with copy and share buttons: to register before the start, to follow the
 * standings after it.
 * @param {string} code @param {boolean} follow
 */
function linkBox(code, follow) {
  const link = tourneyLink(code);
  const input = h('input', { type: 'text', readonly: true, value: link, 'data-key': 'tn-link', 'aria-label': t('tn.link'), onfocus: (e) => e.target.select() });
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link);
    } catch {
      /** @type {HTMLInputElement} */ (input).select();
      document.execCommand?.('copy');
    }
    api.toast(t('room.copied'));
  };
  return h(
    'div',
    { class: 'invite no-print' },
    h('p', { class: 'invite-label' }, follow ? t('tn.link_follow') : t('tn.link')),
    h(
      'div',
      { class: 'invite-row' },
      input,
      h('button', { type: 'button', class: 'primary', 'data-key': 'tn-copy-link', onclick: copy }, t('room.copy')),
      navigator.share ? h('button', { type: 'button', 'data-key': 'tn-share-link', onclick: () => navigator.share({ title: t('tn.share_title'), url: link }).catch(() => {}) }, t('room.share')) : null,
    ),
    follow ? null : h('p', { class: 'hint' }, t('tn.link_help')),
  );
}

/** The most players who may register. @param {import('./protocol.js').TournamentView} view */
function entrantCap(view) {
  return view.settings.max_entrants ?? MAX_ENTRANTS;
}

/** Whether as many players have registered as the tournament takes. @param {import('./protocol.js').TournamentView} view */
function full(view) {
  return view.entrants.filter((e) => !e.bot).length >= entrantCap(view);
}

/** Registering by name (no account). @param {string} code */
function registerBox(code) {
  const off = S.waiting || !(S.conn === 'open' || S.conn === 'idle');
  const go = () => {
    if (needName()) return;
    if (api.send({ type: 'register', tournament: code, name: S.name.trim() })) {
      S.waiting = true;
      api.render();
    }
  };
  return h(
    'section',
    { class: 'panel tn-register no-print', 'aria-labelledby': 'tn-register-title' },
    h('h2', { id: 'tn-register-title' }, t('tn.register')),
    h('p', { class: 'hint' }, t('tn.register_help')),
    nameField(go),
    h('button', { type: 'button', class: 'primary big', 'data-key': 'tn-register', disabled: off, onclick: go }, t('tn.register_button')),
  );
}

/** Who registered; the organiser may remove a name before the start. @param {import('./protocol.js').TournamentState} state @param {string} token */
function entrantsBox(state, token) {
  const view = state.view;
  const organiser = state.you.organiser && !started(view);
  return h(
    'section',
    { class: 'panel tn-entrants', 'aria-labelledby': 'tn-entrants-title' },
    h('h2', { id: 'tn-entrants-title' }, t('tn.entrants_of', { n: view.entrants.length, max: entrantCap(view) })),
    view.entrants.length === 0
      ? h('p', { class: 'hint' }, t('tn.no_entrants'))
      : h(
          'ol',
          { class: 'tn-entrant-list', 'data-testid': 'tn-entrants' },
          view.entrants.map((e) =>
            h(
              'li',
              { 'data-entrant': e.id, class: e.id === state.you.entrant ? 'mine' : null },
              h('span', { class: 'tn-entrant-name' }, entrantName(e.name, e.bot), e.id === state.you.entrant ? h('span', { class: 'tag' }, t('room.you')) : null),
              organiser
                ? h(
                    'button',
                    {
                      type: 'button',
                      class: 'small',
                      'data-key': `tn-remove-${e.id}`,
                      'aria-label': t('tn.remove_label', { name: e.name }),
                      onclick: () => api.send({ type: 'remove_entrant', tournament: state.code, token, entrant: e.id }),
                    },
                    t('tn.remove'),
                  )
                : null,
            ),
          ),
        ),
  );
}

/**
 * Tables and the deals each plays, in words: "2 tables of 4 with 100 deals, a table of 3 with 120 deals".
 * @param {number[]} sizes @param {number[]} deals
 */
function tablesText(sizes, deals) {
  /** @type {{n: number, deals: number|undefined, count: number}[]} */
  const groups = [];
  sizes.forEach((n, i) => {
    const last = groups[groups.length - 1];
    if (last && last.n === n && last.deals === deals[i]) last.count += 1;
    else groups.push({ n, deals: deals[i], count: 1 });
  });
  return groups
    .map((g) => {
      const tables = g.count === 1 ? t('tn.table_of', { n: g.n }) : t('tn.tables_of', { count: g.count, n: g.n });
      return g.deals === undefined ? tables : t('tn.tables_deals', { tables, deals: t('tn.deals_count', { n: g.deals }) });
    })
    .join(', ');
}

/** The organiser's controls before the start. @param {import('./protocol.js').TournamentState} state @param {string} token */
function organiserBox(state, token) {
  const view = state.view;
  const seating = state.seating;
  const send = (msg) => api.send({ tournament: state.code, token, ...msg });
  const bots = seating?.bots_needed ?? 0;
  const problem = seating?.problem ?? null;
  let preview;
  if (!seating) preview = null;
  else if (problem)
    preview = h(
      'div',
      { class: 'tn-problem', role: 'status', 'data-testid': 'tn-problem' },
      h('p', null, problem === 'tournament/too_few_players' ? t('tn.too_few', { n: view.entrants.length, bots: t('tn.bots_count', { n: bots }) }) : t('tn.cannot_seat', { n: view.entrants.length, bots: t('tn.bots_count', { n: bots }) })),
      bots > 0 && seating.bot_tables?.length
        ? h('p', { 'data-testid': 'tn-bot-seating' }, t('tn.seating_with_bots', { bots: t('tn.bots_count', { n: bots }), tables: tablesText(seating.bot_tables, seating.bot_deals ?? []) }))
        : null,
      bots > 0 ? h('button', { type: 'button', class: 'primary', 'data-key': 'tn-start-bots', onclick: () => send({ type: 'start_tournament', fill_with_bots: true }) }, robotIcon(), ' ', t('tn.start_with_bots', { n: bots })) : null,
      bots > 0 ? h('p', { class: 'hint' }, t('tn.bots_help')) : null,
    );
  else preview = h('p', { 'data-testid': 'tn-seating-preview' }, t('tn.seating_preview', { tables: tablesText(seating.tables, seating.deals ?? []) }));
  return h(
    'section',
    { class: 'panel tn-organiser no-print', 'aria-labelledby': 'tn-organiser-title' },
    h('h2', { id: 'tn-organiser-title' }, t('tn.organiser_controls')),
    preview,
    h(
      'div',
      { class: 'row' },
      view.phase.phase === 'registration' ? h('button', { type: 'button', 'data-key': 'tn-close', onclick: () => send({ type: 'close_registration' }) }, t('tn.close')) : null,
      h('button', { type: 'button', class: 'primary big', 'data-key': 'tn-start', disabled: Boolean(problem) || !seating, onclick: () => send({ type: 'start_tournament', fill_with_bots: false }) }, t('tn.start')),
    ),
    view.phase.phase === 'closed' ? h('p', { class: 'hint' }, t('tn.closed_help')) : null,
  );
}

/**
 * Goes to a table: a player with his entrant token (the room resumes his seat), anyone else to
 * watch it.
 * @param {string} room @param {HeldTourney|undefined} held @param {boolean} mine
 */
function toTable(room, held, mine) {
  if (mine && held) saveSeat(room, { token: held.token, name: held.name, watching: false });
  else saveSeat(room, { token: '', watching: true, name: S.name.trim() || held?.name || t('tn.watcher') });
  api.go(`#/room/${room}`);
}

/** One round's tables: who sits where, the deals played, the points so far. @param {import('./protocol.js').TournamentState} state @param {number} r */
function roundTables(state, r) {
  const view = state.view;
  const round = view.rounds[r];
  const names = new Map(view.entrants.map((e) => [e.id, e]));
  const held = heldTourneys()[state.code];
  const me = state.you.entrant ?? null;
  return h(
    'div',
    { class: 'tn-tables', 'data-round': round.round },
    round.tables.map((table, i) => {
      const room = state.rooms[r]?.[i];
      const mine = me !== null && table.seats.includes(me);
      const live = !round.over && room;
      return h(
        'article',
        { class: `tn-table${mine ? ' mine' : ''}`, 'data-table': table.table.table, 'data-testid': 'tn-table' },
        h(
          'h3',
          null,
          t('tn.table', { n: table.table.table }),
          ' ',
          h('span', { class: 'hint tn-played', 'data-testid': 'tn-played' }, t('tn.played', { played: table.played, deals: table.deals, n: table.deals })),
          table.shown !== table.played ? h('span', { class: 'hint' }, ` · ${t('tn.shown', { n: table.shown })}`) : null,
        ),
        h(
          'ol',
          { class: 'tn-seats' },
          table.seats.map((id, seat) => {
            const e = names.get(id);
            return h(
              'li',
              { 'data-entrant': id, 'data-name': e?.name ?? '', class: id === me ? 'mine' : null },
              h('span', { class: 'seat-no', 'aria-hidden': 'true' }, String(seat + 1)),
              h('span', { class: 'tn-seat-name' }, entrantName(e?.name ?? '?', Boolean(e?.bot))),
              h('span', { class: 'tn-seat-points', 'data-testid': 'tn-seat-points' }, String(table.totals[seat] ?? 0)),
            );
          }),
        ),
        live
          ? h(
              'div',
              { class: 'row no-print' },
              mine
                ? h('button', { type: 'button', class: 'primary', 'data-key': 'tn-my-table', onclick: () => toTable(room, held, true) }, t('tn.to_my_table'))
                : state.tables.spectators_allowed === false
                  ? null
                  : h('button', { type: 'button', class: 'small', 'data-key': `tn-watch-${table.table.table}`, onclick: () => toTable(room, held, false) }, t('tn.watch_table')),
            )
          : null,
      );
    }),
  );
}

/** The standings. @param {import('./protocol.js').TournamentState} state */
function standingsBox(state) {
  const view = state.view;
  const duplicate = view.settings.duplicate;
  const me = state.you.entrant ?? null;
  return h(
    'section',
    { class: 'panel tn-standings', 'aria-labelledby': 'tn-standings-title' },
    h('h2', { id: 'tn-standings-title' }, view.phase.phase === 'finished' ? t('tn.final_standings') : t('tn.standings')),
    h(
      'div',
      { class: 'sheet-scroll', tabindex: '0', role: 'region', 'aria-label': t('tn.standings') },
      h(
        'table',
        { class: 'tn-standings-table', 'data-testid': 'tn-standings' },
        standingsHead(duplicate, null),
        h(
          'tbody',
          null,
          view.standings.map((s) =>
            h(
              'tr',
              { 'data-entrant': s.entrant, 'data-name': s.name, class: s.entrant === me ? 'mine' : null },
              h('td', { class: 'tn-rank' }, String(s.rank)),
              h('th', { scope: 'row', class: 'tn-name' }, entrantName(s.name, s.bot)),
              h('td', { class: `tn-total${s.total < 0 ? ' neg' : ''}` }, String(s.total)),
              duplicate ? h('td', { class: 'tn-dup' }, hundredths(s.duplicate)) : null,
              h('td', { class: 'tn-tables-n' }, String(s.tables)),
              h('td', { class: 'tn-deals' }, String(s.deals)),
            ),
          ),
        ),
      ),
    ),
    h('p', { class: 'hint', 'data-testid': 'tn-tie-break' }, tieBreakText(duplicate)),
    duplicate ? h('p', { class: 'hint' }, t('tn.duplicate_explain')) : null,
  );
}

/** The head of both pages: the name, the game and format, where it stands. @param {import('./protocol.js').TournamentState} state */
function headOf(state) {
  const view = state.view;
  return [
    h('p', { class: 'invite-kicker' }, t('tn.kicker', { organiser: view.organiser })),
    h('h1', { class: 'tn-title', 'data-testid': 'tn-title' }, view.settings.name),
    h('p', { class: 'tn-format' }, formatText(view.settings), view.settings.duplicate ? ` · ${t('tn.duplicate')}` : ''),
    h('p', { class: 'tn-phase', role: 'status', 'data-testid': 'tn-phase', 'data-phase': view.phase.phase }, phaseText(view.phase, view.settings.rounds)),
  ];
}

/** The tournament page: everything about one tournament, for whoever opens its link. */
export function tourneyView() {
  const tn = tourney;
  if (!tn || (!tn.state && !tn.error)) return h('p', { class: 'loading', role: 'status' }, t('conn.connecting'));
  if (tn.error || !tn.state)
    return h(
      'section',
      { class: 'panel' },
      h('h1', null, t('tn.title')),
      h('p', { role: 'alert', 'data-testid': 'tn-error' }, t(`err.${tn.error}`)),
      h('a', { class: 'button', href: '#/' }, t('series.home')),
    );
  const state = tn.state;
  const view = state.view;
  const held = heldTourneys()[state.code];
  const token = held?.token ?? '';
  // An entrant the organiser removed is no longer one: he may register again.
  const myName = view.entrants.find((e) => e.id === state.you.entrant)?.name ?? null;
  const me = myName === null ? null : (state.you.entrant ?? null);
  const current = view.rounds.length - 1;
  const phase = view.phase.phase;
  return h(
    'div',
    { class: 'tourney', 'data-testid': 'tourney', 'data-code': state.code },
    h(
      'section',
      { class: 'panel tn-head' },
      headOf(state),
      state.you.organiser ? h('p', { class: 'tn-you', 'data-testid': 'tn-you' }, t('tn.you_organise')) : null,
      myName ? h('p', { class: 'tn-you', 'data-testid': 'tn-you' }, t('tn.you_play', { name: myName })) : null,
      state.you.organiser && me === null && !view.settings.organiser_plays ? h('p', { class: 'hint' }, t('tn.organiser_only')) : null,
      phase === 'registration' || (state.you.organiser && !started(view)) ? linkBox(state.code, false) : null,
      h('div', { class: 'row no-print' }, h('a', { class: 'button', href: `#/t/${state.code}/results`, 'data-key': 'tn-results' }, t('tn.results_page'))),
    ),
    phase === 'registration' && me === null && !state.you.organiser && !full(view) ? registerBox(state.code) : null,
    phase === 'registration' && me === null && !state.you.organiser && full(view)
      ? h('p', { class: 'panel', role: 'status', 'data-testid': 'tn-full' }, t('tn.full', { n: entrantCap(view) }))
      : null,
    phase === 'closed' && me === null && !state.you.organiser ? h('p', { class: 'panel', role: 'status' }, t('tn.registration_closed')) : null,
    state.you.organiser && !started(view) ? organiserBox(state, token) : null,
    !started(view) ? entrantsBox(state, token) : null,
    state.you.organiser && phase === 'round_over'
      ? h(
          'section',
          { class: 'panel tn-organiser no-print' },
          h('p', null, t('tn.round_over_help', { round: view.phase.round })),
          h('button', { type: 'button', class: 'primary big', 'data-key': 'tn-next-round', onclick: () => api.send({ type: 'next_round', tournament: state.code, token }) }, t('tn.next_round', { round: (view.phase.round ?? 0) + 1 })),
        )
      : null,
    current >= 0
      ? h(
          'section',
          { class: 'panel tn-seating', 'aria-labelledby': 'tn-seating-title' },
          h('h2', { id: 'tn-seating-title' }, t('tn.seating', { round: view.rounds[current].round })),
          roundTables(state, current),
          current > 0
            ? h(
                'details',
                { class: 'tn-earlier' },
                h('summary', null, t('tn.earlier_rounds')),
                view.rounds.slice(0, current).map((round, r) => h('div', null, h('h3', null, t('tn.round', { n: round.round })), roundTables(state, r))),
              )
            : null,
        )
      : null,
    started(view) ? standingsBox(state) : null,
    started(view) ? linkBox(state.code, true) : null,
    h('p', { class: 'no-print' }, h('a', { href: '#/' }, '← Fipsen')),
  );
}

// ---- the results page ----

/** Offers a text as a file to download. @param {string} text @param {string} name */
function download(text, name) {
  const blob = new Blob([text], { type: 'text/csv;charset=utf-8' });
  const a = /** @type {HTMLAnchorElement} */ (h('a', { href: URL.createObjectURL(blob), download: name }));
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 60_000);
}

/** The results page: ranked, per round and per table, to print and to download. */
export function resultsView() {
  const tn = tourney;
  if (tn?.error) return tourneyView();
  if (!tn?.state || !tn.results) return h('p', { class: 'loading', role: 'status' }, t('tn.results_loading'));
  const state = tn.state;
  const { results, csv } = tn.results;
  const duplicate = state.view.settings.duplicate;
  const rounds = results.rounds;
  // Every round's tables as one file: the header once, then each round's lines.
  const tablesCsv = () => {
    const parts = rounds.map((r) => tn.rounds[r.round]?.csv ?? '').filter(Boolean);
    if (parts.length === 0) return '';
    const header = parts[0].slice(0, parts[0].indexOf('\r\n') + 2);
    return header + parts.map((p) => p.slice(p.indexOf('\r\n') + 2)).join('');
  };
  const printedAt = new Date().toLocaleDateString(lang(), { year: 'numeric', month: 'long', day: 'numeric' });
  const final = state.view.phase.phase === 'finished';
  const slug = state.view.settings.name.replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-|-$/g, '') || state.code;
  return h(
    'section',
    { class: 'panel tn-results-page', 'data-testid': 'tn-results-page' },
    headOf(state),
    h('p', { class: 'hint', 'data-testid': 'tn-results-status' }, final ? t('tn.results_final') : t('tn.results_provisional')),
    h('p', { class: 'print-only' }, t('series.printed_at', { date: printedAt })),
    h(
      'div',
      { class: 'row no-print' },
      h('button', { type: 'button', class: 'primary', 'data-key': 'tn-print', onclick: () => window.print() }, t('tn.print')),
      h('button', { type: 'button', 'data-key': 'tn-csv', onclick: () => download(csv, `${slug}.csv`) }, t('tn.csv')),
      h('button', { type: 'button', 'data-key': 'tn-tables-csv', onclick: () => download(tablesCsv(), `${slug}-tables.csv`) }, t('tn.tables_csv')),
      h('a', { class: 'button', href: `#/t/${state.code}`, 'data-key': 'tn-back' }, t('tn.back')),
    ),
    h(
      'div',
      { class: 'sheet-scroll', tabindex: '0', role: 'region', 'aria-label': t('tn.results_page') },
      h(
        'table',
        { class: 'tn-standings-table tn-results', 'data-testid': 'tn-results' },
        standingsHead(
          duplicate,
          rounds.map((r) => h('th', { scope: 'col', class: 'tn-round-col' }, t('tn.round_short', { n: r.round }))),
        ),
        h(
          'tbody',
          null,
          results.standings.map((s) =>
            h(
              'tr',
              { 'data-entrant': s.entrant, 'data-name': s.name },
              h('td', { class: 'tn-rank' }, String(s.rank)),
              h('th', { scope: 'row', class: 'tn-name' }, entrantName(s.name, s.bot)),
              h('td', { class: `tn-total${s.total < 0 ? ' neg' : ''}` }, String(s.total)),
              duplicate ? h('td', { class: 'tn-dup' }, hundredths(s.duplicate)) : null,
              h('td', null, String(s.tables)),
              h('td', null, String(s.deals)),
              rounds.map((r) => {
                const part = s.rounds.find((p) => p.table.round === r.round);
                return h('td', { class: 'tn-round-col' }, part ? [String(part.points), h('span', { class: 'hint' }, ` (${t('tn.table_short', { n: part.table.table })})`)] : '—');
              }),
            ),
          ),
        ),
      ),
    ),
    h('p', { class: 'hint' }, tieBreakText(duplicate)),
    rounds.map((r) =>
      h(
        'section',
        { class: 'tn-results-round', 'data-round': r.round },
        h('h2', null, t('tn.round', { n: r.round }), r.over ? '' : ` · ${t('tn.round_running')}`),
        tn.rounds[r.round] ? null : h('p', { class: 'loading', role: 'status' }, t('tn.results_loading')),
        h(
          'div',
          { class: 'tn-tables' },
          (tn.rounds[r.round]?.round.tables ?? []).map((table) =>
            h(
              'article',
              { class: 'tn-table' },
              h('h3', null, t('tn.table', { n: table.table.table }), ' ', h('span', { class: 'hint' }, t('tn.played', { played: table.played, deals: table.deals, n: table.deals }))),
              h(
                'ol',
                { class: 'tn-seats' },
                table.seats.map((seat, i) =>
                  h(
                    'li',
                    null,
                    h('span', { class: 'seat-no', 'aria-hidden': 'true' }, String(i + 1)),
                    h('span', { class: 'tn-seat-name' }, seat.name),
                    h('span', { class: 'tn-seat-points' }, String(seat.points), duplicate && seat.duplicate !== null && seat.duplicate !== undefined ? ` (${hundredths(seat.duplicate)})` : ''),
                  ),
                ),
              ),
            ),
          ),
        ),
      ),
    ),
  );
}

// ---- the home page ----

/** "Your tournaments": those this browser organises or plays in, with where each stands. */
export function myTourneys() {
  const held = heldTourneys();
  const codes = Object.keys(held);
  return codes.length
    ? h(
        'section',
        { class: 'panel mine tn-mine', 'aria-labelledby': 'tn-mine-title' },
        h('h2', { id: 'tn-mine-title' }, t('tn.yours')),
        h(
          'ul',
          { class: 'lobby-list' },
          codes.map((code) => {
            const state = known[code];
            const entry = held[code];
            return h(
              'li',
              { class: 'lobby-row', 'data-tournament': code },
              h(
                'div',
                { class: 'lobby-info' },
                h('strong', null, state?.view.settings.name || entry.title || code),
                state ? h('span', { class: 'lobby-game' }, gameName(state.view.settings.game)) : null,
                h('span', { class: 'hint' }, entry.organiser ? t('tn.you_organise') : t('tn.you_play', { name: entry.name })),
                state ? h('span', { class: 'hint', 'data-testid': 'tn-mine-status' }, phaseText(state.view.phase, state.view.settings.rounds)) : null,
              ),
              h(
                'div',
                { class: 'row' },
                h('a', { class: 'button primary small', href: `#/t/${code}`, 'data-key': `tn-open-${code}` }, t('tn.open')),
                // A finished tournament can be taken off this list (its results stay on the server).
                state?.view.phase.phase === 'finished'
                  ? h(
                      'button',
                      {
                        type: 'button',
                        class: 'small',
                        'data-key': `tn-forget-${code}`,
                        'aria-label': t('tn.forget_long', { name: state.view.settings.name }),
                        onclick: () => {
                          forget(code);
                          delete known[code];
                          api.render();
                        },
                      },
                      t('tn.forget'),
                    )
                  : null,
              ),
            );
          }),
        ),
      )
    : null;
}

/** The listed tournaments, and the way to organise one. */
export function listedTourneys() {
  const list = listed ?? [];
  return h(
    'section',
    { class: 'panel tn-listed', 'aria-labelledby': 'tn-listed-title' },
    h(
      'div',
      { class: 'panel-head' },
      h('h2', { id: 'tn-listed-title' }, t('tn.listed_title')),
      h('a', { class: 'button small primary', href: '#/tournament/new', 'data-key': 'tn-new' }, t('tn.new')),
    ),
    list.length === 0
      ? h('p', { class: 'hint' }, t('tn.listed_empty'))
      : h(
          'ul',
          { class: 'lobby-list', 'data-testid': 'tn-listed' },
          list.map((s) =>
            h(
              'li',
              { class: 'lobby-row', 'data-tournament': s.code },
              h(
                'div',
                { class: 'lobby-info' },
                h('strong', null, s.name),
                h('span', { class: 'lobby-game' }, gameName(s.game)),
                h('span', { class: 'hint' }, `${t('tn.kicker', { organiser: s.organiser })} · ${t('tn.entrants', { n: s.entrants })} · ${phaseText(s.phase, s.rounds)}`),
              ),
              h('div', { class: 'row' }, h('a', { class: 'button small', href: `#/t/${s.code}`, 'data-key': `tn-listed-${s.code}` }, t('tn.open'))),
            ),
          ),
        ),
  );
}

/**
 * The head of a standings table: rank, player, total, the duplicate score where deals are
 * duplicate, tables and deals played, then `more` (the results' rounds).
 * @param {boolean} duplicate
 * @param {any} more
 */
function standingsHead(duplicate, more) {
  return h(
    'thead',
    null,
    h(
      'tr',
      null,
      h('th', { scope: 'col' }, t('tn.rank')),
      h('th', { scope: 'col' }, t('tn.player')),
      h('th', { scope: 'col' }, t('tn.total')),
      duplicate ? h('th', { scope: 'col' }, t('tn.duplicate_score')) : null,
      h('th', { scope: 'col' }, t('tn.tables')),
      h('th', { scope: 'col' }, t('tn.deals_played')),
      more,
    ),
  );
}

// ---- at a tournament's table ----

/**
 * The line a tournament's table shows: the tournament, the round, the table and the deals, with
 * the way back to the tournament's page. Also on the invitation page of such a table.
 * @param {{tournament?: import('./protocol.js').TableOfTournament | null} | null} room
 */
export function tourneyBar(room) {
  const tn = room?.tournament;
  if (!tn) return null;
  return h(
    'div',
    { class: 'tn-bar', 'data-testid': 'tn-bar' },
    h('a', { href: `#/t/${tn.tournament}`, 'data-key': 'tn-bar-link', class: 'tn-bar-name' }, '🏆 ', tn.name),
    h('span', { 'data-testid': 'tn-bar-round' }, t('tn.phase.playing', { round: tn.round, rounds: tn.rounds })),
    h('span', null, t('tn.table', { n: tn.table })),
    h('span', { 'data-testid': 'tn-bar-deals' }, t('tn.played', { played: tn.played, deals: tn.deals, n: tn.deals })),
    tn.duplicate ? h('span', null, t('tn.duplicate')) : null,
  );
}
