// The games the client knows, by the id the server names them with (`rules.game`, `game.game`).
// The shared screens (table, log, scoresheet, home, room) ask the game's module for everything
// that differs between games; adding a game is its module, its words and one line here. Words and
// pieces the Holstein-family games share are in holstein.js; Anseggerfips and Duttfips are one
// module (mecklenburg.js) made for each game. What a module exports, required and optional, and
// what the shared screens do without an optional part: games/interface.js.

import { addStrings } from '../i18n.js';
import * as prisdorf from './prisdorf.js';
import * as grossenaspe from './grossenaspe.js';
import { mecklenburg } from './mecklenburg.js';
import * as thedinghausen from './thedinghausen.js';
import * as tippen from './tippen.js';
import * as wippen from './wippen.js';
import { strings as holsteinStrings } from './holstein.js';
import { withDefaults } from './interface.js';

/** @typedef {import('./interface.js').Game} Game */

/** Every game, the default first. @type {Record<string, Game>} */
export const GAMES = {
  prisdorf: withDefaults(prisdorf),
  grossenaspe: withDefaults(grossenaspe),
  anseggerfips: withDefaults(mecklenburg('anseggerfips')),
  duttfips: withDefaults(mecklenburg('duttfips')),
  thedinghausen: withDefaults(thedinghausen),
  tippen: withDefaults(tippen),
  wippen: withDefaults(wippen),
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
  return GAMES[id ?? 'prisdorf'] ?? GAMES.prisdorf;
}

/** The name of a game by its id. @param {string|null|undefined} id */
export function gameName(id) {
  return gameOf(id).name();
}
