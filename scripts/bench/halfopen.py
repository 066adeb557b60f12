"""Opens N sockets to a server, each sending SIZE bytes of a request head that never ends,
and reports the server's RSS: peak while they are open, then after they are closed."""
import selectors, socket, sys, time

n, size, port, pid = (int(a) for a in sys.argv[1:5])
hold = float(sys.argv[5]) if len(sys.argv) > 5 else 15.0

def rss_kib():
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS"):
                return int(line.split()[1])

print(f"before: {rss_kib()/1024:.1f} MiB", flush=True)
sel = selectors.DefaultSelector()
payload = b"GET / HTTP/1.1\r\nHost: x\r\nX-Pad: " + b"a" * size
socks = []
for i in range(n):
    s = socket.socket()
    s.bind((f"127.0.0.{2 + i % 200}", 0))
    s.connect(("127.0.0.1", port))
    s.setblocking(False)
    socks.append(s)
    sel.register(s, selectors.EVENT_WRITE, [memoryview(payload)])
peak = 0
closed_by_server = 0
deadline = time.time() + hold
while time.time() < deadline:
    for key, _ in sel.select(timeout=0.2):
        rest = key.data[0]
        try:
            sent = key.fileobj.send(rest[:65536])
            key.data[0] = rest[sent:]
            if not len(key.data[0]):
                sel.unregister(key.fileobj)
        except OSError:
            sel.unregister(key.fileobj)
            closed_by_server += 1
    peak = max(peak, rss_kib())
print(f"peak while {n} sockets x {size} bytes were sent/held: {peak/1024:.1f} MiB "
      f"(sockets the server closed while sending: {closed_by_server})", flush=True)
for s in socks:
    s.close()
time.sleep(5)
print(f"5 s after closing them: {rss_kib()/1024:.1f} MiB", flush=True)
