/**
 * A test's HTTP server on a free loopback port, and how to stop it: every
 * connection closed, keep-alive ones too, so that close() never waits for a
 * client the test left open.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export async function listenOnLoopback(server: Server): Promise<{ port: number; close: () => Promise<void> }> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A loopback port nothing listens on (bound, then released): a test's "nothing answers here" address. */
export async function closedLoopbackPort(): Promise<number> {
  const { port, close } = await listenOnLoopback(createServer());
  await close();
  return port;
}
