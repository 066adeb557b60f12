// The games the client knows, by the id the server names them with (`rules.game`, `game.game`).
// The shared screens (table, log, scoresheet, home, room) ask the game's module for everything
// that differs between games; adding a game is its module, its words and one line here. Words and
// pieces the Holstein-family games share are in holstein.js; Anseggerfips and Duttfips are one
// module (mecklenburg.js) made for each game.
//
// What a game's module exports:
//   id, name(), strings {de, en, ja}, review (whether the server reviews its deals)
//   actionText(action, deal?)                                — an action in words (the review, the
//                                                              analysis' better Wippen moves, with the deal before it)
//   defaults, playerChoices, rulesForm(kit), rulesFromForm(draft, deals), practiceRules(players),
//     rulesRows(rules), inviteFacts(rules), lengthText(rules), howto()
//                                                            — the rules: form, room, invitation, home
//   bidText(bid), callText(call), contractText(contract), gameText(game), gameValue(game),
//     trumpsName(suit), gameTerms(game)                      — words
//   forehand(deal), trumps(deal), seatChips(game, seat), pickedUp(deal), centreShown(deal, cardRow),
//     centreExtra(game, deal), tableBar(game, deal), auctionPile(deal), revealZones(reveal),
//     actions(deal, prompt)                                  — the table
//   moves, eventTexts(event, deal, after), outcomeSentence(outcome, scores, dealer, played) — the log, the result
//   resultWord(outcome), sheetGame(row), sheetHead(game), sheetBody(game), sheetFoot(game),
//     totalText(total, game)                                 — the scoresheet
// A game whose move is chosen in steps (Wippen: a hand card, then table piles) also exports
//   handPicks (true), pickCard(card), pickedCard(card)       — a tap chooses a hand card
//   answer(answer)                                           — the game's answer to a query

import { addStrings } from '../i18n.js';
import * as prisdorf from './prisdorf.js';
import * as grossenaspe from './grossenaspe.js';
import { mecklenburg } from './mecklenburg.js';
import * as thedinghausen from './thedinghausen.js';
import * as tippen from './tippen.js';
import * as wippen from './wippen.js';
import { strings as holsteinStrings } from './holstein.js';

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
 * What a game's module exports (the optional part only where a move is chosen in steps).
 * @typedef {typeof prisdorf & Partial<{handPicks: boolean, pickCard: (card: string) => void, pickedCard: (card: string) => boolean, answer: (message: any) => void}>} Game
 */

/** Every game, the default first. @type {Record<string, Game>} */
export const GAMES = {
  prisdorf,
  grossenaspe,
  anseggerfips: mecklenburg('anseggerfips'),
  duttfips: mecklenburg('duttfips'),
  thedinghausen,
  tippen,
  wippen,
};

addStrings(holsteinStrings);
for (const game of Object.values(GAMES)) addStrings(game.strings);

/** The ids of the games, the default first. */
export const GAME_IDS = Object.keys(GAMES);

/**
 * The module of a game by its id (a missing id is Prisdorf, as on the server).
 * @param {string|null|undefined} id
 * @returns {Game}
 */
export function gameOf(id) {
  return GAMES[id ?? 'prisdorf'] ?? prisdorf;
}

/** The name of a game by its id. @param {string|null|undefined} id */
export function gameName(id) {
  return gameOf(id).name();
}
