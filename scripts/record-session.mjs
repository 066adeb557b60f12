// Records a scripted session against a running server and prints every frame each client got,
// one per line, with the fields that depend on the clock or on randomness replaced by a mark.
// Two builds started with the same `--insecure-fixed-seed` give the same output when their
// frames are the same, so `diff` of two recordings compares the frames of two builds.
//
//   node --experimental-websocket scripts/record-session.mjs 127.0.0.1:8080 > a.txt
//
// The session: a host creates a Prisdorf room without pauses, leaves his seat for four bots
// and starts; a spectator watches; a second person joins, chats, and is refused a seat; deals
// are played by the bots; the spectator asks for the replay of the first deal, drops and
// resumes; the host asks for the share link; and so on until 400 frames were seen.

const addr = process.argv[2];
if (!addr) {
  console.error('usage: record-session.mjs HOST:PORT');
  process.exit(2);
}

const VOLATILE = new Set(['waited_ms', 'left_ms', 'next_deal_in_ms', 'at', 'token', 'key', 'room', 'code']);

/** The frame with clock- and chance-dependent values replaced. */
function normalise(value) {
  if (Array.isArray(value)) return value.map(normalise);
  if (value && typeof value === 'object') {
    const out = {};
    for (const [k, v] of Object.entries(value)) {
      out[k] = VOLATILE.has(k) && (typeof v !== 'object' || v === null) ? '~' : normalise(v);
    }
    // A patch operation on a volatile field.
    if (typeof out.path === 'string' && VOLATILE.has(out.path.split('/').pop())) out.value = '~';
    return out;
  }
  return value;
}

class Client {
  constructor(name) {
    this.name = name;
    this.frames = [];
    this.waiting = [];
  }

  async open() {
    this.ws = new WebSocket(`ws://${addr}/ws`);
    this.ws.onmessage = (m) => {
      const frame = JSON.parse(m.data);
      this.frames.push(frame);
      log.push(`${this.name} ${JSON.stringify(normalise(frame))}`);
      this.waiting = this.waiting.filter((w) => !w(frame));
    };
    await new Promise((resolve, reject) => {
      this.ws.onopen = resolve;
      this.ws.onerror = reject;
    });
    await this.ask({ type: 'hello', protocol: 3, client: 'record-session' }, 'welcome');
  }

  send(message) {
    this.ws.send(JSON.stringify(message));
  }

  /** Sends a message and waits for a frame of one of these types. */
  ask(message, ...types) {
    const got = new Promise((resolve) => {
      this.waiting.push((frame) => {
        if (types.includes(frame.type)) {
          resolve(frame);
          return true;
        }
        return false;
      });
    });
    if (message) this.send(message);
    return got;
  }

  close() {
    this.ws.close();
  }
}

const log = [];
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const host = new Client('host');
await host.open();
const options = { next_deal_seconds: 0, bot_delay_ms: 0, grace_seconds: 600, title: 'Recorded' };
const joined = await host.ask({ type: 'create_room', name: 'Host', rules: { game: 'prisdorf' }, options }, 'joined');
const room = joined.room.room;
await host.ask({ type: 'leave_seat' }, 'update');
for (let seat = 0; seat < 4; seat++) {
  await host.ask({ type: 'add_bot', seat, level: 'normal' }, 'update');
}
const watcher = new Client('watcher');
await watcher.open();
await watcher.ask({ type: 'join_room', room, name: 'Oma', role: 'spectator' }, 'joined');
const guest = new Client('guest');
await guest.open();
await guest.ask({ type: 'join_room', room, name: 'Gast', role: 'player' }, 'joined', 'error');
await guest.ask({ type: 'take_seat', seat: 9 }, 'error');
await guest.ask({ type: 'chat', text: 'Moin!' }, 'update');
await host.ask({ type: 'start' }, 'update');
// The bots play; wait for the end of the first deal.
while (!watcher.frames.some((f) => JSON.stringify(f).includes('"deal_over"') || JSON.stringify(f).includes('"deal_ended"'))) {
  await sleep(50);
  if (log.length > 2000) break;
}
await sleep(500);
const lastSeq = Math.max(...watcher.frames.map((f) => f.seq ?? 0));
await watcher.ask({ type: 'replay', deal: 1 }, 'replay', 'error');
await host.ask({ type: 'share_link' }, 'share_link', 'error');
await host.ask({ type: 'nudge' }, 'error', 'update');
watcher.close();
await sleep(300);
const back = new Client('watcher');
await back.open();
await back.ask({ type: 'join_room', room, name: 'Oma', role: 'spectator' }, 'joined');
guest.close();
await sleep(1500);
host.close();
back.close();
console.log(`last seq seen by the watcher before leaving: ${lastSeq >= 0 ? 'some' : 'none'}`);
// Only the frames up to a fixed count per client: the bots go on playing meanwhile.
const perClient = new Map();
for (const line of log) {
  const name = line.split(' ')[0];
  const n = (perClient.get(name) ?? 0) + 1;
  perClient.set(name, n);
  if (n <= 150) console.log(line);
}
