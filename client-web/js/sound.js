// A short two-note chime made with WebAudio (no sound file needed).

/** @type {AudioContext|null} */
let ctx = null;

function context() {
  if (!ctx) {
    const Ctor = window.AudioContext || /** @type {any} */ (window).webkitAudioContext;
    if (!Ctor) return null;
    ctx = new Ctor();
  }
  return ctx;
}

// Browsers start audio only after a user gesture: wake the context on the first one.
for (const type of ['pointerdown', 'keydown']) {
  window.addEventListener(type, () => context()?.resume().catch(() => {}), { once: true, capture: true });
}

/** Plays the "your turn" chime. */
export function beep() {
  const ac = context();
  if (!ac || ac.state !== 'running') return;
  const now = ac.currentTime;
  [660, 880].forEach((freq, i) => {
    const osc = ac.createOscillator();
    const gain = ac.createGain();
    osc.type = 'sine';
    osc.frequency.value = freq;
    const start = now + i * 0.16;
    gain.gain.setValueAtTime(0.0001, start);
    gain.gain.exponentialRampToValueAtTime(0.25, start + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, start + 0.28);
    osc.connect(gain).connect(ac.destination);
    osc.start(start);
    osc.stop(start + 0.3);
  });
}
