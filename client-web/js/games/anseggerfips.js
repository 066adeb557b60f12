// Anseggerfips (VARIANTS.md §B2): bids 2 to 4, each with Ruten, then Fips and Rutenfips, in a
// single round (or the Holstein duels); the Dutt unused unless the table says otherwise.
// The module is made by mecklenburg.js, shared with the other Mecklenburg game.

import { mecklenburg } from './mecklenburg.js';

export const {
  id,
  name,
  strings,
  review,
  defaults,
  playerChoices,
  rulesForm,
  rulesFromForm,
  practiceRules,
  rulesRows,
  inviteFacts,
  howto,
  bidText,
  callText,
  contractText,
  gameText,
  gameValue,
  trumpsName,
  gameTerms,
  forehandWords,
  forehand,
  seatChips,
  pickedUp,
  centreShown,
  auctionPile,
  revealZones,
  actions,
  moves,
  eventTexts,
  outcomeSentence,
  resultWord,
  sheetGame,
  sheetHead,
  sheetFoot,
  totalText,
} = mecklenburg('anseggerfips');
