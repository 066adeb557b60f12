// The patches of an `update` (protocol version 3): what changed in the viewer's state since the
// frame before. The state is `{room, game}` as the server last sent it; a patch replaces a part
// (`set`), adds items at the end of an array (`append`) or removes an object's field (`unset`).
// Nothing here knows a game: the parts are the server's, applied as they come. A replay's steps
// after the first are patches of the same kind, on the step before's `{deal, hands}`.

/**
 * The viewer's state as the server builds it: the room and the series, before any shaping for
 * the views.
 * @typedef {{room: any, game: any}} ServerState
 */

/**
 * The state with the patches applied, in order. The state given is left as it was: each object
 * and array on a patch's path is copied, so views may compare the old parts with the new.
 * @param {ServerState} state
 * @param {import('./protocol.js').Patch[]} patches
 * @returns {ServerState} the new state
 * @throws {Error} when a patch's path leads to no part of the state
 */
export function applyPatches(state, patches) {
  /** @type {any} */
  let root = state;
  for (const patch of patches) root = applyOne(root, patch);
  return root;
}

/**
 * @param {any} node
 * @param {import('./protocol.js').Patch} patch
 * @returns {any}
 */
function applyOne(node, patch) {
  const path = patch.path;
  /**
   * The copy of `at` with the patch applied below it, from step `i` of the path on.
   * @param {any} at
   * @param {number} i
   * @returns {any}
   */
  const rebuild = (at, i) => {
    if (i === path.length) {
      if (patch.op === 'set') return patch.value;
      if (patch.op === 'append' && Array.isArray(at)) return [...at, ...patch.values];
      throw new Error(`patch ${patch.op} does not fit at ${JSON.stringify(path)}`);
    }
    const step = path[i];
    if (Array.isArray(at) && typeof step === 'number' && step < at.length) {
      const copy = at.slice();
      copy[step] = rebuild(at[step], i + 1);
      return copy;
    }
    if (at !== null && typeof at === 'object' && !Array.isArray(at) && typeof step === 'string') {
      if (i === path.length - 1 && patch.op === 'unset') {
        const { [step]: _gone, ...rest } = at;
        return rest;
      }
      if (i === path.length - 1 && patch.op === 'set') return { ...at, [step]: patch.value };
      if (!(step in at)) throw new Error(`patch path ${JSON.stringify(path)} leads nowhere`);
      return { ...at, [step]: rebuild(at[step], i + 1) };
    }
    throw new Error(`patch path ${JSON.stringify(path)} leads nowhere`);
  };
  return rebuild(node, 0);
}
