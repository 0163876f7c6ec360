// Serve one PGlite data folder over the PostgreSQL wire protocol on a unix socket, for daycare-gui.
//
// Usage: node sidecar.mjs <data folder (a private copy)> <socket folder>
// Prints one line "READY <socket path>" when it accepts connections, or "ERROR <message>" and exits 1.
// It exits when its standard input closes, so it never outlives the application that started it.
import { createRequire } from "node:module";
import path from "node:path";

// PGLITE_MODULES: a node_modules folder with @electric-sql/pglite (the user's Daycare install, or the
// cache); PGLITE_SOCKET_MODULES: one with @electric-sql/pglite-socket (the cache).
const fromPglite = createRequire(path.join(process.env.PGLITE_MODULES || process.cwd(), "noop.js"));
const fromSocket = createRequire(path.join(process.env.PGLITE_SOCKET_MODULES || process.env.PGLITE_MODULES ||
  process.cwd(), "noop.js"));
if (typeof globalThis.CustomEvent === "undefined") {
  // Node 18 lacks CustomEvent, which pglite-socket dispatches.
  globalThis.CustomEvent = class CustomEvent extends Event {
    constructor(type, init) { super(type, init); this.detail = init?.detail; }
  };
}

async function main() {
  const [dataDir, socketDir] = process.argv.slice(2);
  const { PGlite } = await import(fromPglite.resolve("@electric-sql/pglite"));
  const { PGLiteSocketServer } = await import(fromSocket.resolve("@electric-sql/pglite-socket"));
  const db = new PGlite(dataDir);
  await db.waitReady;
  const socketPath = path.join(socketDir, ".s.PGSQL.5432");
  const server = new PGLiteSocketServer({ db, path: socketPath });
  await server.start();
  process.stdout.write(`READY ${socketPath}\n`);
  const stop = async () => {
    try { await server.stop(); await db.close(); } finally { process.exit(0); }
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
