// The game interface: what the shared screens (table, log, scoresheet, home, room, replay,
// reviews, analysis) ask of a game's module. A module exports the required members and those
// optional ones where its game differs from the common case; `withDefaults` (used once, by the
// registry in games/index.js) fills in the rest, so that the shared screens always find every
// member and a game writes nothing it has no use for.

import { points, suitName } from '../format.js';
import { t } from '../i18n.js';
import { forehandWords } from './holstein.js';

/**
 * The tools the create form lends a game for its options.
 * @typedef {object} FormKit
 * @property {(key: string, label: string, choices: [any, string, string?][], help?: string) => HTMLElement} radio
 * @property {(key: string, label: string, helpKey: string) => HTMLElement} check
 * @property {(words?: {label: string, help: string}) => HTMLElement} deals the length of the series
 *   (every game has it): a number of deals, or in the words given (a number of rounds)
 * @property {Record<string, any>} draft the game's choices so far (a form whose options depend on
 *   each other reads them, and may correct one the other choices rule out)
 */

/**
 * What every game's module exports.
 * @typedef {object} GameRequired
 * @property {string} id the id the server names the game with (`rules.game`, `game.game`)
 * @property {() => string} name the game's name, in the viewer's language
 * @property {boolean} review whether the server reviews a finished deal of the game (the review
 *   button at the deal's end, the review beside a replay)
 * @property {Record<string, any>} defaults the rules the create form starts from
 * @property {number[]} playerChoices the numbers of players a table may have, the default first
 * @property {(kit: FormKit) => {main: HTMLElement[], more: HTMLElement[]}} rulesForm the create
 *   form's options: `main` in view, `more` under "Rules of this table"
 * @property {(draft: Record<string, any>, deals: number|null) => import('../protocol.js').GameRules} rulesFromForm
 *   the rules to send from the form's choices
 * @property {(players: number) => import('../protocol.js').GameRules} practiceRules a practice table's rules
 * @property {(rules: any) => string[][]} rulesRows the table's options in words, as rows [label, value]
 * @property {() => string[]} howto the rules in brief, one sentence per item (the home page)
 * @property {(action: any, deal?: any) => string} actionText an action in words (the review; the
 *   analysis, with the deal before it)
 * @property {(deal: any, prompt: any) => HTMLElement[]} actions the action panel's rows for the
 *   prompt (cards are played from the hand)
 * @property {Set<string>} moves the game events that are a player's own move (not what follows from
 *   it): the summary of what a bot did for an absent player, the screen reader's announcements
 * @property {(event: any, deal: any, after?: any) => string[]} eventTexts the log's sentences for
 *   one game event, with the deal shown and the deal as the event leaves it
 * @property {(outcome: any, scores: any, dealer: any, played?: number) => string} outcomeSentence
 *   one sentence for how a deal ended (`played`: the tricks played)
 */

/**
 * What a game's module may leave out, each with what the shared screens do without it: the
 * values of `OPTIONAL`.
 * @typedef {object} GameOptional
 * @property {Partial<Record<import("../i18n.js").Lang, Record<string, string>>>} strings the game's
 *   words beyond i18n.js — none
 * @property {(rules: any) => string[]} inviteFacts what the invitation says of the rules beyond
 *   players and length — nothing
 * @property {(rules: any) => string} lengthText how long the series is, on the invitation — "12
 *   deals" or an open series
 * @property {(bid: any) => string} bidText a bid in words — none (a game without an auction)
 * @property {(call: any) => string} callText a call of the auction (the bubble at a seat) — none
 * @property {(contract: any) => string} contractText the contract owed after the auction — none
 * @property {(game: any) => string} gameText the declarer's game as played — none
 * @property {(game: any) => number} gameValue the declared game's value, shown on the info bar — 0
 * @property {(game: any) => (HTMLElement|null)[]} gameTerms the terms explained beside the game on
 *   the info bar — none
 * @property {(suit: any) => string} trumpsName a trump suit's name — the suit's own name
 * @property {[string, string]} forehandWords the forehand's chip: its text key and the term
 *   explaining it — "Forehand" (the Holstein games' words)
 * @property {(deal: any) => number|null|undefined} forehand the seat that speaks first — `deal.forehand`
 * @property {(deal: any) => import('../protocol.js').Suit|null} trumps the deal's trump suit,
 *   once known — none
 * @property {(game: any, deal: any) => HTMLElement[]|null} tableBar what the info bar shows of the
 *   deal — null: the table's own (the declarer's game, the trumps, the tricks taken)
 * @property {(game: any, deal: any) => HTMLElement|null} centreExtra what the middle of the table
 *   shows below the trick — nothing
 * @property {(deal: any, cardRow: (cards: string[]) => any) => HTMLElement|null} centreShown what
 *   the middle shows instead of the trick — null: the trick
 * @property {(game: any, seat: number) => HTMLElement[]} seatChips a seat's chips beyond dealer,
 *   forehand and declarer — none
 * @property {(deal: any) => string[]} pickedUp while laying away, the cards marked in the hand as
 *   picked up — none
 * @property {(deal: any) => [string, number]|null} auctionPile the cards lying face down in the
 *   middle during the auction: their name's key and how many — none
 * @property {(reveal: any) => any[][]} revealZones the zones of the reveal after the
 *   deal, below the dealt hands: [text key, cards] — none
 * @property {(outcome: any) => string} resultWord the shared scoresheet's result column — empty
 * @property {(row: any) => string} sheetGame the shared scoresheet's game column — "—"
 * @property {(game: any) => HTMLElement|null} sheetHead what the sheet shows above it — nothing
 * @property {(game: any) => HTMLElement|null} sheetBody the sheet's table when the game draws it
 *   itself — null: the shared one (a row per deal, with its game and result)
 * @property {(game: any) => HTMLElement|null} sheetFoot what the sheet shows below it — nothing
 * @property {(total: number, game?: any) => string} totalText a total on the sheet — signed: +12, −24, 0
 * @property {boolean} handPicks whether a move is chosen in steps, starting with a tap on a hand
 *   card (Wippen: then table piles) — false: a tap plays the card, or marks it to lay away
 * @property {(card: string) => void} pickCard with `handPicks`: a tap on a hand card — nothing
 * @property {(card: string) => boolean} pickedCard with `handPicks`: whether a hand card is the
 *   one chosen — none is
 * @property {(message: any) => void} answer the game's answer to a query it sent — ignored
 */

/**
 * A game's module as it is written.
 * @typedef {GameRequired & Partial<GameOptional>} GameModule
 */

/**
 * A game as the shared screens see it: every member there.
 * @typedef {GameRequired & GameOptional} Game
 */

/** The required members, by name (a module without one is refused when the client loads). */
export const REQUIRED = /** @type {(keyof GameRequired)[]} */ ([
  'id',
  'name',
  'review',
  'defaults',
  'playerChoices',
  'rulesForm',
  'rulesFromForm',
  'practiceRules',
  'rulesRows',
  'howto',
  'actionText',
  'actions',
  'moves',
  'eventTexts',
  'outcomeSentence',
]);

/** What the shared screens do where a game leaves an optional member out. @type {GameOptional} */
export const OPTIONAL = Object.freeze({
  strings: {},
  inviteFacts: () => [],
  lengthText: (rules) => (rules.deals ? t('invite.deals', { n: rules.deals }) : t('invite.deals_open')),
  bidText: () => '',
  callText: () => '',
  contractText: () => '',
  gameText: () => '',
  gameValue: () => 0,
  gameTerms: () => [],
  trumpsName: (suit) => suitName(suit),
  forehandWords,
  forehand: (deal) => deal.forehand,
  trumps: () => null,
  tableBar: () => null,
  centreExtra: () => null,
  centreShown: () => null,
  seatChips: () => [],
  pickedUp: () => [],
  auctionPile: () => null,
  revealZones: () => [],
  resultWord: () => '',
  sheetGame: () => '—',
  sheetHead: () => null,
  sheetBody: () => null,
  sheetFoot: () => null,
  totalText: (total) => points(total),
  handPicks: false,
  pickCard: () => {},
  pickedCard: () => false,
  answer: () => {},
});

/**
 * A game's module completed with the optional members it leaves out.
 * @param {GameModule} module
 * @returns {Game}
 */
export function withDefaults(module) {
  const missing = REQUIRED.filter((key) => module[key] === undefined);
  if (missing.length) throw new Error(`the game ${module.id} lacks ${missing.join(', ')}`);
  return { ...OPTIONAL, ...module };
}
