// Sentences for the table log, from the room events the server sends.

import { t } from './i18n.js';
import { callText, contractText, gameText, suitName } from './format.js';
import { S, seatName } from './store.js';

/**
 * @param {any} ev a SeqEvent (a RoomEvent with its seq)
 * @returns {import('./store.js').LogLine[]}
 */
export function eventLines(ev) {
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
    case 'game':
      return gameLines(ev.event);
    default:
      return [];
  }
}

/** Game events told in one sentence naming the seat that acted. */
const SIMPLE = {
  kieker_picked_up: 'log.kieker_picked_up',
  skat_taken: 'log.skat_taken',
  hand_chosen: 'log.hand',
  kontra: 'log.kontra',
  rekontra: 'log.rekontra',
  declined: 'log.declined',
  gave_up: 'log.gave_up',
  siebener_fips: 'log.fips',
  trick_taken: 'log.trick',
  stopped: 'log.stopped',
  went_on: 'log.went_on',
};

/**
 * @param {any} e a game event (fipsen_rules::Event)
 * @returns {import('./store.js').LogLine[]}
 */
function gameLines(e) {
  const name = seatName(e?.seat);
  /** @returns {import('./store.js').LogLine[]} */
  const one = (key, extra = {}) => [{ kind: 'event', text: t(key, { name, ...extra }) }];
  if (e?.event in SIMPLE) return one(SIMPLE[e.event]);
  switch (e?.event) {
    case 'dealt':
      return one('log.dealt', { n: e.number, name: seatName(e.dealer) });
    case 'called':
      return one('log.called', { call: callText(e.call) });
    case 'auction_won':
      return one('log.auction_won', { name: seatName(e.declarer), game: contractText(e.contract) });
    case 'discarded': {
      // The cards are hidden from everybody but the declarer; a Kieker lays away five.
      const kieker = S.game?.deal?.contract?.bid?.kind === 'kieker';
      return one('log.discarded', { n: e.cards?.length ?? (kieker ? 5 : 2) });
    }
    case 'kieker_shown':
      return one('log.kieker_shown', { to: seatName(e.to) });
    case 'trumps_named':
      return one('log.trumps', { suit: suitName(e.suit, true) });
    case 'deal_over':
      return [{ kind: 'event', text: outcomeSentence(e.outcome, e.scores, S.game?.deal?.dealer) }];
    default:
      return [];
  }
}

/** One sentence for how a deal ended. */
export function outcomeSentence(outcome, scores, dealer) {
  if (!outcome) return '';
  switch (outcome.result) {
    case 'thrown_in':
      return t('result.thrown_in', { name: seatName(dealer) });
    case 'siebener_fips':
      return t('result.siebener_fips', { name: seatName(outcome.seat) });
    case 'given_up':
      return t('result.given_up', { name: seatName(outcome.declarer) });
    case 'won':
    case 'lost': {
      const value = scores?.[outcome.declarer] ?? 0;
      return t(`result.${outcome.result}`, {
        name: seatName(outcome.declarer),
        game: gameText(outcome.game),
        tricks: outcome.tricks,
        value: outcome.result === 'lost' ? `−${Math.abs(value)}` : value,
      });
    }
    default:
      return '';
  }
}
