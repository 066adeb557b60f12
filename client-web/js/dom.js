// Tiny helpers for building DOM without a framework.

/**
 * Creates an element. `attrs` keys starting with "on" become listeners; `class`, `style`, boolean
 * and `data-*` / `aria-*` attributes are set as given; `null`/`false` values are skipped.
 * @param {string} tag
 * @param {Record<string, any>|null} [attrs]
 * @param {...any} children strings, nodes, arrays of them, or null
 * @returns {HTMLElement}
 */
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

const SVG_NS = 'http://www.w3.org/2000/svg';

/** Creates an SVG element (same rules as {@link h}). */
export function s(tag, attrs, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

/**
 * A fieldset of radio buttons: its legend, an explaining sentence, and one button a choice, each
 * with its label and an optional line explaining it.
 * @param {object} o
 * @param {string} o.name the group's name and the prefix of each button's `data-key`
 * @param {any} o.legend
 * @param {string|null|undefined} o.help
 * @param {[any, string, string?][]} o.choices value, label and (optional) a line explaining it
 * @param {any} o.current the chosen value
 * @param {(value: any) => void} o.choose called with the value chosen
 * @param {string} [o.className]
 */
export function radioFieldset({ name, legend, help, choices, current, choose, className = 'option' }) {
  return h(
    'fieldset',
    { class: className },
    h('legend', null, legend),
    help ? h('p', { class: 'hint' }, help) : null,
    h(
      'div',
      { class: 'choices' },
      choices.map(([value, text, line]) =>
        h(
          'label',
          { class: 'choice' },
          h('input', { type: 'radio', name, 'data-key': `${name}-${value}`, checked: current === value, onchange: () => choose(value) }),
          line ? h('span', { class: 'choice-text' }, h('strong', null, text), h('span', { class: 'hint' }, line)) : h('span', null, text),
        ),
      ),
    ),
  );
}

function setAttrs(el, attrs) {
  if (!attrs) return;
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith('on') && typeof value === 'function') {
      el.addEventListener(key.slice(2).toLowerCase(), value);
    } else if (key === 'value' && 'value' in el) {
      el.value = value;
    } else if (key === 'checked' && 'checked' in el) {
      el.checked = Boolean(value);
    } else {
      el.setAttribute(key, value === true ? '' : String(value));
    }
  }
}

function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else if (child instanceof Node) el.appendChild(child);
    else el.appendChild(document.createTextNode(String(child)));
  }
}

/**
 * Replaces the children of `container`, keeping keyboard focus (and the text being typed) on the
 * element with the same `data-key` if the new content has one.
 * @param {HTMLElement} container
 * @param {Node|Node[]} content
 * @param {() => void} [afterInsert] runs once the new content is in the document
 */
export function replaceKeepingFocus(container, content, afterInsert) {
  const active = /** @type {HTMLElement|null} */ (document.activeElement);
  const inside = Boolean(active && active !== document.body && container.contains(active));
  const key = inside && active ? active.dataset.key : undefined;
  let typed = null;
  if (key && active instanceof HTMLInputElement && active.type === 'text') {
    typed = { value: active.value, start: active.selectionStart, end: active.selectionEnd };
  }
  container.replaceChildren(...(Array.isArray(content) ? content : [content]));
  afterInsert?.();
  const group = active && container.contains(active) ? active.dataset.group : undefined;
  if (key) {
    const again = container.querySelector(`[data-key="${CSS.escape(key)}"]`);
    if (again instanceof HTMLElement && !(again instanceof HTMLButtonElement && again.disabled)) {
      if (typed && again instanceof HTMLInputElement) {
        again.value = typed.value;
        again.setSelectionRange(typed.start, typed.end);
      }
      // A group's home (the hand, while none of its cards could be chosen) hands the keyboard
      // to the group's first member that can be chosen now (a card, at the player's turn).
      const home = again.dataset.groupHome;
      const member = home ? container.querySelector(`[data-group="${CSS.escape(home)}"]:not([disabled])`) : null;
      (member instanceof HTMLElement ? member : again).focus({ preventScroll: true });
      return;
    }
  }
  // A new step that asks for the keyboard ("are you sure?") takes it, unless the person is
  // busy elsewhere on the page.
  const wanted = container.querySelector('[data-autofocus]');
  if (wanted instanceof HTMLElement && (key || !active || active === document.body)) {
    wanted.focus({ preventScroll: true });
    return;
  }
  if (group) {
    // The focused element went away (a card was played): stay in its group.
    const sibling = container.querySelector(`[data-group="${CSS.escape(group)}"]:not([disabled])`);
    if (sibling instanceof HTMLElement) {
      sibling.focus({ preventScroll: true });
      return;
    }
  }
  // The focused element went away and nothing took its place (a call made, the last card that
  // could be played): the keyboard goes to the home of a group (the hand) rather than back to
  // the top of the page, where it would take many Tabs to come back.
  if (inside && (!document.activeElement || document.activeElement === document.body)) {
    const home = container.querySelector(`[data-group-home${group ? `="${CSS.escape(group)}"` : ''}]`) ?? container.querySelector('[data-group-home]');
    if (home instanceof HTMLElement) home.focus({ preventScroll: true });
  }
}

let popoverCount = 0;

/**
 * A small "i" button that opens an explanation in a popover (keyboard and screen-reader friendly).
 * @param {string} title
 * @param {string} text
 */
export function infoButton(title, text) {
  const id = `pop-${++popoverCount}`;
  const pop = h(
    'div',
    { id, popover: 'auto', class: 'explain', role: 'dialog', 'aria-label': title },
    h('strong', null, title),
    h('p', null, text),
  );
  const button = h(
    'button',
    { type: 'button', class: 'info', popovertarget: id, 'aria-label': title, title: text },
    'i',
  );
  return h('span', { class: 'info-wrap' }, button, pop);
}

/** A small eye drawn in SVG: the sign for watchers. */
export function eyeIcon() {
  return s(
    'svg',
    { viewBox: '0 0 24 24', width: '1.1em', height: '1.1em', class: 'eye', 'aria-hidden': 'true', focusable: 'false' },
    s('path', { d: 'M1 12C4 6 8 4 12 4s8 2 11 8c-3 6-7 8-11 8S4 18 1 12Z', fill: 'none', stroke: 'currentColor', 'stroke-width': 2 }),
    s('circle', { cx: 12, cy: 12, r: 3.5, fill: 'currentColor' }),
  );
}

/** A small robot head drawn in SVG: the sign for bots. */
export function robotIcon() {
  return s(
    'svg',
    { viewBox: '0 0 24 24', width: '1.1em', height: '1.1em', class: 'robot', 'aria-hidden': 'true', focusable: 'false' },
    s('path', { d: 'M12 2v3', stroke: 'currentColor', 'stroke-width': 2, 'stroke-linecap': 'round' }),
    s('circle', { cx: 12, cy: 2.5, r: 1.6, fill: 'currentColor' }),
    s('rect', { x: 4, y: 6, width: 16, height: 13, rx: 3.5, fill: 'none', stroke: 'currentColor', 'stroke-width': 2 }),
    s('circle', { cx: 9, cy: 12, r: 1.8, fill: 'currentColor' }),
    s('circle', { cx: 15, cy: 12, r: 1.8, fill: 'currentColor' }),
    s('path', { d: 'M9 16h6M2 11v4M22 11v4', stroke: 'currentColor', 'stroke-width': 2, 'stroke-linecap': 'round' }),
  );
}

/** A small alarm clock drawn in SVG: the move clock and a nudge. */
export function clockIcon() {
  return s(
    'svg',
    { viewBox: '0 0 24 24', width: '1.1em', height: '1.1em', class: 'clock-icon', 'aria-hidden': 'true', focusable: 'false' },
    s('circle', { cx: 12, cy: 13, r: 8, fill: 'none', stroke: 'currentColor', 'stroke-width': 2 }),
    s('path', { d: 'M12 9v4l2.5 2.5M4 5.5 7 3M20 5.5 17 3', fill: 'none', stroke: 'currentColor', 'stroke-width': 2, 'stroke-linecap': 'round' }),
  );
}

/** Two bars: something stands still. */
export function pauseIcon() {
  return s(
    'svg',
    { viewBox: '0 0 24 24', width: '1em', height: '1em', class: 'pause-icon', 'aria-hidden': 'true', focusable: 'false' },
    s('rect', { x: 6, y: 4, width: 4, height: 16, rx: 1, fill: 'currentColor' }),
    s('rect', { x: 14, y: 4, width: 4, height: 16, rx: 1, fill: 'currentColor' }),
  );
}

/**
 * The replay's steps drawn in SVG (a symbol font may lack ⏮ and ⏭): to the first step, one back,
 * one on, to the last.
 * @param {'first'|'back'|'next'|'last'} kind
 */
export function stepIcon(kind) {
  const left = kind === 'first' || kind === 'back';
  const bar = kind === 'first' || kind === 'last';
  // A triangle pointing left or right, and for the ends a bar at its point.
  const triangle = left ? 'M18 5v14L7 12Z' : 'M6 5v14l11-7Z';
  return s(
    'svg',
    { viewBox: '0 0 24 24', width: '1.1em', height: '1.1em', class: `step-icon step-${kind}`, 'aria-hidden': 'true', focusable: 'false' },
    s('path', { d: triangle, fill: 'currentColor' }),
    bar ? s('rect', { x: left ? 4 : 17, y: 5, width: 3, height: 14, rx: 1, fill: 'currentColor' }) : null,
  );
}

/** A coin drawn in SVG (a symbol font may lack 🪙): play money. */
export function coinIcon() {
  return s(
    'svg',
    { viewBox: '0 0 24 24', width: '1.1em', height: '1.1em', class: 'coin-icon', 'aria-hidden': 'true', focusable: 'false' },
    s('circle', { cx: 12, cy: 12, r: 10, fill: '#e0b12a', stroke: '#8a6500', 'stroke-width': 1.5 }),
    s('circle', { cx: 12, cy: 12, r: 6.5, fill: 'none', stroke: '#8a6500', 'stroke-width': 1.5 }),
  );
}

/**
 * The attributes that keep a `<details>`' open state with `set`: at once when its summary is
 * clicked or pressed (the toggle event comes later, and a page drawn again meanwhile — a lobby
 * update — would otherwise close it again), and from the toggle event.
 * @param {(open: boolean) => void} set
 */
export function keepOpen(set) {
  return {
    /** @param {MouseEvent} e */
    onclick: (e) => {
      const details = /** @type {HTMLDetailsElement} */ (e.currentTarget);
      if (e.target instanceof Element && e.target.closest('summary')?.parentElement === details) set(!details.open);
    },
    /** @param {Event} e */
    ontoggle: (e) => set(/** @type {HTMLDetailsElement} */ (e.target).open),
  };
}
