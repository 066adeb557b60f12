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

const VOLATILE = new Set(['waited_ms', 'left_ms', 'next_deal_in_ms', 'at', 'token', 'key', 'room']);

/** The frame with clock- and chance-dependent values replaced. */
function normalise(value) {
  // A patch operation on a volatile field is there or not as the clock has it: left out.
  const volatileOp = (v) => v && Array.isArray(v.path) && VOLATILE.has(v.path.at(-1));
  if (Array.isArray(value)) return value.filter((v) => !volatileOp(v)).map(normalise);
  if (value && typeof value === 'object') {
    const out = {};
    for (const [k, v] of Object.entries(value)) {
      out[k] = VOLATILE.has(k) && (typeof v !== 'object' || v === null) ? '~' : normalise(v);
    }
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
const options = { next_deal_seconds: 0, bot_delay_ms: 0, grace_seconds: 600, public_replays: true, title: 'Recorded' };
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
// A spectator who chats and may not take a seat.
await guest.ask({ type: 'join_room', room, name: 'Gast', role: 'spectator' }, 'joined', 'error');
await guest.ask({ type: 'take_seat', seat: 1 }, 'error');
await guest.ask({ type: 'chat', text: 'Moin!' }, 'update');
await host.ask({ type: 'start' }, 'update');
// Too late for a seat.
const late = new Client('late');
await late.open();
await late.ask({ type: 'join_room', room, name: 'Spät', role: 'player' }, 'joined', 'error');
// The bots play the first deal and more.
while (watcher.frames.length < 80) await sleep(20);
await watcher.ask({ type: 'replay', deal: 1 }, 'replay', 'error');
await host.ask({ type: 'share_link' }, 'share_link', 'error');
await host.ask({ type: 'nudge' }, 'error', 'update');
watcher.close();
await sleep(300);
const back = new Client('back');
await back.open();
await back.ask({ type: 'join_room', room, name: 'Oma', role: 'spectator' }, 'joined');
guest.close();
late.close();
await sleep(1500);
host.close();
back.close();
// Per client, its first updates (the bots go on playing meanwhile, so only as many as every
// run sees), then its other frames in order (where an answer falls among the updates depends
// on the clock).
const UPDATES = 60;
for (const name of ['host', 'watcher', 'guest']) {
  const lines = log.filter((l) => l.startsWith(`${name} `));
  const updates = lines.filter((l) => l.startsWith(`${name} {"type":"update"`));
  if (updates.length < UPDATES) console.error(`${name}: only ${updates.length} updates`);
  for (const line of updates.slice(0, UPDATES)) console.log(line);
  for (const line of lines.filter((l) => !l.startsWith(`${name} {"type":"update"`))) console.log(line);
}
// Those who came in while the bots played see a state that depends on the moment: their
// frames' types and error codes only.
for (const name of ['late', 'back']) {
  for (const line of log.filter((l) => l.startsWith(`${name} `))) {
    const frame = JSON.parse(line.slice(name.length + 1));
    if (frame.type !== 'update') console.log(`${name} ${frame.type} ${frame.code ?? ''}`);
  }
}
