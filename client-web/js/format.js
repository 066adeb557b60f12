// Words every game uses: suits, points and countdowns, in the chosen language. A game's own
// words (bids, games, outcomes) are its module's (games/).

import { t } from './i18n.js';
import { cardFaces } from './cards.js';

/** A suit's name, as the faces in use call it ("Hearts"; "Bells" with German faces). @param {string} suit protocol suit name */
export function suitName(suit, ruten = false) {
  const german = cardFaces() === 'german' ? 'german.' : '';
  if (suit === 'diamonds' && ruten) return t(`suit.${german}diamonds_ruten`);
  return t(`suit.${german}${suit}`);
}

/** Formats a signed number of points: +12, −24, 0. */
export function points(n) {
  if (n > 0) return `+${n}`;
  if (n < 0) return `−${Math.abs(n)}`;
  return '0';
}

/**
 * The words of a countdown with `s` seconds left: the next deal ("Next deal in 7 s") or a move
 * clock ("12 s", "1:30").
 * @param {string} format 'next' or 'clock'
 * @param {number} s
 */
export function countdownText(format, s) {
  if (format === 'next') return t('next.in', { s });
  if (format === 'clock') return s >= 60 ? `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}` : t('clock.seconds', { s });
  return String(s);
}

/**
 * A table's name in the chosen language. A table created without a name is named by the server
 * after its host in English ("Antje's table"), or it has the host's name or none: each of these
 * reads "Der Tisch von Antje", "Antje’s table", "Antje のテーブル"; a name chosen stays as it is.
 * @param {string|null|undefined} title
 * @param {string|null} [host]
 */
export function tableTitle(title, host = null) {
  if (!title || title === host) return host ? t('invite.table_of', { host }) : '';
  const named = /^(.+)'s table$/.exec(title);
  if (named && (!host || named[1] === host)) return t('invite.table_of', { host: named[1] });
  return title;
}
