// Serve one PGlite data folder over the PostgreSQL wire protocol on a unix socket, for daycare-gui.
//
// Usage: node sidecar.mjs <data folder (a private copy)> <socket folder>
// Environment: PGLITE_ENTRY, the absolute path of PGlite's module file (dist/index.js of a package
// daycare-gui checked, see runtime.py); it is imported by that path, never looked up by package name.
// Prints one line "READY <socket path>" when it accepts connections, or "ERROR <message>" and exits 1.
// It exits when its standard input closes, so it never outlives the application that started it.
import path from "node:path";
import { pathToFileURL } from "node:url";

// One client at a time (PGlite is a single session); others wait in line until it leaves. Bytes are cut into
// whole protocol messages before PGlite sees them: pglite-socket 0.0.20 handed it each socket read as it came,
// so a message split across two reads (a busy machine, a large Bind) made PGlite drop the connection, and two
// reads in flight could run at once.
const STARTUP_CODES_THEN_STARTUP = new Set([80877103, 80877104]); // SSLRequest, GSSENCRequest

function serve(db, socket, done) {
  let pending = Buffer.alloc(0);
  let startup = true; // the first message has no type byte
  let chain = Promise.resolve();
  let closed = false;
  const finish = () => { if (!closed) { closed = true; chain.finally(done); } };
  socket.on("data", (chunk) => {
    pending = Buffer.concat([pending, chunk]);
    let used = 0;
    for (;;) {
      const head = startup ? 0 : 1;
      if (pending.length - used < head + 4) break;
      const length = pending.readInt32BE(used + head);
      if (length < 4) { socket.destroy(); return; }
      const end = used + head + length;
      if (pending.length < end) break;
      if (startup) {
        const code = length >= 8 ? pending.readInt32BE(used + 4) : 0;
        if (STARTUP_CODES_THEN_STARTUP.has(code)) {
          socket.write("N"); // no SSL or GSS here: the client goes on in plain text with a startup message
          used = end;
          continue;
        }
        startup = false;
      }
      used = end;
    }
    if (used === 0) return;
    const whole = pending.subarray(0, used);
    pending = Buffer.from(pending.subarray(used));
    chain = chain.then(async () => {
      if (closed) return;
      const reply = await db.execProtocolRaw(new Uint8Array(whole));
      if (reply.length > 0 && socket.writable) socket.write(Buffer.from(reply));
    }).catch(() => socket.destroy());
  });
  socket.on("close", finish);
  socket.on("error", finish);
}

async function main() {
  const [dataDir, socketDir] = process.argv.slice(2);
  const entry = process.env.PGLITE_ENTRY;
  if (!entry || !path.isAbsolute(entry)) throw new Error("PGLITE_ENTRY is not an absolute path");
  const { PGlite } = await import(pathToFileURL(entry).href);
  const net = await import("node:net");
  const db = new PGlite(dataDir);
  await db.waitReady;
  const socketPath = path.join(socketDir, ".s.PGSQL.5432");
  const waiting = [];
  let busy = false;
  const next = () => {
    const socket = waiting.shift();
    if (!socket) { busy = false; return; }
    if (socket.destroyed) { next(); return; }
    busy = true;
    serve(db, socket, next);
    socket.resume();
  };
  const server = net.createServer({ pauseOnConnect: true }, (socket) => {
    waiting.push(socket);
    if (!busy) next();
  });
  await new Promise((resolve, reject) => { server.once("error", reject); server.listen(socketPath, resolve); });
  process.stdout.write(`READY ${socketPath}\n`);
  const stop = async () => {
    try { server.close(); await db.close(); } finally { process.exit(0); }
  };
  process.stdin.on("end", stop);
  process.stdin.on("close", stop);
  process.stdin.resume();
  process.on("SIGTERM", stop);
}

main().catch((err) => {
  process.stdout.write(`ERROR ${String(err && err.message || err).replace(/\n/g, " ")}\n`);
  process.exit(1);
});
