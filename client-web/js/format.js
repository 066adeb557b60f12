// Words for bids, calls, games and outcomes, in the chosen language.

import { t } from './i18n.js';

/** @param {any} bid a fipsen_rules::Bid */
export function bidText(bid) {
  if (!bid) return '';
  if (bid.kind === 'kieker') return t('bid.kieker');
  const parts = [t('bid.tricks', { n: bid.tricks })];
  if (bid.hand) parts.push(t('bid.hand'));
  if (bid.ruten) parts.push(t('bid.ruten'));
  return parts.join(' ');
}

/** @param {any} call a fipsen_rules::Call */
export function callText(call) {
  if (!call) return '';
  if (call.call === 'bid') return bidText(call.bid);
  if (call.call === 'hold') return t('call.hold_short');
  return t('call.pass_short');
}

/** @param {string} suit protocol suit name */
export function suitName(suit, ruten = false) {
  if (suit === 'diamonds' && ruten) return t('suit.diamonds_ruten');
  return t(`suit.${suit}`);
}

/** The game as declared: "3 Hand Ruten", "Kieker Durch", with Kontra/Rekontra. */
export function gameText(game) {
  if (!game) return '';
  const parts = [game.kieker ? t('game.kieker') : t('game.tricks', { n: game.tricks })];
  if (game.hand) parts.push(t('game.hand'));
  if (game.trumps === 'diamonds') parts.push(t('game.ruten'));
  if (game.durch && !game.kieker) parts.push(t('game.durch'));
  if (game.kontra) parts.push(t('game.kontra'));
  if (game.rekontra) parts.push(t('game.rekontra'));
  return parts.join(' ');
}

/** Value of a game: base × 2^doubles (shown, never used to decide anything). */
export function gameValue(game) {
  if (!game) return 0;
  const doubles = [game.hand, game.trumps === 'diamonds', game.durch, game.kontra, game.rekontra].filter(Boolean).length;
  return game.tricks * 2 ** doubles;
}

/** The contract owed after the auction, e.g. "3 Hand (held)". */
export function contractText(contract) {
  if (!contract) return '';
  const text = bidText(contract.bid);
  return contract.held ? `${text} (${t('game.held')})` : text;
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
