// Preloaded (`node --import`) into a tool that must work offline: every connection or DNS
// lookup is refused and reported on stderr (the tool may swallow the error; the report stays).
import dns from 'node:dns';
import net from 'node:net';
import process from 'node:process';

const refuse = (what) => () => {
  process.stderr.write(`network refused: ${what}\n`);
  throw new Error(`network refused: ${what} (this tool must run offline)`);
};
net.Socket.prototype.connect = refuse('socket connect');
dns.lookup = refuse('dns lookup');
globalThis.fetch = refuse('fetch');
