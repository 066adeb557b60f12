// The WebSocket to the server: handshake, heartbeat, and reconnecting by itself with
// exponential backoff after a reload, a sleeping phone or a network change.

export const PROTOCOL_VERSION = 3;

/**
 * `idle`: the server closed a connection that sat in no room saying nothing (4005); it comes back
 * by itself at the next tap or key, or when the page is looked at again.
 * @typedef {'connecting'|'open'|'offline'|'failed'|'idle'} ConnState
 */

export class Connection {
  /**
   * @param {object} handlers
   * @param {(msg: any) => void} handlers.message every server message after the handshake
   * @param {() => void} handlers.ready the handshake is done (first connection or a reconnection)
   * @param {(state: ConnState, retryInSeconds?: number) => void} handlers.state
   * @param {string} [url]
   */
  constructor(handlers, url) {
    this.handlers = handlers;
    this.url = url ?? defaultUrl();
    /** @type {WebSocket|null} */
    this.ws = null;
    this.attempt = 0;
    this.retryTimer = 0;
    this.pingTimer = 0;
    this.lastHeard = 0;
    /** @type {ConnState} */
    this.state = 'connecting';
    this.ready = false;
    /** Messages sent while coming back from `idle`: sent once the new connection is ready. */
    this.pending = /** @type {any[]} */ ([]);
    const wake = () => this.wake();
    window.addEventListener('online', wake);
    // The device lost its network: say so at once (the socket itself may take many seconds to
    // notice), and try again as the backoff says, or at once when the network is back.
    window.addEventListener('offline', () => this.lost());
    window.addEventListener('pageshow', wake);
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'visible') wake();
    });
    // Back from idle at the person's next action, before its click handler sends anything.
    for (const type of ['pointerdown', 'keydown']) {
      window.addEventListener(type, () => this.state === 'idle' && this.resumeFromIdle(), { capture: true });
    }
  }

  /** Connects again after an idle close, quietly. */
  resumeFromIdle() {
    this.idleWake = true;
    this.attempt = 0;
    this.connect();
  }

  connect() {
    clearTimeout(this.retryTimer);
    if (this.ws && (this.ws.readyState === WebSocket.OPEN || this.ws.readyState === WebSocket.CONNECTING)) return;
    // Coming back from idle is not news: the header keeps its calm state until the line is up.
    if (!this.idleWake) this.setState('connecting');
    this.ready = false;
    let ws;
    try {
      ws = new WebSocket(this.url);
    } catch {
      this.scheduleRetry();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      this.lastHeard = Date.now();
      ws.send(JSON.stringify({ type: 'hello', protocol: PROTOCOL_VERSION, client: 'fipsen-web/0.1.0' }));
    };
    ws.onmessage = (e) => {
      if (ws !== this.ws) return;
      this.lastHeard = Date.now();
      let msg;
      try {
        msg = JSON.parse(e.data);
      } catch {
        return;
      }
      if (!this.ready && msg.type === 'welcome') {
        this.ready = true;
        this.attempt = 0;
        this.idleWake = false;
        this.setState('open');
        this.startHeartbeat();
        this.handlers.ready();
        for (const queued of this.pending.splice(0)) this.rawSend(queued);
        return;
      }
      if (msg.type === 'pong') return;
      this.handlers.message(msg);
    };
    ws.onclose = (e) => {
      if (ws !== this.ws) return;
      this.ws = null;
      this.ready = false;
      clearInterval(this.pingTimer);
      // 4005: idle in no room. Nothing is lost: connect again only when the person is back.
      if (e.code === 4005) {
        this.idleWake = false;
        this.setState('idle');
        return;
      }
      // A reconnection after idle that failed is an ordinary lost connection.
      this.idleWake = false;
      // 4001: this page speaks an old protocol; 4003: another tab resumed our seat.
      if (e.code === 4001 || e.code === 4003) {
        this.setState('failed');
        const code = e.code === 4001 ? 'proto/version' : 'conn/replaced';
        this.handlers.message({ type: 'error', code, message: e.reason || '' });
        return;
      }
      this.scheduleRetry();
    };
    ws.onerror = () => {
      // onclose follows and schedules the retry.
    };
  }

  scheduleRetry() {
    clearTimeout(this.retryTimer);
    const base = Math.min(15000, 500 * 2 ** this.attempt);
    const delay = Math.round(base * (0.75 + Math.random() * 0.5));
    this.attempt += 1;
    this.setState('offline', Math.ceil(delay / 1000));
    this.retryTimer = window.setTimeout(() => this.connect(), delay);
  }

  /** After sleep or a network change: check the line at once, reconnect if it is dead. */
  wake(force = false) {
    if (this.state === 'failed' && !force) return;
    if (this.state === 'idle') {
      this.resumeFromIdle();
      return;
    }
    if (!this.ws) {
      this.attempt = 0;
      this.connect();
      return;
    }
    if (this.ready) {
      const asked = Date.now();
      this.rawSend({ type: 'ping' });
      window.setTimeout(() => {
        if (this.ws && this.lastHeard < asked) this.drop();
      }, 5000);
    }
  }

  /**
   * A ping every 10 s; a line that answers none within 4 s is taken for dead: the page says so and
   * connects again, instead of showing "Connected" over a line that carries nothing.
   */
  startHeartbeat() {
    clearInterval(this.pingTimer);
    this.pingTimer = window.setInterval(() => {
      if (!this.ws) return;
      const asked = Date.now();
      this.rawSend({ type: 'ping' });
      window.setTimeout(() => {
        if (this.ws && this.ready && this.lastHeard < asked) this.lost();
      }, 4000);
    }, 10000);
  }

  /** The line is gone: abandon the socket, show the connection lost, and try again with backoff. */
  lost() {
    if (this.state === 'failed' || this.state === 'idle') return;
    this.idleWake = false;
    this.abandon();
    this.scheduleRetry();
  }

  /** Abandons the current socket and reconnects at once. */
  drop() {
    this.abandon();
    this.connect();
  }

  /** Closes the current socket and forgets it, its pings and the attempts made so far. */
  abandon() {
    const ws = this.ws;
    this.ws = null;
    this.ready = false;
    clearInterval(this.pingTimer);
    try {
      ws?.close();
    } catch {
      /* already closed */
    }
    this.attempt = 0;
  }

  /** Sends now, or returns false if the line is down (the caller re-renders from the next state). */
  send(msg) {
    if (!this.ready) {
      // After an idle close the person's action brings the line back: his message follows it.
      if (this.state === 'idle' || this.idleWake) {
        this.pending.push(msg);
        if (this.state === 'idle') this.resumeFromIdle();
        return true;
      }
      return false;
    }
    return this.rawSend(msg);
  }

  rawSend(msg) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(msg));
    return true;
  }

  /** @param {ConnState} state @param {number} [retryIn] */
  setState(state, retryIn) {
    this.state = state;
    this.handlers.state(state, retryIn);
  }
}

function defaultUrl() {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const base = location.pathname.replace(/[^/]*$/, '');
  return `${scheme}//${location.host}${base}ws`;
}
