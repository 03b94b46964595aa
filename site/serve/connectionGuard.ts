/**
 * How `felt serve` and `felt dev` stay up under a connection flood (issue 16):
 * short header and keep-alive timeouts, checked every second, and a cap on
 * connections per server and per client address. At a cap, the oldest
 * connection that is not being answered (it sent no complete request yet, or
 * waits idle between requests) makes room for the new one, and after those
 * the oldest whose client has stopped reading its answer; only when every
 * connection is busy with a client that reads is the new one refused. So
 * thousands of half-open connections, or downloads nobody reads, slow a
 * visitor down by one round trip instead of locking them out. A connection
 * with more than MAX_PIPELINED requests waiting is closed.
 */
import { readFileSync } from 'node:fs';
import type http from 'node:http';
import type { Socket } from 'node:net';

/** For http.createServer: Node's defaults let a silent connection hold its descriptor for a minute or more. */
export const SERVER_TIMEOUTS = {
  /** A visitor's request head comes in one packet; ten seconds is generous. */
  headersTimeout: 10_000,
  /** felt serves no request bodies: a whole request takes no longer than its head. */
  requestTimeout: 15_000,
  keepAliveTimeout: 5_000,
  /** Node checks the two timeouts above on this interval (30 s by default). */
  connectionsCheckingInterval: 1_000,
} satisfies http.ServerOptions;

export interface ConnectionCaps {
  /** Open connections in all. */
  maxConnections: number;
  /** Open connections from one client address. */
  maxPerAddress: number;
}

/** Browsers open six connections per site; a load test or a shared NAT a few hundred. */
const MAX_PER_ADDRESS = 256;
const MAX_CONNECTIONS = 2048;
/** Descriptors kept for what is not a connection: the listening socket, files being sent, logs, workers. */
const RESERVED_DESCRIPTORS = 64;
/**
 * How long an answer may wait on a client that takes none of its bytes before
 * its connection may make room for another: a download nobody reads (the
 * kernel's buffers full, the client's window shut) would otherwise hold its
 * connection busy, and unevictable, for ever (there is no send timeout).
 */
export const STALLED_AFTER_MS = 1_000;

/**
 * Requests one connection may have waiting for their answers (HTTP/1.1 pipelining, which no browser uses). Node
 * parses every request a client sends and keeps an answer object for each until its turn; an answer waiting its turn
 * writes nothing, so Node never stops reading. 250 connections of 6,000 pipelined requests that read nothing (60 MB
 * sent) took `felt serve` to its heap limit and killed it. Past this many, the connection is closed.
 */
export const MAX_PIPELINED = 32;

/**
 * The soft limit on open files of this process, where the system says it
 * (Linux's /proc); undefined elsewhere.
 */
export function descriptorLimit(): number | undefined {
  try {
    const limits = readFileSync('/proc/self/limits', 'utf8');
    const soft = /^Max open files\s+(\d+|unlimited)/m.exec(limits)?.[1];
    return soft === undefined || soft === 'unlimited' ? undefined : Number(soft);
  } catch {
    return undefined;
  }
}

/**
 * The caps for this process: each connection may hold two descriptors (its
 * socket and the file it is sending), so the connections stop well before the
 * descriptors run out: past that point Node could not even accept a visitor.
 */
export function defaultCaps(limit = descriptorLimit()): ConnectionCaps {
  const byDescriptors = limit === undefined ? MAX_CONNECTIONS : Math.max(8, Math.floor((limit - RESERVED_DESCRIPTORS) / 2));
  const maxConnections = Math.min(MAX_CONNECTIONS, byDescriptors);
  return { maxConnections, maxPerAddress: Math.min(MAX_PER_ADDRESS, maxConnections) };
}

interface Tracked {
  address: string;
  /** Requests received on it and not yet answered (pipelining may queue several). */
  busy: number;
  /** When its client last took bytes (the socket drained) or its current request came. */
  progressAt: number;
}

/** Busy with an answer its client has stopped reading: bytes wait to be sent and none went for a while. */
function stalled(socket: Socket, tracked: Tracked, now: number): boolean {
  return tracked.busy > 0 && socket.writableNeedDrain && now - tracked.progressAt >= STALLED_AFTER_MS;
}

/** Answers that stay open by design, and the call that stops counting each as busy. */
const openEnded = new WeakSet<http.ServerResponse>();
const stopCounting = new WeakMap<http.ServerResponse, () => void>();

/**
 * An answer that stays open for as long as its client likes (felt dev's event
 * stream): its connection counts as idle, so it may make room for a newcomer
 * (the browser's EventSource connects again). Counted busy, a few hundred of
 * them held every connection of an address for good.
 */
export function countAsIdle(response: http.ServerResponse): void {
  openEnded.add(response);
  stopCounting.get(response)?.();
}

/** Applies the caps to a server; connections are tracked from the 'connection' event to their 'close'. */
export function guardConnections(server: http.Server, caps: ConnectionCaps = defaultCaps()): void {
  // Maps keep insertion order: the first entries are the oldest connections.
  const all = new Map<Socket, Tracked>();
  const byAddress = new Map<string, Map<Socket, Tracked>>();

  const forget = (socket: Socket, tracked: Tracked) => {
    all.delete(socket);
    const fromAddress = byAddress.get(tracked.address);
    fromAddress?.delete(socket);
    if (fromAddress?.size === 0) byAddress.delete(tracked.address);
  };

  /**
   * Closes the oldest idle connection among these, other than the new one, or
   * else the oldest whose client stopped reading; false when all are busy with
   * clients that read.
   */
  const evictOldestIdle = (among: Map<Socket, Tracked>, newcomer: Socket): boolean => {
    const now = Date.now();
    let stalledOne: [Socket, Tracked] | undefined;
    for (const [socket, tracked] of among) {
      if (socket === newcomer) break;
      if (tracked.busy === 0) return evict(socket, tracked);
      if (!stalledOne && stalled(socket, tracked, now)) stalledOne = [socket, tracked];
    }
    return stalledOne ? evict(...stalledOne) : false;
  };

  const evict = (socket: Socket, tracked: Tracked): true => {
    // Forgotten now, not on its 'close' a tick later: a burst of connections
    // accepted in one go must each find a different one to evict.
    forget(socket, tracked);
    socket.destroy();
    return true;
  };

  server.on('connection', (socket: Socket) => {
    const tracked: Tracked = { address: socket.remoteAddress ?? '', busy: 0, progressAt: Date.now() };
    socket.on('drain', () => (tracked.progressAt = Date.now()));
    let fromAddress = byAddress.get(tracked.address);
    if (!fromAddress) byAddress.set(tracked.address, (fromAddress = new Map()));
    all.set(socket, tracked);
    fromAddress.set(socket, tracked);
    socket.once('close', () => forget(socket, tracked));
    const room =
      (fromAddress.size <= caps.maxPerAddress || evictOldestIdle(fromAddress, socket)) && (all.size <= caps.maxConnections || evictOldestIdle(all, socket));
    if (!room) {
      forget(socket, tracked);
      socket.destroy();
    }
  });

  // Before the server's own handler, which then finds the connection of a request over the pipelining cap closed and
  // does no work for it (Node goes on parsing the rest of the packet's requests all the same).
  server.prependListener('request', (request: http.IncomingMessage, response: http.ServerResponse) => {
    const tracked = all.get(request.socket);
    if (!tracked || openEnded.has(response) || request.socket.destroyed) return;
    // Timed from the first request of a busy spell: pipelined ones queued behind a stalled answer do not reset it.
    if (tracked.busy++ === 0) tracked.progressAt = Date.now();
    if (tracked.busy > MAX_PIPELINED) {
      // Its answers go with it: only the one being sent gets a 'close' (those queued behind it never do), and the
      // connection's tracking ends on its own 'close' (above), as server.ts's leases do. Node goes on through the
      // rest of the read it was parsing (64 KB: 1,700 short requests), each then answered by nothing.
      request.socket.destroy();
    }
    let counted = true;
    const done = () => {
      if (!counted) return;
      counted = false;
      tracked.busy--;
      stopCounting.delete(response);
    };
    stopCounting.set(response, done);
    // 'close' comes once per response, whether it was sent in full or the connection died.
    response.once('close', done);
  });
}
