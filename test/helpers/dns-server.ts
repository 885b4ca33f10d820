import { createSocket } from 'node:dgram';
import type { AddressInfo } from 'node:net';
import type { TestContext } from 'node:test';

/** What a name answers: IPv4 addresses, or `hang` (the query is never answered). Others: NXDOMAIN. */
export type DnsAnswers = Record<string, string[] | 'hang'>;

export interface DnsServer {
  /** `127.0.0.1:<port>`, for DNS_SERVERS. */
  address: string;
  answers: DnsAnswers;
  /** Queries received per name (A and AAAA both counted). */
  queries: Map<string, number>;
}

/**
 * A tiny authoritative DNS server on a loopback UDP port: A records from `answers`, no AAAA
 * (an empty NOERROR answer), NXDOMAIN for unknown names, silence for `hang` names.
 */
export async function startDnsServer(t: TestContext, answers: DnsAnswers): Promise<DnsServer> {
  const socket = createSocket('udp4');
  const server: DnsServer = { address: '', answers, queries: new Map() };
  socket.on('message', (query, peer) => {
    if (query.length < 17) return;
    let offset = 12;
    const labels: string[] = [];
    while (offset < query.length && query[offset] !== 0) {
      const length = query[offset]!;
      labels.push(query.subarray(offset + 1, offset + 1 + length).toString('ascii'));
      offset += length + 1;
    }
    const questionEnd = offset + 5;
    const type = query.readUInt16BE(offset + 1);
    const name = labels.join('.').toLowerCase();
    server.queries.set(name, (server.queries.get(name) ?? 0) + 1);
    const answer = server.answers[name];
    if (answer === 'hang') return;
    const records = answer && type === 1 ? answer : [];
    const header = Buffer.alloc(12);
    query.copy(header, 0, 0, 2);
    header.writeUInt16BE(answer ? 0x8580 : 0x8583, 2); // response, authoritative, RD, RA; rcode 0 or 3
    header.writeUInt16BE(1, 4);
    header.writeUInt16BE(records.length, 6);
    const rr = records.map((ip) => {
      const record = Buffer.alloc(16);
      record.writeUInt16BE(0xc00c, 0); // the name: a pointer to the question
      record.writeUInt16BE(1, 2);
      record.writeUInt16BE(1, 4);
      record.writeUInt32BE(30, 6);
      record.writeUInt16BE(4, 10);
      ip.split('.').forEach((part, i) => record.writeUInt8(Number(part), 12 + i));
      return record;
    });
    socket.send(Buffer.concat([header, query.subarray(12, questionEnd), ...rr]), peer.port, peer.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', () => resolve()));
  server.address = `127.0.0.1:${(socket.address() as AddressInfo).port}`;
  t.after(() => socket.close());
  return server;
}
