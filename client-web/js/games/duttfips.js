// Duttfips (VARIANTS.md §B3): forehand's compulsory contract of Dutt, Ruten oewer, Fips or
// Rutenfips, one round; the declarer takes the Dutt and lays five cards away.
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
} = mecklenburg('duttfips');
