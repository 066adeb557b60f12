// Wippen: the fishing game. A card from the hand captures table cards whose arithmetic
// combination equals it, or builds them into a pile its builder means to capture later. The
// client holds no rules: the prompt lists, for each hand card, whether it may be laid down and
// which groups of table piles it can capture or build with; a selection of table piles is sent
// to the server, which answers every legal move that uses exactly those piles, each with a tree
// that shows the arithmetic ("10 = (3 × 2) + 4"). What a module exports is listed in
// games/interface.js.

import { h } from '../dom.js';
import { t } from '../i18n.js';
import { points } from '../format.js';
import { term } from '../calls.js';
import { S, api, seatName, mySeat } from '../store.js';
import { cardFace, cardName, cardShort } from '../cards.js';
import { strings as words } from './wippen-strings.js';

export const id = /** @type {string} */ ('wippen');

export function name() {
  return t('game.name.wippen');
}

export const strings = /** @type {Partial<Record<import("../i18n.js").Lang, Record<string, string>>>} */ (words);

/** The server reviews each of a seat's moves against the moves its strong bot preferred. */
export const review = /** @type {boolean} */ (true);

// ---- the rules ----

/** The sets of operators the form offers, as the server names them. */
const OPERATOR_SETS = {
  all: ['+', '-', '*', '/'],
  add_sub: ['+', '-'],
  add: ['+'],
};

/** @param {string[]|undefined} ops */
function operatorSet(ops) {
  const key = [...(ops ?? OPERATOR_SETS.all)].sort().join('');
  return Object.entries(OPERATOR_SETS).find(([, set]) => [...set].sort().join('') === key)?.[0] ?? null;
}

/** The rules the create form starts from (the rules crate's defaults). */
export const defaults = /** @type {Record<string, any>} */ ({
  players: 2,
  sets: 1,
  operators: 'all',
  max_group_piles: 4,
  keep_promise: true,
  last_move_sweep: true,
});

/** A practice table seats two to four. */
export const playerChoices = [2, 3, 4];

/** @param {import('./interface.js').FormKit} kit */
export function rulesForm(kit) {
  return {
    main: [
      kit.radio(
        'players',
        t('opt.players'),
        playerChoices.map((n) => /** @type {[any, string]} */ ([n, String(n)])),
        t('wp.opt.players.help'),
      ),
      kit.radio(
        'sets',
        t('wp.opt.sets'),
        [1, 2, 3].map((n) => /** @type {[any, string]} */ ([n, String(n)])),
        t('wp.opt.sets.help'),
      ),
      kit.radio(
        'operators',
        t('wp.opt.operators'),
        Object.keys(OPERATOR_SETS).map((k) => /** @type {[any, string, string]} */ ([k, t(`wp.opt.operators.${k}`), t(`wp.opt.operators.${k}.line`)])),
        t('wp.opt.operators.help'),
      ),
    ],
    more: [
      kit.radio(
        'max_group_piles',
        t('wp.opt.max_group_piles'),
        [2, 3, 4, 5, 6].map((n) => /** @type {[any, string]} */ ([n, String(n)])),
        t('wp.opt.max_group_piles.help'),
      ),
      kit.check('keep_promise', t('wp.opt.keep_promise'), 'wp.opt.keep_promise.help'),
      kit.check('last_move_sweep', t('wp.opt.last_move_sweep'), 'wp.opt.last_move_sweep.help'),
    ],
  };
}

/**
 * The rules to send. The number of games follows from the players and the sets.
 * @param {Record<string, any>} draft
 * @param {number|null} _deals
 * @returns {import('../protocol.js').GameRules}
 */
// eslint-disable-next-line no-unused-vars
export function rulesFromForm(draft, _deals) {
  return /** @type {import('../protocol.js').GameRules} */ (/** @type {any} */ ({
    game: 'wippen',
    players: draft.players,
    sets: draft.sets,
    operators: OPERATOR_SETS[draft.operators] ?? OPERATOR_SETS.all,
    max_group_piles: draft.max_group_piles,
    keep_promise: Boolean(draft.keep_promise),
    last_move_sweep: Boolean(draft.last_move_sweep),
  }));
}

/**
 * A practice table: the default rules for two to four.
 * @param {number} players
 * @returns {import('../protocol.js').GameRules}
 */
export function practiceRules(players) {
  return /** @type {import('../protocol.js').GameRules} */ (/** @type {any} */ ({ game: 'wippen', players: Math.max(2, Math.min(4, players)) }));
}

/** @param {any} rules */
function operatorsText(rules) {
  const set = operatorSet(rules.operators);
  return set ? t(`wp.opt.operators.${set}`) : (rules.operators ?? []).map(opSymbol).join(' ');
}

/** @param {any} rules */
export function rulesRows(rules) {
  const yesNo = (on) => (on ? t('opt.yes') : t('opt.no'));
  return [
    [t('opt.players'), String(rules.players ?? 2)],
    [t('wp.opt.sets'), t('wp.sets', { n: rules.sets ?? 1, games: (rules.players ?? 2) * (rules.sets ?? 1) })],
    [t('wp.opt.operators'), operatorsText(rules)],
    [t('wp.opt.max_group_piles'), String(rules.max_group_piles ?? 4)],
    [t('wp.opt.keep_promise'), yesNo(rules.keep_promise ?? true)],
    [t('wp.opt.last_move_sweep'), yesNo(rules.last_move_sweep ?? true)],
  ];
}

/** @param {any} rules */
export function inviteFacts(rules) {
  return [operatorsText(rules), rules.keep_promise === false ? t('wp.invite.no_promise') : null].filter(Boolean);
}

/** @param {any} rules */
export function lengthText(rules) {
  return t('wp.sets', { n: rules.sets ?? 1, games: (rules.players ?? 2) * (rules.sets ?? 1) });
}

export function howto() {
  return [1, 2, 3, 4, 5, 6].map((i) => t(`howto.wippen.${i}`));
}

// ---- expressions and moves, as the server sends them ----

const OP_SYMBOLS = { '+': '+', '-': '−', '*': '×', '/': '÷' };

/** @param {string} op */
function opSymbol(op) {
  return OP_SYMBOLS[op] ?? op;
}

/** The arithmetic value of a card: A = 1, 2–10, J = 11, Q = 12, K = 13 (the printed rank). @param {string} card */
function cardValue(card) {
  const rank = card.slice(1);
  return { A: 1, J: 11, Q: 12, K: 13 }[rank] ?? Number(rank);
}

/** A pile's key in a selection: the card ("S3"), or "#" and the building's id. @param {any} pile */
function pileKey(pile) {
  return pile.building !== undefined && pile.building !== null ? `#${pile.building}` : pile.card;
}

/** The pile named by a key, as a leaf the server reads. @param {string} key */
function pileRef(key) {
  return key.startsWith('#') ? { building: Number(key.slice(1)) } : { card: key };
}

/** The table's piles. @param {any} deal @returns {any[]} */
function tablePiles(deal) {
  return deal?.table ?? [];
}

/** A building on the table by its id. @param {any} deal @param {number} id */
function buildingOf(deal, id) {
  return tablePiles(deal).find((p) => p.building === id) ?? null;
}

/**
 * An expression as text: "(♠3 × ♦2) + ♣4"; a building shows its value and id, "[6 #1]".
 * Brackets where the tree needs them.
 * @param {any} e
 * @param {any} deal
 * @returns {string}
 */
function exprText(e, deal) {
  if (!e) return '';
  if (e.op) {
    const side = (child, right) => {
      const text = exprText(child, deal);
      if (!child.op) return text;
      // Brackets wherever two operations meet, as people write it: (3 × 2) + 4; only a chain
      // of one adding or multiplying on the left goes without: 2 + 3 + 4.
      const chain = !right && child.op === e.op && (e.op === '+' || e.op === '*');
      return chain ? text : `(${text})`;
    };
    return `${side(e.l, false)} ${opSymbol(e.op)} ${side(e.r, true)}`;
  }
  if (e.building !== undefined) {
    const b = buildingOf(deal, e.building);
    return t('wp.building_leaf', { value: b?.value ?? '?', id: e.building });
  }
  return cardShort(e.card);
}

/** The value written before a group: the card captured with, or the build's value. @param {any} move */
function targetOf(move) {
  return move.kind === 'build' ? move.value : cardValue(move.card);
}

/**
 * A move in words: "Capture with ♥10: 10 = (♠3 × ♦2) + ♣4 and 10 = ♦5 × ♦2".
 * @param {any} move
 * @param {any} deal
 */
function moveText(move, deal) {
  if (move.kind === 'discard') return t('wp.move.discard', { card: cardShort(move.card) });
  const target = targetOf(move);
  const groups = (move.groups ?? []).map((g) => `${target} = ${exprText(g, deal)}`).join(t('wp.move.and'));
  const key = move.kind === 'build' ? 'wp.move.build' : 'wp.move.capture';
  return t(key, { card: cardShort(move.card), value: target, groups });
}

/**
 * A move in words (the review of a seat's moves, the analysis' better moves); with the deal it
 * was made in, each building of its groups shows its value.
 * @param {any} move a WippenMove
 * @param {any} [deal] the deal before the move
 */
export function actionText(move, deal = null) {
  return moveText(move, deal);
}

// ---- what the player has chosen ----

/**
 * The hand card and table piles chosen for the next move, the server's answer for that choice,
 * and the move waiting for confirmation. Forgotten when the table changes.
 */
const pick = {
  /** Which table it belongs to: the deal number and the number of moves made. */
  mark: '',
  /** @type {string|null} */
  card: null,
  /** @type {string[]} */
  piles: [],
  /** The server's answer for the current choice, or null while it is asked. @type {{card: string, piles: string[], moves: any[]}|null} */
  answer: null,
  /** @type {any|null} */
  confirm: null,
};

/** @param {any} deal */
function markOf(deal) {
  return `${S.game?.number}:${deal?.number}:${deal?.round}:${(deal?.moves ?? []).length}:${deal?.turn}`;
}

/** Forgets a choice made for another table than this one. @param {any} deal */
function current(deal) {
  const mark = markOf(deal);
  if (pick.mark !== mark) {
    pick.mark = mark;
    pick.card = null;
    pick.piles = [];
    pick.answer = null;
    pick.confirm = null;
  }
  return pick;
}

/** Whether the viewer is to move now. @param {any} deal */
function myMove(deal) {
  const me = mySeat();
  return me !== null && deal?.turn === me && deal?.phase !== 'over' && !S.waiting;
}

/** Asks the server for every legal move with the chosen card and exactly the chosen piles. */
function askOptions() {
  pick.answer = null;
  pick.confirm = null;
  if (!pick.card || pick.piles.length === 0) return;
  api.send({ type: 'query', query: { card: pick.card, piles: pick.piles.map(pileRef) } });
}

/**
 * The game's answer to a choice (the `answer` of a message `answer`): kept if it is still the
 * choice made.
 * @param {{card: string, piles: any[], moves: any[]}} answer
 */
export function answer(answer) {
  const keys = (answer.piles ?? []).map(pileKey).sort();
  if (answer.card !== pick.card || keys.join(',') !== [...pick.piles].sort().join(',')) return;
  pick.answer = { card: answer.card, piles: keys, moves: answer.moves ?? [] };
  api.render();
}

/** The hand takes a tap as a choice of card, not as a card played. */
export const handPicks = true;

/** A tap on a hand card chooses it (a second tap takes it back). @param {string} card */
export function pickCard(card) {
  const deal = S.game?.deal;
  current(deal);
  pick.card = pick.card === card ? null : card;
  askOptions();
  api.render();
}

/** Whether a hand card is the one chosen. @param {string} card */
export function pickedCard(card) {
  return pick.card === card && pick.mark === markOf(S.game?.deal);
}

/** A tap on a table pile adds it to the choice or takes it out. @param {string} key */
function pickPile(key) {
  current(S.game?.deal);
  pick.piles = pick.piles.includes(key) ? pick.piles.filter((k) => k !== key) : [...pick.piles, key];
  askOptions();
  api.render();
}

/** The prompt's listing of one hand card. @param {any} deal @param {string|null} card */
function listingOf(deal, card) {
  if (!card) return null;
  return (deal?.prompt?.moves ?? []).find((c) => c.card === card) ?? null;
}

/** The keys of the piles a prompt's set names by their places on the table. @param {any} deal @param {number[]} set */
function keysOf(deal, set) {
  const piles = tablePiles(deal);
  return (set ?? []).map((i) => piles[i]).filter(Boolean).map(pileKey);
}

/** A pile named by its key, in short: "♠3", or "[6 #1]". @param {any} deal @param {string} key */
function keyText(deal, key) {
  return key.startsWith('#') ? t('wp.building_leaf', { value: buildingOf(deal, Number(key.slice(1)))?.value ?? '?', id: key.slice(1) }) : cardShort(key);
}

// ---- the table ----

/**
 * A seat's standing in this game: the cards and spades it has captured, its sweeps, whether it
 * made the last capture, and its points in the match.
 * @param {any} game
 * @param {number} seat
 * @returns {HTMLElement[]}
 */
export function seatChips(game, seat) {
  const deal = game?.deal;
  if (!deal) return [];
  const captured = deal.captured?.[seat] ?? [];
  const spades = captured.filter((c) => c[0] === 'S').length;
  const sweeps = deal.sweeps?.[seat] ?? 0;
  const chip = (cls, text, long, testid) => h('span', { class: `chip ${cls}`, title: long, 'aria-label': long, 'data-testid': testid }, text);
  return [
    chip('wp-captured', t('wp.chip.captured', { n: captured.length, s: spades }), t('wp.chip.captured_long', { n: captured.length, s: spades }), 'captured'),
    sweeps ? chip('wp-sweeps', t('wp.chip.sweeps', { n: sweeps }), t('wp.chip.sweeps_long', { n: sweeps }), 'sweeps') : null,
    deal.last_capturer === seat ? chip('wp-last', t('wp.chip.last'), t('wp.chip.last_long'), 'last-capture') : null,
    h(
      'span',
      { class: 'chip wp-points', 'data-testid': 'balance', title: t('wp.chip.points_long', { n: game.totals?.[seat] ?? 0 }) },
      t('wp.chip.points', { n: game.totals?.[seat] ?? 0 }),
    ),
  ].filter((c) => c !== null);
}

/** One pile on the table: a loose card, or a building with its value, owner and cards. */
function pileView(deal, pile, chosen, usable, enabled) {
  const key = pileKey(pile);
  const building = pile.building !== undefined && pile.building !== null;
  const label = building
    ? t('wp.pile.building_long', { value: pile.value, name: seatName(pile.owner), cards: (pile.cards ?? []).map(cardShort).join(' '), id: pile.building })
    : `${cardName(pile.card)} (${cardValue(pile.card)})`;
  return h(
    'button',
    {
      type: 'button',
      class: `wp-pile${building ? ' wp-building' : ' wp-loose'}${chosen ? ' selected' : ''}${usable ? ' usable' : ''}${building && pile.owner === mySeat() ? ' mine' : ''}`,
      'data-pile': key,
      'data-key': `pile-${key}`,
      'data-testid': building ? 'building' : 'loose',
      'aria-pressed': String(chosen),
      'aria-label': label,
      title: label,
      disabled: !enabled,
      onclick: () => pickPile(key),
    },
    building
      ? [
          h('span', { class: 'wp-stack', style: `--n:${Math.min((pile.cards ?? []).length, 4)}` }, (pile.cards ?? []).map((c) => h('span', { class: 'small-card', 'data-card': c }, cardFace(c)))),
          h(
            'span',
            { class: 'wp-badge' },
            h('strong', { class: 'wp-value', 'data-testid': 'building-value' }, String(pile.value)),
            h('span', { class: 'wp-owner' }, seatName(pile.owner)),
          ),
        ]
      : [h('span', { class: 'small-card', 'data-card': pile.card }, cardFace(pile.card)), h('span', { class: 'wp-value-tag', 'aria-hidden': 'true' }, String(cardValue(pile.card)))],
  );
}

/**
 * The middle of the table: every pile, to be chosen with a hand card; the piles the chosen card
 * can use in some listed group are marked.
 * @param {any} deal
 * @param {(cards: string[]) => any} _cardRow
 */
// eslint-disable-next-line no-unused-vars
export function centreShown(deal, _cardRow) {
  if (!deal) return null;
  // A deal other than the live one (a replay) is only shown: nothing of it can be chosen.
  const live = deal === S.game?.deal;
  const p = live ? current(deal) : { card: null, piles: [] };
  const piles = tablePiles(deal);
  const listing = listingOf(deal, p.card);
  const usable = new Set();
  if (listing) {
    // The prompt names every pile some group of the card uses, also where its sets are cut.
    for (const k of keysOf(deal, listing.usable ?? [])) usable.add(k);
    for (const set of listing.capture ?? []) for (const k of keysOf(deal, set)) usable.add(k);
    for (const b of listing.builds ?? []) for (const set of [...(b.cores ?? []), ...(b.extras ?? [])]) for (const k of keysOf(deal, set)) usable.add(k);
  }
  const enabled = live && myMove(deal);
  return h(
    'section',
    { class: 'wp-table', 'aria-label': t('wp.table.title'), 'data-testid': 'wippen-table' },
    piles.length
      ? h(
          'div',
          { class: `wp-piles${piles.length > 12 ? ' crowded' : ''}`, role: 'group' },
          piles.map((pile) => pileView(deal, pile, p.piles.includes(pileKey(pile)), usable.has(pileKey(pile)), enabled)),
        )
      : h('p', { class: 'wp-empty hint' }, t('wp.table.empty')),
  );
}

/**
 * Below the piles: the stock and the deals left, and who made the last capture.
 * @param {any} game
 * @param {any} deal
 */
export function centreExtra(game, deal) {
  if (!deal) return null;
  return h(
    'p',
    { class: 'wp-stock', 'data-testid': 'stock' },
    t('wp.table.stock', { n: deal.stock ?? 0 }),
    deal.deals_left !== undefined && deal.deals_left !== null ? ` · ${t('wp.table.deals_left', { n: deal.deals_left })}` : null,
    deal.last_capturer !== null && deal.last_capturer !== undefined ? ` · ${t('wp.table.last_capture', { name: seatName(deal.last_capturer) })}` : null,
  );
}

/**
 * The info bar: the game of the set and the operators allowed.
 * @param {any} game
 * @param {any} deal
 */
export function tableBar(game, deal) {
  const rules = deal?.rules ?? {};
  return [
    h('span', { class: 'wp-bar-game', 'data-testid': 'wp-game' }, t('wp.bar.game', { n: game?.number ?? 1, of: (rules.players ?? 2) * (rules.sets ?? 1) })),
    h('span', { class: 'wp-bar-ops wide-only' }, h('span', { class: 'label' }, t('wp.opt.operators'), ': '), operatorsText(rules), term('wp_arithmetic')),
  ];
}

/** A move button: the move in words, confirmed before it is sent. @param {any} move @param {any} deal */
function moveButton(move, deal) {
  const text = moveText(move, deal);
  return h(
    'button',
    {
      type: 'button',
      class: `call wp-move wp-${move.kind}`,
      'data-key': `move-${move.kind}`,
      'data-testid': 'wp-move',
      'data-action': JSON.stringify(move),
      disabled: S.waiting,
      onclick: () => {
        pick.confirm = move;
        api.render();
      },
    },
    text,
  );
}

/**
 * The moves a chosen card offers before any pile is chosen: the prompt's whole moves, each
 * written out with its arithmetic ("Capture with ♥10: 10 = (♠3 × ♦2) + ♣4"), made with one tap;
 * and, where the prompt holds more than these, a line saying that choosing table piles finds
 * every move with them (where the prompt had to leave sets out, it says so).
 */
function suggestions(deal, listing) {
  const ready = listing.ready ?? [];
  const sets = (listing.capture ?? []).length + (listing.builds ?? []).reduce((n, b) => n + (b.cores ?? []).filter((c) => c.length > 0).length, 0);
  const note = listing.truncated
    ? h('p', { class: 'hint wp-truncated', 'data-testid': 'wp-truncated' }, t('wp.hint.truncated'))
    : sets > ready.length
      ? h('p', { class: 'hint' }, t('wp.hint.more', { n: sets - ready.length }))
      : null;
  if (!ready.length) return h('div', null, h('p', { class: 'hint', 'data-testid': 'wp-no-move' }, t('wp.hint.none')), note);
  return h(
    'div',
    { class: 'wp-suggestions', role: 'group', 'aria-label': t('wp.hint.title') },
    h('p', { class: 'hint' }, t('wp.hint.title')),
    ready.map((move) =>
      h(
        'button',
        {
          type: 'button',
          class: `call wp-move wp-suggestion wp-${move.kind}`,
          'data-testid': 'wp-suggestion',
          'data-action': JSON.stringify(move),
          disabled: S.waiting,
          onclick: () => api.act(move),
        },
        moveText(move, deal),
      ),
    ),
    note,
  );
}

/**
 * The action panel on the player's move: choose a card in the hand, then table piles; lay the
 * card down in one tap, or take one of the moves the server finds for exactly that choice.
 * @param {any} deal
 * @param {any} p the prompt
 */
export function actions(deal, p) {
  if (!p || !(p.moves ?? []).length) return [];
  const c = current(deal);
  if (c.confirm) {
    const move = c.confirm;
    return [
      h(
        'div',
        { class: 'confirm', role: 'group', 'aria-label': t('act.sure', { what: moveText(move, deal) }) },
        h('p', { class: 'confirm-q', 'data-testid': 'wp-confirm-text' }, moveText(move, deal)),
        h(
          'div',
          { class: 'row' },
          h(
            'button',
            {
              type: 'button',
              class: 'primary big',
              'data-key': 'confirm',
              disabled: S.waiting,
              onclick: () => {
                c.confirm = null;
                api.act(move);
              },
            },
            t(move.kind === 'build' ? 'wp.act.build' : 'wp.act.capture'),
          ),
          h(
            'button',
            {
              type: 'button',
              class: 'big',
              'data-key': 'cancel',
              onclick: () => {
                c.confirm = null;
                api.render();
              },
            },
            t('act.cancel'),
          ),
        ),
      ),
    ];
  }
  if (!c.card) return [h('p', { class: 'hint wp-how', 'data-testid': 'wp-how' }, t('wp.act.choose_card'), term('wp_arithmetic'))];
  const listing = listingOf(deal, c.card);
  const rows = [];
  rows.push(
    h(
      'p',
      { class: 'wp-choice', 'data-testid': 'wp-choice' },
      t('wp.act.chosen', { card: cardShort(c.card), value: cardValue(c.card) }),
      c.piles.length ? ` + ${c.piles.map((k) => keyText(deal, k)).join(', ')}` : '',
    ),
  );
  if (c.piles.length === 0) {
    // Laying the card down is one tap; the moves that need table piles are suggested.
    rows.push(
      h(
        'div',
        { class: 'row' },
        h(
          'button',
          {
            type: 'button',
            class: 'big wp-discard',
            'data-key': 'discard',
            'data-testid': 'wp-discard',
            disabled: S.waiting || !listing?.discard,
            title: listing?.discard ? null : t('wp.act.no_discard'),
            onclick: () => api.act({ kind: 'discard', card: c.card }),
          },
          t('wp.act.discard', { card: cardShort(c.card) }),
        ),
      ),
    );
    if (listing && !listing.discard) rows.push(h('p', { class: 'hint', 'data-testid': 'wp-promise' }, t('wp.act.no_discard')));
    if (listing) rows.push(suggestions(deal, listing));
    rows.push(h('p', { class: 'hint' }, t('wp.act.choose_piles')));
    return rows;
  }
  if (!c.answer) {
    rows.push(h('p', { class: 'hint', role: 'status' }, t('wp.act.asking')));
    return rows;
  }
  if (!c.answer.moves.length) {
    rows.push(h('p', { class: 'hint', role: 'status', 'data-testid': 'wp-no-move' }, t('wp.act.no_move')));
  } else {
    rows.push(h('div', { class: 'wp-moves', role: 'group', 'aria-label': t('wp.act.moves') }, c.answer.moves.slice(0, 12).map((m) => moveButton(m, deal))));
  }
  rows.push(
    h(
      'div',
      { class: 'row' },
      h(
        'button',
        {
          type: 'button',
          class: 'small',
          'data-key': 'clear',
          onclick: () => {
            c.piles = [];
            c.answer = null;
            api.render();
          },
        },
        t('wp.act.clear'),
      ),
    ),
  );
  return rows;
}

// ---- the log, the result ----

/** Game events that are a player's own move. */
export const moves = new Set(['moved']);

/**
 * @param {any} e a Wippen event
 * @param {any} deal
 * @returns {string[]}
 */
export function eventTexts(e, deal) {
  switch (e?.event) {
    case 'dealt':
      return e.round === 1 ? [t('wp.log.game', { n: e.number, name: seatName(e.dealer) })] : [t('wp.log.dealt', { n: e.stock ?? 0 })];
    case 'moved': {
      const name = seatName(e.seat);
      if (e.move?.kind === 'discard') return [t('wp.log.discarded', { name, card: cardShort(e.move.card) })];
      return [`${name}: ${moveText(e.move, deal)}${e.sweep ? ` — ${t('wp.log.sweep')}` : ''}`];
    }
    case 'leftover':
      if (!(e.cards ?? []).length) return [];
      return e.seat !== null && e.seat !== undefined ? [t('wp.log.rest', { name: seatName(e.seat), n: e.cards.length })] : [t('wp.log.rest_nobody', { n: e.cards.length })];
    case 'scored':
      return [outcomeSentence(e.row, e.row?.points, e.row?.dealer)];
    case 'match_over':
      return [t('wp.log.match_over', { list: (e.totals ?? []).map((b, seat) => `${seatName(seat)} ${b}`).join(', ') })];
    default:
      return [];
  }
}

/**
 * A game's points per player: "Anna 6, Ben 5".
 * @param {any} outcome
 * @param {any} scores
 * @param {any} _dealer
 */
// eslint-disable-next-line no-unused-vars
export function outcomeSentence(outcome, scores, _dealer) {
  const pts = outcome?.points ?? scores ?? [];
  if (!pts.length) return '';
  return t('wp.result.points', { list: pts.map((n, seat) => `${seatName(seat)} ${n}`).join(', ') });
}

/** @param {any} _outcome */
// eslint-disable-next-line no-unused-vars
export function resultWord(_outcome) {
  return t('wp.sheet.game');
}

/** @param {any} row */
export function sheetGame(row) {
  return seatName(row.dealer);
}

/** @param {any} _game @returns {HTMLElement|null} */
// eslint-disable-next-line no-unused-vars
export function sheetHead(_game) {
  return h('p', { class: 'hint wp-sheet-key' }, t('wp.sheet.key'));
}

/**
 * What a seat took in a game, from its row: cards, spades, aces, the good ten and two, sweeps.
 * Each a span of its own, so that a narrow column breaks between them, never inside one.
 * @param {any} row
 * @param {number} seat
 */
function scoreLines(row, seat) {
  return [
    t('wp.line.cards', { n: row.cards?.[seat] ?? 0 }),
    t('wp.line.spades', { n: row.spades?.[seat] ?? 0 }),
    row.aces?.[seat] ? t('wp.line.aces', { n: row.aces[seat] }) : null,
    row.good_ten === seat ? t('wp.line.good_ten') : null,
    row.good_two === seat ? t('wp.line.good_two') : null,
    row.sweeps?.[seat] ? t('wp.line.sweeps', { n: row.sweeps[seat] }) : null,
  ]
    .filter(Boolean)
    .map((text) => h('span', { class: 'wp-line' }, text));
}

/**
 * The sheet: a row per game — its dealer, each seat's points with the lines that made them — and
 * the totals of the match at the foot.
 * @param {any} game
 */
export function sheetBody(game) {
  const rows = game?.scoresheet ?? [];
  const n = game?.totals?.length ?? 2;
  const seats = Array.from({ length: n }, (_, i) => i);
  return h(
    'div',
    { class: 'sheet-scroll', tabindex: '0', role: 'region', 'aria-label': t('table.scoresheet') },
    h(
      'table',
      { class: 'sheet-table wp-sheet', 'data-testid': 'scoresheet' },
      h(
        'thead',
        null,
        h(
          'tr',
          null,
          h('th', { scope: 'col' }, t('wp.sheet.game')),
          h('th', { scope: 'col', class: 'wide-only' }, t('sheet.dealer')),
          seats.map((i) => h('th', { scope: 'col', class: 'total-col', title: seatName(i) }, seatName(i))),
        ),
      ),
      h(
        'tbody',
        null,
        rows.map((row, r) =>
          h(
            'tr',
            { 'data-deal': row.number ?? r + 1 },
            h('th', { scope: 'row' }, String(row.number ?? r + 1)),
            h('td', { class: 'wide-only' }, seatName(row.dealer)),
            seats.map((i) =>
              h(
                'td',
                { class: 'wp-cell', 'data-seat': i },
                h('strong', null, `+${row.points?.[i] ?? 0}`),
                h('span', { class: 'wp-run' }, ` = ${row.totals?.[i] ?? 0}`),
                h('span', { class: 'hint wp-lines' }, scoreLines(row, i)),
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
          h('th', { scope: 'row' }, t('sheet.totals')),
          h('td', { class: 'wide-only' }),
          seats.map((i) => h('td', { class: 'total', 'data-testid': 'sheet-balance' }, h('strong', null, String(game.totals?.[i] ?? 0)))),
        ),
      ),
    ),
  );
}
