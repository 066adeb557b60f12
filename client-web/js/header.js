// The bar at the top: the name of the game, the connection state, language and settings.

import { h } from './dom.js';
import { LANGS, lang, setLang, t } from './i18n.js';
import { S, api, saveSettings, tableDeck } from './store.js';

const LANG_LABEL = { de: 'Deutsch', en: 'English', ja: '日本語' };

/** @param {import('./conn.js').Connection} conn */
export function headerView(conn) {
  const state = S.conn;
  const connText =
    state === 'open'
      ? t('conn.online')
      : state === 'offline'
        ? t('conn.offline', { s: S.retryIn })
        : state === 'failed'
          ? t('conn.failed')
          : state === 'idle'
            ? t('conn.idle')
            : t('conn.connecting');
  return h(
    'header',
    { class: 'top' },
    h('a', { class: 'brand', href: '#/', 'aria-label': 'Fipsen' }, h('span', { class: 'brand-mark', 'aria-hidden': 'true' }, '♣♥'), ' Fipsen'),
    h(
      'div',
      { class: `conn conn-${state}`, role: 'status', 'aria-live': 'polite', 'data-conn': state },
      h('span', { class: 'conn-dot', 'aria-hidden': 'true' }),
      h('span', { class: 'conn-text' }, connText),
      state === 'offline' || state === 'failed'
        ? h('button', { type: 'button', class: 'link', 'data-key': 'conn-retry', onclick: () => conn.wake(true) }, t('conn.retry'))
        : null,
    ),
    h(
      'label',
      { class: 'lang' },
      h('span', { class: 'sr-only' }, t('settings.language')),
      h(
        'select',
        {
          'data-key': 'lang',
          'aria-label': t('settings.language'),
          onchange: (e) => {
            setLang(e.target.value);
            api.render();
          },
        },
        LANGS.map((l) => h('option', { value: l, selected: l === lang() }, LANG_LABEL[l])),
      ),
    ),
    h(
      'button',
      {
        type: 'button',
        class: 'icon-button',
        'data-key': 'settings',
        'aria-label': t('settings.title'),
        title: t('settings.title'),
        onclick: () => {
          S.ui.dialog = 'settings';
          api.render();
        },
      },
      '⚙',
    ),
    S.ui.dialog === 'settings' ? settingsDialog() : null,
  );
}

function settingsDialog() {
  const toggle = (key, label, help = '') =>
    h(
      'div',
      { class: 'setting' },
      h(
        'label',
        { class: 'check' },
        h('input', {
          type: 'checkbox',
          'data-key': `set-${key}`,
          checked: S.settings[key],
          'aria-describedby': help ? `set-${key}-help` : null,
          onchange: (e) => {
            S.settings[key] = e.target.checked;
            saveSettings();
            api.render();
          },
        }),
        h('span', null, label),
      ),
      help ? h('p', { class: 'hint', id: `set-${key}-help` }, help) : null,
    );
  // The card faces: French (two or four colours) or German. The four-colour choice keeps the key
  // of the switch it used to be. At a table whose rules name faces, "the table's" is a choice too
  // (and the choice until the person makes his own).
  const table = tableDeck();
  const own = S.settings.deckChosen || !table;
  const choice = (value, key, label, checked, change) =>
    h(
      'label',
      { class: 'check' },
      h('input', { type: 'radio', name: 'set-deck', 'data-key': key, checked, onchange: change }),
      h('span', null, label),
    );
  const deck = h(
    'fieldset',
    { class: 'setting deck-choice' },
    h('legend', null, t('settings.deck')),
    table
      ? choice('table', 'set-deck-table', t('settings.deck.table', { faces: t(`settings.deck.${table === 'four' ? 'four' : table}.short`) }), !own, () => {
          S.settings.deckChosen = false;
          saveSettings();
          api.render();
        })
      : null,
    /** @type {[string, string, string][]} */ ([
      ['french', 'set-deck-french', t('settings.deck.french')],
      ['four', 'set-fourColour', t('settings.four_colour')],
      ['german', 'set-deck-german', t('settings.deck.german')],
    ]).map(([value, key, label]) =>
      choice(value, key, label, own && S.settings.deck === value, () => {
        S.settings.deck = /** @type {any} */ (value);
        S.settings.deckChosen = true;
        saveSettings();
        api.render();
      }),
    ),
    h('p', { class: 'hint' }, t('settings.deck.help')),
  );
  return dialog('settings', t('settings.title'), [
    deck,
    toggle('sound', t('settings.sound')),
    toggle('confirmCalls', t('settings.confirm_calls'), t('settings.confirm_calls.help')),
    toggle('autoForced', t('settings.auto_forced'), t('settings.auto_forced.help')),
  ]);
}

/**
 * A modal dialog kept open across renders while `S.ui.dialog === id`.
 * @param {string} id
 * @param {string} title
 * @param {any} body
 */
export function dialog(id, title, body) {
  const close = () => {
    S.ui.dialog = null;
    api.render();
  };
  return h(
    'dialog',
    { class: `dialog dialog-${id}`, 'data-open': '', 'aria-label': title, oncancel: (e) => (e.preventDefault(), close()) },
    h(
      'div',
      { class: 'dialog-head' },
      h('h2', null, title),
      h('button', { type: 'button', class: 'icon-button', 'data-key': `close-${id}`, 'aria-label': t('table.close'), onclick: close }, '✕'),
    ),
    h('div', { class: 'dialog-body' }, body),
  );
}
