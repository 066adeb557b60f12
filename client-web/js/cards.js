// The cards, drawn as SVG for this project: suit shapes, pip layouts, court-card panels and the
// back. Colours come from CSS (`currentColor`), so the four-colour option is a class on <body>.
// The German faces (acorns, leaves, hearts, bells; Ober and Unter) are the same cards with other
// suit shapes in the sprite: a display option only.

import { s } from './dom.js';
import { lang, t } from './i18n.js';

/** @typedef {'C'|'S'|'H'|'D'} SuitLetter */

export const SUITS = /** @type {const} */ ({ C: 'clubs', S: 'spades', H: 'hearts', D: 'diamonds' });
const SUIT_LETTER = { clubs: 'C', spades: 'S', hearts: 'H', diamonds: 'D' };
// The 52-card pack (Tippen from seven players) adds the six down to the two.
const RANK_ORDER = ['A', 'K', 'Q', 'J', '10', '9', '8', '7', '6', '5', '4', '3', '2'];

// Suit outlines in a 100×100 box.
const SUIT_PATHS = {
  H: 'M50 94C30 76 2 56 2 30C2 13 15 3 29 3C39 3 46 9 50 18C54 9 61 3 71 3C85 3 98 13 98 30C98 56 70 76 50 94Z',
  D: 'M50 2L88 50L50 98L12 50Z',
  // The spade's lobes end at three quarters of its height, above a stem with a broad foot: small
  // or upside down it still reads as a spade, not a heart.
  S: 'M50 2C64 20 94 34 94 54C94 67 84 74 72 74C65 74 59 71 56 66C58 80 64 90 76 98L24 98C36 90 42 80 44 66C41 71 35 74 28 74C16 74 6 67 6 54C6 34 36 20 50 2Z',
  C: 'M50 4A21 21 0 0 1 67 38A21 21 0 1 1 56 74C57 86 61 93 69 98L31 98C39 93 43 86 44 74A21 21 0 1 1 33 38A21 21 0 0 1 50 4Z',
};

// The German suits, drawn for this project in the same box: an acorn (Eichel, for clubs), a leaf
// (Grün, for spades), a heart (Herz) and a bell (Schellen, for diamonds). Each is a filled shape
// and white lines or holes for its details.
const GERMAN_SUITS = {
  C: [
    // The stalk, the cup with its scales, the nut.
    ['M46 2H54V14H46Z', 'currentColor'],
    ['M16 42C16 22 32 12 50 12C68 12 84 22 84 42Z', 'currentColor'],
    ['M28 24L40 40M44 16L56 40M62 18L70 40M26 34L74 34', 'white-line'],
    ['M26 46H74C74 72 62 94 50 98C38 94 26 72 26 46Z', 'currentColor'],
    ['M40 56C38 68 40 80 46 88', 'white-line'],
  ],
  S: [
    ['M50 3C73 20 92 42 85 64C81 78 67 85 55 83L55 98H45L45 83C33 85 19 78 15 64C8 42 27 20 50 3Z', 'currentColor'],
    ['M50 80V14M50 34L34 24M50 34L66 24M50 52L28 42M50 52L72 42M50 68L32 62M50 68L68 62', 'white-line'],
  ],
  H: [
    ['M50 96C28 78 4 60 4 34C4 16 17 5 31 5C40 5 47 10 50 18C53 10 60 5 69 5C83 5 96 16 96 34C96 60 72 78 50 96Z', 'currentColor'],
    ['M24 26C26 18 32 15 38 16', 'white-line'],
  ],
  D: [
    ['M50 4A8 8 0 1 1 49.9 4ZM50 9A3 3 0 1 0 50.1 9Z', 'currentColor'],
    ['M50 18C72 18 88 36 88 58C88 80 72 96 50 96C28 96 12 80 12 58C12 36 28 18 50 18Z', 'currentColor'],
    ['M14 54H86', 'white-band'],
    ['M50 70A7 7 0 1 1 49.9 70Z', 'white'],
    ['M50 84V94', 'white-line'],
  ],
};

/** The faces the cards are drawn with (a setting): 'french' or 'german' shapes. */
let faces = 'french';

/** The faces in use: 'french' (also four-colour) or 'german'. */
export function cardFaces() {
  return faces;
}

/** The symbols of one set of suit shapes. */
function suitSymbols(german) {
  return Object.keys(SUIT_PATHS).map((letter) =>
    s(
      'symbol',
      { id: `suit-${letter}`, viewBox: '0 0 100 100' },
      german
        ? GERMAN_SUITS[letter].map(([d, paint]) =>
            paint === 'currentColor'
              ? s('path', { d, fill: 'currentColor' })
              : paint === 'white'
                ? s('path', { d, fill: '#fff' })
                : s('path', { d, fill: 'none', stroke: '#fff', 'stroke-width': paint === 'white-band' ? 7 : 3.5, 'stroke-linecap': 'round' }),
          )
        : s('path', { d: SUIT_PATHS[letter], fill: 'currentColor' }),
    ),
  );
}

/**
 * Draws the cards with French or German faces from now on: the sprite's suit shapes are
 * replaced, so every card on the page changes with them.
 * @param {'french'|'german'} wanted
 */
export function setCardFaces(wanted) {
  if (wanted === faces) return;
  faces = wanted;
  const defs = document.querySelector('#card-sprite defs');
  if (!defs) return;
  for (const old of defs.querySelectorAll('symbol')) old.remove();
  defs.prepend(...suitSymbols(faces === 'german'));
}

/** Adds the shared SVG definitions (suit symbols, the back pattern) to the page once. */
export function installCardSprite() {
  if (document.getElementById('card-sprite')) return;
  const sprite = s(
    'svg',
    { id: 'card-sprite', width: 0, height: 0, 'aria-hidden': 'true', style: 'position:absolute' },
    s(
      'defs',
      null,
      suitSymbols(faces === 'german'),
      s(
        'pattern',
        { id: 'back-lattice', width: 12, height: 12, patternUnits: 'userSpaceOnUse', patternTransform: 'rotate(45)' },
        s('rect', { width: 12, height: 12, fill: '#1d4e89' }),
        s('rect', { width: 6, height: 6, fill: '#2a64a8' }),
        s('circle', { cx: 9, cy: 9, r: 1.6, fill: '#9cc3ee' }),
      ),
    ),
  );
  document.body.prepend(sprite);
}

/** @param {string} code e.g. "S10" */
export function parseCard(code) {
  return { suit: /** @type {SuitLetter} */ (code[0]), rank: code.slice(1) };
}

/**
 * The rank letter printed on the card (German packs use B and D for Bube and Dame; the German
 * faces O and U for Ober and Unter).
 */
function rankLabel(rank) {
  if (faces === 'german') return { Q: 'O', J: 'U' }[rank] ?? rank;
  if (lang() === 'de') return { Q: 'D', J: 'B' }[rank] ?? rank;
  return rank;
}

/** A rank's name, as the faces in use call it. */
function rankName(rank) {
  if (faces === 'german' && ['A', 'Q', 'J'].includes(rank)) return t(`rank.german.${rank}`);
  return t(`rank.${rank}`);
}

/** A card's name for people and screen readers, e.g. "Ace of Hearts", "Ober of Acorns". */
export function cardName(code) {
  const { suit, rank } = parseCard(code);
  return t('card.name', { rank: rankName(rank), suit: t(faces === 'german' ? `suit.german.${SUITS[suit]}` : `suit.${SUITS[suit]}`) });
}

/** The short form, e.g. "♥A" (with the localised rank letter). */
export function cardShort(code) {
  const { suit, rank } = parseCard(code);
  return `${{ C: '♣', S: '♠', H: '♥', D: '♦' }[suit]}${rankLabel(rank)}`;
}

/** The letter of a suit name from the protocol ("clubs" → "C"). */
export function suitLetter(suit) {
  return SUIT_LETTER[suit];
}

const PIPS = {
  2: [[50, 36], [50, 114]],
  3: [[50, 36], [50, 75], [50, 114]],
  4: [[34, 36], [66, 36], [34, 114], [66, 114]],
  5: [[34, 36], [66, 36], [50, 75], [34, 114], [66, 114]],
  6: [[34, 36], [66, 36], [34, 75], [66, 75], [34, 114], [66, 114]],
  7: [[34, 36], [66, 36], [50, 56], [34, 78], [66, 78], [34, 114], [66, 114]],
  8: [[34, 36], [66, 36], [50, 56], [34, 75], [66, 75], [50, 94], [34, 114], [66, 114]],
  9: [[34, 36], [66, 36], [34, 62], [66, 62], [50, 75], [34, 88], [66, 88], [34, 114], [66, 114]],
  10: [[34, 36], [66, 36], [50, 50], [34, 62], [66, 62], [34, 88], [66, 88], [50, 100], [34, 114], [66, 114]],
};

function pip(letter, cx, cy, size) {
  const flip = cy > 75 ? `rotate(180 ${cx} ${cy})` : null;
  return s('use', { href: `#suit-${letter}`, x: cx - size / 2, y: cy - size / 2, width: size, height: size, transform: flip });
}

function corner(letter, rank, trump) {
  const label = rankLabel(rank);
  return s(
    'g',
    null,
    s(
      'text',
      {
        x: 14,
        y: 29,
        'text-anchor': 'middle',
        'font-size': label.length > 1 ? 23 : 28,
        'font-weight': 700,
        'letter-spacing': label.length > 1 ? -2 : 0,
        fill: 'currentColor',
        'font-family': 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
      },
      label,
    ),
    s('use', { href: `#suit-${letter}`, x: 5, y: 34, width: 18, height: 18 }),
    trump ? s('path', { class: 'trump-star', d: starPath(14, 66, 9, 4) }) : null,
  );
}

function starPath(cx, cy, outer, inner) {
  const points = [];
  for (let i = 0; i < 10; i++) {
    const r = i % 2 ? inner : outer;
    const a = (Math.PI / 5) * i - Math.PI / 2;
    points.push(`${(cx + r * Math.cos(a)).toFixed(1)} ${(cy + r * Math.sin(a)).toFixed(1)}`);
  }
  return `M${points.join('L')}Z`;
}

// Simple ornaments for the court cards: crown (K), tiara (Q), cap with feather (J).
const COURT_ORNAMENT = {
  K: 'M34 58L38 40L45 50L50 36L55 50L62 40L66 58Z',
  Q: 'M36 58C36 46 42 40 50 40C58 40 64 46 64 58ZM50 33A4 4 0 1 1 50 41A4 4 0 1 1 50 33Z',
  J: 'M35 58C35 50 41 45 50 45C59 45 65 50 65 58ZM58 46C62 36 70 32 74 30C70 36 66 42 62 48Z',
};

function centre(letter, rank) {
  if (rank === 'A') return [pip(letter, 50, 75, 46)];
  if (PIPS[rank]) return PIPS[rank].map(([x, y]) => pip(letter, x, y, 19));
  return [
    s('rect', { x: 26, y: 24, width: 48, height: 102, rx: 5, class: 'court-panel' }),
    s('path', { d: COURT_ORNAMENT[rank], class: 'court-ornament' }),
    s(
      'text',
      {
        x: 50,
        y: 92,
        'text-anchor': 'middle',
        'font-size': 34,
        'font-weight': 700,
        fill: 'currentColor',
        'font-family': 'Georgia, "Times New Roman", serif',
      },
      rankLabel(rank),
    ),
    pip(letter, 50, 110, 18),
  ];
}

/**
 * The face of a card as SVG.
 * @param {string} code e.g. "HA"
 * @param {{trump?: boolean}} [opts]
 */
export function cardFace(code, opts = {}) {
  const { suit, rank } = parseCard(code);
  const trump = Boolean(opts.trump);
  return s(
    'svg',
    {
      viewBox: '0 0 100 150',
      class: `card-svg suit-${suit}${trump ? ' is-trump' : ''}`,
      'aria-hidden': 'true',
      focusable: 'false',
      'data-card': code,
    },
    s('rect', { x: 1.5, y: 1.5, width: 97, height: 147, rx: 8, class: 'card-bg' }),
    corner(suit, rank, trump),
    s('g', { transform: 'rotate(180 50 75)' }, corner(suit, rank, false)),
    centre(suit, rank),
  );
}

/** The back of a card. */
export function cardBack() {
  return s(
    'svg',
    { viewBox: '0 0 100 150', class: 'card-svg card-back', 'aria-hidden': 'true', focusable: 'false' },
    s('rect', { x: 1.5, y: 1.5, width: 97, height: 147, rx: 8, fill: '#fff', stroke: '#9aa7b8', 'stroke-width': 2 }),
    s('rect', { x: 8, y: 8, width: 84, height: 134, rx: 5, fill: 'url(#back-lattice)' }),
    s('rect', { x: 8, y: 8, width: 84, height: 134, rx: 5, fill: 'none', stroke: '#0f2f57', 'stroke-width': 2 }),
  );
}

/**
 * Sorts cards for display: trumps first, then suits alternating black and red, high to low.
 * @param {string[]} cards
 * @param {string|null|undefined} trumps protocol suit name, e.g. "hearts"
 */
export function sortHand(cards, trumps) {
  const order = ['C', 'H', 'S', 'D'];
  const trumpLetter = trumps ? SUIT_LETTER[trumps] : null;
  const key = (code) => {
    const { suit, rank } = parseCard(code);
    const trump = isTrump(code, trumps);
    const suitIndex = trump ? -1 : order.indexOf(suit);
    return (suitIndex + 1) * 30 + RANK_ORDER.indexOf(rank) + (trump && suit !== trumpLetter ? 13 : 0);
  };
  return [...cards].sort((a, b) => key(a) - key(b));
}

/** Whether a card is a trump once trumps are named (in Ruten only the ♦7). */
export function isTrump(code, trumps) {
  if (!trumps) return false;
  return parseCard(code).suit === SUIT_LETTER[trumps];
}
