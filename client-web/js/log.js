// Sentences for the table log, from the room events the server sends.

import { t } from './i18n.js';
import { callText, contractText, gameText, suitName } from './format.js';
import { S, seatName } from './store.js';

/**
 * @param {any} ev a SeqEvent (a RoomEvent with its seq)
 * @returns {{kind: 'chat'|'event', text: string, from?: string}[]}
 */
export function eventLines(ev) {
  const line = (text) => [{ kind: /** @type {const} */ ('event'), text }];
  switch (ev?.kind) {
    case 'chat':
      return [{ kind: 'chat', text: String(ev.text ?? ''), from: String(ev.from ?? '') }];
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
    case 'game':
      return gameLines(ev.event);
    default:
      return [];
  }
}

function gameLines(e) {
  const name = seatName(e?.seat);
  const one = (key, extra = {}) => [{ kind: /** @type {const} */ ('event'), text: t(key, { name, ...extra }) }];
  switch (e?.event) {
    case 'dealt':
      return one('log.dealt', { n: e.number, name: seatName(e.dealer) });
    case 'called':
      return one('log.called', { call: callText(e.call) });
    case 'auction_won':
      return [{ kind: 'event', text: t('log.auction_won', { name: seatName(e.declarer), game: contractText(e.contract) }) }];
    case 'kieker_shown':
      return one('log.kieker_shown', { to: seatName(e.to) });
    case 'kieker_picked_up':
      return one('log.kieker_picked_up');
    case 'skat_taken':
      return one('log.skat_taken');
    case 'hand_chosen':
      return one('log.hand');
    case 'discarded':
      return one('log.discarded');
    case 'trumps_named':
      return one('log.trumps', { suit: suitName(e.suit, true) });
    case 'kontra':
      return one('log.kontra');
    case 'rekontra':
      return one('log.rekontra');
    case 'declined':
      return one('log.declined');
    case 'gave_up':
      return one('log.gave_up');
    case 'siebener_fips':
      return one('log.fips');
    case 'trick_taken':
      return one('log.trick');
    case 'stopped':
      return one('log.stopped');
    case 'went_on':
      return one('log.went_on');
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
