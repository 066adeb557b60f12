// The pieces of the action panel every game uses: a button for an irrevocable call (confirmed
// first unless switched off), the confirmation bar, a term explained, a suit's icon, and choosing
// cards to lay away.

import { h, infoButton, s } from './dom.js';
import { t } from './i18n.js';
import { S, api } from './store.js';

/** A term of the game with its explanation behind an info button. @param {string} key */
export function term(key) {
  return infoButton(t(`term.${key}`), t(`term.${key}.text`));
}

/** A suit's shape (of the faces chosen), e.g. in the trumps shown on the info bar. */
export function suitIcon(letter) {
  return s('svg', { viewBox: '0 0 100 100', width: '1em', height: '1em', class: 'suit-glyph' }, s('use', { href: `#suit-${letter}` }));
}

/**
 * A button for an irrevocable call: asks for confirmation first unless quick play is on.
 * @param {string} label
 * @param {any} action
 * @param {string} key
 * @param {string} [cls]
 * @param {string} [ariaLabel]
 * @param {string} [what] the call in the confirmation question (default: the label)
 */
export function callButton(label, action, key, cls = '', ariaLabel = undefined, what = label) {
  return h(
    'button',
    {
      type: 'button',
      class: `call ${cls}`.trim(),
      'data-key': key,
      'data-action': JSON.stringify(action),
      'aria-label': ariaLabel ?? label,
      disabled: S.waiting,
      onclick: () => ask(what, action),
    },
    label,
  );
}

/** Sends a call, or asks first whether the person is sure. */
export function ask(what, action) {
  if (!S.settings.confirmCalls) {
    api.act(action);
    return;
  }
  S.ui.confirm = { what, action };
  api.render();
}

export function confirmBar() {
  const { what, action } = S.ui.confirm;
  return h(
    'div',
    { class: 'confirm', role: 'group', 'aria-label': t('act.sure', { what }) },
    h('p', { class: 'confirm-q' }, t('act.sure', { what })),
    h(
      'div',
      { class: 'row' },
      h(
        'button',
        { type: 'button', class: 'primary big', 'data-key': 'confirm-yes', 'data-autofocus': '', disabled: S.waiting, onclick: () => api.act(action) },
        t('act.confirm', { what }),
      ),
      h(
        'button',
        {
          type: 'button',
          class: 'big',
          'data-key': 'confirm-no',
          onclick: () => {
            S.ui.confirm = null;
            api.render();
          },
        },
        t('act.cancel'),
      ),
    ),
  );
}

/** Laying `k` cards away: how many are chosen (in the hand), and the button. @param {number} k */
export function discardPanel(k) {
  const chosen = S.ui.selected.length;
  return h(
    'div',
    { class: 'row discard-row' },
    h('span', { class: 'hint', role: 'status' }, t('act.selected', { n: chosen, k })),
    h(
      'button',
      {
        type: 'button',
        class: 'primary big',
        'data-key': 'discard',
        disabled: chosen !== k || S.waiting,
        onclick: () => ask(t('act.discard', { n: k }), { action: 'discard', cards: [...S.ui.selected] }),
      },
      t('act.discard', { n: k }),
    ),
  );
}

/**
 * A button naming a suit as trumps.
 * @param {import('./protocol.js').Suit} suit
 * @param {string} label the suit's name as the game says it
 */
export function suitButton(suit, label) {
  const letter = { clubs: 'C', spades: 'S', hearts: 'H', diamonds: 'D' }[suit];
  return h(
    'button',
    {
      type: 'button',
      class: `call suit-button suit-${letter}`,
      'data-key': `trumps-${suit}`,
      'data-action': JSON.stringify({ action: 'name_trumps', suit }),
      disabled: S.waiting,
      onclick: () => ask(`${t('table.trumps')}: ${label}`, { action: 'name_trumps', suit }),
    },
    h('span', { class: 'suit-icon', 'aria-hidden': 'true' }, suitIcon(letter)),
    h('span', null, label),
  );
}

/**
 * A row of call buttons, each `[offered, text key, action, data-key, class]`, with the terms to
 * explain beside them; null when none is offered.
 * @param {Array<[any, string, any, string, string]>} buttons
 * @param {string[]} terms
 */
export function callRow(buttons, terms) {
  const offered = buttons.filter(([on]) => on);
  if (offered.length === 0) return null;
  return h(
    'div',
    { class: 'row' },
    offered.map(([, text, action, key, cls]) => callButton(t(text), action, key, cls)),
    terms.map(term),
  );
}
