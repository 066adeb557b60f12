// Sentences for the table log, from the room events the server sends.

import { cardShort } from './cards.js';
import { t } from './i18n.js';
import { gameOf } from './games/index.js';
import { S, seatName } from './store.js';

/**
 * @param {any} ev a SeqEvent (a RoomEvent with its seq)
 * @param {any} [after] the deal as the message that brought the event leaves it
 * @returns {import('./store.js').LogLine[]}
 */
export function eventLines(ev, after) {
  /** @param {string} text @returns {import('./store.js').LogLine[]} */
  const line = (text) => [{ kind: 'event', text }];
  switch (ev?.kind) {
    case 'chat':
      return [{ kind: 'chat', text: String(ev.text ?? ''), from: String(ev.from ?? ''), role: ev.role === 'spectator' ? 'spectator' : 'player' }];
    case 'seated':
      return line(t('log.seated', { name: ev.name ?? seatName(ev.seat) }));
    case 'left_seat':
      return line(t('log.left', { name: seatName(ev.seat) }));
    case 'connected':
      return line(t('log.connected', { name: seatName(ev.seat) }));
    case 'disconnected':
      return line(t('log.disconnected', { name: seatName(ev.seat) }));
    case 'started':
      return line(t('log.started'));
    case 'seat_open':
      return line(t('log.seat_open', { name: seatName(ev.seat) }));
    case 'bot_added':
      return line(t('log.bot_added', { name: ev.name ?? seatName(ev.seat), level: t(`bot.level.${ev.level}`) }));
    case 'bot_removed':
      return line(t('log.bot_removed', { name: seatName(ev.seat) }));
    case 'stand_in':
      return line(t('log.stand_in', { name: seatName(ev.seat), level: t(`bot.level.${ev.level}`) }));
    case 'stand_in_ended':
      return line(t('log.stand_in_ended', { name: seatName(ev.seat) }));
    case 'nudged':
      return line(t('log.nudged', { by: seatName(ev.by), name: seatName(ev.seat) }));
    case 'clock_ran_out':
      return line(t('log.clock_ran_out', { name: seatName(ev.seat), level: t(`bot.level.${ev.level}`) }));
    case 'host_changed':
      return line(t('log.host_changed', { name: ev.name ?? seatName(ev.seat) }));
    case 'rematch':
      return line(t('log.rematch', { name: S.room?.host ?? '' }));
    case 'game':
      return gameLines(ev.event, after);
    default:
      return [];
  }
}

/**
 * The sentences of a game event, as the room's game tells them; a card played, which the games
 * draw on the table, gets its line here.
 * @param {any} e a game event of the room's game
 * @param {any} [after] the deal as the message that brought the event leaves it
 * @returns {import('./store.js').LogLine[]}
 */
function gameLines(e, after) {
  const texts = gameOf(S.game?.game ?? S.room?.rules?.game).eventTexts(e, S.game?.deal, after);
  if (texts.length === 0 && e?.event === 'card_played') texts.push(t('log.played', { name: seatName(e.seat), card: cardShort(e.card) }));
  return texts.map((text) => /** @type {import('./store.js').LogLine} */ ({ kind: 'event', text }));
}
