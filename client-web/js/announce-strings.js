// What the table tells a screen reader as play goes on (the live region of announce.js), in
// English, German and Japanese.

export const strings = {
  en: {
    'sr.region': 'Play at the table',
    'sr.played': '{name} plays {card}.',
    'sr.you_played': 'You play {card}.',
    'sr.your_turn': 'Your turn.',
    'sr.turn': '{name}’s turn.',
    'sr.rematch': '{name} offers to play again with the same seats.',
  },
  de: {
    'sr.region': 'Das Spiel am Tisch',
    'sr.played': '{name} spielt {card}.',
    'sr.you_played': 'Sie spielen {card}.',
    'sr.your_turn': 'Sie sind dran.',
    'sr.turn': '{name} ist dran.',
    'sr.rematch': '{name} möchte mit denselben Plätzen nochmal spielen.',
  },
  ja: {
    'sr.region': 'テーブルの進行',
    'sr.played': '{name} が {card} を出しました。',
    'sr.you_played': 'あなたは {card} を出しました。',
    'sr.your_turn': 'あなたの番です。',
    'sr.turn': '{name} の番です。',
    'sr.rematch': '{name} が同じ席でもう一度遊ぼうと誘っています。',
  },
};
