// Serve one PGlite data folder over the PostgreSQL wire protocol on a unix socket, for daycare-gui.
//
// Usage: node sidecar.mjs <data folder (a private copy)> <socket folder>
// Standard input: the first line is the password clients must give; the second the absolute path of PGlite's
// module file (dist/index.js of a package daycare-gui checked, see runtime.py), imported by that path, never
// looked up by package name, and sent only once checked (Node starts meanwhile); the third is "START" once
// the data folder is whole. daycare-gui starts the sidecar before it copies the store: Node loads PGlite and
// its WebAssembly meanwhile, and PostgreSQL, which is what reads the folder, waits for START. The end of
// standard input stops the sidecar (before START too), so it never outlives the application that started
// it. (The password is not an argument or an environment variable: other processes can read those in ps
// and /proc.)
// Prints one line "READY <socket path>" when it accepts connections, or "ERROR <message>" and exits 1.
import { createHash, timingSafeEqual } from "node:crypto";
import path from "node:path";
import { pathToFileURL } from "node:url";

// One client at a time (PGlite is a single session); others wait in line until it leaves. Bytes are cut into
// whole protocol messages before PGlite sees them: pglite-socket 0.0.20 handed it each socket read as it came,
// so a message split across two reads (a busy machine, a large Bind) made PGlite drop the connection, and two
// reads in flight could run at once.
const STARTUP_CODES_THEN_STARTUP = new Set([80877103, 80877104]); // SSLRequest, GSSENCRequest
const PROTOCOL_3 = 196608;

// PGlite asks every client for a password and takes any, so the sidecar asks first: a cleartext password
// (AuthenticationCleartextPassword), which is enough on a unix socket in a folder only this user can enter
// (the bytes never leave the kernel); then it logs in to PGlite itself.
function message(type, body) {
  const head = Buffer.alloc(5);
  head.write(type, 0, "latin1");
  head.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([head, body]);
}
const askPassword = () => { const b = Buffer.alloc(4); b.writeInt32BE(3); return message("R", b); };
const passwordMessage = (text) => message("p", Buffer.from(`${text}\0`));
const fatal = (code, text) => message("E", Buffer.from(`SFATAL\0VFATAL\0C${code}\0M${text}\0\0`));
const digest = (bytes) => createHash("sha256").update(bytes).digest();
const samePassword = (given, expected) => timingSafeEqual(digest(given), digest(expected));

// PGlite's answer to protocol bytes, as bytes. Not execProtocolRaw alone: PGlite 0.3 also parses every message
// it writes into JS objects (each DataRow's fields as strings) and appends them to a list that only
// execProtocol empties, so a sidecar calling execProtocolRaw kept every row it ever served (the 1M demo's
// history pass left ~14 MB of them, and each page read added its own). execProtocol hands back the same
// bytes and drops that list after each call; throwOnError false: an error goes to the client, as bytes.
async function exchange(db, bytes) {
  const { data } = await db.execProtocol(bytes, { throwOnError: false });
  return data;
}

function serve(db, socket, password, done) {
  let pending = Buffer.alloc(0);
  let phase = "startup"; // then "password", then "ready"
  let startup = null; // the client's startup message, given to PGlite once the password is right
  let chain = Promise.resolve();
  let closed = false;
  const finish = () => { if (!closed) { closed = true; chain.finally(done); } };
  const refuse = (code, text) => { closed = true; socket.end(fatal(code, text)); chain.finally(done); };
  socket.on("data", (chunk) => {
    if (closed) return;
    pending = Buffer.concat([pending, chunk]);
    let used = 0;
    let forward = null; // [start, end) of the whole messages for PGlite in this read
    for (;;) {
      const head = phase === "startup" ? 0 : 1;
      if (pending.length - used < head + 4) break;
      const length = pending.readInt32BE(used + head);
      if (length < 4) { socket.destroy(); return; }
      const end = used + head + length;
      if (pending.length < end) break;
      if (phase === "startup") {
        const code = length >= 8 ? pending.readInt32BE(used + 4) : 0;
        if (STARTUP_CODES_THEN_STARTUP.has(code)) {
          socket.write("N"); // no SSL or GSS here: the client goes on in plain text with a startup message
        } else if (code !== PROTOCOL_3) { // a cancel request, or a protocol we do not speak
          refuse("08P01", "unsupported startup request");
          return;
        } else {
          startup = Buffer.from(pending.subarray(used, end));
          phase = "password";
          socket.write(askPassword());
        }
      } else if (phase === "password") {
        const given = pending.subarray(used + 5, Math.max(used + 5, end - 1)); // without its closing NUL
        if (pending[used] !== 0x70 || !samePassword(given, password)) { // 'p'
          refuse("28P01", "password authentication failed for user \"postgres\"");
          return;
        }
        phase = "ready";
        const first = startup;
        chain = chain.then(async () => {
          if (closed) return;
          let reply = Buffer.from(await exchange(db, new Uint8Array(first)));
          if (reply.length >= 9 && reply[0] === 0x52 && reply.readInt32BE(5) !== 0) { // PGlite's own ask
            reply = Buffer.from(await exchange(db, new Uint8Array(passwordMessage("pglite"))));
          }
          if (reply.length > 0 && socket.writable) socket.write(reply);
        }).catch(() => socket.destroy());
      } else {
        forward = forward ? [forward[0], end] : [used, end];
      }
      used = end;
    }
    if (used === 0) return;
    const whole = forward ? Buffer.from(pending.subarray(forward[0], forward[1])) : null;
    pending = Buffer.from(pending.subarray(used));
    if (!whole) return;
    chain = chain.then(async () => {
      if (closed) return;
      const reply = await exchange(db, new Uint8Array(whole));
      if (reply.length > 0 && socket.writable) socket.write(Buffer.from(reply));
    }).catch(() => socket.destroy());
  });
  socket.on("close", finish);
  socket.on("error", finish);
}

// Standard input's lines, one promise each, in order; each rejects once the input ended before its line.
function stdinLines() {
  const lines = [];
  const waiting = [];
  let got = Buffer.alloc(0);
  let ended = false;
  const settle = () => {
    while (waiting.length && (lines.length || ended)) {
      const { resolve, reject } = waiting.shift();
      if (lines.length) resolve(lines.shift());
      else reject(new Error("standard input ended"));
    }
  };
  process.stdin.on("data", (chunk) => {
    got = Buffer.concat([got, chunk]);
    for (let newline = got.indexOf(10); newline >= 0; newline = got.indexOf(10)) {
      lines.push(Buffer.from(got.subarray(0, newline)));
      got = got.subarray(newline + 1);
    }
    settle();
  });
  process.stdin.once("end", () => { ended = true; settle(); });
  return () => new Promise((resolve, reject) => { waiting.push({ resolve, reject }); settle(); });
}

// PGlite stops at an internal check ("unreachable", "Aborted()") when a file it starts from is damaged:
// words for the user instead of the engine's.
function describe(err) {
  const text = String((err && err.message) || err);
  if ((typeof WebAssembly !== "undefined" && err instanceof WebAssembly.RuntimeError)
      || /unreachable|Aborted\(/.test(text)) {
    return "PGlite's engine stopped while starting on it, as PostgreSQL does on a damaged data folder; " +
      "the folder is damaged and Daycare would not start on it either";
  }
  return text.replace(/\n/g, " ");
}

// PGlite 0.3 takes no PostgreSQL options: its WebAssembly starts PostgreSQL with a command line compiled in
// ("-c", "shared_buffers=128MB", "-c", "wal_buffers=4MB", …) and reads no postgresql.conf. Those option strings
// are constants in its memory, written there when the module is instantiated and read only when PostgreSQL
// starts, so a value can be changed in between: preRun runs after instantiation and before the start.
// PGLITE_SETTINGS is "name=value" lines (values as "16MB"). A setting is changed only where PGlite's memory
// holds exactly one "name=<number><unit>" string of its own, NUL-delimited, at least as long as the new one
// (the rest is NUL-padded: the code points at each string's start only); otherwise it is left as PGlite has
// it — another PGlite build starts as it ships.
const SETTING = /^([a-z_]+)=([0-9]+(?:kB|MB|GB))$/;

function settingsWanted(text) {
  return (text || "").split("\n").map((line) => line.trim().match(SETTING)).filter(Boolean)
    .map(([, name, value]) => ({ name, value }));
}

function changeCompiledSettings(heap, settings, changed) {
  const bytes = Buffer.from(heap.buffer, heap.byteOffset, heap.length);
  for (const { name, value } of settings) {
    const head = Buffer.from(`\0${name}=`, "latin1");
    const found = [];
    for (let at = bytes.indexOf(head); at >= 0 && found.length < 2; at = bytes.indexOf(head, at + 1)) {
      const start = at + head.length;
      const end = bytes.indexOf(0, start);
      if (end > start && /^[0-9]+(?:kB|MB|GB)$/.test(bytes.toString("latin1", start, end))) found.push([start, end]);
    }
    if (found.length !== 1) continue;
    const [start, end] = found[0];
    if (value.length > end - start) continue;
    bytes.fill(0, start, end);
    bytes.write(value, start, "latin1");
    changed.push(`${name}=${value}`);
  }
}

// PostgreSQL's start held until the data folder is whole: preRun runs once PGlite's WebAssembly is compiled and
// instantiated, before the runtime starts (and PGlite then looks at the folder); a run dependency of
// Emscripten's holds that start until `copied` settles. The same preRun changes the compiled-in settings.
const HOLD = "daycare-gui: the data folder is being copied";
const CANNOT_HOLD = "this PGlite cannot hold its start until the data folder is copied";

function extension(settings, state, copied) {
  const preRun = (mod) => {
    if (settings.length) changeCompiledSettings(mod.HEAPU8, settings, state.changed);
    if (copied === null) return;
    if (typeof mod.addRunDependency !== "function" || typeof mod.removeRunDependency !== "function") {
      state.unheld = true; // (another PGlite build: it is started again once the folder is whole)
      throw new Error(CANNOT_HOLD);
    }
    mod.addRunDependency(HOLD);
    process.stderr.write("PGlite loaded; waiting for the data folder\n"); // (its log: where the time went)
    copied.then(() => mod.removeRunDependency(HOLD), () => {}); // (no START: the process exits, see main)
  };
  return {
    name: "daycare-gui",
    setup: async (_pg, opts) => ({ emscriptenOpts: { ...opts, preRun: [...(opts.preRun || []), preRun] } }),
  };
}

async function started(PGlite, dataDir, settings, copied) {
  const state = { changed: [], unheld: false };
  const db = new PGlite(dataDir, { extensions: { daycareGui: extension(settings, state, copied) } });
  try {
    await db.waitReady;
  } catch (err) {
    throw Object.assign(err instanceof Error ? err : new Error(String(err)), state);
  }
  return db;
}

// PGlite loaded while the folder is copied (its start held until `copied`), with the settings asked for; if
// PostgreSQL refuses one (PGlite aborts as it starts), started again as PGlite ships, so a setting never
// costs the store its opening. A PGlite that cannot hold its start is started once the folder is whole.
async function startPGlite(PGlite, dataDir, settings, copied) {
  try {
    return await started(PGlite, dataDir, settings, copied);
  } catch (err) {
    await copied;
    if (err.unheld) {
      try {
        return await started(PGlite, dataDir, settings, null);
      } catch (again) {
        err = again;
      }
    }
    if (!(err.changed && err.changed.length)) throw err;
    process.stderr.write(`PGlite stopped starting with ${err.changed.join(", ")} (${String((err && err.message) || err).split("\n")[0]}); started again as it ships\n`);
  }
  return started(PGlite, dataDir, [], null);
}

async function main() {
  const [dataDir, socketDir] = process.argv.slice(2);
  const line = stdinLines();
  const password = await line().catch(() => { throw new Error("no password on standard input"); });
  if (password.length === 0) throw new Error("an empty password on standard input");
  const entry = (await line().catch(() => { throw new Error("no PGlite module on standard input"); })).toString();
  if (!path.isAbsolute(entry)) throw new Error("the PGlite module given is not an absolute path");
  // START once the folder is whole; the input's end before it (the copy failed, was cancelled, or the
  // application is gone) ends the sidecar before PostgreSQL looked at the folder
  const copied = line().then((text) => {
    if (text.toString() !== "START") throw new Error("no START on standard input");
  });
  copied.catch(() => process.exit(1));
  const { PGlite } = await import(pathToFileURL(entry).href);
  const net = await import("node:net");
  const db = await startPGlite(PGlite, dataDir, settingsWanted(process.env.PGLITE_SETTINGS), copied);
  const socketPath = path.join(socketDir, ".s.PGSQL.5432");
  const waiting = [];
  let busy = false;
  const next = () => {
    const socket = waiting.shift();
    if (!socket) { busy = false; return; }
    if (socket.destroyed) { next(); return; }
    busy = true;
    serve(db, socket, password, next);
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
  if (process.stdin.readableEnded) stop();
  process.on("SIGTERM", stop);
}

main().catch((err) => {
  process.stdout.write(`ERROR ${describe(err)}\n`);
  process.exit(1);
});
