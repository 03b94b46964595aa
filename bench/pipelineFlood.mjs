// A pipelined flood against a running `felt serve` (README, "Load"): connections from one or more loopback
// addresses, each sending many pipelined requests at once and, unless --read, reading none of the answers; meanwhile,
// every two seconds, one visitor's request from 127.0.0.1 and how long its answer took. Start the server first:
//
//   node bin/felt.js build --out /tmp/flood-site && node bin/felt.js serve --out /tmp/flood-site --port 18090 &
//   node bench/pipelineFlood.mjs --port 18090 --connections 250 --requests 6000
//   ps -o rss= -p <the server's pid>                       # its resident memory after the flood, in KB
//
// The flood's addresses are 127.0.2.2 and up (Linux answers the whole of 127.0.0.0/8 on loopback).
import net from 'node:net';
import { benchArgs } from './args.mjs';

const USAGE = `usage: node bench/pipelineFlood.mjs --port <port> [--connections 250] [--requests 6000] [--addresses 1] [--path /index.html] [--read] [--visits 6]

  --port         the port felt serve listens on (127.0.0.1)
  --connections  flood connections
  --requests     pipelined requests each connection sends at once
  --addresses    loopback addresses the connections come from (127.0.2.2 and up), in turn
  --path         what each request asks for
  --read         read the answers (by default none is read)
  --visits       visitor requests, two seconds apart`;
const { values } = benchArgs(USAGE, {
  options: {
    port: { type: 'string' },
    connections: { type: 'string', default: '250' },
    requests: { type: 'string', default: '6000' },
    addresses: { type: 'string', default: '1' },
    path: { type: 'string', default: '/index.html' },
    read: { type: 'boolean' },
    visits: { type: 'string', default: '6' },
  },
});
if (!values.port) {
  console.error(`give --port\n\n${USAGE}`);
  process.exit(2);
}
const port = Number(values.port);
const [connections, requests, addresses, visits] = [values.connections, values.requests, values.addresses, values.visits].map(Number);

const flood = [];
let opened = 0;
let closed = 0;
let received = 0;
for (let i = 0; i < connections; i++) {
  const socket = net.connect({ port, host: '127.0.0.1', localAddress: `127.0.2.${2 + (i % addresses)}` });
  socket.on('connect', () => {
    opened++;
    socket.write(`GET ${values.path} HTTP/1.1\r\nHost: flood\r\n\r\n`.repeat(requests));
    if (!values.read) socket.pause();
  });
  socket.on('data', (chunk) => (received += chunk.length));
  socket.on('error', () => {});
  socket.on('close', () => closed++);
  flood.push(socket);
}

/** One visitor's request on a connection of its own: its status line and how long it took, or the error. */
function visit() {
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = net.connect(port, '127.0.0.1');
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk));
    socket.on('error', (error) => resolve(`${error.code} after ${Date.now() - started} ms`));
    socket.on('close', () => resolve(`${answer.split('\r\n')[0]} after ${Date.now() - started} ms`));
    socket.write('GET /robots.txt HTTP/1.1\r\nHost: visitor\r\nConnection: close\r\n\r\n');
  });
}

const started = Date.now();
await new Promise((resolve) => setTimeout(resolve, 1000));
for (let i = 0; i < visits; i++) {
  const answer = await visit();
  console.log(
    `${((Date.now() - started) / 1000).toFixed(1)} s: flood connections open ${opened - closed} of ${connections}, ${(received / 1e6).toFixed(1)} MB read; visitor: ${answer}`,
  );
  await new Promise((resolve) => setTimeout(resolve, 2000));
}
for (const socket of flood) socket.destroy();
