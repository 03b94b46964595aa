/** One HTTP request as curl would send it, with the given request headers; the body as it came over the wire (no decoding). */
import http from 'node:http';

export interface HttpAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export function httpRequest(origin: string, pathname: string, headers: http.OutgoingHttpHeaders = {}, method = 'GET'): Promise<HttpAnswer> {
  const url = new URL(origin);
  return new Promise((resolve, reject) => {
    http
      .request({ host: url.hostname, port: url.port, path: pathname, method, headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }));
      })
      .on('error', reject)
      .end();
  });
}
