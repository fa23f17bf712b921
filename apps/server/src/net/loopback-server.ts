import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type LoopbackServer = {
  port: number;
  /** `http://127.0.0.1:PORT` */
  origin: string;
  /** Every request the server received, in order: method, path, headers, body. */
  received: { method: string; path: string; headers: IncomingMessage['headers']; body: string }[];
  close: () => Promise<void>;
};

/**
 * An HTTP server on 127.0.0.1 for tests of outbound requests (ARCHITECTURE §11: tests target
 * loopback only). It records what it received, so a test can prove a refused request never
 * arrived.
 */
export const startLoopbackServer = async (
  handle: (req: IncomingMessage, res: ServerResponse, body: string) => void,
): Promise<LoopbackServer> => {
  const received: LoopbackServer['received'] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      received.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body });
      handle(req, res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    origin: `http://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};
